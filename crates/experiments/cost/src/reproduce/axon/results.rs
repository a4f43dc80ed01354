//! The vocabulary of the Axon experiment's results: what `results.json` holds and the page and
//! summary table are drawn from. Nothing here searches.

use replab_registry::DetectorId;
use replab_report::Meta;
use replab_search::Counters;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Config;
use crate::stats::Estimate;

pub use crate::paper::{Paper, PaperCounts, PaperRow, PaperTotals};

/// The `paper` field of `results.json`: the paper's tables and totals as typed in
/// (`datasets/paper/axon-tables.json`, every field of them kept), with a typed view of them.
/// It serialises as the record itself.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "Value", try_from = "Value")]
pub struct PaperRecord {
    record: Value,
    tables: Paper,
}

impl PaperRecord {
    /// Reads the record; fails if it lacks the tables or totals.
    pub fn new(record: Value) -> Result<Self, serde_json::Error> {
        let tables = Paper::deserialize(&record)?;
        Ok(Self { record, tables })
    }

    /// The typed tables and totals.
    pub fn tables(&self) -> &Paper {
        &self.tables
    }

    /// The record as written to `results.json`.
    pub fn record(&self) -> &Value {
        &self.record
    }
}

impl TryFrom<Value> for PaperRecord {
    type Error = serde_json::Error;

    fn try_from(record: Value) -> Result<Self, Self::Error> {
        Self::new(record)
    }
}

impl From<PaperRecord> for Value {
    fn from(paper: PaperRecord) -> Value {
        paper.record
    }
}

/// One search iteration as recorded in `results.json` (docs/contracts.md field names, plus extras).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run {
    /// `off` or a detector name.
    pub detector: DetectorId,
    /// Draw policy.
    pub policy: String,
    /// Iteration depth in plies.
    pub depth: u32,
    /// Best move (UCI), `-` when the root has no legal move.
    pub best_move: String,
    /// Best move (SAN).
    pub best_move_san: String,
    /// Score in centipawns from White's point of view; mates are ±(30000 − plies to mate).
    pub eval_cp: i32,
    /// Moves to mate from White's point of view (positive: White mates), if a mate score.
    pub mate: Option<i32>,
    /// The iteration's counters: `nodes`, `terminal_nodes`, `generated`, `repetitions`,
    /// `probes`, `hits`.
    #[serde(flatten)]
    pub counters: Counters,
    /// Wall time in milliseconds: for WAC.018 the median of the interleaved runs with its
    /// interval (`stats::median_ci`), for the further cases a single run (marked as one).
    pub time_ms: Estimate,
    /// Nodes per second (nodes / `time_ms`, the interval mapped through it).
    pub nps: Estimate,
    /// Principal variation (UCI).
    pub pv: Vec<String>,
}

/// Totals of one configuration over all depths, and the change against `off`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    /// `off` or a detector name.
    pub detector: DetectorId,
    /// The counters summed over all depths.
    #[serde(flatten)]
    pub counters: Counters,
    /// Time of the whole run (all depths), ms: the median over the interleaved rounds of the
    /// round's summed time, with its interval (`n`: the rounds).
    pub time_ms: Estimate,
    /// Nodes per second over the whole run (nodes / `time_ms`, the interval mapped through it).
    pub nps: Estimate,
    /// NPS(off) / NPS(this): the median over paired rounds (round `r` of this configuration
    /// against round `r` of `off`) of the round's ratio, timed with
    /// [`Setup::overhead_clock`], with its interval (`n`: the paired rounds, more than
    /// the rounds of `time_ms` for the detector measured to a target precision, see
    /// [`Results::overhead_adaptive`]); exactly 1 for `off`.
    pub overhead: Estimate,
    /// Instructions per node relative to `off`, counted under valgrind's callgrind on the same
    /// search (WAC.018, default searcher, [`Results::instructions_depth`] plies): the same
    /// on every machine. `None` without valgrind or when not measured.
    #[serde(default)]
    pub overhead_instructions: Option<f64>,
    /// Relative change vs off (fractions, e.g. −0.18).
    pub nodes_change: f64,
    /// Relative change of terminal nodes vs off.
    pub terminal_nodes_change: f64,
    /// Relative change of generated moves vs off.
    pub generated_change: f64,
    /// Relative change of time vs off: the median over paired rounds of time(this) / time(off),
    /// minus one, with its interval (`n`: the fixed rounds, and those added at the edge,
    /// `crate::resolution`).
    pub time_change: Estimate,
    /// Best move at the deepest iteration (UCI).
    pub final_best_move: String,
    /// Score at the deepest iteration (cp, White's view).
    pub final_eval_cp: i32,
    /// Bytes the detector's structures use.
    pub memory_bytes: usize,
}

/// A further position from the paper, searched by every configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Case {
    /// Short identifier (`figure1`, `diep-axon`).
    pub id: String,
    /// Title on the page.
    pub title: String,
    /// The searched position.
    pub fen: String,
    /// Game positions before it given as history.
    pub history_plies: usize,
    /// What the paper says about it.
    pub note: String,
    /// One run per configuration and depth.
    pub runs: Vec<Run>,
}

/// The settings of the run, and the searcher's settings it searched with.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Setup {
    /// The settings (written flat, beside what follows): `max_depth`, `repeat`, the adaptive
    /// measurement's `overhead_target` (0: it did not run), `overhead_max_rounds` and
    /// `overhead_max_seconds`, the searcher `profile`.
    #[serde(flatten)]
    pub settings: Config,
    /// Every searcher setting.
    pub search: replab_search::SearchConfig,
    /// Draw policy.
    pub policy: String,
    /// Contempt, cp.
    pub contempt: i32,
    /// Null-move pruning.
    pub null_move: bool,
    /// Null-move reduction R.
    pub null_reduction: u32,
    /// Transposition-table index bits.
    pub tt_bits: Option<u32>,
    /// Check extension.
    pub check_extension: bool,
    /// Quiet checks in quiescence.
    pub qsearch_checks: bool,
    /// Node limit.
    pub node_limit: Option<u64>,
    /// Root rule of the cuckoo detector.
    pub cuckoo_root_rule: String,
    /// The probability that a `repeat`-run time interval covers the true median (≥ 0.95 from
    /// six rounds on).
    pub time_ci_coverage: f64,
    /// The clock behind `overhead` and `time_change`: `wall time, all iterations`.
    pub overhead_clock: String,
}

/// The paper's per-depth node count beside ours in the same unit: the paper's "node count"
/// sums to its "positions generated", so it is compared with our `generated`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Depth in plies.
    pub depth: u32,
    /// The paper's node count with detection off (Table 2); `None` beyond its depth 12.
    pub paper_off: Option<u64>,
    /// The paper's node count with detection on (Table 3).
    pub paper_on: Option<u64>,
    /// Our positions generated with detection off.
    pub ours_off_generated: u64,
    /// Our positions generated with the axon detector (the paper's method).
    pub ours_axon_generated: u64,
    /// The paper's on vs off change at this depth (fraction).
    pub paper_change: Option<f64>,
    /// Our axon vs off change of generated positions at this depth (fraction).
    pub ours_change: f64,
    /// Our positions entered with detection off (the secondary unit).
    pub ours_off_nodes: u64,
    /// Our positions entered with the axon detector.
    pub ours_axon_nodes: u64,
    /// The paper's key move with detection off (UCI).
    pub paper_off_move: Option<String>,
    /// The paper's key move with detection on (UCI).
    pub paper_on_move: Option<String>,
    /// Our key move with detection off (UCI).
    pub ours_off_move: String,
    /// Our key move with the axon detector (UCI).
    pub ours_axon_move: String,
}

/// How linear's overhead was measured to a target precision: paired (off, linear) rounds of the
/// whole iterative-deepening search, after the fixed rounds, until the interval was narrow
/// enough or a cap was hit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adaptive {
    /// The detector measured (`linear`).
    pub detector: DetectorId,
    /// Target half-width of the overhead interval.
    pub target: f64,
    /// Paired rounds in all (the fixed ones included).
    pub rounds: usize,
    /// Rounds added after the fixed ones.
    pub extra_rounds: usize,
    /// Half-width reached.
    pub half_width: f64,
    /// Wall time of the added rounds, seconds (one measurement: a single sample).
    pub seconds: Estimate,
    /// Why it stopped: `target`, `rounds cap` or `time cap`.
    pub stopped: String,
}

/// Everything written to `results.json`, and all the page needs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    /// WAC.018.
    pub position: String,
    /// How the report was made.
    pub meta: Meta,
    /// No randomness is involved.
    pub seed: Option<u64>,
    /// The settings and the searcher's configuration.
    pub config: Setup,
    /// The paper's tables and totals as typed in (`datasets/paper/axon-tables.json`).
    pub paper: PaperRecord,
    /// One run per configuration and depth, configurations in the order of
    /// [`summary`](Self::summary).
    pub runs: Vec<Run>,
    /// Totals per configuration: `off` first, then every search detector.
    pub summary: Vec<Summary>,
    /// Per depth, the paper's node counts beside our generated positions (the same unit).
    #[serde(default)]
    pub comparison: Vec<Comparison>,
    /// The adaptive measurement of linear's overhead, if it ran.
    #[serde(default)]
    pub overhead_adaptive: Option<Adaptive>,
    /// The depth of the searches whose instructions callgrind counted
    /// ([`Summary::overhead_instructions`]); `None` when nothing was counted.
    #[serde(default)]
    pub instructions_depth: Option<u32>,
    /// The paper's claims against ours, each with the scope both cover and the decision
    /// (`crate::compare`); the verdict is rendered from them.
    #[serde(default)]
    pub claims: Vec<crate::compare::Comparison>,
    /// The generated sentence comparing our result with the paper's.
    pub verdict: String,
    /// Figure 1 and Diep–Axon.
    pub cases: Vec<Case>,
}

impl Results {
    /// The configurations searched, in report order (`off`, then the detectors).
    pub fn configurations(&self) -> Vec<&str> {
        self.summary.iter().map(|s| s.detector.name()).collect()
    }

    /// The WAC.018 runs of configuration `name`, by depth.
    pub fn runs_of(&self, name: &str) -> Vec<&Run> {
        runs_of(&self.runs, name)
    }
}

/// The runs of configuration `name` among `runs`, in their order.
pub fn runs_of<'a>(runs: &'a [Run], name: &str) -> Vec<&'a Run> {
    runs.iter().filter(|r| r.detector == name).collect()
}
