//! The vocabulary of the Axon experiment's results: what `results.json` holds and the page and
//! summary table are drawn from. Nothing here searches.

use replab_report::Meta;
use replab_search::Counters;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One row of the paper's Tables 2 and 3.
#[derive(Clone, Debug, Deserialize)]
pub struct PaperRow {
    /// Depth in plies.
    pub depth: u32,
    /// Key move, UCI.
    pub best_move: String,
    /// Key move, SAN.
    pub best_move_san: String,
    /// Evaluation in centipawns, White's view.
    pub eval_cp: i32,
    /// Node count as printed.
    pub nodes: u64,
}

/// The totals printed under the tables.
#[derive(Clone, Debug, Deserialize)]
pub struct PaperTotals {
    /// Terminal nodes and generated positions with detection off.
    pub off: PaperCounts,
    /// The same with detection on, plus repetitions.
    pub on: PaperCounts,
    /// Time change on vs off, percent (−10).
    pub time_change_percent: f64,
}

/// Printed totals of one modality.
#[derive(Clone, Debug, Deserialize)]
pub struct PaperCounts {
    /// Terminal nodes evaluated.
    pub terminal_nodes: u64,
    /// Positions generated.
    pub generated: u64,
    /// Repetitions noted (detection on only).
    #[serde(default)]
    pub repetitions: Option<u64>,
}

/// The paper's data, typed.
#[derive(Clone, Debug, Deserialize)]
pub struct Paper {
    /// Table 2 (detection off).
    pub off: Vec<PaperRow>,
    /// Table 3 (detection on).
    pub on: Vec<PaperRow>,
    /// Totals.
    pub totals: PaperTotals,
}

impl Paper {
    /// Relative change on vs off of terminal nodes, generated positions and time.
    pub fn changes(&self) -> (f64, f64, f64) {
        let t = &self.totals;
        (
            t.on.terminal_nodes as f64 / t.off.terminal_nodes as f64 - 1.0,
            t.on.generated as f64 / t.off.generated as f64 - 1.0,
            t.time_change_percent / 100.0,
        )
    }
}

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
    pub detector: String,
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
    /// Wall time in milliseconds (the fastest of the repeated runs for WAC.018).
    pub time_ms: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Principal variation (UCI).
    pub pv: Vec<String>,
}

/// Totals of one configuration over all depths, and the change against `off`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    /// `off` or a detector name.
    pub detector: String,
    /// The counters summed over all depths.
    #[serde(flatten)]
    pub counters: Counters,
    /// Summed time, ms.
    pub time_ms: f64,
    /// Nodes per second over the whole run.
    pub nps: f64,
    /// NPS(off) / NPS(this).
    pub overhead: f64,
    /// Relative change vs off (fractions, e.g. −0.18).
    pub nodes_change: f64,
    /// Relative change of terminal nodes vs off.
    pub terminal_nodes_change: f64,
    /// Relative change of generated moves vs off.
    pub generated_change: f64,
    /// Relative change of time vs off.
    pub time_change: f64,
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

/// The search configuration as recorded.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ConfigRecord {
    /// Deepest iteration.
    pub max_depth: u32,
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
    /// Runs per WAC.018 configuration (times: the fastest).
    pub repeat: u32,
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
    /// The searcher's configuration.
    pub config: ConfigRecord,
    /// The paper's tables and totals as typed in (`datasets/paper/axon-tables.json`).
    pub paper: PaperRecord,
    /// One run per configuration and depth, configurations in the order of
    /// [`summary`](Self::summary).
    pub runs: Vec<Run>,
    /// Totals per configuration: `off` first, then every search detector.
    pub summary: Vec<Summary>,
    /// The generated sentence comparing our result with the paper's.
    pub verdict: String,
    /// Figure 1 and Diep–Axon.
    pub cases: Vec<Case>,
}

impl Results {
    /// The configurations searched, in report order (`off`, then the detectors).
    pub fn configurations(&self) -> Vec<&str> {
        self.summary.iter().map(|s| s.detector.as_str()).collect()
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
