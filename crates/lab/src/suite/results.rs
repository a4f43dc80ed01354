//! What a suite run produces: [`SuiteResults`] (the `results.json` of docs/contracts.md,
//! `replab suite`), the per-detector [`Aggregate`]s and the summary table printed to stdout.

use std::fmt::Write as _;

use replab_report::{Meta, fmt_delta_pct};
use replab_search::Counters;
use serde::{Deserialize, Serialize};

/// Everything `results.json` holds, and everything the page is drawn from.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SuiteResults {
    /// Provenance.
    pub meta: Meta,
    /// The EPD file, as given.
    pub epd: String,
    /// Search configuration.
    pub config: ConfigRecord,
    /// Records skipped with `--keep-going`, each message naming `file:line`.
    pub skipped: Vec<String>,
    /// Per detector, in the order searched.
    pub aggregates: Vec<Aggregate>,
    /// Per record and detector.
    pub runs: Vec<SuiteRun>,
}

/// The searcher configuration, as recorded in `results.json` (`config`).
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct ConfigRecord {
    /// Depth.
    pub depth: u32,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Policy name.
    pub policy: String,
    /// Contempt.
    pub contempt: i32,
    /// Null-move pruning.
    pub null_move: bool,
    /// TT size (log2 entries).
    pub tt_bits: Option<u32>,
    /// Detectors searched.
    pub detectors: Vec<String>,
}

/// One searched (record, detector) pair, as written to `results.json`.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SuiteRun {
    /// Record id.
    pub id: String,
    /// 1-based line of the record in the EPD file.
    pub line: usize,
    /// `off` or a detector name.
    pub detector: String,
    /// Draw policy.
    pub policy: String,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Best move (UCI), or `null` without legal moves.
    pub best_move: Option<String>,
    /// Score in centipawns from the side to move's view (mates encoded near ±30000).
    pub eval_cp: i32,
    /// The searcher's counters summed over all iterations: `nodes`, `terminal_nodes`,
    /// `generated`, `repetitions`, `probes`, `hits`.
    #[serde(flatten)]
    pub counters: Counters,
    /// Wall time, all iterations, ms.
    pub time_ms: f64,
    /// For `bm`/`am` records: whether the best move is a `bm` move and no `am` move.
    pub solved: Option<bool>,
    /// Plies of game history before the record's position.
    pub history_plies: usize,
}

/// Aggregate figures of one detector over the suite.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Aggregate {
    /// `off` or a detector name.
    pub detector: String,
    /// Records searched.
    pub records: usize,
    /// Sums over records.
    pub nodes: u64,
    /// Sum of terminal nodes.
    pub terminal_nodes: u64,
    /// Sum of generated moves.
    pub generated: u64,
    /// Sum of repetition draws scored.
    pub repetitions: u64,
    /// Sum of wall times, ms.
    pub time_ms: f64,
    /// Median nodes per record.
    pub median_nodes: u64,
    /// Median time per record, ms.
    pub median_time_ms: f64,
    /// Records with `bm`/`am` solved.
    pub solved: usize,
    /// Records with `bm`/`am`.
    pub solvable: usize,
    /// Records whose best move differs from `off`'s.
    pub best_move_changed: usize,
    /// Nodes relative to `off` (−0.1 = 10% fewer).
    pub nodes_vs_off: Option<f64>,
    /// Time relative to `off`.
    pub time_vs_off: Option<f64>,
    /// Terminal nodes relative to `off`.
    pub terminal_vs_off: Option<f64>,
    /// Generated moves relative to `off`.
    pub generated_vs_off: Option<f64>,
}

impl Aggregate {
    /// `solved/solvable`, or `—` when no record has `bm`/`am`.
    pub fn solved_text(&self) -> String {
        if self.solvable > 0 {
            format!("{}/{}", self.solved, self.solvable)
        } else {
            "—".into()
        }
    }
}

fn median_u64(mut v: Vec<u64>) -> u64 {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    v[v.len() / 2]
}

fn median_f64(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn rel(x: f64, base: f64) -> Option<f64> {
    (base > 0.0).then(|| x / base - 1.0)
}

/// Totals, medians, solved counts and changes relative to `off`, per detector in order.
pub fn aggregate(runs: &[SuiteRun], detectors: &[String]) -> Vec<Aggregate> {
    fn of<'a>(runs: &'a [SuiteRun], d: &'a str) -> impl Iterator<Item = &'a SuiteRun> + 'a {
        runs.iter().filter(move |r| r.detector == d)
    }
    let mut out: Vec<Aggregate> = detectors
        .iter()
        .map(|d| {
            let rs: Vec<&SuiteRun> = of(runs, d).collect();
            let changed = rs
                .iter()
                .filter(|r| {
                    of(runs, "off")
                        .find(|o| o.id == r.id)
                        .is_some_and(|o| o.best_move != r.best_move)
                })
                .count();
            Aggregate {
                detector: d.clone(),
                records: rs.len(),
                nodes: rs.iter().map(|r| r.counters.nodes).sum(),
                terminal_nodes: rs.iter().map(|r| r.counters.terminal_nodes).sum(),
                generated: rs.iter().map(|r| r.counters.generated).sum(),
                repetitions: rs.iter().map(|r| r.counters.repetitions).sum(),
                time_ms: rs.iter().map(|r| r.time_ms).sum(),
                median_nodes: median_u64(rs.iter().map(|r| r.counters.nodes).collect()),
                median_time_ms: median_f64(rs.iter().map(|r| r.time_ms).collect()),
                solved: rs.iter().filter(|r| r.solved == Some(true)).count(),
                solvable: rs.iter().filter(|r| r.solved.is_some()).count(),
                best_move_changed: changed,
                nodes_vs_off: None,
                time_vs_off: None,
                terminal_vs_off: None,
                generated_vs_off: None,
            }
        })
        .collect();
    if let Some(off) = out.iter().find(|a| a.detector == "off").cloned() {
        for a in &mut out {
            a.nodes_vs_off = rel(a.nodes as f64, off.nodes as f64);
            a.time_vs_off = rel(a.time_ms, off.time_ms);
            a.terminal_vs_off = rel(a.terminal_nodes as f64, off.terminal_nodes as f64);
            a.generated_vs_off = rel(a.generated as f64, off.generated as f64);
        }
    }
    out
}

/// The per-detector table `replab suite` prints to stdout: nodes, time and repetition draws,
/// with changes against `off`.
pub fn summary_table(results: &SuiteResults) -> String {
    let mut s = format!(
        "{:<16} {:>12} {:>9} {:>12} {:>9} {:>8} {:>8}\n",
        "detector", "nodes", "vs off", "time ms", "vs off", "reps", "solved"
    );
    for a in &results.aggregates {
        let _ = writeln!(
            s,
            "{:<16} {:>12} {:>9} {:>12.1} {:>9} {:>8} {:>8}",
            a.detector,
            a.nodes,
            a.nodes_vs_off.map_or("—".into(), fmt_delta_pct),
            a.time_ms,
            a.time_vs_off.map_or("—".into(), fmt_delta_pct),
            a.repetitions,
            a.solved_text()
        );
    }
    s
}
