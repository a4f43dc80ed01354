//! The searcher's side of the transposition table: the key a position is stored under, the
//! probe at a node (the stored move, a cut-off when the entry allows one), and the store of a
//! node's result under the [`TtMode`], with the draw and taint counters that decide it.

use replab_board::{Move, Position};
use replab_detect::Detector;

use super::Searcher;
use crate::{
    config::{Profile, TtMode},
    tt::{Bound, GENERATION_SHIFT, TAINT_FIFTY, TAINT_REPETITION, Table},
};

impl<D: Detector, T: Table> Searcher<D, T> {
    /// The key the table is indexed and checked with: the position key, with the halfmove
    /// clock's bucket mixed in under [`crate::SearchConfig::tt_halfmove_bucket`].
    #[inline(always)]
    pub(super) fn tt_key(&self, pos: &Position) -> u64 {
        match self.config.tt_halfmove_bucket {
            None => pos.key(),
            Some(width) => pos.key() ^ halfmove_bucket_key(pos.halfmove_clock() / width.max(1)),
        }
    }

    /// Bookkeeping of a table cut-off from an entry with taint bits `taint`: counted, and the
    /// taint carried on to the nodes above (the reused score is as path dependent as the one
    /// stored).
    #[inline(always)]
    fn cutoff_taken(&mut self, taint: u8) {
        self.cutoffs += 1;
        if taint & TAINT_REPETITION != 0 {
            self.rep_taint += 1;
            self.rep_tainted_cutoffs += 1;
        }
        if taint & TAINT_FIFTY != 0 {
            self.fifty_taint += 1;
            self.fifty_tainted_cutoffs += 1;
        }
    }

    /// The draw and taint counters now, to tell later whether a subtree scored a
    /// path-dependent draw ([`TtMode`]).
    #[inline(always)]
    pub(super) fn draw_marks(&self) -> DrawMarks {
        DrawMarks {
            path_draws: self.path_draws,
            rep_taint: self.rep_taint,
            fifty_taint: self.fifty_taint,
        }
    }

    /// The transposition table at a node: the stored move (`Move::NULL` without one) and, when
    /// the entry's draft and bound allow a cut-off at this node (never at a PV node), the score
    /// to return, the cut-off then counted ([`Searcher::cutoff_taken`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probe_table(
        &mut self,
        pos: &Position,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> (Move, Option<i32>) {
        let mut tt_move = Move::NULL;
        if let Some(tt) = &self.tt
            && let Some(entry) = tt.probe(key)
        {
            tt_move = entry.mv();
            // Withheld scores are stored with a draft below any depth: they never cut off.
            if !pv_node
                && entry.depth() >= depth
                && self
                    .config
                    .tt_cutoff_halfmove
                    .is_none_or(|n| pos.halfmove_clock() < n)
            {
                let s = entry.score(ply);
                let cut = match entry.bound() {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    self.cutoff_taken(entry.taint());
                    return (tt_move, Some(s));
                }
            }
        }
        (tt_move, None)
    }

    /// Stores a node's result in the table: with its score and taint bits when the
    /// [`TtMode`] keeps it (judged from the counters moved since `before`, the node's entry),
    /// else its move only (counted as withheld).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_result(
        &mut self,
        key: u64,
        depth: i32,
        ply: usize,
        best: i32,
        bound: Bound,
        best_move: Move,
        draw: i32,
        before: DrawMarks,
    ) {
        let Some(tt) = &mut self.tt else {
            return;
        };
        let keep_score = match self.config.tt_mode {
            TtMode::On | TtMode::Off => true,
            TtMode::NoPathScores => self.path_draws == before.path_draws,
            TtMode::NoDrawScores => best != draw,
            TtMode::MovesOnly => false,
            TtMode::NoRepetitionScores => self.rep_taint == before.rep_taint,
            TtMode::NoFiftyScores => self.fifty_taint == before.fifty_taint,
        };
        if keep_score {
            let taint = if self.rep_taint != before.rep_taint {
                TAINT_REPETITION
            } else {
                0
            } | if self.fifty_taint != before.fifty_taint {
                TAINT_FIFTY
            } else {
                0
            };
            if self.config.profile == Profile::Engine {
                let generation = self.generation;
                if tt
                    .slot_entry(key)
                    .is_some_and(|old| old.outranks(key, depth, generation))
                {
                    return;
                }
                let aged = taint | generation << GENERATION_SHIFT;
                tt.store(key, depth, best, bound, best_move, ply, aged);
            } else {
                tt.store(key, depth, best, bound, best_move, ply, taint);
            }
        } else {
            tt.store_move(key, best_move);
            self.withheld += 1;
        }
    }
}

/// The searcher's path-dependent draw counters at a node's entry ([`Searcher::draw_marks`]).
#[derive(Clone, Copy)]
pub(super) struct DrawMarks {
    /// Path-dependent draws scored so far.
    path_draws: u64,
    /// Repetition taint events so far.
    rep_taint: u64,
    /// Fifty-move taint events so far.
    fifty_taint: u64,
}

/// The constant mixed into the table key for halfmove-clock bucket `bucket`
/// ([`crate::SearchConfig::tt_halfmove_bucket`]): 0 for the first bucket (clocks below the
/// width keep their plain key, so a search that never leaves the first bucket is the search
/// without bucketing), SplitMix64's output for `bucket` for the others (distinct and
/// non-zero).
#[inline]
pub(crate) const fn halfmove_bucket_key(bucket: u16) -> u64 {
    if bucket == 0 {
        return 0;
    }
    let mut z = (bucket as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchConfig;

    #[test]
    fn halfmove_buckets_have_distinct_constants() {
        assert_eq!(halfmove_bucket_key(0), 0);
        let keys: Vec<u64> = (1..=64).map(halfmove_bucket_key).collect();
        for (i, a) in keys.iter().enumerate() {
            assert_ne!(*a, 0);
            assert!(
                keys[i + 1..].iter().all(|b| b != a),
                "bucket {} repeats",
                i + 1
            );
        }
    }

    #[test]
    fn halfmove_bucketing_changes_table_keys() {
        let low = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 3 40").unwrap();
        let high = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 91 80").unwrap();
        assert_eq!(
            low.key(),
            high.key(),
            "the clock is not part of the position key"
        );
        let plain = Searcher::new(replab_detect::Off, SearchConfig::default());
        assert_eq!(plain.tt_key(&low), plain.tt_key(&high));
        let bucketed = Searcher::new(
            replab_detect::Off,
            SearchConfig {
                tt_halfmove_bucket: Some(8),
                tt_bits: Some(4),
                ..SearchConfig::default()
            },
        );
        assert_eq!(bucketed.tt_key(&low), low.key(), "first bucket: plain key");
        assert_ne!(bucketed.tt_key(&high), high.key());
        assert_eq!(
            bucketed.tt_key(&high),
            high.key() ^ halfmove_bucket_key(91 / 8)
        );
    }
}
