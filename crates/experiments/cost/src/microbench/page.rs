//! The micro-benchmark page: the `microbench-*.svg` charts and the HTML sections of
//! `index.html`, with their prose in `templates/microbench/*.html`.

use anyhow::Result;
use replab_report::{
    BarChart, Cell, LineChart, ReportDir, Series, fmt_int, fmt_pct, render_fragment, table_html,
};
use replab_workloads::colours;
use serde_json::json;

use super::{
    Results,
    criterion::pair,
    scenarios::BASE_FEN,
    summary::{CycleCost, MicrobenchSummary, WalkCost, fmt_ns, fmt_ratio, join_names},
};
use replab_registry::{DetectorId, TableLimit};

/// The y-axis unit of the cycle charts.
const CYCLE_UNIT: &str = "ns per enter+probe+leave";

/// The page's templates: `(name, source)`.
const SUMMARY: (&str, &str) = (
    "microbench/summary.html",
    include_str!("../../templates/microbench/summary.html"),
);
const RUNS: (&str, &str) = (
    "microbench/runs.html",
    include_str!("../../templates/microbench/runs.html"),
);
const HITS: (&str, &str) = (
    "microbench/hits.html",
    include_str!("../../templates/microbench/hits.html"),
);
const HISTORY: (&str, &str) = (
    "microbench/history.html",
    include_str!("../../templates/microbench/history.html"),
);
const WALK: (&str, &str) = (
    "microbench/walk.html",
    include_str!("../../templates/microbench/walk.html"),
);
const TABLES: (&str, &str) = (
    "microbench/tables.html",
    include_str!("../../templates/microbench/tables.html"),
);
const METHOD: (&str, &str) = (
    "microbench/method.html",
    include_str!("../../templates/microbench/method.html"),
);
const CRITERION: (&str, &str) = (
    "microbench/criterion.html",
    include_str!("../../templates/microbench/criterion.html"),
);

/// Renders one of the templates above with `context`.
fn render(template: (&str, &str), context: &serde_json::Value) -> Result<String> {
    Ok(render_fragment(template.0, template.1, context)?)
}

/// The page's first section: the sentence naming the cheapest detector per run length.
pub(super) fn summary_section(s: &MicrobenchSummary) -> Result<String> {
    render(SUMMARY, &json!({ "headline": s.cheapest_sentence }))
}

/// A section of the page: `(heading, html)`.
type Section = (String, String);

/// Writes the `microbench-*.svg` charts into `dir` and returns the page's sections after the
/// summary, `(heading, html)`; their figures refer to the charts at `dir`'s root.
pub(super) fn sections(s: &MicrobenchSummary, dir: &ReportDir) -> Result<Vec<Section>> {
    Ok(vec![
        runs_section(s, dir)?,
        hits_section(s, dir)?,
        history_section(s, dir)?,
        walk_section(s)?,
        tables_section(s, dir)?,
        method_section(s)?,
    ])
}

/// Cost per node by reversible run: two charts (ns and multiples of make) and their tables.
fn runs_section(s: &MicrobenchSummary, dir: &ReportDir) -> Result<Section> {
    let make = fmt_ns(s.make_unmake_ns.value);
    let cost_chart = dir.write_chart(
        "microbench-run.svg",
        &run_chart(
            "Cost per node vs. reversible run (no repetition)",
            CYCLE_UNIT,
            &s.runs,
            &s.detectors,
            |c| c.ns.value,
        ),
        &format!(
            "Median ns per push + probe + enter + upcoming + leave + pop, {} plies of game history; \
             off = line push/pop only",
            s.run_history
        ),
    )?;
    let ratio_chart = dir.write_chart(
        "microbench-run-ratio.svg",
        &run_chart(
            "Cost per node as a multiple of one make/unmake",
            "cost ÷ one copy-make of a quiet move",
            &s.runs,
            &s.detectors,
            |c| c.ratio.value,
        ),
        &format!("The same cycles divided by one copy-make ({make} ns in this run)"),
    )?;
    let ns_table = pivot(
        &s.runs,
        &s.detectors,
        &s.run_lengths,
        |c| c.run,
        "detector",
        |k| format!("run {k} (ns)"),
        |c| c.ns.text(fmt_ns),
    );
    let ratio_table = pivot(
        &s.runs,
        &s.detectors,
        &s.run_lengths,
        |c| c.run,
        "detector",
        |k| format!("run {k} (× make)"),
        |c| c.ratio.text(fmt_ratio),
    );
    Ok((
        "Cost per node by reversible run".to_owned(),
        render(
            RUNS,
            &json!({
                "cheapest": s.cheapest_sentence,
                "cost_chart": cost_chart,
                "ratio_chart": ratio_chart,
                "ns_table": ns_table,
                "ratio_table": ratio_table,
                "make": make,
            }),
        )?,
    ))
}

/// The cost of a repetition hit: chart and table by run length (runs of 4 plies or more).
fn hits_section(s: &MicrobenchSummary, dir: &ReportDir) -> Result<Section> {
    let hit_chart = dir.write_chart(
        "microbench-run-hit.svg",
        &run_chart(
            "Cost per node vs. reversible run (the position repeats)",
            CYCLE_UNIT,
            &s.hits,
            &s.detectors,
            |c| c.ns.value,
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
        |c| c.ns.text(fmt_ns),
    );
    Ok((
        "Cost of a repetition hit".to_owned(),
        render(HITS, &json!({ "chart": hit_chart, "table": hit_table }))?,
    ))
}

/// Cost per node by game-history length: bar chart and tables.
fn history_section(s: &MicrobenchSummary, dir: &ReportDir) -> Result<Section> {
    let categories: Vec<String> = s
        .history_lengths
        .iter()
        .map(|h| format!("{h} plies"))
        .collect();
    let series: Vec<Series> = s
        .detectors
        .iter()
        .map(|d| {
            colours::values(
                d.name(),
                s.history_lengths.iter().map(|&h| {
                    s.histories
                        .iter()
                        .find(|c| &c.detector == d && c.history == h)
                        .map_or(f64::NAN, |c| c.ns.value)
                }),
            )
        })
        .collect();
    let history_chart = BarChart {
        log_y: spans_decades(s.histories.iter().map(|c| c.ns.value)),
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
    let history_ns = pivot(
        &s.histories,
        &s.detectors,
        &s.history_lengths,
        |c| c.history,
        "detector",
        |k| format!("history {k} (ns)"),
        |c| c.ns.text(fmt_ns),
    );
    let history_ratio = pivot(
        &s.histories,
        &s.detectors,
        &s.history_lengths,
        |c| c.history,
        "detector",
        |k| format!("history {k} (× make)"),
        |c| c.ratio.text(fmt_ratio),
    );
    Ok((
        "Cost per node by game-history length".to_owned(),
        render(
            HISTORY,
            &json!({
                "chart": history_fig,
                "ns_table": history_ns,
                "ratio_table": history_ratio,
            }),
        )?,
    ))
}

/// The search-like walk: one row per detector.
fn walk_section(s: &MicrobenchSummary) -> Result<Section> {
    let walk_rows: Vec<Vec<Cell>> = s
        .walk
        .iter()
        .map(|w| {
            vec![
                Cell::text(w.detector.name()),
                Cell::text(w.ns_per_node.text(fmt_ns)),
                Cell::text(w.ratio.text(fmt_ratio)),
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
    Ok((
        "Search-like walk".to_owned(),
        render(
            WALK,
            &json!({
                "nodes": fmt_int(s.walk_nodes),
                "shape": s.walk_shape,
                "repetitions": s.walk.first().map_or(0, |w| w.repetitions),
                "table": walk_table,
            }),
        )?,
    ))
}

/// The rates a table family is judged by, against log2 of its size: the miss rate of a table
/// that can lose positions (with the collision rate, dashed, of one that fills its slots), the
/// false-hit rate (futile back-traces) of one that cannot.
fn rate_series(family: DetectorId, rows: Vec<&WalkCost>) -> Vec<Series> {
    let points = |rate: fn(&WalkCost) -> f64| {
        rows.iter()
            .map(|t| ((t.entries as f64).log2(), 100.0 * rate(t)))
            .collect::<Vec<_>>()
    };
    let name = family.name();
    match family.caps().table_limit {
        TableLimit::None => vec![colours::series(name, points(|t| t.false_hit_rate))],
        TableLimit::Collides => vec![colours::series(name, points(|t| t.miss_rate))],
        TableLimit::Fills => vec![
            colours::series(name, points(|t| t.miss_rate)),
            colours::series(format!("{name} (collisions)"), points(|t| t.collision_rate)).dashed(),
        ],
    }
}

/// The caption of the rates chart: what each family's lines count, by its table limit (the
/// series of [`rate_series`]): "tt-open, filo: positions left out of the table per enter
/// (misses); filo (collisions): positions stored away from their home slot per enter; rookie:
/// futile back-traces per probe (false hits of the counters)".
fn rates_caption(families: &[DetectorId]) -> String {
    let with = |keep: fn(TableLimit) -> bool, label: fn(DetectorId) -> String, what: &str| {
        let names: Vec<String> = families
            .iter()
            .filter(|f| keep(f.caps().table_limit))
            .map(|&f| label(f))
            .collect();
        (!names.is_empty()).then(|| format!("{}: {what}", names.join(", ")))
    };
    [
        with(
            |l| l != TableLimit::None,
            |f| f.to_string(),
            "positions left out of the table per enter (misses)",
        ),
        with(
            |l| l == TableLimit::Fills,
            |f| format!("{f} (collisions)"),
            "positions stored away from their home slot per enter",
        ),
        with(
            |l| l == TableLimit::None,
            |f| f.to_string(),
            "futile back-traces per probe (false hits of the counters)",
        ),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("; ")
}

/// "tt-open (2^20…2^8 entries), filo (1,024…16 entries) and rookie (2^14…2^6 entries)": each
/// family with its largest and smallest table, from the measurements.
fn families_and_sizes(s: &MicrobenchSummary, families: &[DetectorId]) -> String {
    let parts: Vec<String> = families
        .iter()
        .map(|&f| {
            let sizes = s
                .tables
                .iter()
                .filter(|t| t.detector == f)
                .map(|t| t.entries);
            let (hi, lo) = (sizes.clone().max().unwrap_or(0), sizes.min().unwrap_or(0));
            // Sized by index bits (a power of two above 4,096 at the largest): 2^k.
            let size = |n: usize| {
                if hi > 1 << 12 && hi.is_power_of_two() && n.is_power_of_two() {
                    format!("2^{}", n.trailing_zeros())
                } else {
                    fmt_int(n)
                }
            };
            format!("{f} ({}…{} entries)", size(hi), size(lo))
        })
        .collect();
    if parts.is_empty() {
        "no table".to_owned()
    } else {
        join_names(&parts)
    }
}

/// The table-size charts, written into `dir`: cost per walk node, and the false hits and
/// misses, by table size (`(cost figure, rate figure)`).
fn table_size_charts(s: &MicrobenchSummary, dir: &ReportDir) -> Result<(String, String)> {
    let mut families: Vec<DetectorId> = Vec::new();
    for t in &s.tables {
        if !families.contains(&t.detector) {
            families.push(t.detector);
        }
    }
    let by_family = |f: DetectorId| s.tables.iter().filter(move |t| t.detector == f);
    let log2 = |t: &WalkCost| (t.entries as f64).log2();
    let size_chart = LineChart {
        log_y: spans_decades(s.tables.iter().map(|t| t.ns_per_node.value)),
        series: families
            .iter()
            .map(|&f| {
                colours::series(
                    f.name(),
                    by_family(f).map(|t| (log2(t), t.ns_per_node.value)),
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
        &format!(
            "Median ns per node of the walk for {}",
            families_and_sizes(s, &families)
        ),
    )?;
    let rate_chart = LineChart {
        series: families
            .iter()
            .flat_map(|&f| rate_series(f, by_family(f).collect()))
            .collect(),
        ..LineChart::new(
            "False hits and misses vs. table size",
            "table size (log2 of entries)",
            "rate (%)",
        )
    };
    let rate_fig = dir.write_chart(
        "microbench-tables-rates.svg",
        &rate_chart,
        &rates_caption(&families),
    )?;
    Ok((size_fig, rate_fig))
}

/// Table size: the charts ([`table_size_charts`]) and the table.
fn tables_section(s: &MicrobenchSummary, dir: &ReportDir) -> Result<Section> {
    let (size_fig, rate_fig) = table_size_charts(s, dir)?;
    let table_rows: Vec<Vec<Cell>> = s
        .tables
        .iter()
        .map(|t| {
            vec![
                Cell::text(t.detector.name()),
                t.entries.into(),
                Cell::text(fmt_bytes(t.memory_bytes)),
                Cell::text(t.ns_per_node.text(fmt_ns)),
                Cell::text(t.ratio.text(fmt_ratio)),
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
    Ok((
        "Table size: cost, false hits and misses".to_owned(),
        render(
            TABLES,
            &json!({
                "nodes": fmt_int(s.walk_nodes),
                "cost_chart": size_fig,
                "rate_chart": rate_fig,
                "table": tables_table,
            }),
        )?,
    ))
}

/// The method: the position, the budget and the make/unmake samples.
fn method_section(s: &MicrobenchSummary) -> Result<Section> {
    let samples: Vec<String> = s
        .make_unmake_ns_samples
        .iter()
        .map(|v| fmt_ns(*v))
        .collect();
    Ok((
        "Method".to_owned(),
        render(
            METHOD,
            &json!({
                "fen": BASE_FEN,
                "reps": s.reps,
                "batch": fmt_ratio(s.batch_ms.value),
                "samples": samples.join(", "),
                "groups": s.make_unmake_ns_samples.len(),
                "quick": s.quick,
                "resolution": format!("{:.0}%", 100.0 * super::summary::floor(s.quick)),
                "coverage": format!(
                    "{:.0}",
                    100.0 * crate::stats::median_coverage(s.reps.max(1))
                ),
            }),
        )?,
    ))
}

/// The section comparing criterion's own estimates with replab's loop, or saying how to produce
/// them when the run found none.
pub(super) fn criterion_section(results: &Results) -> Result<String> {
    let s = &results.summary;
    let estimates = results.criterion.as_deref().unwrap_or_default();
    let rows: Vec<Vec<Cell>> = estimates
        .iter()
        .map(|e| {
            let mut row = vec![
                Cell::text(e.group.as_str()),
                Cell::text(e.function.as_str()),
                Cell::text(e.parameter.as_str()),
            ];
            match pair(e, s) {
                Some((c, ours)) => {
                    row.extend([
                        Cell::text(c.text(fmt_ns)),
                        Cell::text(ours.text(fmt_ns)),
                        Cell::text(fmt_ratio(c.value / ours.value)),
                        Cell::text(if c.overlaps(&ours) {
                            "overlap"
                        } else {
                            "differ"
                        }),
                    ]);
                }
                None => row.extend([
                    Cell::text(e.ns.text(fmt_ns)),
                    Cell::text("—"),
                    Cell::text("—"),
                    Cell::text("—"),
                ]),
            }
            row
        })
        .collect();
    let table = table_html(
        &[
            "group",
            "detector",
            "parameter",
            "criterion ns (interval)",
            "replab ns (interval)",
            "criterion ÷ replab",
            "intervals",
        ],
        &rows,
        true,
    );
    let level = estimates
        .first()
        .map_or(95.0, |e| (e.ns.interval.coverage * 100.0).round());
    let matched = estimates.iter().filter(|e| pair(e, s).is_some()).count();
    let differ = estimates
        .iter()
        .filter_map(|e| pair(e, s))
        .filter(|(c, ours)| !c.overlaps(ours))
        .count();
    render(
        CRITERION,
        &json!({
            "found": !estimates.is_empty(),
            "dir": results.criterion_dir,
            "count": estimates.len(),
            "matched": matched,
            "differ": differ,
            "level": level,
            "nodes": fmt_int(s.walk_nodes),
            "command": results.meta.command,
            "table": table,
        }),
    )
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
    detectors: &[DetectorId],
    value: fn(&CycleCost) -> f64,
) -> LineChart {
    let series: Vec<Series> = detectors
        .iter()
        .map(|d| {
            let points = costs
                .iter()
                .filter(|c| &c.detector == d)
                .map(|c| (c.run as f64, value(c)));
            let s = colours::series(d.name(), points);
            if *d == DetectorId::Off { s.dashed() } else { s }
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
    detectors: &[DetectorId],
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
            let mut row = vec![Cell::text(d.name())];
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

/// Formats bytes: whole MiB or KiB when exact, else bytes with separators.
fn fmt_bytes(b: usize) -> String {
    match b {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{} B", fmt_int(b)),
    }
}
