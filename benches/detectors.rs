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
//! The scenarios and the walk are the workloads' own ([`replab_workloads::scenarios`],
//! [`replab_workloads::walk`]), the ones `replab bench` times with its simple loop; each
//! detector is checked against the exact oracle before timing. `cargo bench -p replab-benches
//! --bench detectors -- --quick` runs them all briefly; a filter such as `run-miss/linear` runs
//! a subset.

use std::{hint::black_box, time::Duration};

use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
    measurement::WallTime,
};
use replab_detect::{Detector, Line};
use replab_registry::with_detector;
use replab_workloads::{
    scenarios::{
        CYCLE_DETECTORS, HISTORY_RUN, ROOT_RULE, Scenario, SizedVisitor, cycles, history_scenarios,
        makes, run_scenarios, table_size_runs,
    },
    walk::Walk,
};

/// Benchmarks one cycle of `detector` on `sc` under `BenchmarkId::new(name, param)`.
fn bench_cycle<D: Detector>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    param: usize,
    detector: &mut D,
    sc: &Scenario,
) {
    if let Err(e) = sc.check(name, detector) {
        panic!("benchmark scenario is wrong: {e}");
    }
    let mut line = Line::default();
    sc.load(detector, &mut line);
    group.bench_with_input(BenchmarkId::new(name, param), sc, |b, sc| {
        b.iter(|| cycles(detector, &mut line, sc, 1))
    });
}

fn bench_make(c: &mut Criterion) {
    let sc = run_scenarios()
        .into_iter()
        .find(|s| s.run == HISTORY_RUN && !s.hit)
        .expect("the run of HISTORY_RUN is built");
    let (pos, m) = (*sc.parent(), sc.child_move());
    let mut group = c.benchmark_group("make-unmake");
    group.bench_function(BenchmarkId::new("copy-make", "quiet"), |b| {
        b.iter(|| makes(&pos, m, 1))
    });
    group.finish();
}

fn bench_runs(c: &mut Criterion) {
    let scenarios = run_scenarios();
    for hit in [false, true] {
        let mut group = c.benchmark_group(if hit { "run-hit" } else { "run-miss" });
        for sc in scenarios.iter().filter(|s| s.hit == hit) {
            for name in CYCLE_DETECTORS {
                with_detector!(name, ROOT_RULE, |d| bench_cycle(
                    &mut group, name, sc.run, &mut d, sc
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
                &mut group, name, sc.history, &mut d, &sc
            ))
            .expect("CYCLE_DETECTORS come from the registry");
        }
    }
    group.finish();
}

/// Benchmarks one replay of `walk` by `detector` (throughput: nodes).
fn bench_walk<D: Detector + ?Sized>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    detector: &mut D,
    walk: &Walk,
) {
    let mut line = Line::default();
    walk.load(detector, &mut line);
    group.bench_function(id, |b| {
        b.iter(|| black_box(walk.replay(detector, &mut line)))
    });
}

/// Benchmarks each table-size run on the walk, as `table-size/<detector>/<entries>`.
struct TableSizes<'g, 'c, 'w> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
    walk: &'w Walk,
}

impl SizedVisitor for TableSizes<'_, '_, '_> {
    fn visit<D: Detector + 'static>(
        &mut self,
        name: &'static str,
        entries: usize,
        mut detector: D,
    ) {
        bench_walk(
            self.group,
            BenchmarkId::new(name, entries),
            &mut detector,
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
            &mut d,
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
