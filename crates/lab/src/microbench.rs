//! Detector micro-benchmarks for `replab bench` (issue 5, item 3).
//!
//! The careful numbers come from criterion (`cargo bench -p replab-benches --bench detectors`);
//! `replab bench` runs the same scenarios of [`crate::scenarios`] through their simple
//! deterministic timing loop (median of several calibrated batches), so it needs no cargo at run
//! time. Every cost is also given as a ratio to one copy-make of a quiet move measured in the
//! same run, so the figures survive a noisy machine.
//!
//! [`run_microbench`] measures and returns a [`MicrobenchSummary`] (serialisable);
//! [`write_microbench`] writes `microbench.json` and the `microbench-*.svg` charts into a
//! [`ReportDir`] and returns the HTML sections for a page at the root of that directory.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::scenarios::{
    self, Budget, CYCLE_DETECTORS, CycleResult, HISTORY_LENGTHS, HISTORY_RUN, Measurements,
    RUN_HISTORY, RUN_LENGTHS, WALK_BRANCHING, WALK_DEPTH, WALK_HISTORY, WALK_RUN, WalkResult,
};
use anyhow::{Result, anyhow};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use replab_report::{
    BarChart, Cell, LineChart, ReportDir, Series, escape_html, fmt_int, fmt_pct, table_html,
};
use serde::Serialize;

/// The y-axis unit of the cycle charts.
const CYCLE_UNIT: &str = "ns per enter+probe+leave";

/// One detector's cycle at one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CycleCost {
    /// Detector name (`off` is the harness floor; `cuckoo` times its `upcoming` call).
    pub detector: String,
    /// Plies of game history before the run.
    pub history: usize,
    /// Reversible plies behind the probed position.
    pub run: usize,
    /// The probed position repeats the one 4 plies back.
    pub hit: bool,
    /// Median nanoseconds per push + probe + enter + upcoming + leave + pop (on a hit: push +
    /// probe + pop).
    pub ns: f64,
    /// Median over rounds of this cycle's time ÷ one copy-make of a quiet move timed in the
    /// same round (so machine load cancels).
    pub ratio: f64,
}

/// One detector replaying the seeded walk, possibly at a non-default table size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WalkCost {
    /// Detector name.
    pub detector: String,
    /// Table entries (slots, counters) of the table detectors; 0 for the others.
    pub entries: usize,
    /// Bytes of the detector's structures.
    pub memory_bytes: usize,
    /// Median nanoseconds per walk node (push, probe, and enter/upcoming/leave unless a
    /// repetition stops the line, pop).
    pub ns_per_node: f64,
    /// Median over rounds of the time per node ÷ one copy-make timed in the same round.
    pub ratio: f64,
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cheapest {
    /// Reversible run (plies).
    pub run: usize,
    /// Detector name.
    pub detector: String,
    /// Its nanoseconds per cycle.
    pub ns: f64,
    /// Its ratio to one copy-make.
    pub ratio: f64,
    /// Every repetition-reporting detector within [`TIE`] of the cheapest (itself included),
    /// cheapest first: differences this small are within the noise of a shared machine.
    pub tied: Vec<String>,
}

/// Detectors within this fraction of the cheapest count as tied for cheapest.
pub const TIE: f64 = 0.15;

/// Every figure of one micro-benchmark run (`microbench.json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MicrobenchSummary {
    /// Run with `--quick`.
    pub quick: bool,
    /// Wall time of the measurement, seconds.
    pub seconds: f64,
    /// Timed batches per figure (the median is reported).
    pub reps: usize,
    /// Target milliseconds per batch.
    pub batch_ms: f64,
    /// Median nanoseconds per copy-make of a quiet move, the yardstick of every ratio.
    pub make_unmake_ns: f64,
    /// The copy-make median of each group of figures timed together (one per scenario, the
    /// walk, the table sizes), in order: how the machine's speed drifted during the run.
    pub make_unmake_samples_ns: Vec<f64>,
    /// The detectors timed, in report order.
    pub detectors: Vec<String>,
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
    /// `tt-open`, `filo` and `rookie` on the walk at every table size.
    pub tables: Vec<WalkCost>,
    /// The cheapest repetition-reporting detector per run length.
    pub cheapest: Vec<Cheapest>,
    /// A sentence naming the cheapest detector per run length, from these numbers.
    pub cheapest_sentence: String,
}

/// The HTML a page shows for the micro-benchmarks: sections for [`replab_report::Page`].
#[derive(Clone, Debug, PartialEq)]
pub struct MicrobenchReport {
    /// One sentence for a landing page: the cheapest detector per run length.
    pub headline: String,
    /// `(heading, html)` sections; the figures refer to SVG files at the report directory's
    /// root.
    pub sections: Vec<(String, String)>,
}

/// Runs every micro-benchmark (`quick`: about 3 s; otherwise about 15 s on an idle machine),
/// with a progress bar on stderr, and summarises them.
pub fn run_microbench(quick: bool) -> Result<MicrobenchSummary> {
    let budget = if quick { Budget::QUICK } else { Budget::FULL };
    let bar = ProgressBar::with_draw_target(
        Some(scenarios::total_steps() as u64),
        ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed:>4} [{bar:32.cyan/blue}] {pos}/{len} micro-benchmarks  {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    let measured = catch_unwind(AssertUnwindSafe(|| {
        scenarios::measure_all(budget, &mut |label: &str| {
            bar.inc(1);
            bar.set_message(label.to_owned());
        })
    }));
    bar.finish_and_clear();
    let m = measured.map_err(|panic| {
        let text = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        anyhow!("micro-benchmarks failed: {text}")
    })?;
    Ok(summarise(&m, quick))
}

fn cycle_cost(r: &CycleResult) -> CycleCost {
    CycleCost {
        detector: r.detector.to_owned(),
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
        detector: r.detector.to_owned(),
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

/// Turns raw measurements into the summary (ratios, cheapest detectors, the sentence).
pub fn summarise(m: &Measurements, quick: bool) -> MicrobenchSummary {
    let make = m.make_ns;
    let runs: Vec<CycleCost> = m.runs.iter().filter(|r| !r.hit).map(cycle_cost).collect();
    let hits = m.runs.iter().filter(|r| r.hit).map(cycle_cost).collect();
    let cheapest = cheapest_per_run(&runs);
    let cheapest_sentence = cheapest_sentence(&cheapest);
    MicrobenchSummary {
        quick,
        seconds: m.seconds,
        reps: m.budget.reps,
        batch_ms: m.budget.batch.as_secs_f64() * 1e3,
        make_unmake_ns: make,
        make_unmake_samples_ns: m.make_samples.clone(),
        detectors: CYCLE_DETECTORS.iter().map(|s| (*s).to_owned()).collect(),
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

fn cheapest_per_run(runs: &[CycleCost]) -> Vec<Cheapest> {
    RUN_LENGTHS
        .iter()
        .filter_map(|&run| {
            let mut here: Vec<&CycleCost> = runs
                .iter()
                .filter(|c| c.run == run && scenarios::reports_repetitions(&c.detector))
                .collect();
            here.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
            let best = *here.first()?;
            Some(Cheapest {
                run,
                detector: best.detector.clone(),
                ns: best.ns,
                ratio: best.ratio,
                tied: here
                    .iter()
                    .take_while(|c| c.ratio <= best.ratio * (1.0 + TIE))
                    .map(|c| c.detector.clone())
                    .collect(),
            })
        })
        .collect()
}

/// Formats nanoseconds: one decimal below 100, whole numbers with separators above.
fn fmt_ns(ns: f64) -> String {
    if !ns.is_finite() {
        "n/a".to_owned()
    } else if ns < 100.0 {
        format!("{ns:.1}")
    } else {
        fmt_int(ns.round() as u64)
    }
}

fn fmt_ratio(r: f64) -> String {
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
/// set of tied detectors: "… — 0–8 plies: linear (0.28–0.39× a make/unmake, 6.6–9.5 ns); …".
fn cheapest_sentence(cheapest: &[Cheapest]) -> String {
    let tie_set = |c: &Cheapest| {
        let mut t = c.tied.clone();
        t.sort();
        t
    };
    let mut groups: Vec<Vec<&Cheapest>> = Vec::new();
    for c in cheapest {
        match groups.last_mut() {
            Some(g) if tie_set(g[0]) == tie_set(c) => g.push(c),
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
            let (ns_lo, ns_hi) = fold(|c| c.ns);
            let (r_lo, r_hi) = fold(|c| c.ratio);
            let who = match first.tied.as_slice() {
                [one] => one.clone(),
                _ => format!("{} tied", join_names(&first.tied)),
            };
            format!(
                "{runs}: {who} ({}× a make/unmake, {} ns)",
                fmt_range(r_lo, r_hi, fmt_ratio),
                fmt_range(ns_lo, ns_hi, fmt_ns)
            )
        })
        .collect();
    format!(
        "Cheapest detector per enter + probe + leave by reversible run (no repetition, \
         {RUN_HISTORY} plies of game history; ranked by the cost relative to one make/unmake \
         timed alongside, within {}% of the cheapest counts as tied) — {}.",
        (TIE * 100.0).round(),
        parts.join("; ")
    )
}

/// "a", "a and b", "a, b and c".
fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Whether values span more than a factor of 30 (then the chart uses a log y axis).
fn spans_decades(values: impl Iterator<Item = f64>) -> bool {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    hi > 0.0 && hi / lo > 30.0
}

/// Lines of `value` against run length, one series per detector (`off` dashed, as the floor).
fn run_chart(
    title: &str,
    y_label: &str,
    costs: &[CycleCost],
    detectors: &[String],
    value: fn(&CycleCost) -> f64,
) -> LineChart {
    let series: Vec<Series> = detectors
        .iter()
        .map(|d| {
            let points = costs
                .iter()
                .filter(|c| &c.detector == d)
                .map(|c| (c.run as f64, value(c)));
            let s = Series::new(d.as_str(), points);
            if d == "off" { s.dashed() } else { s }
        })
        .filter(|s| !s.points.is_empty())
        .collect();
    LineChart {
        log_y: spans_decades(series.iter().flat_map(|s| s.points.iter().map(|p| p.1))),
        series,
        ..LineChart::new(title, "reversible run behind the position (plies)", y_label)
    }
}

/// A sortable table: one row per detector, one column per `key` value.
fn pivot(
    costs: &[CycleCost],
    detectors: &[String],
    keys: &[usize],
    key: fn(&CycleCost) -> usize,
    first: &str,
    column: impl Fn(usize) -> String,
    cell: impl Fn(&CycleCost) -> String,
) -> String {
    let mut headers = vec![first.to_owned()];
    headers.extend(keys.iter().map(|&k| column(k)));
    let rows: Vec<Vec<Cell>> = detectors
        .iter()
        .filter(|d| costs.iter().any(|c| &c.detector == *d))
        .map(|d| {
            let mut row = vec![Cell::text(d.as_str())];
            row.extend(keys.iter().map(|&k| {
                costs
                    .iter()
                    .find(|c| &c.detector == d && key(c) == k)
                    .map_or_else(|| Cell::text("—"), |c| Cell::text(cell(c)))
            }));
            row
        })
        .collect();
    table_html(&headers, &rows, true)
}

fn para(text: &str) -> String {
    format!("<p>{}</p>\n", escape_html(text))
}

fn fmt_bytes(b: usize) -> String {
    match b {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{} B", fmt_int(b)),
    }
}

/// Writes `microbench.json` and the `microbench-*.svg` charts into `dir` and returns the
/// headline sentence and the page sections (their figures refer to files at `dir`'s root).
pub fn write_microbench(summary: &MicrobenchSummary, dir: &ReportDir) -> Result<MicrobenchReport> {
    dir.write(
        "microbench.json",
        serde_json::to_string_pretty(summary)? + "\n",
    )?;
    let s = summary;
    let make = fmt_ns(s.make_unmake_ns);
    let mut sections = Vec::new();

    // Run length.
    let cost = dir.write_chart(
        "microbench-run.svg",
        &run_chart(
            "Cost per node vs. reversible run (no repetition)",
            CYCLE_UNIT,
            &s.runs,
            &s.detectors,
            |c| c.ns,
        ),
        &format!(
            "Median ns per push + probe + enter + upcoming + leave + pop, {} plies of game history; \
             off = line push/pop only",
            s.run_history
        ),
    )?;
    let ratio = dir.write_chart(
        "microbench-run-ratio.svg",
        &run_chart(
            "Cost per node as a multiple of one make/unmake",
            "cost ÷ one copy-make of a quiet move",
            &s.runs,
            &s.detectors,
            |c| c.ratio,
        ),
        &format!("The same cycles divided by one copy-make ({make} ns in this run)"),
    )?;
    let run_ns = pivot(
        &s.runs,
        &s.detectors,
        &s.run_lengths,
        |c| c.run,
        "detector",
        |k| format!("run {k} (ns)"),
        |c| fmt_ns(c.ns),
    );
    let run_ratio = pivot(
        &s.runs,
        &s.detectors,
        &s.run_lengths,
        |c| c.run,
        "detector",
        |k| format!("run {k} (× make)"),
        |c| fmt_ratio(c.ratio),
    );
    sections.push((
        "Cost per node by reversible run".to_owned(),
        format!(
            "{}{}{cost}{ratio}<h3>Nanoseconds per cycle</h3>\n{run_ns}\
             <h3>Ratio to one make/unmake ({make} ns)</h3>\n{run_ratio}",
            para(&s.cheapest_sentence),
            para(
                "Each figure is one push + probe + enter + upcoming + leave + pop of a position \
                 that is not a repetition, at the end of a reversible run of the given length in \
                 which no position repeats (so every backward scan runs the whole run). `off` is \
                 the harness floor (the line's push and pop alone); `cuckoo`'s probe, enter and \
                 leave do nothing, so its row is the cost of its upcoming-cycle scan; \
                 `linear+cuckoo` is the searcher's composition (key scan plus upcoming scan)."
            ),
        ),
    ));

    // Hits.
    let hit_chart = dir.write_chart(
        "microbench-run-hit.svg",
        &run_chart(
            "Cost per node vs. reversible run (the position repeats)",
            CYCLE_UNIT,
            &s.hits,
            &s.detectors,
            |c| c.ns,
        ),
        "The probed position repeats the one 4 plies back: push + probe + pop (a search scores \
         the draw without entering)",
    )?;
    let hit_keys: Vec<usize> = s.run_lengths.iter().copied().filter(|&r| r >= 4).collect();
    let hit_table = pivot(
        &s.hits,
        &s.detectors,
        &hit_keys,
        |c| c.run,
        "detector",
        |k| format!("run {k} (ns)"),
        |c| fmt_ns(c.ns),
    );
    sections.push((
        "Cost of a repetition hit".to_owned(),
        format!(
            "{}{hit_chart}{hit_table}",
            para(
                "The last four plies of the run are a shuffle, so the probed position repeats \
                 the one 4 plies back. Detectors that count every earlier occurrence still scan \
                 the whole run; rookie's counter is non-zero, so it back-traces. `off` and \
                 `cuckoo` report no repetition and so also enter and leave."
            )
        ),
    ));

    // History length.
    let categories: Vec<String> = s
        .history_lengths
        .iter()
        .map(|h| format!("{h} plies"))
        .collect();
    let series: Vec<Series> = s
        .detectors
        .iter()
        .map(|d| {
            Series::values(
                d.as_str(),
                s.history_lengths.iter().map(|&h| {
                    s.histories
                        .iter()
                        .find(|c| &c.detector == d && c.history == h)
                        .map_or(f64::NAN, |c| c.ns)
                }),
            )
        })
        .collect();
    let history_chart = BarChart {
        log_y: spans_decades(s.histories.iter().map(|c| c.ns)),
        categories,
        series,
        ..BarChart::new(
            format!(
                "Cost per node vs. game history (run of {} plies)",
                s.history_run
            ),
            "game history before the run",
            CYCLE_UNIT,
        )
    };
    let history_fig = dir.write_chart(
        "microbench-history.svg",
        &history_chart,
        "Median ns per cycle with 0, 100 and 1000 plies of earlier game (a pawn push every 45 \
         plies, and one before the run)",
    )?;
    let history_table = pivot(
        &s.histories,
        &s.detectors,
        &s.history_lengths,
        |c| c.history,
        "detector",
        |k| format!("history {k} (ns)"),
        |c| fmt_ns(c.ns),
    );
    let history_ratio = pivot(
        &s.histories,
        &s.detectors,
        &s.history_lengths,
        |c| c.history,
        "detector",
        |k| format!("history {k} (× make)"),
        |c| fmt_ratio(c.ratio),
    );
    sections.push((
        "Cost per node by game-history length".to_owned(),
        format!(
            "{}{history_fig}{history_table}{history_ratio}",
            para(
                "The earlier game lies behind irreversible moves, so scans bounded by the \
                 fifty-move clock do not see it; it only fills tables (tt-open keeps every \
                 history position open, rookie counts them) and lengthens the oracle's scan."
            )
        ),
    ));

    // Walk.
    let walk_rows: Vec<Vec<Cell>> = s
        .walk
        .iter()
        .map(|w| {
            vec![
                Cell::text(w.detector.as_str()),
                Cell::text(fmt_ns(w.ns_per_node)),
                Cell::text(fmt_ratio(w.ratio)),
                Cell::text(fmt_bytes(w.memory_bytes)),
                w.found.into(),
                w.missed.into(),
                w.false_reports.into(),
            ]
        })
        .collect();
    let walk_table = table_html(
        &[
            "detector",
            "ns per node",
            "× make",
            "memory",
            "repetitions found",
            "missed",
            "false",
        ],
        &walk_rows,
        true,
    );
    let reps = s.walk.first().map_or(0, |w| w.repetitions);
    sections.push((
        "Search-like walk".to_owned(),
        format!(
            "{}{walk_table}",
            para(&format!(
                "A seeded tree of {} nodes ({}), replayed identically for every detector: at each \
                 node up to three legal moves, the first being the move that undoes the mover's \
                 previous one when that is legal. The exact oracle finds {reps} repetitions, where the line \
                 stops. Per node: push, probe, then enter + upcoming (and later leave) unless it \
                 is a repetition, pop.",
                fmt_int(s.walk_nodes),
                s.walk_shape
            ))
        ),
    ));

    // Table sizes.
    let families = ["tt-open", "filo", "rookie"];
    let by_family = |f: &'static str| s.tables.iter().filter(move |t| t.detector == f);
    let size_chart = LineChart {
        log_y: spans_decades(s.tables.iter().map(|t| t.ns_per_node)),
        series: families
            .iter()
            .map(|f| {
                Series::new(
                    *f,
                    by_family(f).map(|t| ((t.entries as f64).log2(), t.ns_per_node)),
                )
            })
            .collect(),
        ..LineChart::new(
            "Cost per walk node vs. table size",
            "table size (log2 of entries)",
            "ns per walk node",
        )
    };
    let size_fig = dir.write_chart(
        "microbench-tables-cost.svg",
        &size_chart,
        "Median ns per node of the walk for tt-open (2^20…2^8 entries), filo (1024…16 slots) and \
         rookie (2^14…2^6 counters)",
    )?;
    let rate_chart = LineChart {
        series: vec![
            Series::new(
                "tt-open",
                by_family("tt-open").map(|t| ((t.entries as f64).log2(), 100.0 * t.miss_rate)),
            ),
            Series::new(
                "filo",
                by_family("filo").map(|t| ((t.entries as f64).log2(), 100.0 * t.miss_rate)),
            ),
            Series::new(
                "filo (collisions)",
                by_family("filo").map(|t| ((t.entries as f64).log2(), 100.0 * t.collision_rate)),
            )
            .dashed(),
            Series::new(
                "rookie",
                by_family("rookie").map(|t| ((t.entries as f64).log2(), 100.0 * t.false_hit_rate)),
            ),
        ],
        ..LineChart::new(
            "False hits and misses vs. table size",
            "table size (log2 of entries)",
            "rate (%)",
        )
    };
    let rate_fig = dir.write_chart(
        "microbench-tables-rates.svg",
        &rate_chart,
        "tt-open, filo: positions left out of the table per enter (misses); filo (collisions): \
         positions stored away from their home slot per enter; rookie: futile back-traces per \
         probe (false hits of the counters)",
    )?;
    let table_rows: Vec<Vec<Cell>> = s
        .tables
        .iter()
        .map(|t| {
            vec![
                Cell::text(t.detector.as_str()),
                t.entries.into(),
                Cell::text(fmt_bytes(t.memory_bytes)),
                Cell::text(fmt_ns(t.ns_per_node)),
                Cell::text(fmt_ratio(t.ratio)),
                Cell::text(fmt_pct(t.collision_rate)),
                Cell::text(fmt_pct(t.miss_rate)),
                Cell::text(fmt_pct(t.false_hit_rate)),
                Cell::text(format!(
                    "{} of {}",
                    fmt_int(t.missed),
                    fmt_int(t.repetitions)
                )),
            ]
        })
        .collect();
    let tables_table = table_html(
        &[
            "detector",
            "entries",
            "memory",
            "ns per node",
            "× make",
            "collisions per enter",
            "misses per enter",
            "futile back-traces per probe",
            "repetitions missed",
        ],
        &table_rows,
        true,
    );
    sections.push((
        "Table size: cost, false hits and misses".to_owned(),
        format!(
            "{}{size_fig}{rate_fig}{tables_table}",
            para(&format!(
                "The hash-table detectors replay the same walk ({} nodes) at every table size; \
                 the rates come from their counters over one replay, and missed repetitions \
                 from comparing each probe with the exact oracle.",
                fmt_int(s.walk_nodes)
            ))
        ),
    ));

    // Method.
    sections.push((
        "Method".to_owned(),
        para(&format!(
            "Scenarios are legal games built deterministically from one closed middlegame \
             ({fen}) by crate::scenarios and checked against the exact oracle before \
             timing. The detectors of one scenario are timed round-robin, with one copy-make of \
             a quiet move (the yardstick) before and after each round: each figure is the median \
             of {reps} rounds of batches of about {batch} ms, and each ratio the median of the \
             per-round ratios to the yardstick, so a machine that is slower throughout a run \
             shows in the nanoseconds but not in the ratios. Load from a process sharing the \
             core does not slow every kind of code alike, though: on a busy machine the \
             store-heavy copy-make can slow down by up to 2× while the scans do not, so compare \
             ratios within one run. The yardstick's median per group of figures: {samples} ns \
             ({n} groups). {mode} The careful numbers come from criterion: cargo bench -p \
             replab-benches --bench detectors (results in \
             target/criterion/<scenario>/<detector>/<length>/new/estimates.json).",
            fen = scenarios::BASE_FEN,
            reps = s.reps,
            batch = fmt_ratio(s.batch_ms),
            n = s.make_unmake_samples_ns.len(),
            samples = s
                .make_unmake_samples_ns
                .iter()
                .map(|v| fmt_ns(*v))
                .collect::<Vec<_>>()
                .join(", "),
            mode = if s.quick {
                "This was a --quick run: fewer, shorter batches, so expect more noise."
            } else {
                ""
            },
        )),
    ));

    Ok(MicrobenchReport {
        headline: s.cheapest_sentence.clone(),
        sections,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::scenarios::{WalkTally, history_scenarios, run_scenarios};
    use replab_detect::Stats;

    use super::*;

    /// Measurements with made-up times over the real scenario lists (no timing).
    fn fake() -> Measurements {
        let cycle = |sc: &scenarios::Scenario, i: usize, name: &'static str| CycleResult {
            detector: name,
            history: sc.history,
            run: sc.run,
            hit: sc.hit,
            ns: 2.0 + i as f64 + sc.run as f64 * if name == "linear" { 0.5 } else { 2.0 },
            ratio: (2.0 + i as f64) / 20.0,
        };
        let cycles = |scs: Vec<scenarios::Scenario>| {
            scs.iter()
                .flat_map(|sc| {
                    CYCLE_DETECTORS
                        .iter()
                        .enumerate()
                        .map(move |(i, n)| cycle(sc, i, n))
                })
                .collect::<Vec<_>>()
        };
        let walk = |name: &'static str, entries: usize| WalkResult {
            detector: name,
            entries,
            memory_bytes: entries * 16,
            ns_per_node: 10.0 + entries as f64 / 1000.0,
            ratio: 0.5,
            tally: WalkTally {
                nodes: 3000,
                enters: 2900,
                repetitions: 100,
                found: 99,
                missed: 1,
                false_reports: 0,
            },
            stats: Stats {
                probes: 3000,
                futile: 30,
                misses: 29,
                collisions: 58,
                ..Stats::default()
            },
        };
        Measurements {
            budget: Budget {
                reps: 3,
                batch: Duration::from_millis(1),
            },
            make_ns: 20.0,
            make_samples: vec![19.0, 20.0, 21.0],
            runs: cycles(run_scenarios()),
            histories: cycles(history_scenarios()),
            walk: CYCLE_DETECTORS.iter().map(|n| walk(n, 0)).collect(),
            tables: scenarios::TT_OPEN_BITS
                .iter()
                .map(|b| walk("tt-open", 1 << b))
                .chain(scenarios::FILO_SLOTS.iter().map(|&s| walk("filo", s)))
                .chain(
                    scenarios::ROOKIE_BITS
                        .iter()
                        .map(|b| walk("rookie", 1 << b)),
                )
                .collect(),
            walk_nodes: 3000,
            seconds: 1.0,
        }
    }

    #[test]
    fn summary_json_has_every_detector_and_run_length() {
        let summary = summarise(&fake(), true);
        let json: serde_json::Value = serde_json::to_value(&summary).unwrap();
        for name in replab_registry::DETECTOR_NAMES
            .iter()
            .chain(["linear+cuckoo", "off"].iter())
        {
            for run in RUN_LENGTHS {
                let found = json["runs"].as_array().unwrap().iter().any(|c| {
                    c["detector"] == *name && c["run"] == run && c["ns"].as_f64().unwrap() > 0.0
                });
                assert!(found, "{name} run {run}");
            }
            for h in HISTORY_LENGTHS {
                assert!(
                    json["histories"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|c| c["detector"] == *name && c["history"] == h),
                    "{name} history {h}"
                );
            }
        }
        assert_eq!(
            json["hits"].as_array().unwrap().len(),
            6 * CYCLE_DETECTORS.len()
        );
        assert_eq!(json["tables"].as_array().unwrap().len(), 7 + 7 + 9);
        assert!((json["runs"][0]["ratio"].as_f64().unwrap() - 2.0 / 20.0).abs() < 1e-9);
        // linear costs 3 + 0.5 × run, everything else more (tt-open 4 + 2 × run): linear wins
        // everywhere, alone (tt-open is 33% dearer at run 0).
        assert!(summary.cheapest.iter().all(|c| c.detector == "linear"));
        assert!(
            summary
                .cheapest_sentence
                .contains("— 0–100 plies: linear ("),
            "{}",
            summary.cheapest_sentence
        );
        assert_eq!(summary.cheapest[0].tied, ["linear"]);
    }

    #[test]
    fn report_writes_charts_and_sections() {
        let summary = summarise(&fake(), false);
        let tmp = std::env::temp_dir().join(format!("replab-microbench-{}", std::process::id()));
        let dir = ReportDir::create(&tmp).unwrap();
        let report = write_microbench(&summary, &dir).unwrap();
        for f in [
            "microbench.json",
            "microbench-run.svg",
            "microbench-run-ratio.svg",
            "microbench-run-hit.svg",
            "microbench-history.svg",
            "microbench-tables-cost.svg",
            "microbench-tables-rates.svg",
        ] {
            assert!(dir.staging().join(f).is_file(), "{f}");
        }
        assert_eq!(report.sections.len(), 6);
        assert!(report.sections[0].1.contains("class=\"sortable\""));
        assert!(report.sections[0].1.contains("microbench-run.svg"));
        assert_eq!(report.headline, summary.cheapest_sentence);
        drop(dir);
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
