//! The timing loop of `replab bench`'s micro-benchmarks and the measurement of every scenario,
//! the walk and the table sizes with it.
//!
//! [`time_round_robin`] is the one timing helper: each job's iteration count is calibrated to a
//! batch time, then in every round the copy-make of one quiet move (the yardstick), each job
//! once, and the yardstick again are timed; a job's figure is its median over rounds, and its
//! ratio the median of its per-round ratios to the yardstick, so every cost can also be given
//! as a ratio to one make/unmake pair measured alongside it.
//!
//! What is timed is the workloads' [`jobs`](super::jobs), which criterion's target
//! `benches/detectors.rs` times too, with its own sampling: one measurement code, two timers.
//! This loop stays because the page needs what it alone gives — every job's ratio to a
//! copy-make timed in the same round, with intervals, within `replab bench`'s run — and
//! criterion stays as the independent check the page shows beside it.

use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use replab_detect::{Detector, Stats};
use replab_registry::{DetectorId, with_detector};

use crate::stats::{Estimate, median, median_ci};

use super::{
    jobs::{Job, cycle_job, make_job, walk_job},
    scenarios::{
        CYCLE_IDS, HISTORY_LENGTHS, HISTORY_RUN, ROOT_RULE, RUN_LENGTHS, Scenario, SizedVisitor,
        history_scenarios, run_scenarios, table_size_runs,
    },
    walk::{Walk, WalkTally},
};
use crate::Progress;

/// How long the timing loop measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Rounds timed; the median is reported.
    pub reps: usize,
    /// Target duration of one batch.
    pub batch: Duration,
}

impl Budget {
    /// `replab bench --quick`: 21 rounds of 0.2 ms batches (about 3 s in all).
    pub const QUICK: Budget = Budget {
        reps: 21,
        batch: Duration::from_micros(200),
    };
    /// `replab bench`: 61 rounds of 0.5 ms batches (about 15 s in all).
    pub const FULL: Budget = Budget {
        reps: 61,
        batch: Duration::from_micros(500),
    };
}

/// Timed calls of each calibration step; the fastest counts.
const CALIBRATION_TRIES: usize = 3;

/// Iterations of `job` that take about `batch`. One untimed call first (the first touch of
/// the job's memory), then each step's time is the fastest of [`CALIBRATION_TRIES`] calls, so
/// one slow call (a page fault, a preemption) does not make the batch a few iterations long:
/// timed that way, `off`'s cycle, a few nanoseconds, once came out 30 times its cost in every
/// round of a short run (the clock's own cost in each batch).
fn calibrate(job: &mut Job<'_>, batch: Duration) -> u64 {
    let target = batch.as_secs_f64().max(1e-6);
    job(1);
    let mut iters = 1u64;
    loop {
        let took = fastest(job, iters);
        if took >= target / 4.0 || iters >= 1 << 40 {
            return ((iters as f64) * target / took.max(1e-9)).ceil().max(1.0) as u64;
        }
        iters = iters.saturating_mul(if took < target / 100.0 { 16 } else { 4 });
    }
}

/// Seconds of the fastest of [`CALIBRATION_TRIES`] calls of `job` with `iters` iterations.
fn fastest(job: &mut Job<'_>, iters: u64) -> f64 {
    (0..CALIBRATION_TRIES)
        .map(|_| {
            let t = Instant::now();
            job(iters);
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Nanoseconds per iteration of one batch of `iters` iterations of `job`.
fn time_batch(job: &mut Job<'_>, iters: u64) -> f64 {
    let t = Instant::now();
    job(iters);
    t.elapsed().as_nanos() as f64 / iters as f64
}

/// A job's time: median nanoseconds per iteration, and the median over rounds of its ratio to
/// the yardstick timed in the same round, each with its 95% interval
/// ([`crate::stats::median_ci`] over the rounds, whose `n` counts them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timed {
    /// Median nanoseconds per iteration, with its interval.
    pub ns: Estimate,
    /// Median of (this round's time ÷ this round's yardstick time), with its interval.
    pub ratio: Estimate,
}

/// Times `jobs` round-robin: after one untimed round, each of `budget.reps` rounds times the
/// yardstick, every job once (a batch of about `budget.batch`), then the yardstick again, so a
/// burst of load from other processes hits a round rather than one job, and each ratio compares
/// times taken milliseconds apart. Returns the yardstick's median nanoseconds and each job's
/// [`Timed`].
pub fn time_round_robin(
    budget: Budget,
    yardstick: &mut Job<'_>,
    jobs: &mut [Job<'_>],
) -> (f64, Vec<Timed>) {
    let make_iters = calibrate(yardstick, budget.batch);
    let iters: Vec<u64> = jobs
        .iter_mut()
        .map(|j| calibrate(j, budget.batch))
        .collect();
    // One untimed round: first touches of memory and the clock ramping up stay out.
    time_batch(yardstick, make_iters);
    for (j, &n) in jobs.iter_mut().zip(&iters) {
        time_batch(j, n);
    }
    let reps = budget.reps.max(1);
    let mut make_samples = Vec::with_capacity(2 * reps);
    let mut ns = vec![Vec::with_capacity(reps); jobs.len()];
    let mut ratios = vec![Vec::with_capacity(reps); jobs.len()];
    for _ in 0..reps {
        let before = time_batch(yardstick, make_iters);
        let times: Vec<f64> = jobs
            .iter_mut()
            .zip(&iters)
            .map(|(j, &n)| time_batch(j, n))
            .collect();
        let after = time_batch(yardstick, make_iters);
        let make = (before + after) / 2.0;
        make_samples.extend([before, after]);
        for (i, t) in times.into_iter().enumerate() {
            ns[i].push(t);
            ratios[i].push(t / make);
        }
    }
    let timed = ns
        .iter()
        .zip(&ratios)
        .map(|(n, r)| Timed {
            ns: median_ci(n),
            ratio: median_ci(r),
        })
        .collect();
    (median(&make_samples), timed)
}

// ---------------------------------------------------------------------------------------------
// Everything, for `replab bench`

/// One timed cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct CycleResult {
    /// The detector ([`CYCLE_IDS`]).
    pub detector: DetectorId,
    /// Game-history plies.
    pub history: usize,
    /// Reversible run plies.
    pub run: usize,
    /// The child is a repetition.
    pub hit: bool,
    /// Median nanoseconds per cycle, with its interval over the rounds.
    pub ns: Estimate,
    /// Median ratio to one copy-make timed in the same round, with its interval.
    pub ratio: Estimate,
}

/// One detector replaying the walk, possibly at a non-default table size.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkResult {
    /// The detector.
    pub detector: DetectorId,
    /// Table entries (slots, counters), for the table detectors; 0 otherwise.
    pub entries: usize,
    /// Bytes of the detector's structures.
    pub memory_bytes: usize,
    /// Median nanoseconds per walk node, with its interval over the rounds.
    pub ns_per_node: Estimate,
    /// Median ratio of the cost per node to one copy-make timed in the same round, with its
    /// interval.
    pub ratio: Estimate,
    /// The replay against the oracle.
    pub tally: WalkTally,
    /// The detector's counters over one replay.
    pub stats: Stats,
}

/// Every figure of one micro-benchmark measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurements {
    /// The budget used.
    pub budget: Budget,
    /// Median nanoseconds per copy-make of a quiet move over the whole run.
    pub make_ns: f64,
    /// The copy-make median of each group of jobs timed together, in order.
    pub make_samples: Vec<f64>,
    /// Run-length scenarios (history [`super::scenarios::RUN_HISTORY`]), misses and hits.
    pub runs: Vec<CycleResult>,
    /// History-length scenarios (run [`HISTORY_RUN`]).
    pub histories: Vec<CycleResult>,
    /// Every detector of [`CYCLE_IDS`] on the walk at its default size.
    pub walk: Vec<WalkResult>,
    /// The table detectors on the walk at every size.
    pub tables: Vec<WalkResult>,
    /// Nodes of the walk.
    pub walk_nodes: usize,
    /// Wall time of the whole measurement, seconds.
    pub seconds: f64,
}

/// Number of progress units [`measure_all`] reports: one per scenario, one for the walk and
/// one for the table sizes.
pub fn total_steps() -> usize {
    let runs = RUN_LENGTHS.len() + RUN_LENGTHS.iter().filter(|&&r| r >= 4).count();
    runs + HISTORY_LENGTHS.len() + 2
}

/// Times every detector of [`CYCLE_IDS`] on each scenario (round-robin per scenario),
/// after checking each one's answer against the oracle.
fn time_scenarios(
    budget: Budget,
    scenarios: &[Scenario],
    yardstick: &mut Job<'_>,
    make_samples: &mut Vec<f64>,
    progress: &mut dyn Progress,
) -> Result<Vec<CycleResult>> {
    let mut out = Vec::new();
    for sc in scenarios {
        let mut jobs: Vec<Job<'_>> = Vec::with_capacity(CYCLE_IDS.len());
        for id in CYCLE_IDS {
            let name = id.name();
            let job = with_detector!(name, ROOT_RULE, |d| {
                cycle_job(name, d, sc).map_err(|e| anyhow!("benchmark scenario is wrong: {e}"))
            })
            .expect("CYCLE_IDS come from the registry")?;
            jobs.push(job);
        }
        let (make, timed) = time_round_robin(budget, yardstick, &mut jobs);
        make_samples.push(make);
        out.extend(
            CYCLE_IDS
                .iter()
                .zip(timed)
                .map(|(&detector, t)| CycleResult {
                    detector,
                    history: sc.history,
                    run: sc.run,
                    hit: sc.hit,
                    ns: t.ns,
                    ratio: t.ratio,
                }),
        );
        progress.advance(1);
    }
    Ok(out)
}

/// A detector prepared by [`walk_job`], with its id and table size.
type WalkEntry<'a> = (DetectorId, usize, (WalkTally, Stats, usize, Job<'a>));

/// Collects the table-size runs as prepared walk replays.
struct Sized<'a> {
    walk: &'a Walk,
    entries: Vec<WalkEntry<'a>>,
}

impl SizedVisitor for Sized<'_> {
    fn visit<D: Detector + 'static>(&mut self, name: &'static str, entries: usize, detector: D) {
        let id = name
            .parse()
            .expect("the table-size runs name rows of the registry");
        self.entries
            .push((id, entries, walk_job(detector, self.walk)));
    }
}

/// Times the prepared walk replays round-robin.
fn time_walks(
    budget: Budget,
    walk: &Walk,
    entries: Vec<WalkEntry<'_>>,
    yardstick: &mut Job<'_>,
    make_samples: &mut Vec<f64>,
) -> Vec<WalkResult> {
    let mut info = Vec::new();
    let mut jobs = Vec::new();
    for (name, size, (tally, stats, memory, job)) in entries {
        info.push((name, size, tally, stats, memory));
        jobs.push(job);
    }
    let (make, timed) = time_round_robin(budget, yardstick, &mut jobs);
    make_samples.push(make);
    let nodes = walk.len().max(1) as f64;
    info.into_iter()
        .zip(timed)
        .map(
            |((detector, entries, tally, stats, memory_bytes), t)| WalkResult {
                detector,
                entries,
                memory_bytes,
                ns_per_node: t.ns.map(|v| v / nodes),
                ratio: t.ratio.map(|v| v / nodes),
                tally,
                stats,
            },
        )
        .collect()
}

/// Times every scenario, the walk and the table sizes with `budget`, checking each detector's
/// answer against the oracle first. Reports one stage of [`total_steps`] units to `progress`.
///
/// Each scenario's detectors are timed round-robin together with the copy-make yardstick
/// ([`time_round_robin`]); the walk's detectors likewise, and the table sizes likewise.
///
/// # Errors
/// If a detector's probe disagrees with the oracle on a scenario (a bug in the scenarios or in
/// the detector).
pub fn measure_all(budget: Budget, progress: &mut dyn Progress) -> Result<Measurements> {
    let start = Instant::now();
    progress.stage("micro-benchmarks", total_steps() as u64);
    let runs_sc = run_scenarios();
    let make_sc = runs_sc
        .iter()
        .find(|s| s.run == HISTORY_RUN && !s.hit)
        .expect("the run of HISTORY_RUN is measured");
    let mut yardstick = make_job(make_sc);
    let mut make_samples = Vec::new();
    let runs = time_scenarios(
        budget,
        &runs_sc,
        &mut yardstick,
        &mut make_samples,
        progress,
    )?;
    let histories = time_scenarios(
        budget,
        &history_scenarios(),
        &mut yardstick,
        &mut make_samples,
        progress,
    )?;

    let walk = Walk::standard();
    let all: Vec<WalkEntry<'_>> = CYCLE_IDS
        .iter()
        .map(|&id| {
            let prepared = with_detector!(id.name(), ROOT_RULE, |d| walk_job(d, &walk))
                .expect("CYCLE_IDS come from the registry");
            (id, 0, prepared)
        })
        .collect();
    let walk_results = time_walks(budget, &walk, all, &mut yardstick, &mut make_samples);
    progress.advance(1);

    let mut sized = Sized {
        walk: &walk,
        entries: Vec::new(),
    };
    table_size_runs(&mut sized);
    let tables = time_walks(
        budget,
        &walk,
        sized.entries,
        &mut yardstick,
        &mut make_samples,
    );
    progress.advance(1);

    let make_ns = median(&make_samples);
    Ok(Measurements {
        budget,
        make_ns,
        make_samples,
        runs,
        histories,
        walk: walk_results,
        tables,
        walk_nodes: walk.len(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Recorded;
    use replab_registry::{DETECTORS, TableLimit};

    #[test]
    fn round_robin_times_are_positive() {
        let sc = Scenario::new(0, 8, false);
        let budget = Budget {
            reps: 3,
            batch: Duration::from_micros(200),
        };
        let mut yardstick = make_job(&sc);
        let mut jobs =
            vec![cycle_job("linear", replab_registry::LinearDetector::new(), &sc).unwrap()];
        let (make, timed) = time_round_robin(budget, &mut yardstick, &mut jobs);
        assert!(make > 0.0);
        let t = timed[0];
        assert!(t.ns.value > 0.0 && t.ratio.value > 0.0, "{timed:?}");
        assert_eq!(t.ns.interval.n, 3);
        assert!(t.ns.interval.contains(t.ns.value), "{t:?}");
        assert!(t.ratio.interval.contains(t.ratio.value), "{t:?}");
    }

    /// A job of `spin` additions per iteration whose calls numbered in `slow` (from 0) first
    /// sleep 2 ms: a page fault or a preemption, larger than a batch.
    fn stalling_job(slow: &'static [usize], spin: u64) -> Job<'static> {
        let mut calls = 0usize;
        Box::new(move |iters| {
            if slow.contains(&calls) {
                std::thread::sleep(Duration::from_millis(2));
            }
            calls += 1;
            let mut x = 0u64;
            for i in 0..iters * spin {
                x = std::hint::black_box(x.wrapping_add(i));
            }
            std::hint::black_box(x);
        })
    }

    #[test]
    fn one_slow_call_does_not_shorten_the_batch() {
        let batch = Duration::from_micros(200);
        // The iterations a batch gets with no stall (the fastest of a few calibrations, so
        // the reference itself is not a stalled one).
        let steady = (0..3)
            .map(|_| calibrate(&mut stalling_job(&[], 100), batch))
            .max()
            .unwrap();
        assert!(steady > 8, "{steady} iterations of 100 additions in 200 µs");
        // A stall of ten batches on the first call, or on the first timed one: a count taken
        // from that call would be a few iterations.
        for slow in [&[0][..], &[1][..]] {
            let n = calibrate(&mut stalling_job(slow, 100), batch);
            assert!(
                n * 4 >= steady,
                "stall on call {slow:?}: {n} iterations, {steady} without"
            );
        }
    }

    #[test]
    fn measure_all_times_everything_once() {
        let budget = Budget {
            reps: 1,
            batch: Duration::from_micros(20),
        };
        let mut progress = Recorded::default();
        let m = measure_all(budget, &mut progress).unwrap();
        assert_eq!(
            progress.stages,
            [("micro-benchmarks".to_owned(), total_steps() as u64)]
        );
        assert_eq!(progress.done, [total_steps() as u64]);
        let n = CYCLE_IDS.len();
        assert_eq!(m.runs.len(), 14 * n);
        assert_eq!(m.histories.len(), HISTORY_LENGTHS.len() * n);
        assert_eq!(m.walk.len(), n);
        assert_eq!(
            m.tables.len(),
            DETECTORS.iter().map(|d| d.size_sweep.len()).sum::<usize>()
        );
        let cycles = m.runs.iter().chain(&m.histories);
        assert!(
            cycles
                .clone()
                .all(|c| c.ns.value > 0.0 && c.ratio.value > 0.0)
        );
        assert!(
            m.walk
                .iter()
                .chain(&m.tables)
                .all(|w| w.ns_per_node.value > 0.0)
        );
        // The smallest tables lose positions (a miss counted or a repetition missed) where
        // their table limit says they can, and back-trace in vain where it says they cannot
        // (rookie's counters).
        for row in DETECTORS.iter().filter(|d| d.caps.table_size) {
            let smallest = m.tables.iter().rfind(|t| t.detector == row.id).unwrap();
            if row.caps.table_limit == TableLimit::None {
                assert!(smallest.stats.futile > 0, "{}", row.name);
            } else {
                let lost = smallest.stats.misses + smallest.tally.missed;
                assert!(lost > 0, "{}: {smallest:?}", row.name);
            }
        }
        // Exact rows never report a repetition that is not one.
        assert!(
            m.walk
                .iter()
                .all(|w| w.tally.false_reports == 0 || !w.detector.caps().exact)
        );
    }
}
