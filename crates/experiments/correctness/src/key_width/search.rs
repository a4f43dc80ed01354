//! Truncated keys in search: each detector at each width drives the searcher, while an exact
//! reference judges every probe it answers ([`Judged`]).
//!
//! The reference is the registry's, `truth` (exact FIDE identity), probed by key
//! ([`TruthDetector::probe_by_key`]): the same answers as its full scan, at the cost of a key
//! comparison per earlier position that can recur, which a probe at every node of a search
//! needs.
//!
//! Upcoming cycles (`linear+cuckoo`) are judged against the same detector with 64-bit keys,
//! driven in lockstep (the exact "some legal move reaches an earlier position" costs a move
//! generation per node): a cycle the truncated detector reports and the full one does not is
//! a false one.

use std::any::Any;

use anyhow::{Result, anyhow};
use replab_board::{Move, Position};
use replab_detect::{Detector, DrawPolicy, FULL_KEY_BITS, Line, Repetition, Stats};
use replab_registry::with_detector;
use replab_search::{DynSearch, SearchConfig, SearchResult, SetupError};
use replab_truth::TruthDetector;
use serde::{Deserialize, Serialize};

/// What the judge counted during one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchCounts {
    /// Probes answered.
    pub probes: u64,
    /// Probes reporting a repetition the exact reference denies.
    pub false_repetitions: u64,
    /// Probes missing a repetition the reference reports.
    pub missed_repetitions: u64,
    /// Probes the draw policy scored as a draw on the detector's answer but not on the
    /// reference's (the searcher returned a false draw score).
    pub false_draws: u64,
    /// Upcoming-cycle queries (`linear+cuckoo` only).
    pub upcoming: u64,
    /// Upcoming cycles reported that the 64-bit detector does not report.
    pub false_upcoming: u64,
}

impl SearchCounts {
    /// Adds `o`.
    pub fn add(&mut self, o: &SearchCounts) {
        self.probes += o.probes;
        self.false_repetitions += o.false_repetitions;
        self.missed_repetitions += o.missed_repetitions;
        self.false_draws += o.false_draws;
        self.upcoming += o.upcoming;
        self.false_upcoming += o.false_upcoming;
    }
}

/// A detector under test with the exact reference (and, for upcoming cycles, the same detector
/// with 64-bit keys) driven in lockstep; it answers what the detector answers.
#[derive(Clone, Debug)]
pub struct Judged<D> {
    det: D,
    full: Option<D>,
    exact: TruthDetector,
    policy: DrawPolicy,
    /// The counts since the last `clear` (the last search).
    pub counts: SearchCounts,
}

impl<D: Detector> Judged<D> {
    /// `det` judged under `policy`; `full` is the same detector with 64-bit keys if it answers
    /// upcoming cycles.
    pub fn new(det: D, full: Option<D>, policy: DrawPolicy) -> Self {
        Judged {
            det,
            full,
            exact: TruthDetector::new(),
            policy,
            counts: SearchCounts::default(),
        }
    }
}

impl<D: Detector> Detector for Judged<D> {
    fn name(&self) -> &'static str {
        self.det.name()
    }

    fn clear(&mut self, capacity: usize) {
        self.det.clear(capacity);
        if let Some(f) = &mut self.full {
            f.clear(capacity);
        }
        self.exact.clear(capacity);
        self.counts = SearchCounts::default();
    }

    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        let got = self.det.probe(line, pos);
        if let Some(f) = &mut self.full {
            f.probe(line, pos);
        }
        let want = self.exact.probe_by_key(line, pos);
        let ply = line.plies_from_root();
        let c = &mut self.counts;
        c.probes += 1;
        c.false_repetitions += u64::from(got.is_some() && want.is_none());
        c.missed_repetitions += u64::from(got.is_none() && want.is_some());
        let draw = |r: Option<Repetition>| r.is_some_and(|r| self.policy.is_draw(r, ply));
        c.false_draws += u64::from(draw(got) && !draw(want));
        got
    }

    fn enter(&mut self, line: &Line, pos: &Position) {
        self.det.enter(line, pos);
        if let Some(f) = &mut self.full {
            f.enter(line, pos);
        }
        self.exact.enter(line, pos);
    }

    fn leave(&mut self, line: &Line, pos: &Position) {
        self.det.leave(line, pos);
        if let Some(f) = &mut self.full {
            f.leave(line, pos);
        }
        self.exact.leave(line, pos);
    }

    fn upcoming(&mut self, line: &Line, pos: &Position) -> bool {
        let got = self.det.upcoming(line, pos);
        if let Some(f) = &mut self.full {
            let want = f.upcoming(line, pos);
            self.counts.upcoming += 1;
            self.counts.false_upcoming += u64::from(got && !want);
        }
        got
    }

    fn stats(&self) -> Stats {
        self.det.stats()
    }

    fn memory_bytes(&self) -> usize {
        self.det.memory_bytes()
    }
}

/// A judged searcher of one detector at one width: the searcher and how to read its judge's
/// counts.
pub struct Engine {
    searcher: Box<dyn DynSearch>,
    counts: fn(&dyn Any) -> SearchCounts,
}

impl Engine {
    /// Searches the last of `positions` (the earlier ones as game history).
    pub fn search(
        &mut self,
        positions: &[Position],
        moves: &[Move],
    ) -> (SearchResult, SearchCounts) {
        let result = self.searcher.search_game(positions, moves);
        (result, (self.counts)(self.searcher.detector_any()))
    }

    /// `d` judged (with its 64-bit self as `full` when it answers upcoming cycles).
    fn judged<D: Detector + Clone + Send + 'static>(
        d: D,
        upcoming: bool,
        config: SearchConfig,
    ) -> Result<Engine, SetupError> {
        let full = upcoming.then(|| {
            let mut f = d.clone();
            f.set_key_bits(FULL_KEY_BITS);
            f
        });
        Ok(Engine {
            searcher: replab_search::boxed(Judged::new(d, full, config.policy), config)?,
            counts: |d| {
                let judged = d.downcast_ref::<Judged<D>>();
                judged
                    .expect("the searcher's detector is a Judged<D>")
                    .counts
            },
        })
    }
}

/// A searcher using the registry's detector `name` with `bits`-bit keys, judged.
pub fn engine(name: &str, bits: u32, config: SearchConfig) -> Result<Engine> {
    let upcoming = replab_registry::info(name).is_some_and(|i| i.caps.upcoming);
    with_detector!(name, config.policy.root_rule(), key_bits = bits, |d| {
        Engine::judged(d, upcoming, config).map_err(|e| anyhow!("{name}: {e}"))
    })
    .map_err(|e| anyhow!("{name}: {e}"))?
}
