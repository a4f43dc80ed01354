//! Quiescence search: stand pat on the static evaluation, then captures and queen promotions
//! (every evasion in check), so that the main search's leaves are quiet.

use std::ops::ControlFlow;

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
    /// [`SearchConfig::qsearch_checks`](crate::SearchConfig::qsearch_checks)). `depth` is 0 at
    /// the first quiescence ply, then −1, −2 …
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let in_check = pos.is_check();
        if let Some(score) = self.quiescence_early_result(pos, &mut alpha, beta, ply, in_check) {
            return score;
        }
        self.seldepth = self.seldepth.max(ply);
        let best = match self.stand_pat(pos, in_check, &mut alpha, beta) {
            ControlFlow::Continue(best) => best,
            ControlFlow::Break(score) => return score,
        };
        let mut list = MoveList::new();
        self.quiescence_moves(pos, &mut list, depth, in_check);
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { best };
        }
        let node = QuiescenceNode {
            depth,
            beta,
            ply,
            in_check,
        };
        self.quiescence_loop(pos, &mut list, node, alpha, best)
    }

    /// What ends a quiescence node before it stands pat: the draw rules, an upcoming cycle
    /// (which may raise alpha to the draw score) and the ply limit. Returns the node's score
    /// when one of them ends it.
    #[inline(always)]
    fn quiescence_early_result(
        &mut self,
        pos: &Position,
        alpha: &mut i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> Option<i32> {
        let draw = self.draw_score(pos.side_to_move());
        if let Some(score) = self.rule_draw(pos, in_check, draw) {
            return Some(score);
        }
        if let Some(score) = self.upcoming_cycle(pos, alpha, beta, draw) {
            return Some(score);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(pos));
        }
        None
    }

    /// Standing pat (not in check): the static evaluation is a lower bound of the node's
    /// score, which ends the node at beta and else raises alpha. Returns the best score so far
    /// (−[`INFINITE`] in check), or the node's score when it ends.
    #[inline(always)]
    fn stand_pat(
        &mut self,
        pos: &Position,
        in_check: bool,
        alpha: &mut i32,
        beta: i32,
    ) -> ControlFlow<i32, i32> {
        if in_check {
            return ControlFlow::Continue(-INFINITE);
        }
        let stand = self.evaluate(pos);
        if stand >= beta {
            return ControlFlow::Break(stand);
        }
        *alpha = (*alpha).max(stand);
        ControlFlow::Continue(stand)
    }

    /// The moves of a quiescence node into `list`, counted as generated: every legal move in
    /// check, else captures and queen promotions (and quiet checks at the first quiescence ply
    /// with [`SearchConfig::qsearch_checks`](crate::SearchConfig::qsearch_checks)).
    #[inline(always)]
    fn quiescence_moves(
        &mut self,
        pos: &Position,
        list: &mut MoveList,
        depth: i32,
        in_check: bool,
    ) {
        if in_check {
            pos.legal_moves_into(list);
        } else {
            tactical_moves(pos, list);
            if self.config.qsearch_checks && depth == 0 {
                quiet_checks(pos, list);
            }
        }
        self.counters.generated += list.len() as u64;
    }

    /// The move loop of a quiescence node, from `alpha` and the stand-pat score `best`: the
    /// moves by MVV-LVA (the engine profile skips captures that lose material, unless in
    /// check) until one fails high. Returns the node's score (0 when the search was stopped).
    #[inline(always)]
    fn quiescence_loop(
        &mut self,
        pos: &Position,
        list: &mut MoveList,
        node: QuiescenceNode,
        mut alpha: i32,
        mut best: i32,
    ) -> i32 {
        let QuiescenceNode {
            depth,
            beta,
            ply,
            in_check,
        } = node;
        let mut keys = [0i32; MAX_MOVES];
        let killers = self.killers[ply];
        order_keys(pos, list, &mut keys, Move::NULL, killers, &self.history);
        let moves = list.as_mut_slice();
        let engine = self.engine();
        for i in 0..moves.len() {
            pick_next(moves, &mut keys, i);
            let m = moves[i];
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

/// A quiescence node as its move loop sees it.
#[derive(Clone, Copy)]
struct QuiescenceNode {
    /// 0 at the first quiescence ply, then −1, −2 …
    depth: i32,
    /// Beta.
    beta: i32,
    /// The distance from the root.
    ply: usize,
    /// Whether the side to move is in check.
    in_check: bool,
}
