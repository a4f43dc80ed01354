//! What `replab smp` measured: the vocabulary of `results.json`, the page and the summary
//! table, and the aggregation of the runs. Nothing here searches.

use replab_registry::DetectorId;
use replab_report::Meta;
use replab_search::SearchConfig;
use serde::{Deserialize, Serialize};

use super::{Config, group::Variant};
use crate::stats::Estimate;

/// Everything `replab smp` measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    /// How the report was made.
    pub meta: Meta,
    /// The settings and what the run set up from them.
    pub config: Setup,
    /// The detector set-ups, in table order.
    pub variants: Vec<VariantInfo>,
    /// The searched roots, in order (runs refer to them by index).
    pub positions: Vec<PositionInfo>,
    /// Deterministic mode: one record per position × variant × thread count.
    pub runs: Vec<DeterministicRun>,
    /// Deterministic mode: per variant × thread count, over the positions.
    pub aggregates: Vec<Aggregate>,
    /// The reproducibility check: deterministic groups searched twice.
    pub reproducibility: Reproducibility,
    /// The interleaving check: the shared variants again with a quantum of 1 node.
    pub quantum_check: Vec<QuantumCheck>,
    /// Real threads: per variant × thread count.
    pub real: Vec<RealAggregate>,
    /// One-line headline.
    pub headline: String,
}

/// The settings as given, and what the run set up from them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Setup {
    /// The settings (written flat, beside what follows).
    #[serde(flatten)]
    pub settings: Config,
    /// The searcher's settings (the main thread's; `max_depth` is the setting `depth`).
    pub search: SearchConfig,
    /// Index bits of every tt-open table.
    pub tt_open_bits: u32,
    /// Slots of every filo table.
    pub filo_slots: usize,
    /// Helpers search to this many plies beyond the main thread's depth unless stopped.
    pub helper_extra_depth: u32,
    /// Real threads: the ids of the positions timed.
    pub real_position_ids: Vec<String>,
    /// Cores the machine reports.
    pub cores: usize,
}

/// A detector set-up.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct VariantInfo {
    /// Its name, e.g. `tt-open/shared`.
    pub name: String,
    /// The detector.
    pub detector: DetectorId,
    /// Whether the threads share its structure.
    pub shared: bool,
    /// What is shared, in a sentence.
    pub description: String,
}

impl VariantInfo {
    /// The record of `v`.
    pub fn of(v: Variant) -> Self {
        VariantInfo {
            name: v.name().into(),
            detector: v.detector(),
            shared: v.shared(),
            description: v.description().into(),
        }
    }
}

/// A searched root.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionInfo {
    /// The record's id.
    pub id: String,
    /// `repetition` or `wac`.
    pub set: String,
    /// Plies of game history before it.
    pub history_plies: usize,
    /// FEN of the root.
    pub fen: String,
}

/// One deterministic Lazy SMP search.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DeterministicRun {
    /// Index into [`Results::positions`].
    pub position: usize,
    /// The variant's name.
    pub variant: String,
    /// Threads.
    pub threads: usize,
    /// The main thread's best move (UCI, `-` for none).
    pub best_move: String,
    /// Its score, root side's view (centipawns or the mate encoding).
    pub score: i32,
    /// Its deepest completed iteration.
    pub depth: u32,
    /// Nodes of the main thread.
    pub main_nodes: u64,
    /// Nodes of all threads (positions entered past the root, a stopped helper's abandoned
    /// iteration included).
    pub nodes: u64,
    /// Probes checked, all threads.
    pub probes: u64,
    /// False repetitions, all threads: the detector reported a repetition that the thread's own
    /// line does not hold.
    pub false_repetitions: u64,
    /// False repetitions of the main thread.
    pub main_false_repetitions: u64,
    /// Missed repetitions, all threads: the thread's own line holds one and the detector
    /// reported none.
    pub missed_repetitions: u64,
    /// Repetitions the threads' searches scored as draws.
    pub repetitions: u64,
    /// Bytes of the threads' own detector structures, summed.
    pub detector_bytes: usize,
    /// Bytes shared: the transposition table and a shared detector table.
    pub shared_bytes: usize,
    /// Baton hand-overs.
    pub switches: u64,
}

/// One variant at one thread count, over every position (deterministic mode).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Aggregate {
    /// The variant's name.
    pub variant: String,
    /// Threads.
    pub threads: usize,
    /// Positions.
    pub positions: usize,
    /// Nodes of all threads, summed over the positions.
    pub nodes: u64,
    /// Nodes of the main thread, summed.
    pub main_nodes: u64,
    /// Probes checked.
    pub probes: u64,
    /// False repetitions.
    pub false_repetitions: u64,
    /// False repetitions per million probes.
    pub false_per_million: f64,
    /// Positions with at least one false repetition.
    pub positions_with_false: usize,
    /// Missed repetitions.
    pub missed_repetitions: u64,
    /// Missed repetitions per million probes.
    pub missed_per_million: f64,
    /// Repetitions scored as draws.
    pub repetitions: u64,
    /// Positions whose main-thread best move differs from the same variant's with one thread.
    pub best_move_changed: usize,
    /// Positions whose main-thread score differs from the same variant's with one thread.
    pub score_changed: usize,
    /// Mean absolute score change against one thread, centipawns (mate scores clamped to
    /// ±1,000).
    pub mean_score_change: f64,
    /// Positions whose best move differs from the exact reference (`linear`, one thread).
    pub best_move_vs_exact: usize,
    /// Bytes of one thread's own detector structures (the largest seen).
    pub detector_bytes_per_thread: usize,
    /// Bytes shared by all threads (transposition table and shared detector table).
    pub shared_bytes: usize,
}

/// Deterministic groups searched twice.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Reproducibility {
    /// Groups compared (position × variant × thread count).
    pub groups: usize,
    /// Groups whose second search differed in any count, move or score (0 expected).
    pub differing: usize,
}

/// A shared variant with the configured quantum and with a quantum of 1 node.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct QuantumCheck {
    /// The variant's name.
    pub variant: String,
    /// Threads.
    pub threads: usize,
    /// Positions.
    pub positions: usize,
    /// Probes and false repetitions with the configured quantum.
    pub probes: u64,
    /// False repetitions with the configured quantum.
    pub false_repetitions: u64,
    /// Probes with a quantum of 1.
    pub probes_q1: u64,
    /// False repetitions with a quantum of 1.
    pub false_repetitions_q1: u64,
}

/// Real threads: one variant at one thread count.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RealAggregate {
    /// The variant's name.
    pub variant: String,
    /// Threads.
    pub threads: usize,
    /// Main-thread search time over the positions, per round, ms: median and interval.
    pub time_ms: Estimate,
    /// Nodes per second of all threads together, millions: median and interval.
    pub mnps: Estimate,
    /// Time with one thread over time with this many: median of the per-round ratios.
    pub speedup: Estimate,
    /// Nodes of all threads, per round: median.
    pub nodes: f64,
    /// Positions whose main-thread best move differed from the deterministic one-thread search
    /// in the checked round.
    pub best_move_changed: usize,
    /// False repetitions in one checked round (not reproducible: the threads run freely).
    pub false_repetitions: u64,
    /// Probes in the checked round.
    pub probes: u64,
}

/// A score for averaging: mate scores clamped to ±1,000 centipawns.
pub fn clamp_score(s: i32) -> i64 {
    i64::from(s.clamp(-1000, 1000))
}

/// Aggregates the runs per variant and thread count (in `variants` × `threads` order).
pub fn aggregate(
    runs: &[DeterministicRun],
    variants: &[Variant],
    threads: &[usize],
) -> Vec<Aggregate> {
    let find = |variant: &str, t: usize, p: usize| {
        runs.iter()
            .find(|r| r.variant == variant && r.threads == t && r.position == p)
    };
    let exact = Variant::Linear.name();
    let mut out = Vec::new();
    for v in variants {
        for &t in threads {
            let rs: Vec<&DeterministicRun> = runs
                .iter()
                .filter(|r| r.variant == v.name() && r.threads == t)
                .collect();
            let probes: u64 = rs.iter().map(|r| r.probes).sum();
            let false_repetitions: u64 = rs.iter().map(|r| r.false_repetitions).sum();
            let missed_repetitions: u64 = rs.iter().map(|r| r.missed_repetitions).sum();
            let per_million = |n: u64| {
                if probes > 0 {
                    n as f64 * 1e6 / probes as f64
                } else {
                    0.0
                }
            };
            let mut best_move_changed = 0;
            let mut score_changed = 0;
            let mut score_change = 0i64;
            let mut best_move_vs_exact = 0;
            for r in &rs {
                if let Some(one) = find(v.name(), 1, r.position) {
                    best_move_changed += usize::from(one.best_move != r.best_move);
                    score_changed += usize::from(one.score != r.score);
                    score_change += (clamp_score(one.score) - clamp_score(r.score)).abs();
                }
                if let Some(e) = find(exact, 1, r.position) {
                    best_move_vs_exact += usize::from(e.best_move != r.best_move);
                }
            }
            out.push(Aggregate {
                variant: v.name().into(),
                threads: t,
                positions: rs.len(),
                nodes: rs.iter().map(|r| r.nodes).sum(),
                main_nodes: rs.iter().map(|r| r.main_nodes).sum(),
                probes,
                false_repetitions,
                false_per_million: per_million(false_repetitions),
                positions_with_false: rs.iter().filter(|r| r.false_repetitions > 0).count(),
                missed_repetitions,
                missed_per_million: per_million(missed_repetitions),
                repetitions: rs.iter().map(|r| r.repetitions).sum(),
                best_move_changed,
                score_changed,
                mean_score_change: if rs.is_empty() {
                    0.0
                } else {
                    score_change as f64 / rs.len() as f64
                },
                best_move_vs_exact,
                detector_bytes_per_thread: rs
                    .iter()
                    .map(|r| r.detector_bytes / r.threads.max(1))
                    .max()
                    .unwrap_or(0),
                shared_bytes: rs.iter().map(|r| r.shared_bytes).max().unwrap_or(0),
            });
        }
    }
    out
}
