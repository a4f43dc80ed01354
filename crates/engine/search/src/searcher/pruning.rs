//! Pruning and reductions at a node: pruning before the moves (null move in both profiles;
//! the engine profile's reverse futility and its own null-move reduction, from its facts about
//! the node: static evaluation, improving), internal iterative reduction, and in the move loop
//! the engine profile's move pruning (late moves, futility, static exchange) and late-move
//! reductions. The numbers are in [`crate::selective`].

use std::ops::ControlFlow;

use replab_board::{Move, Position};
use replab_detect::Detector;

use super::{
    Searcher,
    node::{Frame, MoveFacts, MoveLoop},
};
use crate::{
    ordering::has_pieces,
    score::{INFINITE, MATE_BOUND},
    selective,
    tt::Table,
};

impl<D: Detector, T: Table> Searcher<D, T> {
    /// Pruning before the moves, at a non-PV node not in check below the root: the engine
    /// profile's node pruning ([`Searcher::prune_node`]), the paper profile's null move with
    /// the configured reduction. Returns the node's engine facts ([`EngineNode::PAPER`] in the
    /// paper profile; in the engine profile evaluated at every node), or the score when the
    /// node is pruned.
    #[inline(always)]
    pub(super) fn prune_before_moves(
        &mut self,
        pos: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        in_check: bool,
    ) -> ControlFlow<i32, EngineNode> {
        let prunable = !pv_node && !in_check && ply > 0;
        if self.engine() {
            let node = self.engine_node(pos, ply, in_check);
            if prunable && let Some(score) = self.prune_node(pos, depth, beta, ply, node) {
                return ControlFlow::Break(score);
            }
            return ControlFlow::Continue(node);
        }
        let reduction = self.config.null_reduction as i32;
        if prunable && let Some(score) = self.null_move(pos, depth, beta, ply, reduction) {
            return ControlFlow::Break(score);
        }
        ControlFlow::Continue(EngineNode::PAPER)
    }

    /// The engine profile's facts about a node: its static evaluation (not counted as a
    /// terminal node; none in check) and whether it improved on two plies earlier.
    #[inline(always)]
    fn engine_node(&mut self, pos: &Position, ply: usize, in_check: bool) -> EngineNode {
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
    fn prune_node(
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
    fn null_move(
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

    /// Whether the move loop skips `mv` (engine profile; the paper profile never skips): once
    /// late-move or futility pruning has started skipping quiet moves, a quiet move unless it
    /// gives check without losing material by static exchange (decided only once the move is
    /// played); else what [`Searcher::prune_move`] decides for a move that gives no check, at
    /// a node below the root that already has a move not losing to mate.
    #[inline(always)]
    pub(super) fn skip_move(
        &self,
        pos: &Position,
        mv: MoveFacts,
        frame: Frame,
        state: &mut MoveLoop,
    ) -> bool {
        if mv.quiet
            && state.skip_quiets
            && (!mv.gives_check || !selective::see_at_least(pos, mv.mv, 0))
        {
            return true;
        }
        if !(frame.node.engine
            && frame.ply > 0
            && state.best_score() > -MATE_BOUND
            && !mv.gives_check)
        {
            return false;
        }
        match self.prune_move(pos, mv, frame, state.alpha, state.quiets.count) {
            MovePruning::Search => false,
            MovePruning::Skip => true,
            MovePruning::SkipQuiets => {
                state.skip_quiets = true;
                true
            }
        }
    }

    /// Move pruning of the engine profile (a move that gives no check, at a node below the
    /// root that already has a move not losing to mate): late-move pruning and futility
    /// pruning of quiet moves, and static-exchange pruning of moves that lose material.
    #[inline(always)]
    fn prune_move(
        &self,
        pos: &Position,
        mv: MoveFacts,
        frame: Frame,
        alpha: i32,
        quiets_tried: usize,
    ) -> MovePruning {
        let (m, depth, node, quiet) = (mv.mv, frame.depth, frame.node, mv.quiet);
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

    /// The late-move reduction of the `searched + 1`-th move, searched to depth `d` unreduced:
    /// in the engine profile from depth 3, after the first move (the first two at a PV node),
    /// [`Searcher::reduction`] kept within `0..d`; 0 otherwise.
    #[inline(always)]
    pub(super) fn late_move_reduction(
        &self,
        pos: &Position,
        mv: MoveFacts,
        frame: Frame,
        searched: usize,
        d: i32,
    ) -> i32 {
        if frame.node.engine && frame.depth >= 3 && searched > usize::from(frame.pv_node) {
            self.reduction(pos, mv, frame, searched)
                .clamp(0, (d - 1).max(0))
        } else {
            0
        }
    }

    /// The late-move reduction of the engine profile for the `searched + 1`-th move: from the
    /// table, less at PV nodes, for checks and killers and moves with a good history, more
    /// when the position is not improving. Captures that win material are not reduced.
    #[inline(always)]
    fn reduction(&self, pos: &Position, mv: MoveFacts, frame: Frame, searched: usize) -> i32 {
        let (m, depth, node, quiet) = (mv.mv, frame.depth, frame.node, mv.quiet);
        let (pv_node, gives_check, ply) = (frame.pv_node, mv.gives_check, frame.ply);
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

    /// The depth a node's moves are searched to: internal iterative reduction (engine
    /// profile) searches a node the table knows nothing about (no `tt_move`) from depth 4 one
    /// ply shallower.
    #[inline(always)]
    pub(super) fn reduced_depth(self, depth: i32, tt_move: Move) -> i32 {
        if self.engine && depth >= 4 && tt_move.is_null() {
            depth - 1
        } else {
            depth
        }
    }
}

/// What [`Searcher::prune_move`] decides for a move.
enum MovePruning {
    /// Search the move.
    Search,
    /// Skip this move.
    Skip,
    /// Skip this move and every later quiet move.
    SkipQuiets,
}
