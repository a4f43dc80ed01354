//! The policies page: presets and their sources, the scripted cases, the searches' tables and
//! charts, the method. Prose and markup are in `templates/policies/`.

use anyhow::Result;
use replab_report::{
    BarChart, Cell, Page, ReportDir, Series, fmt_delta_pct, fmt_ms, render_fragment, table_html,
};
use replab_workloads::colours;
use serde_json::json;

use super::{Results, SetResults, TITLE, cases_pass, headline, policies, reference};
use crate::stats::Quantity;

const SUMMARY: &str = include_str!("../../templates/policies/summary.html");
const PRESETS: &str = include_str!("../../templates/policies/presets.html");
const CASES: &str = include_str!("../../templates/policies/cases.html");
const SET: &str = include_str!("../../templates/policies/set.html");
const METHOD: &str = include_str!("../../templates/policies/method.html");

/// The label of a policy with its presets: `twofold (crafty, weiss, koivisto)`.
fn label(results: &Results, policy: replab_detect::DrawPolicy) -> String {
    let presets: Vec<&str> = results
        .presets
        .iter()
        .filter(|p| p.policy == policy && p.name != policy.name())
        .map(|p| p.name.as_str())
        .collect();
    if presets.is_empty() {
        policy.name().to_string()
    } else {
        format!("{} ({})", policy.name(), presets.join(", "))
    }
}

/// One set's section: totals table, chart of score changes, chart of node changes.
fn set_section(results: &Results, set: &SetResults, dir: &ReportDir) -> Result<String> {
    let score_figure = score_figure(results, set, dir)?;
    let nodes_figure = nodes_figure(results, set, dir)?;
    Ok(render_fragment(
        "policies/set.html",
        SET,
        &json!({
            "description": set.description.clone(),
            "records": set.records,
            "with_history": set.with_history,
            "depth": set.depth,
            "repeats": results.config.settings.repeats,
            "table": totals_table(set),
            "score_figure": score_figure,
            "nodes_figure": nodes_figure,
        }),
    )?)
}

/// One set's totals table: a row per policy and detector.
fn totals_table(set: &SetResults) -> String {
    let headers = [
        "policy",
        "presets",
        "detector",
        "nodes",
        "Δ nodes vs reference",
        "repetition draws",
        "solved (bm/am)",
        "root score ≠ reference",
        "best move ≠ reference",
        "time (sum of medians)",
        "Δ time vs reference, median [95% CI]",
    ];
    let rows: Vec<Vec<Cell>> = set
        .totals
        .iter()
        .map(|t| {
            vec![
                Cell::text(t.policy.name()),
                Cell::text(t.presets.join(", ")),
                Cell::text(t.detector.name()),
                t.nodes.into(),
                Cell::text(fmt_delta_pct(t.nodes_change)),
                t.repetitions.into(),
                Cell::text(format!("{} of {}", t.solved, t.solvable)),
                Cell::text(format!("{} of {}", t.score_differs, set.records)),
                Cell::text(format!("{} of {}", t.best_move_differs, set.records)),
                Cell::text(t.time_ms.cell(Quantity::Level, fmt_ms)),
                Cell::text(t.time_change.cell(Quantity::Change, fmt_delta_pct)),
            ]
        })
        .collect();
    table_html(&headers, &rows, true)
}

/// The charts' categories: every policy with its presets.
fn categories(results: &Results) -> Vec<String> {
    policies().into_iter().map(|p| label(results, p)).collect()
}

/// One series per detector of `f` over the set's totals, policy by policy (0 where a total is
/// missing).
fn by_policy(set: &SetResults, f: &dyn Fn(&super::Total) -> f64) -> Vec<Series> {
    super::detectors()
        .into_iter()
        .map(|d| {
            colours::values(
                d.to_string(),
                policies().into_iter().map(|p| {
                    set.totals
                        .iter()
                        .find(|t| t.policy == p && t.detector == d)
                        .map_or(0.0, f)
                }),
            )
        })
        .collect()
}

/// Writes the chart of the share of records whose root score differs from the reference;
/// returns its figure.
fn score_figure(results: &Results, set: &SetResults, dir: &ReportDir) -> Result<String> {
    let n = set.records.max(1) as f64;
    let chart = BarChart {
        categories: categories(results),
        series: by_policy(set, &|t| 100.0 * t.score_differs as f64 / n),
        ..BarChart::new(
            format!(
                "{}: root score differs from threefold/linear (depth {})",
                set.set, set.depth
            ),
            "policy (presets)",
            "records (%)",
        )
    };
    Ok(dir.write_chart(
        &format!("{}-score.svg", set.set),
        &chart,
        "Share of records whose root score differs from the exact threefold reference",
    )?)
}

/// Writes the chart of the tree size against the reference; returns its figure.
fn nodes_figure(results: &Results, set: &SetResults, dir: &ReportDir) -> Result<String> {
    let chart = BarChart {
        categories: categories(results),
        series: by_policy(set, &|t| 100.0 * t.nodes_change),
        ..BarChart::new(
            format!(
                "{}: nodes against threefold/linear (depth {})",
                set.set, set.depth
            ),
            "policy (presets)",
            "nodes change (%)",
        )
    };
    Ok(dir.write_chart(
        &format!("{}-nodes.svg", set.set),
        &chart,
        "Tree size against the exact threefold reference (negative: smaller tree)",
    )?)
}

/// Writes the charts and `index.html` into the staged `dir`.
pub fn write_page(results: &Results, dir: &ReportDir) -> Result<()> {
    let summary = summary_section(results)?;
    let presets = presets_section(results)?;
    let cases = cases_section(results)?;
    let mut page = Page::new(TITLE, &results.meta)
        .nav([("All reports", "../index.html")])
        .section("Summary", summary)
        .section("Engine presets and their sources", presets)
        .section("Scripted cases", cases);
    for set in &results.sets {
        let title = if set.set == "wac" {
            "Win At Chess".to_string()
        } else {
            "Repetition suite".to_string()
        };
        page = page.section(title, set_section(results, set, dir)?);
    }
    page.section(
        "Method, assumptions and departures",
        method_section(results)?,
    )
    .write(dir, "index.html")?;
    Ok(())
}

/// The summary section: the headline and the scripted cases passed.
fn summary_section(results: &Results) -> Result<String> {
    let (pass, answers) = cases_pass(results);
    Ok(render_fragment(
        "policies/summary.html",
        SUMMARY,
        &json!({
            "headline": headline(results),
            "pass": pass,
            "answers": answers,
            "cases": results.cases.len(),
        }),
    )?)
}

/// The presets section: each preset's engine, policy, rule and sources.
fn presets_section(results: &Results) -> Result<String> {
    let preset_rows: Vec<Vec<Cell>> = results
        .presets
        .iter()
        .map(|p| {
            vec![
                Cell::text(&p.name),
                Cell::text(&p.engine),
                Cell::text(p.policy.name()),
                Cell::text(&p.rule),
                Cell::text(&p.source),
                Cell::text(&p.upcoming_rule),
                Cell::text(if p.upcoming_note.is_empty() {
                    "—"
                } else {
                    &p.upcoming_note
                }),
            ]
        })
        .collect();
    Ok(render_fragment(
        "policies/presets.html",
        PRESETS,
        &json!({
            "table": table_html(
                &[
                    "preset",
                    "engine",
                    "equals policy",
                    "the engine's rule, as read in its code",
                    "source (repository, files)",
                    "cuckoo rule used here",
                    "the engine's own upcoming-cycle code",
                ],
                &preset_rows,
                false,
            ),
        }),
    )?)
}

/// The scripted cases' section: each case with every preset's expected ply (✗ where it fails).
fn cases_section(results: &Results) -> Result<String> {
    let mut headers = vec![
        "case".to_string(),
        "what it shows".into(),
        "game before the root".into(),
        "line below the root".into(),
    ];
    if let Some(first) = results.cases.first() {
        headers.extend(first.answers.iter().map(|a| a.name.clone()));
    }
    let case_rows: Vec<Vec<Cell>> = results
        .cases
        .iter()
        .map(|c| {
            let mut row = vec![
                Cell::text(&c.case),
                Cell::text(&c.about),
                Cell::text(&c.history),
                Cell::text(&c.line),
            ];
            row.extend(c.answers.iter().map(|a| {
                let ply = a.expected.map_or("—".to_string(), |p| p.to_string());
                Cell::text(if a.pass { ply } else { format!("{ply} ✗") })
            }));
            row
        })
        .collect();
    Ok(render_fragment(
        "policies/cases.html",
        CASES,
        &json!({
            "table": table_html(&headers, &case_rows, false),
        }),
    )?)
}

/// The method section: repeats, threads and the reference.
fn method_section(results: &Results) -> Result<String> {
    Ok(render_fragment(
        "policies/method.html",
        METHOD,
        &json!({
            "repeats": results.config.settings.repeats,
            "threads": results.config.settings.threads,
            "reference_policy": reference().0.name(),
            "reference_detector": reference().1.to_string(),
        }),
    )?)
}
