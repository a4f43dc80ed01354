//! The searcher's side of move ordering: the ordering keys of a node from its killers,
//! history and counter moves, and the reward of a quiet move that causes a cut-off.

use replab_board::{MAX_MOVES, Move, MoveList, Position};
use replab_detect::Detector;

use super::Searcher;
use crate::{
    ordering::{order_keys, order_keys_engine, reward_quiet},
    selective,
    tt::Table,
};

impl<D: Detector, T: Table> Searcher<D, T> {
    /// Ordering keys for the moves of a node: the paper profile's or the engine profile's
    /// (with the counter move of the move that led here).
    #[inline(always)]
    pub(super) fn order(
        &self,
        pos: &Position,
        list: &MoveList,
        keys: &mut [i32; MAX_MOVES],
        tt_move: Move,
        ply: usize,
        engine: bool,
    ) {
        if engine {
            let counter = self.counter_move(pos);
            order_keys_engine(
                pos,
                list,
                keys,
                tt_move,
                self.killers[ply],
                counter,
                &self.history,
            );
        } else {
            order_keys(pos, list, keys, tt_move, self.killers[ply], &self.history);
        }
    }

    /// The counter move stored for the move that led to `pos` (none after a null move or at
    /// the start of the line).
    #[inline(always)]
    fn counter_move(&self, pos: &Position) -> Move {
        let last = self.line.last();
        if last.null || last.mv.is_null() {
            return Move::NULL;
        }
        pos.piece_at(last.mv.to()).map_or(Move::NULL, |p| {
            self.counter_moves[p.index()][last.mv.to().index()]
        })
    }

    /// A quiet move caused a cut-off: the paper profile makes it a killer and raises its
    /// history; the engine profile also lowers the history of the quiet moves tried before it
    /// (with gravity) and makes it the counter move of the move that led here.
    #[inline(always)]
    pub(super) fn reward(
        &mut self,
        pos: &Position,
        m: Move,
        depth: i32,
        ply: usize,
        quiets: &QuietsTried,
        engine: bool,
    ) {
        if !engine {
            reward_quiet(&mut self.killers[ply], &mut self.history, pos, m, depth);
            return;
        }
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let bonus = selective::history_bonus(depth);
        for (tried, sign) in quiets
            .moves()
            .iter()
            .map(|&q| (q, -1))
            .chain(std::iter::once((m, 1)))
        {
            if let Some(p) = pos.piece_at(tried.from()) {
                selective::apply_history(
                    &mut self.history[p.index()][tried.to().index()],
                    sign * bonus,
                );
            }
        }
        let last = self.line.last();
        if !last.null
            && !last.mv.is_null()
            && let Some(p) = pos.piece_at(last.mv.to())
        {
            self.counter_moves[p.index()][last.mv.to().index()] = m;
        }
    }
}

/// The moves searched so far at a node, and the first quiet ones among them (for the history
/// malus): a fixed array, so nothing is allocated.
pub(super) struct QuietsTried {
    /// Moves searched (quiet or not).
    pub(super) searched: usize,
    /// Quiet moves recorded in `moves`.
    pub(super) count: usize,
    moves: [Move; 64],
}

impl Default for QuietsTried {
    fn default() -> Self {
        QuietsTried {
            searched: 0,
            count: 0,
            moves: [Move::NULL; 64],
        }
    }
}

impl QuietsTried {
    /// Records a searched quiet move (beyond 64 it is counted but not kept).
    #[inline(always)]
    pub(super) fn push(&mut self, m: Move) {
        if self.count < self.moves.len() {
            self.moves[self.count] = m;
        }
        self.count += 1;
    }

    /// The recorded quiet moves.
    #[inline(always)]
    fn moves(&self) -> &[Move] {
        &self.moves[..self.count.min(self.moves.len())]
    }
}
