//! What a suite run produces: [`SuiteResults`] (the `results.json` of docs/contracts.md,
//! `replab suite`), the per-detector [`Aggregate`]s and the summary table printed to stdout.

use std::fmt::Write as _;

use replab_registry::DetectorId;
use replab_report::{Meta, fmt_delta_pct, fmt_ms};
use replab_search::Counters;
use serde::{Deserialize, Serialize};

use crate::stats::median_ci;

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
    pub detectors: Vec<DetectorId>,
    /// Interleaved timed runs of every search (1 in reports written before repeats existed).
    #[serde(default = "one")]
    pub repeats: usize,
}

fn one() -> usize {
    1
}

/// One searched (record, detector) pair, as written to `results.json`.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SuiteRun {
    /// Record id.
    pub id: String,
    /// 1-based line of the record in the EPD file.
    pub line: usize,
    /// `off` or a detector.
    pub detector: DetectorId,
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
    /// Wall time, all iterations, ms: the median of the `repeats` interleaved runs.
    pub time_ms: f64,
    /// 95% interval of that median ([`median_ci`]; with fewer than 6 runs the range of
    /// the runs, which covers less), ms.
    #[serde(default)]
    pub time_ms_ci: [f64; 2],
    /// The probability that `time_ms_ci` covers the true median ([`crate::stats::median_coverage`]
    /// of `repeats`: 0 for one run, 75% for three, at least 95% from six on).
    #[serde(default)]
    pub time_ms_coverage: f64,
    /// Timed runs behind `time_ms` (the counters of every run are identical).
    #[serde(default = "one")]
    pub repeats: usize,
    /// Each run's wall time, ms, in round order (round `r` searched this record with every
    /// detector once, one after the other).
    #[serde(default)]
    pub time_ms_samples: Vec<f64>,
    /// For `bm`/`am` records: whether the best move is a `bm` move and no `am` move.
    pub solved: Option<bool>,
    /// Plies of game history before the record's position.
    pub history_plies: usize,
}

/// Aggregate figures of one detector over the suite.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Aggregate {
    /// `off` or a detector.
    pub detector: DetectorId,
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
    /// Sum over records of the median wall times, ms.
    pub time_ms: f64,
    /// 95% interval of the total time, ms: [`median_ci`] over the per-round totals
    /// (`round_time_ms`), widened to contain `time_ms` if needed. The sum of per-record medians
    /// often lies below every round total: a search interrupted by another process lifts its
    /// round's total but not its record's median.
    #[serde(default)]
    pub time_ms_ci: [f64; 2],
    /// Rounds behind the interval.
    #[serde(default = "one")]
    pub repeats: usize,
    /// The probability that the intervals of this many rounds cover the true median (95% from
    /// 6 rounds on; with 3, the range of the rounds, 75%).
    #[serde(default, alias = "time_ci_coverage")]
    pub time_ms_coverage: f64,
    /// Per round `r`: the sum over records of the time of round `r`, ms.
    #[serde(default)]
    pub round_time_ms: Vec<f64>,
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
    /// Time relative to `off`: the median over rounds of the paired ratios
    /// `round_time_ms[r] ÷ off's round_time_ms[r]`, minus 1 (so a slow spell of the machine,
    /// which slows both in the same round, cancels). It can differ a little from
    /// `time_ms ÷ off's time_ms − 1`.
    pub time_vs_off: Option<f64>,
    /// 95% interval of `time_vs_off` ([`median_ci`] over the same paired ratios, minus 1). When
    /// it contains 0 the suite measured no difference from `off`.
    #[serde(default)]
    pub time_vs_off_ci: Option<[f64; 2]>,
    /// The probability that `time_vs_off_ci` covers the true median ratio.
    #[serde(default)]
    pub time_vs_off_coverage: Option<f64>,
    /// Terminal nodes relative to `off`.
    pub terminal_vs_off: Option<f64>,
    /// Generated moves relative to `off`.
    pub generated_vs_off: Option<f64>,
}

impl Aggregate {
    /// Whether the time differs measurably from `off`'s: the interval of `time_vs_off` excludes
    /// 0. `None` without `off` (or for `off` itself), and when the interval covers less than
    /// 95% (too few repeats to decide).
    pub fn time_differs_from_off(&self) -> Option<bool> {
        if self.detector == DetectorId::Off || self.time_ms_coverage < crate::stats::LEVEL {
            return None;
        }
        self.time_vs_off_ci.map(|[lo, hi]| lo > 0.0 || hi < 0.0)
    }

    /// `time_vs_off` with its interval: `+3.1% [+1.2%, +5.0%]`, `—` without `off`.
    pub fn time_vs_off_text(&self) -> String {
        match (self.time_vs_off, self.time_vs_off_ci) {
            (Some(v), Some([lo, hi])) if self.detector != DetectorId::Off => format!(
                "{} [{}, {}]",
                fmt_delta_pct(v),
                fmt_delta_pct(lo),
                fmt_delta_pct(hi)
            ),
            (Some(v), _) => fmt_delta_pct(v),
            (None, _) => "—".into(),
        }
    }

    /// The total time's interval: `118–130 ms`.
    pub fn time_ci_text(&self) -> String {
        format!(
            "{}–{}",
            fmt_ms(self.time_ms_ci[0]).trim_end_matches(" ms"),
            fmt_ms(self.time_ms_ci[1])
        )
    }

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

/// `[low, high]` widened to contain `point`.
fn containing([lo, hi]: [f64; 2], point: f64) -> [f64; 2] {
    [lo.min(point), hi.max(point)]
}

/// A run's timed samples (its median alone for results written before repeats existed).
fn samples(run: &SuiteRun) -> Vec<f64> {
    if run.time_ms_samples.is_empty() {
        vec![run.time_ms]
    } else {
        run.time_ms_samples.clone()
    }
}

/// Per round, the sum over `runs` of that round's time (rounds every run has).
fn round_totals(runs: &[&SuiteRun]) -> Vec<f64> {
    let all: Vec<Vec<f64>> = runs.iter().map(|r| samples(r)).collect();
    let rounds = all.iter().map(Vec::len).min().unwrap_or(0);
    (0..rounds)
        .map(|k| all.iter().map(|s| s[k]).sum())
        .collect()
}

/// Totals, medians, solved counts and changes relative to `off`, per detector in order.
pub fn aggregate(runs: &[SuiteRun], detectors: &[DetectorId]) -> Vec<Aggregate> {
    fn of(runs: &[SuiteRun], d: DetectorId) -> impl Iterator<Item = &SuiteRun> {
        runs.iter().filter(move |r| r.detector == d)
    }
    let mut out: Vec<Aggregate> = detectors
        .iter()
        .map(|&d| {
            let rs: Vec<&SuiteRun> = of(runs, d).collect();
            let time_ms: f64 = rs.iter().map(|r| r.time_ms).sum();
            let round_time_ms = round_totals(&rs);
            let (time_ms_ci, repeats, time_ms_coverage) = if round_time_ms.is_empty() {
                ([time_ms, time_ms], 0, 0.0)
            } else {
                let e = median_ci(&round_time_ms);
                (containing(e.ci, time_ms), e.repeats, e.coverage)
            };
            let changed = rs
                .iter()
                .filter(|r| {
                    of(runs, DetectorId::Off)
                        .find(|o| o.id == r.id)
                        .is_some_and(|o| o.best_move != r.best_move)
                })
                .count();
            Aggregate {
                detector: d,
                records: rs.len(),
                nodes: rs.iter().map(|r| r.counters.nodes).sum(),
                terminal_nodes: rs.iter().map(|r| r.counters.terminal_nodes).sum(),
                generated: rs.iter().map(|r| r.counters.generated).sum(),
                repetitions: rs.iter().map(|r| r.counters.repetitions).sum(),
                time_ms,
                time_ms_ci,
                repeats,
                time_ms_coverage,
                round_time_ms,
                median_nodes: median_u64(rs.iter().map(|r| r.counters.nodes).collect()),
                median_time_ms: median_f64(rs.iter().map(|r| r.time_ms).collect()),
                solved: rs.iter().filter(|r| r.solved == Some(true)).count(),
                solvable: rs.iter().filter(|r| r.solved.is_some()).count(),
                best_move_changed: changed,
                nodes_vs_off: None,
                time_vs_off: None,
                time_vs_off_ci: None,
                time_vs_off_coverage: None,
                terminal_vs_off: None,
                generated_vs_off: None,
            }
        })
        .collect();
    if let Some(off) = out.iter().find(|a| a.detector == DetectorId::Off).cloned() {
        for a in &mut out {
            a.nodes_vs_off = rel(a.nodes as f64, off.nodes as f64);
            // Paired per-round ratios: a slow round slows `off` and the detector alike.
            let ratios: Vec<f64> = a
                .round_time_ms
                .iter()
                .zip(&off.round_time_ms)
                .filter(|(_, o)| **o > 0.0)
                .map(|(t, o)| t / o - 1.0)
                .collect();
            if ratios.is_empty() {
                a.time_vs_off = rel(a.time_ms, off.time_ms);
                a.time_vs_off_ci = None;
            } else {
                let e = median_ci(&ratios);
                a.time_vs_off = Some(e.median);
                a.time_vs_off_ci = Some(e.ci);
                a.time_vs_off_coverage = Some(e.coverage);
            }
            a.terminal_vs_off = rel(a.terminal_nodes as f64, off.terminal_nodes as f64);
            a.generated_vs_off = rel(a.generated as f64, off.generated as f64);
        }
    }
    out
}

/// The per-detector table `replab suite` prints to stdout: nodes, time (the sum of per-record
/// medians, with the interval of the round totals) and repetition draws, with changes against
/// `off` (the time's with the interval of the paired per-round ratios), then the sentence
/// comparing times ([`time_sentence`]).
pub fn summary_table(results: &SuiteResults) -> String {
    let mut s = format!(
        "{:<16} {:>12} {:>9} {:>12} {:>21} {:>27} {:>8} {:>8}\n",
        "detector",
        "nodes",
        "vs off",
        "time ms",
        "interval",
        "time vs off [interval]",
        "reps",
        "solved"
    );
    for a in &results.aggregates {
        let _ = writeln!(
            s,
            "{:<16} {:>12} {:>9} {:>12.1} {:>21} {:>27} {:>8} {:>8}",
            a.detector,
            a.nodes,
            a.nodes_vs_off.map_or("—".into(), fmt_delta_pct),
            a.time_ms,
            format!("{:.1}–{:.1}", a.time_ms_ci[0], a.time_ms_ci[1]),
            a.time_vs_off_text(),
            a.repetitions,
            a.solved_text()
        );
    }
    let _ = writeln!(s, "{}", time_sentence(results));
    s
}

/// The sentence comparing each detector's search time with `off`'s, by the interval of the
/// paired per-round ratios ([`Aggregate::time_vs_off_ci`]): measurably slower, measurably
/// faster, or "no measurable difference" when the interval contains 0.
pub fn time_sentence(results: &SuiteResults) -> String {
    let aggs = &results.aggregates;
    let rounds = aggs.first().map_or(0, |a| a.repeats);
    let coverage = aggs.first().map_or(0.0, |a| a.time_ms_coverage);
    if coverage < crate::stats::LEVEL {
        let medians: Vec<String> = aggs
            .iter()
            .filter(|a| a.detector != "off" && a.time_vs_off.is_some())
            .map(|a| format!("{} {}", a.detector, a.time_vs_off_text()))
            .collect();
        return format!(
            "Search time against off ({rounds} interleaved round{}; the interval of the paired \
             per-round ratios covers only {:.1}%): too few repeats to decide (6 rounds reach \
             95%). Medians, not rankings: {}.",
            if rounds == 1 { "" } else { "s" },
            coverage * 100.0,
            if medians.is_empty() {
                "none".to_string()
            } else {
                medians.join(", ")
            }
        );
    }
    let mut slower = Vec::new();
    let mut faster = Vec::new();
    let mut same = Vec::new();
    for a in aggs {
        match (a.time_differs_from_off(), a.time_vs_off) {
            (Some(true), Some(v)) if v > 0.0 => {
                slower.push(format!("{} ({})", a.detector, a.time_vs_off_text()));
            }
            (Some(true), Some(_)) => {
                faster.push(format!("{} ({})", a.detector, a.time_vs_off_text()));
            }
            (Some(false), _) => same.push(a.detector.to_string()),
            _ => {}
        }
    }
    if slower.is_empty() && faster.is_empty() && same.is_empty() {
        return "No detector was timed against off.".into();
    }
    let mut parts = Vec::new();
    if !slower.is_empty() {
        parts.push(format!("measurably slower than off: {}", slower.join(", ")));
    }
    if !faster.is_empty() {
        parts.push(format!("measurably faster than off: {}", faster.join(", ")));
    }
    if !same.is_empty() {
        parts.push(format!(
            "no measurable difference from off: {}",
            same.join(", ")
        ));
    }
    format!(
        "Search time against off ({rounds} interleaved round{}; interval of the paired \
         per-round ratios, coverage {:.0}%): {}.",
        if rounds == 1 { "" } else { "s" },
        coverage * 100.0,
        parts.join("; ")
    )
}
