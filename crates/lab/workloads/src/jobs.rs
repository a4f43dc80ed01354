//! The micro-benchmarks' jobs: each scenario, the walk and the copy-make yardstick as a
//! [`Job`] that runs `n` iterations. One measurement code for both timers: `replab bench`'s
//! round-robin loop (`replab_cost::microbench::measure`, whose medians, intervals and
//! ratios the page shows) and criterion (`benches/detectors.rs`, which times the same jobs
//! with its own sampling as an independent check).

use std::hint::black_box;

use replab_detect::{Detector, Line, Stats};

use crate::{
    scenarios::{Scenario, cycles, makes},
    walk::{Walk, WalkTally},
};

/// Something to time: runs `n` iterations.
pub type Job<'a> = Box<dyn FnMut(u64) + 'a>;

/// The copy-make of the quiet move leading to `sc`'s child, as a [`Job`]: the yardstick.
pub fn make_job(sc: &Scenario) -> Job<'static> {
    let (pos, m) = (*sc.parent(), sc.child_move());
    Box::new(move |n| makes(&pos, m, n))
}

/// `detector` (named `name`) loaded with `sc`, cycling its child, as a [`Job`], after checking
/// its answer on `sc` against the oracle ([`Scenario::check`]).
///
/// # Errors
/// If the detector's probe disagrees with the oracle (a bug in the scenario or the detector).
pub fn cycle_job<'a, D: Detector + 'a>(
    name: &str,
    mut detector: D,
    sc: &'a Scenario,
) -> Result<Job<'a>, String> {
    sc.check(name, &mut detector)?;
    let mut line = Line::default();
    sc.load(&mut detector, &mut line);
    Ok(Box::new(move |n| cycles(&mut detector, &mut line, sc, n)))
}

/// `detector` loaded with the walk's game and replayed once: the tally, the counters of that
/// replay (history loading excluded), the memory it uses, and a [`Job`] replaying it again.
pub fn walk_job<'a, D: Detector + 'a>(
    mut detector: D,
    walk: &'a Walk,
) -> (WalkTally, Stats, usize, Job<'a>) {
    let mut line = Line::default();
    walk.load(&mut detector, &mut line);
    let before = detector.stats();
    let tally = walk.replay(&mut detector, &mut line);
    let stats = stats_delta(detector.stats(), before);
    let memory = detector.memory_bytes();
    let job = Box::new(move |n| {
        for _ in 0..n {
            black_box(walk.replay(&mut detector, &mut line));
        }
    });
    (tally, stats, memory, job)
}

/// Counters gained between `before` and `after`.
fn stats_delta(after: Stats, before: Stats) -> Stats {
    Stats {
        probes: after.probes - before.probes,
        hits: after.hits - before.hits,
        verified: after.verified - before.verified,
        futile: after.futile - before.futile,
        misses: after.misses - before.misses,
        collisions: after.collisions - before.collisions,
        overflows: after.overflows - before.overflows,
        comparisons: after.comparisons - before.comparisons,
    }
}
