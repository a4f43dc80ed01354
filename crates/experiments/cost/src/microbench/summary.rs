//! The micro-benchmark summary: what `results.json` holds under `summary`, computed from the
//! raw [`Measurements`] (ratios, rates, the cheapest detector per run length and the sentence
//! naming it), and the number formats the page shares with that sentence.

use replab_registry::DetectorId;
use replab_report::fmt_int;
use serde::{Deserialize, Serialize};

use crate::callgrind::InstructionCosts;
use crate::compare::COUNT_NOISE;
use crate::resolution;
use crate::stats::{Estimate, Interval, median_ci};

use super::{
    measure::{CycleResult, Measurements, WalkResult},
    scenarios::{
        CYCLE_IDS, HISTORY_LENGTHS, HISTORY_RUN, RUN_HISTORY, RUN_LENGTHS, reports_repetitions,
    },
    walk::{WALK_BRANCHING, WALK_DEPTH, WALK_HISTORY, WALK_RUN},
};

/// One detector's cycle at one scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CycleCost {
    /// The detector, written as its name (`off` is the harness floor; `cuckoo` times its
    /// `upcoming` call).
    pub detector: DetectorId,
    /// Plies of game history before the run.
    pub history: usize,
    /// Reversible plies behind the probed position.
    pub run: usize,
    /// The probed position repeats the one 4 plies back.
    pub hit: bool,
    /// Median nanoseconds per push + probe + enter + upcoming + leave + pop (on a hit: push +
    /// probe + pop), with its 95% interval over the rounds ([`crate::stats::median_ci`]: its
    /// `n` is the rounds, its `coverage` what they give).
    pub ns: Estimate,
    /// Median over rounds of this cycle's time ÷ one copy-make of a quiet move timed in the
    /// same round (so machine load cancels), with its interval.
    pub ratio: Estimate,
}

/// One detector replaying the seeded walk, possibly at a non-default table size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WalkCost {
    /// The detector, written as its name.
    pub detector: DetectorId,
    /// Table entries (slots, counters) of the table detectors; 0 for the others.
    pub entries: usize,
    /// Bytes of the detector's structures.
    pub memory_bytes: usize,
    /// Median nanoseconds per walk node (push, probe, and enter/upcoming/leave unless a
    /// repetition stops the line, pop), with its 95% interval over the rounds.
    pub ns_per_node: Estimate,
    /// Median over rounds of the time per node ÷ one copy-make timed in the same round, with
    /// its interval.
    pub ratio: Estimate,
    /// Nodes probed.
    pub nodes: u64,
    /// Nodes entered.
    pub enters: u64,
    /// Nodes the exact oracle finds repeated.
    pub repetitions: u64,
    /// Of those, reported by the detector.
    pub found: u64,
    /// Of those, not reported (e.g. a position the table could not store).
    pub missed: u64,
    /// Reports where the oracle finds no repetition.
    pub false_reports: u64,
    /// The detector's `collisions` counter.
    pub collisions: u64,
    /// The detector's `misses` counter (positions it could not store).
    pub misses: u64,
    /// The detector's `futile` counter (candidate hits refuted, e.g. futile back-traces).
    pub futile: u64,
    /// The detector's `probes` counter.
    pub probes: u64,
    /// `collisions / enters`.
    pub collision_rate: f64,
    /// `misses / enters`: positions left out of the table.
    pub miss_rate: f64,
    /// `futile / probes`: the false-hit rate of a filter (rookie's counters).
    pub false_hit_rate: f64,
}

/// The cheapest repetition-reporting detector at one run length, ranked by the ratio to one
/// copy-make timed alongside (the figure that survives load from other processes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cheapest {
    /// Reversible run (plies).
    pub run: usize,
    /// The detector with the lowest median ratio, written as its name.
    pub detector: DetectorId,
    /// Its nanoseconds per cycle, with their interval.
    pub ns: Estimate,
    /// Its ratio to one copy-make, with its interval.
    pub ratio: Estimate,
    /// Every repetition-reporting detector the ranking cannot tell from the cheapest (itself
    /// included): by instructions, within [`COUNT_NOISE`] of its count, fewest first; by the
    /// clock, an interval that does not clear its own by the timing's resolution, in the
    /// registry's order (their order by the clock changes from run to run: two quick runs of
    /// one build listed tt-open and rookie each way round).
    pub tied: Vec<DetectorId>,
    /// The cheapest's instructions per cycle, counted by callgrind, when every detector at
    /// this run length was counted: the ranking is then by these exact counts (the same in
    /// every run), the clock's figures beside them; `None`: ranked by the clock.
    #[serde(default)]
    pub instructions: Option<f64>,
}

/// Every figure of one micro-benchmark run (`summary` in `results.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MicrobenchSummary {
    /// Run with `--quick`.
    pub quick: bool,
    /// Wall time of the measurement, seconds: a single sample.
    pub seconds: Estimate,
    /// Timed batches per figure (the median is reported).
    pub reps: usize,
    /// Target milliseconds per batch: a setting, so exact.
    pub batch_ms: Estimate,
    /// Median nanoseconds per copy-make of a quiet move, the yardstick of every ratio, with the
    /// interval of the median over the groups' copy-make medians
    /// (`make_unmake_ns_samples`).
    pub make_unmake_ns: Estimate,
    /// The copy-make median of each group of figures timed together (one per scenario, the
    /// walk, the table sizes), in order: how the machine's speed drifted during the run.
    pub make_unmake_ns_samples: Vec<f64>,
    /// The detectors timed, in report order (written as their names).
    pub detectors: Vec<DetectorId>,
    /// The reversible run lengths (plies).
    pub run_lengths: Vec<usize>,
    /// Game history behind the run-length scenarios (plies).
    pub run_history: usize,
    /// The game-history lengths (plies).
    pub history_lengths: Vec<usize>,
    /// Reversible run in front of the history-length scenarios (plies).
    pub history_run: usize,
    /// Per detector and run length, no repetition.
    pub runs: Vec<CycleCost>,
    /// Per detector and run length (≥ 4), the position repeats the one 4 plies back.
    pub hits: Vec<CycleCost>,
    /// Per detector and history length.
    pub histories: Vec<CycleCost>,
    /// The walk: nodes, and its shape.
    pub walk_nodes: usize,
    /// `history/run/depth/branching` of the walk.
    pub walk_shape: String,
    /// Every detector on the walk, default sizes.
    pub walk: Vec<WalkCost>,
    /// The detectors with a configurable table (the registry's `table_size` rows) on the walk at
    /// every table size ([`super::scenarios::table_size_runs`]).
    pub tables: Vec<WalkCost>,
    /// The cheapest repetition-reporting detector per run length.
    pub cheapest: Vec<Cheapest>,
    /// A sentence naming the cheapest detector per run length, from these numbers.
    pub cheapest_sentence: String,
}

fn cycle_cost(r: &CycleResult) -> CycleCost {
    CycleCost {
        detector: r.detector,
        history: r.history,
        run: r.run,
        hit: r.hit,
        ns: r.ns,
        ratio: r.ratio,
    }
}

fn rate(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn walk_cost(r: &WalkResult) -> WalkCost {
    let (t, s) = (&r.tally, &r.stats);
    WalkCost {
        detector: r.detector,
        entries: r.entries,
        memory_bytes: r.memory_bytes,
        ns_per_node: r.ns_per_node,
        ratio: r.ratio,
        nodes: t.nodes,
        enters: t.enters,
        repetitions: t.repetitions,
        found: t.found,
        missed: t.missed,
        false_reports: t.false_reports,
        collisions: s.collisions,
        misses: s.misses,
        futile: s.futile,
        probes: s.probes,
        collision_rate: rate(s.collisions, t.enters),
        miss_rate: rate(s.misses, t.enters),
        false_hit_rate: rate(s.futile, s.probes),
    }
}

/// The copy-make yardstick: the measured median with the interval of the median over the
/// groups' copy-make medians (a single sample when there is one group or none).
fn yardstick(m: &Measurements) -> Estimate {
    let interval = match m.make_samples.as_slice() {
        [] => Interval::single(m.make_ns),
        samples => median_ci(samples).interval,
    };
    Estimate {
        value: m.make_ns,
        interval,
    }
}

/// Turns raw measurements into the summary (ratios, cheapest detectors by the clock, the
/// sentence).
pub fn summarise(m: &Measurements, quick: bool) -> MicrobenchSummary {
    summarise_with(m, quick, None)
}

/// [`summarise`], ranking each run length by `counts`' instructions per cycle where they
/// cover every detector there (`bench` counts them in its own step).
pub fn summarise_with(
    m: &Measurements,
    quick: bool,
    counts: Option<&InstructionCosts>,
) -> MicrobenchSummary {
    let runs: Vec<CycleCost> = m.runs.iter().filter(|r| !r.hit).map(cycle_cost).collect();
    let hits = m.runs.iter().filter(|r| r.hit).map(cycle_cost).collect();
    let floor = floor(quick);
    let cheapest = cheapest_per_run(&runs, floor, counts);
    let cheapest_sentence = cheapest_sentence(&cheapest, floor);
    MicrobenchSummary {
        quick,
        seconds: Estimate::single(m.seconds),
        reps: m.budget.reps,
        batch_ms: Estimate::exact(m.budget.batch.as_secs_f64() * 1e3),
        make_unmake_ns: yardstick(m),
        make_unmake_ns_samples: m.make_samples.clone(),
        detectors: CYCLE_IDS.to_vec(),
        run_lengths: RUN_LENGTHS.to_vec(),
        run_history: RUN_HISTORY,
        history_lengths: HISTORY_LENGTHS.to_vec(),
        history_run: HISTORY_RUN,
        runs,
        hits,
        histories: m.histories.iter().map(cycle_cost).collect(),
        walk_nodes: m.walk_nodes,
        walk_shape: format!(
            "history {WALK_HISTORY}, run {WALK_RUN}, depth {WALK_DEPTH}, {WALK_BRANCHING} children per node"
        ),
        walk: m.walk.iter().map(walk_cost).collect(),
        tables: m.tables.iter().map(walk_cost).collect(),
        cheapest,
        cheapest_sentence,
    }
}

/// The smallest resolution of the run's timings: [`resolution::TIME_RESOLUTION`], or the short
/// run's [`resolution::SHORT_RUN_RESOLUTION`] (its ratios moved by half between two runs).
pub(super) fn floor(quick: bool) -> f64 {
    if quick {
        resolution::SHORT_RUN_RESOLUTION
    } else {
        resolution::TIME_RESOLUTION
    }
}

/// Per run length, the cheapest repetition-reporting detector and those tied with it: by
/// `counts`' instructions per cycle where they cover every such detector at that run length
/// ([`cheapest_by_count`]), else by the clock ([`cheapest_by_clock`]).
fn cheapest_per_run(
    runs: &[CycleCost],
    floor: f64,
    counts: Option<&InstructionCosts>,
) -> Vec<Cheapest> {
    RUN_LENGTHS
        .iter()
        .filter_map(|&run| {
            let here: Vec<&CycleCost> = runs
                .iter()
                .filter(|c| c.run == run && reports_repetitions(c.detector))
                .collect();
            let exact: Option<Vec<f64>> = counts.and_then(|k| {
                here.iter()
                    .map(|c| k.per_cycle(c.detector.name(), run))
                    .collect()
            });
            match exact {
                Some(exact) if !here.is_empty() => Some(cheapest_by_count(run, &here, &exact)),
                _ => cheapest_by_clock(run, here, floor),
            }
        })
        .collect()
}

/// The detector with the fewest instructions per cycle (`exact[i]` is `here[i]`'s), tied with
/// every detector within [`COUNT_NOISE`] of it, fewest first.
fn cheapest_by_count(run: usize, here: &[&CycleCost], exact: &[f64]) -> Cheapest {
    let mut order: Vec<usize> = (0..here.len()).collect();
    order.sort_by(|&a, &b| exact[a].total_cmp(&exact[b]));
    let best = order[0];
    Cheapest {
        run,
        detector: here[best].detector,
        ns: here[best].ns,
        ratio: here[best].ratio,
        tied: order
            .iter()
            .filter(|&&i| exact[i] <= exact[best] * (1.0 + COUNT_NOISE))
            .map(|&i| here[i].detector)
            .collect(),
        instructions: Some(exact[best]),
    }
}

/// The detector with the lowest median ratio to a copy-make, tied with every detector whose
/// ratio interval does not clear its own by the timing's resolution (`floor`: its low end is
/// not that much above the cheapest's high end), overlapping ones included, in the registry's
/// order.
fn cheapest_by_clock(run: usize, mut here: Vec<&CycleCost>, floor: f64) -> Option<Cheapest> {
    here.sort_by(|a, b| a.ratio.value.total_cmp(&b.ratio.value));
    let best = *here.first()?;
    let mut tied: Vec<DetectorId> = here
        .iter()
        .filter(|c| within_resolution(c.ratio, best.ratio, floor))
        .map(|c| c.detector)
        .collect();
    tied.sort();
    Some(Cheapest {
        run,
        detector: best.detector,
        ns: best.ns,
        ratio: best.ratio,
        tied,
        instructions: None,
    })
}

/// Whether `other` does not clear `best` (the cheaper) by the timing's resolution `floor`: a
/// difference a rerun could undo, so the two are not ranked.
fn within_resolution(other: Estimate, best: Estimate, floor: f64) -> bool {
    other.overlaps(&best) || other.interval.lo <= best.interval.hi * (1.0 + floor)
}

/// Formats nanoseconds: one decimal below 100, whole numbers with separators above.
pub(super) fn fmt_ns(ns: f64) -> String {
    if !ns.is_finite() {
        "n/a".to_owned()
    } else if ns < 100.0 {
        format!("{ns:.1}")
    } else {
        fmt_int(ns.round() as u64)
    }
}

/// Formats instructions per cycle: whole numbers with separators.
fn fmt_instructions(n: f64) -> String {
    fmt_int(n.round() as u64)
}

/// Formats a ratio: two decimals below 10, whole numbers above.
pub(super) fn fmt_ratio(r: f64) -> String {
    if !r.is_finite() {
        "n/a".to_owned()
    } else if r < 10.0 {
        format!("{r:.2}")
    } else {
        format!("{r:.0}")
    }
}

fn fmt_range(lo: f64, hi: f64, f: fn(f64) -> String) -> String {
    let (a, b) = (f(lo), f(hi));
    if a == b { a } else { format!("{a}–{b}") }
}

/// Names the cheapest detector per run length, grouping consecutive run lengths with the same
/// set of tied detectors: "… — 0–8 plies: linear (0.28–0.39× a make/unmake, 6.6–9.5 ns); 16
/// plies: no measurable difference between linear and rookie (…); …".
fn cheapest_sentence(cheapest: &[Cheapest], floor: f64) -> String {
    let tie_set = |c: &Cheapest| {
        let mut t = c.tied.clone();
        t.sort();
        t
    };
    let mut groups: Vec<Vec<&Cheapest>> = Vec::new();
    for c in cheapest {
        match groups.last_mut() {
            Some(g)
                if tie_set(g[0]) == tie_set(c)
                    && g[0].instructions.is_some() == c.instructions.is_some() =>
            {
                g.push(c)
            }
            _ => groups.push(vec![c]),
        }
    }
    if groups.is_empty() {
        return "No detector was measured.".to_owned();
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|g| {
            let (first, last) = (g[0], g[g.len() - 1]);
            let runs = if first.run == last.run {
                format!("{} plies", first.run)
            } else {
                format!("{}–{} plies", first.run, last.run)
            };
            let fold = |f: fn(&Cheapest) -> f64| {
                g.iter()
                    .map(|c| f(c))
                    .fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
                        (lo.min(v), hi.max(v))
                    })
            };
            let (ns_lo, ns_hi) = fold(|c| c.ns.value);
            let (r_lo, r_hi) = fold(|c| c.ratio.value);
            let (i_lo, i_hi) = fold(|c| c.instructions.unwrap_or(f64::NAN));
            // Named in a fixed order, so that a rerun's tie reads the same.
            let who = match tie_set(first).as_slice() {
                [one] => one.to_string(),
                tied => format!("no measurable difference between {}", join_names(tied)),
            };
            let counted = if first.instructions.is_some() {
                format!(
                    "{} instructions a cycle by callgrind; ",
                    fmt_range(i_lo, i_hi, fmt_instructions)
                )
            } else {
                String::new()
            };
            format!(
                "{runs}: {who} ({counted}{}× a make/unmake, {} ns)",
                fmt_range(r_lo, r_hi, fmt_ratio),
                fmt_range(ns_lo, ns_hi, fmt_ns)
            )
        })
        .collect();
    let by_count = if cheapest.iter().any(|c| c.instructions.is_some()) {
        format!(
            "ranked by instructions per cycle where callgrind counted every detector (exact: \
             within {:.1}% of the fewest is tied), elsewhere ",
            COUNT_NOISE * 100.0
        )
    } else {
        "ranked ".to_owned()
    };
    format!(
        "Cheapest detector per enter + probe + leave by reversible run (no repetition, \
         {RUN_HISTORY} plies of game history; {by_count}by the median cost relative to one \
         make/unmake timed alongside; detectors whose 95% intervals overlap the cheapest's, or \
         come within {percent:.0}% of it, are tied) — {}.",
        parts.join("; "),
        percent = floor * 100.0
    )
}

/// "a", "a and b", "a, b and c".
pub(super) fn join_names<T: std::fmt::Display>(items: &[T]) -> String {
    let names: Vec<String> = items.iter().map(T::to_string).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
