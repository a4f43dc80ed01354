//! The main search at a node, in the order it runs: the draws and bounds of a node below the
//! root, the transposition table, pruning before the moves (in `pruning`), the moves and the
//! move loop (principal variation search with check extensions, late-move reductions and move
//! pruning), then the store of its result.

use std::ops::ControlFlow;

use replab_board::{MAX_MOVES, Move, MoveList, Position};
use replab_detect::Detector;

use super::{Searcher, move_order::QuietsTried, pruning::EngineNode, table::DrawMarks};
use crate::{
    ordering::pick_next,
    score::{INFINITE, MATE, MAX_PLY},
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
        let draw = self.draw_score(pos.side_to_move());
        let in_check = pos.is_check();
        let before = self.draw_marks();
        if ply > 0
            && let Some(score) = self.early_result(pos, &mut alpha, &mut beta, ply, in_check, draw)
        {
            return score;
        }
        let key = self.tt_key(pos);
        let (tt_move, cutoff) = self.probe_table(pos, key, depth, alpha, beta, ply, pv_node);
        if let Some(score) = cutoff {
            return score;
        }
        let node = match self.prune_before_moves(pos, depth, beta, ply, pv_node, in_check) {
            ControlFlow::Continue(node) => node,
            ControlFlow::Break(score) => return score,
        };
        let frame = Frame {
            depth: node.reduced_depth(depth, tt_move),
            alpha,
            beta,
            ply,
            pv_node,
            node,
        };
        let mut list = MoveList::new();
        if let Some(score) = self.generate_moves(pos, &mut list, ply, in_check, draw) {
            return score;
        }
        let store = self.limit_root_moves(ply, &mut list);
        let Some(best) = self.search_moves(pos, &mut list, tt_move, frame) else {
            return 0;
        };
        if self.tt.is_some() && store {
            self.store_node(key, frame, best, draw, before);
        }
        best.score
    }

    /// What ends a node below the root before the table: the draw rules, mate-distance
    /// pruning (no score beats a mate already found nearer the root; it narrows the window),
    /// an upcoming cycle (which may raise alpha to the draw score) and the ply limit. Returns
    /// the node's score when one of them ends it.
    #[inline(always)]
    fn early_result(
        &mut self,
        pos: &Position,
        alpha: &mut i32,
        beta: &mut i32,
        ply: usize,
        in_check: bool,
        draw: i32,
    ) -> Option<i32> {
        if let Some(score) = self.rule_draw(pos, in_check, draw) {
            return Some(score);
        }
        *alpha = (*alpha).max(-MATE + ply as i32);
        *beta = (*beta).min(MATE - ply as i32 - 1);
        if *alpha >= *beta {
            return Some(*alpha);
        }
        if let Some(score) = self.upcoming_cycle(pos, alpha, *beta, draw) {
            return Some(score);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(pos));
        }
        None
    }

    /// The legal moves of a node into `list`, counted as generated; returns the node's score
    /// when it has none (mated, or stalemate: the draw score).
    #[inline(always)]
    fn generate_moves(
        &mut self,
        pos: &Position,
        list: &mut MoveList,
        ply: usize,
        in_check: bool,
        draw: i32,
    ) -> Option<i32> {
        pos.legal_moves_into(list);
        self.counters.generated += list.len() as u64;
        if !list.is_empty() {
            return None;
        }
        Some(if in_check { -MATE + ply as i32 } else { draw })
    }

    /// The move loop: the moves in order (ordering keys from `tt_move`, the killers and the
    /// history), each skipped by move pruning or searched, until one fails high. Returns the
    /// best score and move, or `None` when the search was stopped meanwhile.
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &Position,
        list: &mut MoveList,
        tt_move: Move,
        frame: Frame,
    ) -> Option<Best> {
        let mut keys = [0i32; MAX_MOVES];
        self.order(pos, list, &mut keys, tt_move, frame.ply, frame.node.engine);
        let mut state = MoveLoop::new(frame.alpha);
        let moves = list.as_mut_slice();
        for i in 0..moves.len() {
            pick_next(moves, &mut keys, i);
            let m = moves[i];
            if frame.ply == 0 && self.observer.is_some() {
                self.observe(Some((m, i as u32 + 1)));
            }
            let child = pos.play(m);
            let mv = MoveFacts {
                mv: m,
                quiet: !m.is_capture() && m.promotion().is_none(),
                gives_check: child.is_check(),
            };
            if self.skip_move(pos, mv, frame, &mut state) {
                continue;
            }
            let v = self.search_move(pos, &child, mv, frame, &state);
            if self.stopped {
                return None;
            }
            if self.record(pos, mv, v, frame, &mut state) {
                break;
            }
        }
        Some(state.best)
    }

    /// Searches one move (principal variation search): the first with the full window, a
    /// later one with a null window, at first reduced by the late-move reduction, again at
    /// full depth and then with the full window while it beats alpha. A move that gives check
    /// is extended by a ply while the node is within the extension limit. Returns the score
    /// from this node's side.
    #[inline(always)]
    fn search_move(
        &mut self,
        pos: &Position,
        child: &Position,
        mv: MoveFacts,
        frame: Frame,
        state: &MoveLoop,
    ) -> i32 {
        let (m, ply, alpha, beta) = (mv.mv, frame.ply, state.alpha, frame.beta);
        let extend = self.config.check_extension && mv.gives_check && ply < self.extension_limit;
        let d = frame.depth - 1 + i32::from(extend);
        let searched = state.quiets.searched;
        if searched == 0 {
            return -self.visit(pos, m, child, d, -beta, -alpha, ply + 1);
        }
        let r = self.late_move_reduction(pos, mv, frame, searched, d);
        let mut v = -self.visit(pos, m, child, d - r, -alpha - 1, -alpha, ply + 1);
        if r > 0 && v > alpha && !self.stopped {
            v = -self.visit(pos, m, child, d, -alpha - 1, -alpha, ply + 1);
        }
        if v > alpha && v < beta && !self.stopped {
            v = -self.visit(pos, m, child, d, -beta, -alpha, ply + 1);
        }
        v
    }

    /// Takes a searched move's score `v` into the loop: a new best; above alpha, a new alpha
    /// with the move heading the principal variation; at beta, a cut-off (returns `true`; a
    /// quiet move is rewarded). A quiet move that does not cut off joins the quiets tried.
    #[inline(always)]
    fn record(
        &mut self,
        pos: &Position,
        mv: MoveFacts,
        v: i32,
        frame: Frame,
        state: &mut MoveLoop,
    ) -> bool {
        state.quiets.searched += 1;
        if v > state.best.score {
            state.best.score = v;
            if v > state.alpha {
                state.alpha = v;
                state.best.mv = mv.mv;
                self.update_pv(frame.ply, mv.mv);
                if v >= frame.beta {
                    if mv.quiet {
                        let (depth, ply, engine) = (frame.depth, frame.ply, frame.node.engine);
                        self.reward(pos, mv.mv, depth, ply, &state.quiets, engine);
                    }
                    return true;
                }
            }
        }
        if mv.quiet {
            state.quiets.push(mv.mv);
        }
        false
    }

    /// Stores the node's result in the table, its bound from the window the moves were
    /// searched with ([`Searcher::store_result`]).
    #[inline(always)]
    fn store_node(&mut self, key: u64, frame: Frame, best: Best, draw: i32, before: DrawMarks) {
        let bound = if best.score >= frame.beta {
            Bound::Lower
        } else if best.score > frame.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let (depth, ply) = (frame.depth, frame.ply);
        self.store_result(key, depth, ply, best.score, bound, best.mv, draw, before);
    }
}

/// A node as its move loop and its store see it, once its window is settled.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    /// The depth its moves are searched to (after internal iterative reduction).
    pub(super) depth: i32,
    /// Alpha before the first move (after mate-distance pruning and upcoming cycles).
    pub(super) alpha: i32,
    /// Beta (after mate-distance pruning).
    pub(super) beta: i32,
    /// The distance from the root.
    pub(super) ply: usize,
    /// Whether the window is open (a principal-variation node).
    pub(super) pv_node: bool,
    /// The engine profile's facts about the node ([`EngineNode::PAPER`] in the paper profile).
    pub(super) node: EngineNode,
}

/// A move of the loop, played.
#[derive(Clone, Copy)]
pub(super) struct MoveFacts {
    /// The move.
    pub(super) mv: Move,
    /// Neither a capture nor a promotion.
    pub(super) quiet: bool,
    /// Whether the child is in check.
    pub(super) gives_check: bool,
}

/// The best score of a node's moves so far, and its move (`Move::NULL` while none beat
/// alpha).
#[derive(Clone, Copy)]
struct Best {
    score: i32,
    mv: Move,
}

/// The state of a node's move loop.
pub(super) struct MoveLoop {
    /// Alpha, raised by each move that beats it.
    pub(super) alpha: i32,
    /// The best so far.
    best: Best,
    /// The moves searched so far, and the quiet ones among them.
    pub(super) quiets: QuietsTried,
    /// Whether move pruning has started skipping the later quiet moves.
    pub(super) skip_quiets: bool,
}

impl MoveLoop {
    /// The loop before its first move, at `alpha`.
    #[inline(always)]
    fn new(alpha: i32) -> Self {
        MoveLoop {
            alpha,
            best: Best {
                score: -INFINITE,
                mv: Move::NULL,
            },
            quiets: QuietsTried::default(),
            skip_quiets: false,
        }
    }

    /// The best score so far.
    #[inline(always)]
    pub(super) fn best_score(&self) -> i32 {
        self.best.score
    }
}
