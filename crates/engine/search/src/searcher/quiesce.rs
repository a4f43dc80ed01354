//! Quiescence search: stand pat on the static evaluation, then captures and queen promotions
//! (every evasion in check), so that the main search's leaves are quiet.

use replab_board::{MAX_MOVES, Move, MoveList, Position};
use replab_detect::Detector;

use super::Searcher;
use crate::{
    ordering::{order_keys, pick_next, quiet_checks, tactical_moves},
    score::{INFINITE, MATE, MAX_PLY},
    selective,
    tt::Table,
};

impl<D: Detector, T: Table> Searcher<D, T> {
    /// Quiescence search at a node already entered: stand pat, then captures and queen
    /// promotions (every evasion when in check; quiet checks too at the first ply with
    /// [`SearchConfig::qsearch_checks`]). `depth` is 0 at the first quiescence ply, then −1, −2 …
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let us = pos.side_to_move();
        let draw = self.draw_score(us);
        let in_check = pos.is_check();
        if let Some(score) = self.rule_draw(pos, in_check, draw) {
            return score;
        }
        if let Some(score) = self.upcoming_cycle(pos, &mut alpha, beta, draw) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        self.seldepth = self.seldepth.max(ply);

        let mut best = -INFINITE;
        if !in_check {
            let stand = self.evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }

        let mut list = MoveList::new();
        if in_check {
            pos.legal_moves_into(&mut list);
        } else {
            tactical_moves(pos, &mut list);
            if self.config.qsearch_checks && depth == 0 {
                quiet_checks(pos, &mut list);
            }
        }
        self.counters.generated += list.len() as u64;
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { best };
        }
        let mut keys = [0i32; MAX_MOVES];
        order_keys(
            pos,
            &list,
            &mut keys,
            Move::NULL,
            self.killers[ply],
            &self.history,
        );
        let moves = list.as_mut_slice();
        let engine = self.engine();
        for i in 0..moves.len() {
            pick_next(moves, &mut keys, i);
            let m = moves[i];
            // Engine profile: captures that lose material are not searched (unless in check).
            if engine && !in_check && !selective::see_at_least(pos, m, 0) {
                continue;
            }
            let child = pos.play(m);
            let v = -self.visit(pos, m, &child, depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
