//! Detector micro-benchmarks (issue 5, item 3): the cost of one push + probe + enter +
//! upcoming + leave + pop cycle per detector, as a function of the reversible run behind the
//! probed position and of the game-history length; the table detectors per node of a seeded
//! walk as a function of table size; and one copy-make of a quiet move as the yardstick.
//!
//! Results land in `target/criterion/<scenario>/<detector>/<len>/new/estimates.json`:
//!
//! | group | function | parameter |
//! |---|---|---|
//! | `make-unmake` | `copy-make` | `quiet` |
//! | `run-miss` | detector | run length (plies), history 100 |
//! | `run-hit` | detector | run length; the child repeats the position 4 plies back |
//! | `history` | detector | history length (plies), run 16 |
//! | `walk` | detector | walk nodes (per-node time: throughput elements) |
//! | `table-size` | `tt-open` / `filo` / `rookie` | entries (slots, counters) |
//!
//! What is timed is the workloads' jobs ([`replab_workloads::jobs`]: the scenarios, the walk
//! and the copy-make yardstick, each checked against the exact oracle first), the very code
//! `replab bench`'s round-robin loop times: criterion only brings its own sampling and
//! statistics, as an independent check of that loop (the micro-benchmark page shows both). `cargo bench -p replab-benches
//! --bench detectors -- --quick` runs them all briefly; a filter such as `run-miss/linear` runs
//! a subset.

use std::time::{Duration, Instant};

use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
    measurement::WallTime,
};
use replab_detect::Detector;
use replab_registry::with_detector;
use replab_workloads::{
    jobs::{Job, cycle_job, make_job, walk_job},
    scenarios::{
        CYCLE_DETECTORS, HISTORY_RUN, ROOT_RULE, Scenario, SizedVisitor, history_scenarios,
        run_scenarios, table_size_runs,
    },
    walk::Walk,
};

/// Times `job` as `id`: criterion asks for `iters` iterations, the job runs them in one call
/// (as `replab bench`'s loop runs a batch), and the call is timed.
fn bench_job(group: &mut BenchmarkGroup<'_, WallTime>, id: BenchmarkId, mut job: Job<'_>) {
    group.bench_function(id, |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            job(iters);
            start.elapsed()
        })
    });
}

/// Benchmarks one cycle of `detector` on `sc` under `BenchmarkId::new(name, param)`.
fn bench_cycle<D: Detector>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    param: usize,
    detector: D,
    sc: &Scenario,
) {
    let job = cycle_job(name, detector, sc)
        .unwrap_or_else(|e| panic!("benchmark scenario is wrong: {e}"));
    bench_job(group, BenchmarkId::new(name, param), job);
}

fn bench_make(c: &mut Criterion) {
    let sc = run_scenarios()
        .into_iter()
        .find(|s| s.run == HISTORY_RUN && !s.hit)
        .expect("the run of HISTORY_RUN is built");
    let mut group = c.benchmark_group("make-unmake");
    bench_job(
        &mut group,
        BenchmarkId::new("copy-make", "quiet"),
        make_job(&sc),
    );
    group.finish();
}

fn bench_runs(c: &mut Criterion) {
    let scenarios = run_scenarios();
    for hit in [false, true] {
        let mut group = c.benchmark_group(if hit { "run-hit" } else { "run-miss" });
        for sc in scenarios.iter().filter(|s| s.hit == hit) {
            for name in CYCLE_DETECTORS {
                with_detector!(name, ROOT_RULE, |d| bench_cycle(
                    &mut group, name, sc.run, d, sc
                ))
                .expect("CYCLE_DETECTORS come from the registry");
            }
        }
        group.finish();
    }
}

fn bench_histories(c: &mut Criterion) {
    let mut group = c.benchmark_group("history");
    for sc in history_scenarios() {
        for name in CYCLE_DETECTORS {
            with_detector!(name, ROOT_RULE, |d| bench_cycle(
                &mut group, name, sc.history, d, &sc
            ))
            .expect("CYCLE_DETECTORS come from the registry");
        }
    }
    group.finish();
}

/// Benchmarks one replay of `walk` by `detector` (throughput: nodes).
fn bench_walk<D: Detector>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    detector: D,
    walk: &Walk,
) {
    let (_, _, _, job) = walk_job(detector, walk);
    bench_job(group, id, job);
}

/// Benchmarks each table-size run on the walk, as `table-size/<detector>/<entries>`.
struct TableSizes<'g, 'c, 'w> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
    walk: &'w Walk,
}

impl SizedVisitor for TableSizes<'_, '_, '_> {
    fn visit<D: Detector + 'static>(&mut self, name: &'static str, entries: usize, detector: D) {
        bench_walk(
            self.group,
            BenchmarkId::new(name, entries),
            detector,
            self.walk,
        );
    }
}

fn bench_walks(c: &mut Criterion) {
    let walk = Walk::standard();
    let nodes = walk.len();
    let mut group = c.benchmark_group("walk");
    group.throughput(Throughput::Elements(nodes as u64));
    for name in CYCLE_DETECTORS {
        with_detector!(name, ROOT_RULE, |d| bench_walk(
            &mut group,
            BenchmarkId::new(name, nodes),
            d,
            &walk
        ))
        .expect("CYCLE_DETECTORS come from the registry");
    }
    group.finish();

    let mut group = c.benchmark_group("table-size");
    group.throughput(Throughput::Elements(nodes as u64));
    table_size_runs(&mut TableSizes {
        group: &mut group,
        walk: &walk,
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(700))
        .sample_size(20)
}

criterion_group! {
    name = detectors;
    config = config();
    targets = bench_make, bench_runs, bench_histories, bench_walks
}
criterion_main!(detectors);
