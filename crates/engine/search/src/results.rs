//! What a search reports: the [`Counters`] of each [`Iteration`], the [`SearchResult`] of
//! iterative deepening, and the transposition table's [`TableStats`].

use replab_board::{Color, Move};

use crate::score::Score;
#[cfg(doc)]
use crate::{Searcher, TtMode};

/// Transposition-table bookkeeping of the last search ([`Searcher::table_stats`]): not part of
/// [`Counters`] (not in results JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Results stored without their score (move only) because the [`TtMode`] withholds them:
    /// draw-affected ([`TtMode::NoPathScores`]), equal to the draw score
    /// ([`TtMode::NoDrawScores`]), or every result ([`TtMode::MovesOnly`]). Always 0 under
    /// [`TtMode::On`].
    pub withheld: u64,
    /// Path-dependent draws scored (repetition draws, fifty-move draws, alpha raised by an
    /// upcoming cycle): the events that make results draw-affected.
    pub path_draws: u64,
    /// Table cut-offs taken (a stored score returned instead of searching).
    pub cutoffs: u64,
    /// Cut-offs whose entry's score was affected by a repetition draw: scored in the subtree it
    /// was searched from, or itself reused from such an entry (taint propagates through
    /// cut-offs). Scores carried from one path to another.
    pub repetition_tainted_cutoffs: u64,
    /// Cut-offs whose entry's score was affected by a fifty-move draw (same propagation).
    pub fifty_tainted_cutoffs: u64,
}

/// The counters of one iteration (or of a whole search, summed). With the `serde` feature they
/// serialise with their field names (`nodes`, `terminal_nodes`, `generated`, `repetitions`,
/// `probes`, `hits`: a JSON contract).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Counters {
    /// Positions entered, quiescence included: every position pushed on the line, the root once
    /// per iteration, positions cut off as repetition draws included.
    pub nodes: u64,
    /// Static evaluations at leaves (quiescence stand-pat, and the ply limit).
    pub terminal_nodes: u64,
    /// Moves generated: the sum over nodes of the moves the generator produced there (all legal
    /// moves in the main search and in check; captures and queen promotions in quiescence).
    pub generated: u64,
    /// Repetitions the detector reported that the draw policy scored as a draw.
    pub repetitions: u64,
    /// Detector probes ([`replab_detect::Stats::probes`]).
    pub probes: u64,
    /// Probes that reported a repetition ([`replab_detect::Stats::hits`]).
    pub hits: u64,
}

impl std::ops::AddAssign for Counters {
    fn add_assign(&mut self, o: Counters) {
        self.nodes += o.nodes;
        self.terminal_nodes += o.terminal_nodes;
        self.generated += o.generated;
        self.repetitions += o.repetitions;
        self.probes += o.probes;
        self.hits += o.hits;
    }
}

/// What one iteration of iterative deepening found.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// First move of the principal variation (`None` if the root has no legal move).
    pub best_move: Option<Move>,
    /// Score from the point of view of the side to move at the root.
    pub score: Score,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// The iteration's counters (not cumulative).
    pub counters: Counters,
    /// The deepest ply the iteration entered (quiescence included; the root is 0): UCI
    /// `seldepth`.
    pub seldepth: u32,
    /// Wall time of the iteration in milliseconds (measured, never used for decisions).
    pub time_ms: f64,
}

impl Iteration {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        if self.time_ms > 0.0 {
            self.counters.nodes as f64 * 1000.0 / self.time_ms
        } else {
            0.0
        }
    }
}

/// The result of a search: one [`Iteration`] per completed depth.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The side to move at the root (scores are from its point of view).
    pub root_side: Color,
    /// Completed iterations, depth 1 first.
    pub iterations: Vec<Iteration>,
    /// Whether every iteration up to the maximum depth completed (false after a node limit).
    pub completed: bool,
}

impl SearchResult {
    /// The deepest completed iteration.
    pub fn last(&self) -> Option<&Iteration> {
        self.iterations.last()
    }

    /// The best move of the deepest completed iteration.
    pub fn best_move(&self) -> Option<Move> {
        self.last().and_then(|it| it.best_move)
    }

    /// The score of the deepest completed iteration (root side's view).
    pub fn score(&self) -> Option<Score> {
        self.last().map(|it| it.score)
    }

    /// The counters summed over the completed iterations.
    pub fn totals(&self) -> Counters {
        let mut t = Counters::default();
        for it in &self.iterations {
            t += it.counters;
        }
        t
    }

    /// Wall time summed over the completed iterations, in milliseconds.
    pub fn time_ms(&self) -> f64 {
        self.iterations.iter().map(|it| it.time_ms).sum()
    }

    /// Everything the search decided, per iteration, without the wall time: equal signatures
    /// mean the same tree was searched to the same result (how tests compare detectors).
    pub fn signature(&self) -> Vec<IterationSignature> {
        self.iterations
            .iter()
            .map(|it| {
                (
                    it.depth,
                    it.best_move,
                    it.score.value(),
                    it.pv.clone(),
                    it.counters,
                )
            })
            .collect()
    }
}

/// One iteration without its wall time: depth, best move, score, principal variation and
/// counters ([`SearchResult::signature`]).
pub type IterationSignature = (u32, Option<Move>, i32, Vec<Move>, Counters);
