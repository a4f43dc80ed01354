//! One Lazy SMP search: N threads on one root, one shared transposition table, each thread with
//! its own searcher (line, killers, history, counters) and its own detector, or a follower of a
//! detector table shared by all of them.

use std::sync::{
    Arc, LazyLock,
    atomic::{AtomicBool, Ordering},
};

use anyhow::{Result, anyhow};
use replab_board::{Move, Position};
use replab_detect::{
    Detector, Line, load_history,
    shared::{PairTable, SharedPairs},
};
use replab_registry::{DetectorId, FiloDetector, HistoryRule, LinearDetector, TtOpenDetector};
use replab_search::{Limits, MAX_PLY, SearchConfig, SearchResult, Searcher, SharedTable};
use replab_tt_thompson::ThompsonDetector;
use serde::{Deserialize, Serialize};

use super::{
    checked::{Audit, Checked},
    sched::Baton,
};

/// Index bits of every `tt-open` table in the experiment, per-thread or shared (2^16 entries of
/// 16 bytes, 1 MiB; replab's default is 2^20): slot collisions between open positions stay
/// negligible, and eight per-thread tables still fit in the cache hierarchy of a small machine.
pub const TT_OPEN_BITS: u32 = 16;

/// How much deeper than the main thread the helpers may go before the main thread stops them
/// (they never finish first in practice: this only bounds a helper that would).
pub const HELPER_EXTRA_DEPTH: u32 = 8;

/// The detector set-ups compared: who keeps which repetition structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// `linear` on each thread's own line: exact by construction.
    Linear,
    /// `tt-open`, one table per thread.
    TtOpenPerThread,
    /// `tt-open`, one table for all threads.
    TtOpenShared,
    /// `filo-all-history`, one table per thread.
    FiloPerThread,
    /// `filo-all-history`, one table for all threads.
    FiloShared,
    /// `tt-thompson`: the open marks live in the searcher's table, which every thread shares.
    TtThompsonShared,
}

impl Variant {
    /// Every variant, in table order.
    pub const ALL: [Variant; 6] = [
        Variant::Linear,
        Variant::TtOpenPerThread,
        Variant::TtOpenShared,
        Variant::FiloPerThread,
        Variant::FiloShared,
        Variant::TtThompsonShared,
    ];

    /// The name on the page and in JSON: `detector/per-thread` or `detector/shared`, from the
    /// detector's contract name.
    pub fn name(self) -> &'static str {
        static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
            Variant::ALL
                .iter()
                .map(|v| {
                    let sharing = if v.shared() { "shared" } else { "per-thread" };
                    format!("{}/{sharing}", v.detector())
                })
                .collect()
        });
        let i = Variant::ALL.iter().position(|&v| v == self);
        &NAMES[i.expect("every variant is in Variant::ALL")]
    }

    /// The variant of a [name](Variant::name).
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The detector.
    pub const fn detector(self) -> DetectorId {
        match self {
            Variant::Linear => DetectorId::Linear,
            Variant::TtOpenPerThread | Variant::TtOpenShared => DetectorId::TtOpen,
            Variant::FiloPerThread | Variant::FiloShared => DetectorId::FiloAllHistory,
            Variant::TtThompsonShared => DetectorId::TtThompson,
        }
    }

    /// Whether the threads share the detector's structure.
    pub const fn shared(self) -> bool {
        matches!(
            self,
            Variant::TtOpenShared | Variant::FiloShared | Variant::TtThompsonShared
        )
    }

    /// The per-thread variant of the same detector, if the variant is shared and one exists.
    pub const fn per_thread(self) -> Option<Variant> {
        match self {
            Variant::TtOpenShared => Some(Variant::TtOpenPerThread),
            Variant::FiloShared => Some(Variant::FiloPerThread),
            _ => None,
        }
    }

    /// What the variant shares, in a sentence.
    pub const fn description(self) -> &'static str {
        match self {
            Variant::Linear => {
                "each thread scans the keys of its own line (game history and search path): exact \
                 by construction, nothing shared"
            }
            Variant::TtOpenPerThread => {
                "each thread has its own tt-open table (2^16 entries): Thompson's open flags, as \
                 the single-threaded detector"
            }
            Variant::TtOpenShared => {
                "one tt-open table (2^16 entries) for all threads: the game history is entered \
                 once, each thread opens and closes its own line's positions in it"
            }
            Variant::FiloPerThread => {
                "each thread has its own Gerbil table (1,024 slots; every history position kept)"
            }
            Variant::FiloShared => {
                "one Gerbil table (1,024 slots) for all threads: the game history is entered \
                 once, each thread inserts and deletes its own line's keys in it"
            }
            Variant::TtThompsonShared => {
                "tt-thompson's open marks are the mark words of the searcher's transposition \
                 table, which all threads share: sharing the table shares the marks"
            }
        }
    }
}

/// A root and the game that led to it.
#[derive(Clone, Debug)]
pub struct Game {
    /// The record's `id`.
    pub id: String,
    /// Which set it comes from (`repetition`, `wac`).
    pub set: String,
    /// History positions, the root last.
    pub positions: Vec<Position>,
    /// Moves between them.
    pub moves: Vec<Move>,
}

/// How the threads run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One at a time, handing a baton over by a seeded scheduler ([`super::sched`]).
    Deterministic {
        /// The scheduler's seed.
        seed: u64,
        /// Mean node entries per turn.
        quantum: u64,
    },
    /// Free-running operating-system threads.
    Free,
}

/// One thread's search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadOutcome {
    /// Positions it entered past the root (each probed once), an abandoned last iteration
    /// included.
    pub nodes: u64,
    /// Its deepest completed iteration (0: none).
    pub depth: u32,
    /// Repetitions its search scored as draws.
    pub repetitions: u64,
    /// Probes checked against exact identity (0 when unchecked).
    pub probes: u64,
    /// Its false repetitions.
    pub false_repetitions: u64,
    /// Its missed repetitions.
    pub missed_repetitions: u64,
    /// Bytes of its own detector structures (a follower of a shared table: none).
    pub detector_bytes: usize,
}

/// One Lazy SMP search: the main thread's result and every thread's counts.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupOutcome {
    /// The main thread's (thread 0) best move at its last iteration.
    pub best_move: Option<Move>,
    /// Its score (root side's view).
    pub score: i32,
    /// Its deepest completed iteration.
    pub depth: u32,
    /// Its search time, in milliseconds.
    pub time_ms: f64,
    /// Per thread, the main thread first.
    pub threads: Vec<ThreadOutcome>,
    /// Bytes shared by all threads: the searcher's table, and the shared detector table if any.
    pub shared_bytes: usize,
    /// Baton hand-overs (deterministic mode; 0 for free-running threads).
    pub switches: u64,
}

impl GroupOutcome {
    /// The exact-check counts summed over the threads.
    pub fn audit(&self) -> Audit {
        let mut a = Audit::default();
        for t in &self.threads {
            a += Audit {
                probes: t.probes,
                false_repetitions: t.false_repetitions,
                missed_repetitions: t.missed_repetitions,
            };
        }
        a
    }

    /// Nodes of every thread.
    pub fn nodes(&self) -> u64 {
        self.threads.iter().map(|t| t.nodes).sum()
    }

    /// Everything but the time: equal fingerprints, equal searches.
    pub fn fingerprint(&self) -> (Option<Move>, i32, u32, Vec<ThreadOutcome>) {
        (self.best_move, self.score, self.depth, self.threads.clone())
    }
}

/// Runs `variant` on `game` with `threads` threads sharing `table` (cleared first); `config` is
/// the main thread's. Helper thread `i` (1 …) searches with the same settings to a depth
/// [`HELPER_EXTRA_DEPTH`] deeper and is stopped when the main thread finishes; odd helpers
/// start iterative deepening one ply deeper (Cheng's Lazy SMP). With `check`, every probe of
/// every thread is checked against exact identity.
pub fn run_group(
    variant: Variant,
    game: &Game,
    config: SearchConfig,
    threads: usize,
    table: &SharedTable,
    mode: Mode,
    check: bool,
) -> Result<GroupOutcome> {
    table.clear();
    let run = Run {
        game,
        config,
        threads,
        table,
        mode,
        check,
    };
    match variant {
        Variant::Linear => run.go(|_| LinearDetector::new(), 0),
        Variant::TtOpenPerThread => run.go(|_| TtOpenDetector::with_bits(TT_OPEN_BITS), 0),
        Variant::TtOpenShared => {
            let pairs = SharedPairs::new(1 << TT_OPEN_BITS);
            let mut loader = TtOpenDetector::shared(pairs.clone());
            let _ = loaded(&mut loader, game);
            run.go(
                |_| TtOpenDetector::shared(pairs.follower()),
                pairs.memory_bytes(),
            )
        }
        Variant::FiloPerThread => run.go(|_| FiloDetector::all_history(), 0),
        Variant::FiloShared => {
            let pairs = SharedPairs::new(replab_filo::DEFAULT_SLOTS);
            let mut loader = FiloDetector::shared(pairs.clone(), HistoryRule::All);
            let line = loaded(&mut loader, game);
            loader.finish_history(&line);
            run.go(
                |_| FiloDetector::shared(pairs.follower(), HistoryRule::All),
                pairs.memory_bytes(),
            )
        }
        Variant::TtThompsonShared => run.go(|_| ThompsonDetector::new(), 0),
    }
}

/// Enters the game's history into a loader (clearing its table), as a search would; returns
/// the loaded line.
fn loaded<D: Detector>(loader: &mut D, game: &Game) -> Line {
    let mut line = Line::default();
    load_history(loader, &mut line, &game.positions, &game.moves, MAX_PLY + 1);
    line
}

/// The settings of one group search.
struct Run<'a> {
    game: &'a Game,
    config: SearchConfig,
    threads: usize,
    table: &'a SharedTable,
    mode: Mode,
    check: bool,
}

impl Run<'_> {
    /// Runs the threads, thread `i` with the detector `make(i)`; `detector_shared` is the size
    /// of a detector table all threads share.
    fn go<D: Detector>(
        &self,
        make: impl Fn(usize) -> D + Sync,
        detector_shared: usize,
    ) -> Result<GroupOutcome> {
        let baton = match self.mode {
            Mode::Deterministic { seed, quantum } => Some(Baton::new(self.threads, seed, quantum)),
            Mode::Free => None,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            stop: Some(Arc::clone(&stop)),
            ..Limits::default()
        };
        let outcomes: Vec<Result<(SearchResult, ThreadOutcome)>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..self.threads)
                .map(|i| {
                    let turn = baton.as_ref().map(|b| b.turn(i));
                    let (make, stop, limits) = (&make, &stop, &limits);
                    s.spawn(move || self.thread(i, make(i), turn, stop, limits))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(anyhow!("a search thread panicked")))
                })
                .collect()
        });
        let mut main = None;
        let mut threads = Vec::with_capacity(self.threads);
        for (i, o) in outcomes.into_iter().enumerate() {
            let (result, outcome) = o?;
            if i == 0 {
                main = Some(result);
            }
            threads.push(outcome);
        }
        let main = main.ok_or_else(|| anyhow!("no main thread"))?;
        Ok(GroupOutcome {
            best_move: main.best_move(),
            score: main.score().map_or(0, |s| s.value()),
            depth: main.last().map_or(0, |it| it.depth),
            time_ms: main.time_ms(),
            threads,
            shared_bytes: self.table.memory_bytes() + detector_shared,
            switches: baton.as_ref().map_or(0, |b| b.switches()),
        })
    }

    /// Thread `i`'s search.
    fn thread<D: Detector>(
        &self,
        i: usize,
        detector: D,
        turn: Option<super::sched::Turn>,
        stop: &AtomicBool,
        limits: &Limits,
    ) -> Result<(SearchResult, ThreadOutcome)> {
        let config = if i == 0 {
            self.config
        } else {
            SearchConfig {
                max_depth: self.config.max_depth + HELPER_EXTRA_DEPTH,
                ..self.config
            }
        };
        let mut searcher = Searcher::with_shared_table(
            Checked::new(detector, self.check, turn),
            config,
            self.table.clone(),
        )
        .map_err(|e| anyhow!("{e}"))?;
        if i % 2 == 1 {
            searcher.set_first_depth(2);
        }
        if let Some(t) = searcher.detector().turn() {
            t.start();
        }
        let (positions, moves) = (&self.game.positions, &self.game.moves);
        let result = if i == 0 {
            let r = searcher.search_game(positions, moves);
            stop.store(true, Ordering::Relaxed);
            r
        } else {
            searcher.search_game_limited(positions, moves, limits, &mut |_| {})
        };
        if let Some(t) = searcher.detector().turn() {
            t.finish();
        }
        let totals = result.totals();
        let audit = searcher.detector().audit();
        let outcome = ThreadOutcome {
            // Every position probed, a stopped helper's abandoned iteration included.
            nodes: searcher.detector().probed(),
            depth: result.last().map_or(0, |it| it.depth),
            repetitions: totals.repetitions,
            probes: audit.probes,
            false_repetitions: audit.false_repetitions,
            missed_repetitions: audit.missed_repetitions,
            detector_bytes: searcher.detector().inner().memory_bytes(),
        };
        Ok((result, outcome))
    }
}
