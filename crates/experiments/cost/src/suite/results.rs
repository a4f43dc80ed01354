//! What a suite run produces: [`SuiteResults`] (the `results.json` of docs/contracts.md,
//! `replab suite`), the per-detector [`Aggregate`]s and the summary table printed to stdout.

use std::{cmp::Ordering, fmt::Write as _};

use replab_registry::DetectorId;
use replab_report::{Meta, fmt_delta_pct, fmt_ms};
use replab_search::Counters;
use serde::{Deserialize, Serialize};

use super::Config;
use crate::interval::{Noise, middle_ranks};
use crate::stats::{Estimate, Interval, Quantity, median_ci};

/// Everything `results.json` holds, and everything the page is drawn from.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SuiteResults {
    /// Provenance.
    pub meta: Meta,
    /// The EPD file, as given.
    pub epd: String,
    /// The settings and the searcher's.
    pub config: Setup,
    /// Records skipped with `--keep-going`, each message naming `file:line`.
    pub skipped: Vec<String>,
    /// Per detector, in the order searched.
    pub aggregates: Vec<Aggregate>,
    /// Per record and detector.
    pub runs: Vec<SuiteRun>,
}

/// The settings as searched, and the searcher's settings they leave at their defaults, as
/// recorded in `results.json` (`config`).
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Setup {
    /// The settings (written flat, beside what follows), the detectors as searched: the list
    /// read under the policy, `off` first.
    #[serde(flatten)]
    pub settings: Config,
    /// Contempt.
    pub contempt: i32,
    /// Null-move pruning.
    pub null_move: bool,
    /// TT size (log2 entries).
    pub tt_bits: Option<u32>,
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
    /// Wall time, all iterations, ms: the median of the interleaved runs with its 95% interval
    /// ([`median_ci`]; with fewer than 6 runs the range of the runs, which covers less; `n`:
    /// the timed runs, whose counters are all identical).
    pub time_ms: Estimate,
    /// Each run's wall time, ms, in round order (round `r` searched this record with every
    /// detector once, one after the other): the samples behind `time_ms`.
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
    /// Sum over records of the median wall times, ms, with the 95% interval of the total time:
    /// [`median_ci`] over the per-round totals (`round_time_ms_samples`), widened to contain the
    /// sum if needed (`n`: the rounds). The sum of per-record medians often lies below every
    /// round total: a search interrupted by another process lifts its round's total but not its
    /// record's median.
    pub time_ms: Estimate,
    /// Per round `r`: the sum over records of the time of round `r`, ms.
    pub round_time_ms_samples: Vec<f64>,
    /// Median nodes per record (the upper of the two middle records for an even count).
    pub median_nodes: u64,
    /// Median time per record, ms, with the interval of that median over the records.
    pub median_time_ms: Estimate,
    /// Records with `bm`/`am` solved.
    pub solved: usize,
    /// Records with `bm`/`am`.
    pub solvable: usize,
    /// Records whose best move differs from `off`'s.
    pub best_move_changed: usize,
    /// Nodes relative to `off` (−0.1 = 10% fewer).
    pub nodes_vs_off: Option<f64>,
    /// Time relative to `off`: the median over rounds of the paired ratios
    /// `round_time_ms_samples[r] ÷ off's round_time_ms_samples[r]`, minus 1 (so a slow spell of
    /// the machine, which slows both in the same round, cancels), with its 95% interval; when
    /// the interval contains 0 the suite measured no difference from `off`. It can differ a
    /// little from `time_ms ÷ off's time_ms − 1`.
    pub time_vs_off: Option<Estimate>,
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
        let e = self.time_vs_off?;
        if self.detector == DetectorId::Off || e.interval.coverage < crate::stats::LEVEL {
            return None;
        }
        Some(!e.interval.contains(0.0))
    }

    /// `time_vs_off` with its interval: `+3.1% [+1.2%, +5.0%]`, `—` without `off`.
    pub fn time_vs_off_text(&self) -> String {
        match self.time_vs_off {
            Some(e) if self.detector != DetectorId::Off => format!(
                "{} {}",
                fmt_delta_pct(e.value),
                e.interval.text(fmt_delta_pct)
            ),
            Some(e) => fmt_delta_pct(e.value),
            None => "—".into(),
        }
    }

    /// The total time's interval: `118–130 ms`, "too noisy to rank (±x%)" where it is too wide
    /// to mean anything ([`crate::interval::noise`]).
    pub fn time_ci_text(&self) -> String {
        let t = &self.time_ms;
        match crate::interval::noise(t.value, &t.interval, Quantity::Level) {
            Noise::TooNoisy(h) => crate::interval::too_noisy(h),
            _ => format!(
                "{}–{}",
                fmt_ms(t.interval.lo).trim_end_matches(" ms"),
                fmt_ms(t.interval.hi)
            ),
        }
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

/// The upper of the two middle values of `v` in the order `cmp` (the middle one for an odd
/// count; `None` for no value). The suite's `median_nodes` and `median_time_ms` take it rather
/// than the [`median`](crate::stats::median) (the mean of the two middle values), so that a
/// node count stays one of the sample's whole numbers and the recorded figures stay as they were.
fn upper_middle<T: Copy>(mut v: Vec<T>, cmp: impl FnMut(&T, &T) -> Ordering) -> Option<T> {
    v.sort_by(cmp);
    let [_, upper] = middle_ranks(v.len())?;
    Some(v[upper])
}

/// The median time per record (the upper middle of an even count) with the interval of the
/// median over the records; a single sample for fewer than two records.
fn median_time(times: &[f64]) -> Estimate {
    let median = upper_middle(times.to_vec(), f64::total_cmp).unwrap_or(0.0);
    if times.len() < 2 {
        return Estimate::single(median);
    }
    Estimate {
        value: median,
        interval: median_ci(times).interval,
    }
}

fn rel(x: f64, base: f64) -> Option<f64> {
    (base > 0.0).then(|| x / base - 1.0)
}

/// `interval` widened to contain `point`.
fn containing(interval: Interval, point: f64) -> Interval {
    Interval {
        lo: interval.lo.min(point),
        hi: interval.hi.max(point),
        ..interval
    }
}

/// A run's timed samples (its median alone for results written before repeats existed).
fn samples(run: &SuiteRun) -> Vec<f64> {
    if run.time_ms_samples.is_empty() {
        vec![run.time_ms.value]
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
            let sum: f64 = rs.iter().map(|r| r.time_ms.value).sum();
            let round_time_ms_samples = round_totals(&rs);
            let time_ms = Estimate {
                value: sum,
                interval: if round_time_ms_samples.is_empty() {
                    Interval::single(sum)
                } else {
                    containing(median_ci(&round_time_ms_samples).interval, sum)
                },
            };
            let medians: Vec<f64> = rs.iter().map(|r| r.time_ms.value).collect();
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
                round_time_ms_samples,
                median_nodes: upper_middle(rs.iter().map(|r| r.counters.nodes).collect(), u64::cmp)
                    .unwrap_or(0),
                median_time_ms: median_time(&medians),
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
    if let Some(off) = out.iter().find(|a| a.detector == DetectorId::Off).cloned() {
        for a in &mut out {
            a.nodes_vs_off = rel(a.nodes as f64, off.nodes as f64);
            // Paired per-round ratios: a slow round slows `off` and the detector alike.
            let ratios: Vec<f64> = a
                .round_time_ms_samples
                .iter()
                .zip(&off.round_time_ms_samples)
                .filter(|(_, o)| **o > 0.0)
                .map(|(t, o)| t / o - 1.0)
                .collect();
            a.time_vs_off = if ratios.is_empty() {
                rel(a.time_ms.value, off.time_ms.value).map(Estimate::single)
            } else {
                Some(median_ci(&ratios))
            };
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
            a.time_ms.value,
            a.time_ms.interval.ends_text(|x| format!("{x:.1}")),
            a.time_vs_off_text(),
            a.repetitions,
            a.solved_text()
        );
    }
    let _ = writeln!(s, "{}", time_sentence(results));
    s
}

/// The sentence comparing each detector's search time with `off`'s, by the interval of the
/// paired per-round ratios ([`Aggregate::time_vs_off`]): measurably slower, measurably
/// faster, or "no measurable difference" when the interval contains 0.
pub fn time_sentence(results: &SuiteResults) -> String {
    let aggs = &results.aggregates;
    let rounds = aggs.first().map_or(0, |a| a.time_ms.interval.n);
    let coverage = aggs.first().map_or(0.0, |a| a.time_ms.interval.coverage);
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
            (Some(true), Some(v)) if v.value > 0.0 => {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The figure recorded before the one median: the value at index `len / 2` of the sorted
    /// values, 0 for none.
    fn recorded(mut v: Vec<u64>) -> u64 {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    }

    #[test]
    fn the_upper_middle_is_the_figure_recorded_before() {
        for v in [
            vec![],
            vec![7],
            vec![4, 1, 3, 2],
            vec![5, 1, 3],
            vec![9, 9, 2, 2, 5, 8],
        ] {
            let ours = upper_middle(v.clone(), u64::cmp).unwrap_or(0);
            assert_eq!(ours, recorded(v.clone()), "{v:?}");
        }
        // An even count takes the upper middle, not the mean of the two (2.5).
        assert_eq!(
            upper_middle(vec![4.0, 1.0, 3.0, 2.0], f64::total_cmp),
            Some(3.0)
        );
        assert_eq!(median_time(&[4.0, 1.0, 3.0, 2.0]).value, 3.0);
    }
}
