//! Pruning and reductions at a node: null-move pruning (both profiles), and the engine
//! profile's facts about a node (static evaluation, improving), its node pruning (reverse
//! futility, null move), move pruning (late moves, futility, static exchange) and late-move
//! reductions. The numbers are in [`crate::selective`].

use replab_board::{Move, Position};
use replab_detect::Detector;

use super::Searcher;
use crate::{
    ordering::has_pieces,
    score::{INFINITE, MATE_BOUND},
    selective,
    tt::Table,
};

impl<D: Detector, T: Table> Searcher<D, T> {
    /// The engine profile's facts about a node: its static evaluation (not counted as a
    /// terminal node; none in check) and whether it improved on two plies earlier.
    #[inline(always)]
    pub(super) fn engine_node(&mut self, pos: &Position, ply: usize, in_check: bool) -> EngineNode {
        let eval = if in_check {
            -INFINITE
        } else {
            self.config.eval.evaluate(pos)
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        EngineNode {
            engine: true,
            eval,
            improving,
        }
    }

    /// Node pruning of the engine profile at a non-PV node not in check below the root:
    /// reverse futility (the static evaluation beats beta by a depth margin), then null move
    /// with a reduction that grows with depth and with the evaluation's margin over beta.
    #[inline(always)]
    pub(super) fn prune_node(
        &mut self,
        pos: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
        node: EngineNode,
    ) -> Option<i32> {
        let eval = node.eval;
        if depth <= selective::REVERSE_FUTILITY_DEPTH
            && beta.abs() < MATE_BOUND
            && eval - selective::reverse_futility_margin(depth, node.improving) >= beta
        {
            return Some(eval);
        }
        if depth >= 3 && eval >= beta {
            let r = selective::null_reduction(depth, eval - beta);
            return self.null_move(pos, depth, beta, ply, r);
        }
        None
    }

    /// Null-move pruning at a non-PV node not in check below the root: when the configuration
    /// allows it here, searches the null move `reduction` plies shallower than a move and
    /// returns the score to return if it fails high (0 if the search was stopped meanwhile);
    /// `None` otherwise.
    #[inline(always)]
    pub(super) fn null_move(
        &mut self,
        pos: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
        reduction: i32,
    ) -> Option<i32> {
        if self.config.null_move
            && depth >= 2
            && !self.line.last().null
            && beta.abs() < MATE_BOUND
            && has_pieces(pos, pos.side_to_move())
        {
            let mut child = *pos;
            child.play_null();
            let d = (depth - 1 - reduction).max(0);
            let v = -self.visit(pos, Move::NULL, &child, d, -beta, -beta + 1, ply + 1);
            if self.stopped {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= MATE_BOUND { beta } else { v });
            }
        }
        None
    }

    /// Move pruning of the engine profile (a move that gives no check, at a node below the
    /// root that already has a move not losing to mate): late-move pruning and futility
    /// pruning of quiet moves, and static-exchange pruning of moves that lose material.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prune_move(
        &self,
        pos: &Position,
        m: Move,
        depth: i32,
        alpha: i32,
        quiets_tried: usize,
        node: EngineNode,
        quiet: bool,
    ) -> MovePruning {
        if quiet && !pos.is_check() {
            if depth <= selective::LATE_MOVE_DEPTH
                && quiets_tried >= selective::late_move_count(depth, node.improving)
            {
                return MovePruning::SkipQuiets;
            }
            if depth <= selective::FUTILITY_DEPTH
                && node.eval + selective::futility_margin(depth) <= alpha
            {
                return MovePruning::SkipQuiets;
            }
        }
        if depth <= selective::FUTILITY_DEPTH {
            let threshold = if quiet { -60 * depth } else { -100 * depth };
            if !selective::see_at_least(pos, m, threshold) {
                return MovePruning::Skip;
            }
        }
        MovePruning::Search
    }

    /// The late-move reduction of the engine profile for the `searched + 1`-th move: from the
    /// table, less at PV nodes, for checks and killers and moves with a good history, more
    /// when the position is not improving. Captures that win material are not reduced.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reduction(
        &self,
        pos: &Position,
        m: Move,
        depth: i32,
        searched: usize,
        pv_node: bool,
        node: EngineNode,
        quiet: bool,
        gives_check: bool,
        ply: usize,
    ) -> i32 {
        if !quiet && selective::see_at_least(pos, m, 0) {
            return 0;
        }
        let mut r = self.reductions.get(depth, searched + 1);
        r -= i32::from(pv_node) + i32::from(gives_check);
        r += i32::from(!node.improving);
        if quiet {
            if self.killers[ply].contains(&m) {
                r -= 1;
            }
            let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
            r -= self.history[piece][m.to().index()] / 5_000;
        }
        r
    }
}

/// What the engine profile knows about a node before searching its moves
/// ([`Searcher::engine_node`]); the paper profile's is [`EngineNode::PAPER`].
#[derive(Clone, Copy)]
pub(super) struct EngineNode {
    /// Whether the engine profile is on.
    pub(super) engine: bool,
    /// The static evaluation (−[`INFINITE`] in check).
    eval: i32,
    /// Whether the static evaluation is better than two plies earlier.
    improving: bool,
}

impl EngineNode {
    /// The paper profile: no selectivity.
    pub(super) const PAPER: EngineNode = EngineNode {
        engine: false,
        eval: 0,
        improving: false,
    };
}

/// What [`Searcher::prune_move`] decides for a move.
pub(super) enum MovePruning {
    /// Search the move.
    Search,
    /// Skip this move.
    Skip,
    /// Skip this move and every later quiet move.
    SkipQuiets,
}
