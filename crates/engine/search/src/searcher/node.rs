//! The main search at a node: its draws and bounds, the transposition table, pruning before
//! the moves, the move loop (principal variation search with extensions, reductions and move
//! pruning) and the store of its result.

use replab_board::{MAX_MOVES, Move, MoveList, Position};
use replab_detect::Detector;

use super::{
    Searcher,
    move_order::QuietsTried,
    pruning::{EngineNode, MovePruning},
};
use crate::{
    ordering::pick_next,
    score::{INFINITE, MATE, MATE_BOUND, MAX_PLY},
    selective,
    tt::{Bound, Table},
};

impl<D: Detector, T: Table> Searcher<D, T> {
    /// The main search at a node already entered (`ply` 0 is the root).
    pub(super) fn search_node(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let pv_node = beta - alpha > 1;
        let us = pos.side_to_move();
        let draw = self.draw_score(us);
        let in_check = pos.is_check();
        let before = self.draw_marks();

        if ply > 0 {
            // The fifty-move rule (mate on the hundredth half-move wins).
            if pos.halfmove_clock() >= 100 && (!in_check || pos.has_legal_move()) {
                self.path_draws += 1;
                self.fifty_taint += 1;
                return draw;
            }
            // A dead position (neither side has mating material) is a draw whatever follows;
            // it depends on the position alone, so it taints nothing.
            if pos.is_insufficient_material() {
                return draw;
            }
            // Mate-distance pruning: no score beats a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if let Some(score) = self.upcoming_cycle(pos, &mut alpha, beta, draw) {
                return score;
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate(pos);
            }
        }

        let key = self.tt_key(pos);
        let (tt_move, cutoff) = self.probe_table(pos, key, depth, alpha, beta, ply, pv_node);
        if let Some(score) = cutoff {
            return score;
        }

        let node = if self.engine() {
            let node = self.engine_node(pos, ply, in_check);
            if !pv_node
                && !in_check
                && ply > 0
                && let Some(score) = self.prune_node(pos, depth, beta, ply, node)
            {
                return score;
            }
            node
        } else {
            if !pv_node
                && !in_check
                && ply > 0
                && let Some(score) =
                    self.null_move(pos, depth, beta, ply, self.config.null_reduction as i32)
            {
                return score;
            }
            EngineNode::PAPER
        };
        // Internal iterative reduction: a node the table knows nothing about is searched one
        // ply shallower (engine profile).
        let depth = if node.engine && depth >= 4 && tt_move.is_null() {
            depth - 1
        } else {
            depth
        };

        let mut list = MoveList::new();
        pos.legal_moves_into(&mut list);
        self.counters.generated += list.len() as u64;
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { draw };
        }
        // A root with moves taken out has a result that holds for its moves only: not stored.
        let mut store = true;
        if ply == 0 && (!self.root_moves.is_empty() || !self.excluded_root_moves.is_empty()) {
            store = !self.restrict_root(&mut list);
        }
        let mut keys = [0i32; MAX_MOVES];
        self.order(pos, &list, &mut keys, tt_move, ply, node.engine);

        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut quiets = QuietsTried::default();
        let mut skip_quiets = false;
        let moves = list.as_mut_slice();
        for i in 0..moves.len() {
            pick_next(moves, &mut keys, i);
            let m = moves[i];
            let quiet = !m.is_capture() && m.promotion().is_none();
            if ply == 0 && self.observer.is_some() {
                self.observe(Some((m, i as u32 + 1)));
            }
            let child = pos.play(m);
            let gives_check = child.is_check();
            // Late-move and futility pruning skip the later quiet moves, but not one that gives
            // check without losing material by static exchange: that is decided only once the
            // move is played (engine profile; the paper profile never skips).
            if quiet && skip_quiets && (!gives_check || !selective::see_at_least(pos, m, 0)) {
                continue;
            }
            if node.engine && ply > 0 && best > -MATE_BOUND && !gives_check {
                match self.prune_move(pos, m, depth, alpha, quiets.count, node, quiet) {
                    MovePruning::Search => {}
                    MovePruning::Skip => continue,
                    MovePruning::SkipQuiets => {
                        skip_quiets = true;
                        continue;
                    }
                }
            }
            let extend = self.config.check_extension && gives_check && ply < self.extension_limit;
            let d = depth - 1 + i32::from(extend);
            let searched = quiets.searched;
            let mut v;
            if searched == 0 {
                v = -self.visit(pos, m, &child, d, -beta, -alpha, ply + 1);
            } else {
                let r = if node.engine && depth >= 3 && searched > usize::from(pv_node) {
                    self.reduction(
                        pos,
                        m,
                        depth,
                        searched,
                        pv_node,
                        node,
                        quiet,
                        gives_check,
                        ply,
                    )
                    .clamp(0, (d - 1).max(0))
                } else {
                    0
                };
                v = -self.visit(pos, m, &child, d - r, -alpha - 1, -alpha, ply + 1);
                if r > 0 && v > alpha && !self.stopped {
                    v = -self.visit(pos, m, &child, d, -alpha - 1, -alpha, ply + 1);
                }
                if v > alpha && v < beta && !self.stopped {
                    v = -self.visit(pos, m, &child, d, -beta, -alpha, ply + 1);
                }
            }
            if self.stopped {
                return 0;
            }
            quiets.searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = m;
                    self.update_pv(ply, m);
                    if v >= beta {
                        if quiet {
                            self.reward(pos, m, depth, ply, &quiets, node.engine);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(m);
            }
        }

        if self.tt.is_some() && store {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store_result(key, depth, ply, best, bound, best_move, draw, before);
        }
        best
    }
}
