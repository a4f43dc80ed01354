//! Search scores: centipawns, with mate scores encoded near ±[`MATE`].

use std::fmt;

/// Deepest ply the searcher reaches (main search, extensions and quiescence together).
pub const MAX_PLY: usize = 128;

/// The score of giving mate on the current move: a side that is checkmated `n` plies below the
/// root scores `−(MATE − n)`, so a mate in `k` moves for the side to move at the root scores
/// `MATE − (2k − 1)`.
pub const MATE: i32 = 30_000;

/// Scores at or beyond ±`MATE_BOUND` are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Larger than any score.
pub const INFINITE: i32 = 31_000;

/// A search score in centipawns from some side's point of view; values with
/// `|score| >= MATE_BOUND` encode forced mates (see [`MATE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    /// The raw value (centipawns, or the mate encoding).
    #[inline]
    pub const fn value(self) -> i32 {
        self.0
    }

    /// Whether the score is a forced mate for either side.
    #[inline]
    pub const fn is_mate(self) -> bool {
        self.0 >= MATE_BOUND || self.0 <= -MATE_BOUND
    }

    /// Plies to mate: positive when the side the score belongs to mates, negative when it is
    /// mated; `None` for ordinary scores.
    #[inline]
    pub const fn mate_plies(self) -> Option<i32> {
        if self.0 >= MATE_BOUND {
            Some(MATE - self.0)
        } else if self.0 <= -MATE_BOUND {
            Some(-(MATE + self.0))
        } else {
            None
        }
    }

    /// Moves to mate as UCI's `score mate N`: `N > 0` when this side mates in `N` moves, `N < 0`
    /// when it is mated in `−N` moves (`0` when already mated).
    #[inline]
    pub const fn mate_in(self) -> Option<i32> {
        match self.mate_plies() {
            Some(p) if p > 0 => Some((p + 1) / 2),
            Some(p) => Some(p / 2),
            None => None,
        }
    }

    /// The same score from the other side's point of view.
    #[inline]
    pub const fn flip(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    /// `cp 230` or `mate 3` / `mate -2`, as in UCI.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_in() {
            Some(n) => write!(f, "mate {n}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_encoding() {
        assert_eq!(Score(MATE - 1).mate_in(), Some(1));
        assert_eq!(Score(MATE - 3).mate_in(), Some(2));
        assert_eq!(Score(MATE - 5).mate_in(), Some(3));
        assert_eq!(Score(-(MATE - 2)).mate_in(), Some(-1));
        assert_eq!(Score(-MATE).mate_in(), Some(0));
        assert_eq!(Score(250).mate_in(), None);
        assert_eq!(Score(MATE - 5).to_string(), "mate 3");
        assert_eq!(Score(-40).to_string(), "cp -40");
    }
}
