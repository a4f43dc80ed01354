//! The suite's report: `results.json`, three SVG charts and `index.html`, written into a staged
//! [`ReportDir`]. Prose and markup are in `templates/suite/`.

use anyhow::Result;
use replab_report::{
    BarChart, Cell, Page, ReportDir, fmt_delta_pct, fmt_int, fmt_ms, render_fragment,
};
use replab_workloads::colours;
use serde::Serialize;
use serde_json::json;

use super::results::{Aggregate, SuiteResults, SuiteRun, time_sentence};
use crate::interval::Noise;
use crate::stats::Quantity;
use replab_registry::DetectorId;

/// The sentence above the summary table, and the table.
const SUMMARY: &str = include_str!("../../templates/suite/summary.html");
/// The three charts, one after the other.
const CHARTS: &str = include_str!("../../templates/suite/charts.html");

/// Context of `suite/summary.html`.
#[derive(Serialize)]
struct SummaryContext<'a> {
    records: usize,
    epd: &'a str,
    depth: u32,
    /// The node budget, formatted; empty without one.
    budget: String,
    policy: &'a str,
    configurations: usize,
    skipped: usize,
    /// Interleaved timed runs per search.
    repeats: usize,
    /// The coverage of the intervals with this many rounds, in percent.
    coverage: String,
    /// The sentence comparing each detector's time with `off`'s.
    times: String,
    /// The per-detector table (HTML built by `table_html`).
    table: String,
}

fn opt_pct(v: Option<f64>) -> Cell {
    v.map_or_else(|| Cell::text("—"), |f| Cell::text(fmt_delta_pct(f)))
}

/// The interval of `time_vs_off`, or "too noisy to rank (±x%)" when it contains 0 or is wider
/// than the noise limit ([`crate::interval::noise`]).
fn vs_off_interval(a: &Aggregate) -> Cell {
    match a.time_vs_off {
        Some(e) if a.detector != DetectorId::Off => {
            match crate::interval::noise(e.value, &e.interval, Quantity::Change) {
                Noise::TooNoisy(h) => Cell::text(crate::interval::too_noisy(h)),
                Noise::Single => Cell::text("single sample"),
                Noise::Clear => Cell::text(format!(
                    "{} to {}",
                    fmt_delta_pct(e.interval.lo),
                    fmt_delta_pct(e.interval.hi)
                )),
            }
        }
        _ => Cell::text("—"),
    }
}

/// The page title: `Suite <file name of the EPD>`.
pub fn title(results: &SuiteResults) -> String {
    let epd = std::path::Path::new(&results.epd);
    format!(
        "Suite {}",
        epd.file_name()
            .map_or_else(|| results.epd.clone(), |f| f.to_string_lossy().into_owned())
    )
}

/// The summary table: one row per detector, also written as `summary.csv` into `dir`.
fn summary_table(results: &SuiteResults, dir: &ReportDir) -> Result<String> {
    let aggs = &results.aggregates;
    let headers = [
        "detector",
        "records",
        "nodes",
        "nodes vs off",
        "terminal nodes",
        "generated",
        "repetitions",
        "time",
        "time interval",
        "time vs off",
        "time vs off interval",
        "median nodes",
        "solved",
        "best move ≠ off",
    ];
    let rows: Vec<Vec<Cell>> = aggs
        .iter()
        .map(|a| {
            vec![
                Cell::text(a.detector.name()),
                a.records.into(),
                a.nodes.into(),
                opt_pct(a.nodes_vs_off),
                a.terminal_nodes.into(),
                a.generated.into(),
                a.repetitions.into(),
                Cell::text(fmt_ms(a.time_ms.value)),
                Cell::text(a.time_ci_text()),
                opt_pct(a.time_vs_off.map(|e| e.value)),
                vs_off_interval(a),
                a.median_nodes.into(),
                Cell::text(a.solved_text()),
                a.best_move_changed.into(),
            ]
        })
        .collect();
    Ok(dir.write_table("summary.csv", &headers, &rows, true)?)
}

/// The ids of the records searched, in the order of the runs.
fn record_ids(results: &SuiteResults) -> Vec<&str> {
    let mut ids: Vec<&str> = Vec::new();
    for r in &results.runs {
        if !ids.contains(&r.id.as_str()) {
            ids.push(&r.id);
        }
    }
    ids
}

/// The summary: the run's settings, the times sentence and the table.
fn summary_section(results: &SuiteResults, dir: &ReportDir) -> Result<String> {
    let aggs = &results.aggregates;
    let cfg = &results.config.settings;
    Ok(render_fragment(
        "suite/summary.html",
        SUMMARY,
        &SummaryContext {
            records: record_ids(results).len(),
            epd: &results.epd,
            depth: cfg.depth,
            budget: cfg.nodes.map_or(String::new(), fmt_int),
            policy: cfg.policy.name(),
            configurations: aggs.len(),
            skipped: results.skipped.len(),
            repeats: cfg.repeats,
            coverage: format!(
                "{:.0}",
                100.0 * aggs.first().map_or(0.0, |a| a.time_ms.interval.coverage)
            ),
            times: time_sentence(results),
            table: summary_table(results, dir)?,
        },
    )?)
}

/// The charts section: time, nodes and repetitions per detector, written into `dir`.
fn charts_section(results: &SuiteResults, dir: &ReportDir) -> Result<String> {
    let aggs = &results.aggregates;
    let names: Vec<String> = aggs.iter().map(|a| a.detector.to_string()).collect();
    let time_chart = BarChart {
        categories: names.clone(),
        series: vec![colours::values(
            "time",
            aggs.iter().map(|a| a.time_ms.value),
        )],
        ..BarChart::new("Total search time per detector", "detector", "time (ms)")
    };
    let nodes_chart = BarChart {
        categories: names.clone(),
        series: vec![
            colours::values("nodes", aggs.iter().map(|a| a.nodes as f64)),
            colours::values(
                "terminal nodes",
                aggs.iter().map(|a| a.terminal_nodes as f64),
            ),
        ],
        ..BarChart::new("Tree size per detector", "detector", "count (all records)")
    };
    let reps_chart = BarChart {
        categories: names,
        series: vec![colours::values(
            "repetitions",
            aggs.iter().map(|a| a.repetitions as f64),
        )],
        ..BarChart::new("Repetition draws scored", "detector", "repetitions (count)")
    };
    let charts = json!({
        "time": dir.write_chart(
            "time.svg",
            &time_chart,
            "Total search time per detector: the sum over records of each search's median time \
             (the 95% intervals are in the summary table)",
        )?,
        "nodes": dir.write_chart("nodes.svg", &nodes_chart, "Nodes and terminal nodes")?,
        "repetitions": dir.write_chart("repetitions.svg", &reps_chart, "Repetition draws scored")?,
    });
    Ok(render_fragment("suite/charts.html", CHARTS, &charts)?)
}

/// The per-record table: nodes for each detector (a column per detector, headed by its name)
/// and the best moves; also written as `records.csv` into `dir`.
fn records_table(results: &SuiteResults, dir: &ReportDir) -> Result<String> {
    let aggs = &results.aggregates;
    let mut rec_headers = vec!["record".to_string(), "history".to_string()];
    for a in aggs {
        rec_headers.push(a.detector.to_string());
    }
    rec_headers.push("best moves (off / detectors)".into());
    let ids = record_ids(results);
    let rec_rows: Vec<Vec<Cell>> = ids
        .iter()
        .map(|id| {
            let rs: Vec<&SuiteRun> = results.runs.iter().filter(|r| r.id == *id).collect();
            let mut row = vec![
                Cell::html(breakable(id)),
                rs.first().map_or(0, |r| r.history_plies).into(),
            ];
            for a in aggs {
                row.push(
                    rs.iter()
                        .find(|r| r.detector == a.detector)
                        .map_or(Cell::text("—"), |r| r.counters.nodes.into()),
                );
            }
            let mut moves: Vec<String> = Vec::new();
            for r in &rs {
                let m = r.best_move.clone().unwrap_or_else(|| "—".into());
                if !moves.contains(&m) {
                    moves.push(m);
                }
            }
            row.push(Cell::text(moves.join(" / ")));
            row
        })
        .collect();
    Ok(format!(
        "<p>Nodes searched per record, one column per detector.</p>\n{}",
        dir.write_table("records.csv", &rec_headers, &rec_rows, true)?
    ))
}

/// A record id that may wrap after its dots and hyphens (`game.kasparov-deep-blue-1997.103`),
/// escaped: long ids would otherwise widen the table past the window.
fn breakable(id: &str) -> String {
    replab_report::escape_html(id)
        .replace('.', ".<wbr>")
        .replace('-', "-<wbr>")
}

/// Writes `results.json`, `time.svg`, `nodes.svg`, `repetitions.svg`, the tables as
/// `summary.csv` and `records.csv`, and `index.html` into the staged `dir`. The caller commits it.
pub fn write(results: &SuiteResults, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_vec_pretty(results)?)?;
    let charts = charts_section(results, dir)?;
    let summary = summary_section(results, dir)?;
    let records = records_table(results, dir)?;
    Page::new(title(results), &results.meta)
        .nav([("All reports", "../index.html")])
        .section("Summary", summary)
        .section("Charts", charts)
        .section("Per record", records)
        .write(dir, "index.html")?;
    Ok(())
}
