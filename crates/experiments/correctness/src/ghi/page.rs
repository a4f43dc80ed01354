//! The graph-history page. Prose and markup are in `templates/ghi/`.

use anyhow::Result;
use replab_report::{
    BarChart, Cell, Page, ReportDir, escape_html, fmt_delta_pct, render_fragment, table_html,
};
use replab_workloads::colours;
use serde::Serialize;
use serde_json::json;

use super::{Cause, Results, TITLE, headline};

const SUMMARY: &str = include_str!("../../templates/ghi/summary.html");
const METHOD: &str = include_str!("../../templates/ghi/method.html");
const EXAMPLES: &str = include_str!("../../templates/ghi/examples.html");

#[derive(Serialize)]
struct ExampleView {
    cause: String,
    id: String,
    plies: usize,
    depth: u32,
    pgn: String,
}

/// The position sets, in the order of the totals.
fn sets(results: &Results) -> Vec<String> {
    let mut s: Vec<String> = Vec::new();
    for t in &results.totals {
        if !s.contains(&t.set) {
            s.push(t.set.clone());
        }
    }
    s
}

/// The causes table: per set, the positions whose result a path-dependent draw changed, by
/// cause.
fn causes_table(results: &Results, sets: &[String]) -> String {
    let mut headers = vec!["set".to_string(), "positions".into()];
    headers.extend(Cause::ALL.iter().map(|c| c.name().to_string()));
    let cause_rows: Vec<Vec<Cell>> = sets
        .iter()
        .map(|set| {
            let mut row = vec![
                Cell::text(set),
                results
                    .totals
                    .iter()
                    .find(|t| &t.set == set)
                    .map_or(0, |t| t.positions)
                    .into(),
            ];
            row.extend(Cause::ALL.iter().map(|c| {
                Cell::from(
                    results
                        .causes
                        .iter()
                        .find(|(s, k, _)| s == set && k == c)
                        .map_or(0, |x| x.2),
                )
            }));
            row
        })
        .collect();
    table_html(&headers, &cause_rows, false)
}

/// The modes table: per set and table mode, the differences from the reference and the nodes.
fn modes_table(results: &Results) -> String {
    let mode_rows: Vec<Vec<Cell>> = results
        .totals
        .iter()
        .map(|t| {
            let what = results
                .modes
                .iter()
                .find(|m| m.name == t.mode)
                .map_or("", |m| m.what.as_str());
            vec![
                Cell::text(&t.set),
                Cell::text(&t.mode),
                Cell::text(what),
                Cell::text(format!("{} of {}", t.differ, t.positions)),
                Cell::text(format!("{} of {}", t.score_differs, t.positions)),
                t.nodes.into(),
                Cell::text(fmt_delta_pct(t.nodes_vs_reference)),
                Cell::text(fmt_delta_pct(t.nodes_vs_on)),
                t.tainted_cutoffs.into(),
            ]
        })
        .collect();
    table_html(
        &[
            "set",
            "mode",
            "what it is",
            "result ≠ reference",
            "score ≠ reference",
            "nodes",
            "nodes vs reference",
            "nodes vs on",
            "tainted cut-offs",
        ],
        &mode_rows,
        true,
    )
}

/// The chart of the share of positions that differ from the reference, written into `dir`.
fn differences_chart(results: &Results, sets: &[String], dir: &ReportDir) -> Result<String> {
    // Every searched mode but the reference (the ablations are not in the totals).
    let chart_modes: Vec<String> = results
        .modes
        .iter()
        .filter(|m| m.name != "reference" && results.totals.iter().any(|t| t.mode == m.name))
        .map(|m| m.name.clone())
        .collect();
    let chart = BarChart {
        categories: chart_modes.clone(),
        series: sets
            .iter()
            .map(|set| {
                colours::values(
                    set.clone(),
                    chart_modes.iter().map(|m| {
                        results
                            .totals
                            .iter()
                            .find(|t| &t.set == set && &t.mode == m)
                            .map_or(0.0, |t| 100.0 * t.differ as f64 / t.positions.max(1) as f64)
                    }),
                )
            })
            .collect(),
        ..BarChart::new(
            format!(
                "Root score or best move differs from the path-safe reference (depth {})",
                results.config.settings.depth
            ),
            "table mode",
            "positions (%)",
        )
    };
    Ok(dir.write_chart(
        "differences.svg",
        &chart,
        "Share of positions whose result differs from the path-safe reference, per table mode \
         and position set",
    )?)
}

/// The summary: the headline, the causes and modes tables and the chart.
fn summary_section(results: &Results, dir: &ReportDir) -> Result<String> {
    let sets = sets(results);
    let figure = differences_chart(results, &sets, dir)?;
    Ok(render_fragment(
        "ghi/summary.html",
        SUMMARY,
        &json!({
            "headline": headline(results),
            "causes": causes_table(results, &sets),
            "modes": modes_table(results),
            "figure": figure,
        }),
    )?)
}

/// The shortest examples, by cause, with the causes that have none.
fn examples_section(results: &Results) -> Result<String> {
    Ok(render_fragment(
        "ghi/examples.html",
        EXAMPLES,
        &json!({
            "examples": results
                .examples
                .iter()
                .map(|e| ExampleView {
                    cause: e.cause.name().into(),
                    id: e.id.clone(),
                    plies: e.history_plies,
                    depth: e.depth,
                    pgn: escape_html(&e.pgn),
                })
                .collect::<Vec<_>>(),
            "missing": ([Cause::Repetition, Cause::FiftyMove]
                .iter()
                .filter(|c| !results.examples.iter().any(|e| e.cause == **c))
                .map(|c| c.name().to_string())
                .collect::<Vec<_>>()),
        }),
    )?)
}

/// The method: every setting of the run.
fn method_section(results: &Results) -> Result<String> {
    Ok(render_fragment(
        "ghi/method.html",
        METHOD,
        &json!({
            "depth": results.config.settings.depth,
            "policy": results.config.settings.policy.name(),
            "detector": results.config.detector.to_string(),
            "seed": results.config.settings.seed,
            "game_positions": results.config.settings.game_positions,
            "long_positions": results.config.settings.long_positions,
            "threads": results.config.settings.threads,
        }),
    )?)
}

/// Writes the chart and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    let summary = summary_section(results, dir)?;
    let examples = examples_section(results)?;
    let method = method_section(results)?;
    Page::new(TITLE, &results.meta)
        .nav([("All reports", "../index.html")])
        .section("Summary", summary)
        .section("Shortest examples", examples)
        .section("Method, evidence and assumptions", method)
        .write(dir, "index.html")?;
    Ok(())
}
