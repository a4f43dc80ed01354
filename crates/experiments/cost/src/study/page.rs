//! The study's page: verdict, profiles and assumptions, the grid's heat maps and tables, the
//! endgame and WAC distributions. Prose and markup are in `templates/study/`.

use anyhow::Result;
use replab_registry::DetectorId;
use replab_report::{
    Cell, ForestChart, Page, ReportDir, escape_html, figure_html, fmt_delta_pct, fmt_int, fmt_ms,
    render_fragment, table_html,
};
use replab_search::SearchConfig;
use serde::Serialize;
use serde_json::json;

use crate::compare::{Measured, Reference, Scope, Unit, forest_chart, forest_row};
use crate::stats::Quantity;

use super::{
    TITLE,
    grid::{GRID_DETECTORS, SUBJECT},
    results::{Aggregate, Distribution, GridTotal, Judgement, Results},
    verdict::fmt_estimate,
};

const VERDICT: &str = include_str!("../../templates/study/verdict.html");
const PROFILES: &str = include_str!("../../templates/study/profiles.html");
const GRID: &str = include_str!("../../templates/study/grid.html");
const SETS: &str = include_str!("../../templates/study/sets.html");
const METHOD: &str = include_str!("../../templates/study/method.html");

/// A heat map as an SVG table: one row per label, one coloured cell per column. Shrinking
/// (negative) changes are green, growing ones red, the stronger the larger (full colour at
/// ±30%); a cell without a value is grey.
pub fn heatmap(columns: &[String], rows: &[(String, Vec<Option<f64>>)]) -> (String, (u32, u32)) {
    const LABEL_W: u32 = 230;
    const CELL_W: u32 = 78;
    const CELL_H: u32 = 24;
    const HEAD_H: u32 = 40;
    let w = LABEL_W + CELL_W * columns.len() as u32 + 10;
    let h = HEAD_H + CELL_H * rows.len() as u32 + 10;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    );
    for (c, col) in columns.iter().enumerate() {
        let x = LABEL_W + CELL_W * c as u32 + CELL_W / 2;
        for (k, part) in col.splitn(2, ' ').enumerate() {
            svg += &format!(
                "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                16 + 14 * k,
                escape_html(part)
            );
        }
    }
    for (r, (label, values)) in rows.iter().enumerate() {
        let y = HEAD_H + CELL_H * r as u32;
        svg += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
            LABEL_W - 6,
            y + 16,
            escape_html(label)
        );
        for (c, v) in values.iter().enumerate() {
            let x = LABEL_W + CELL_W * c as u32;
            let (fill, text) = match v {
                None => ("#dddddd".to_string(), "—".to_string()),
                Some(v) => {
                    let t = (v.abs() / 0.3).min(1.0);
                    let fade = |full: u8| (255.0 - t * (255.0 - f64::from(full))).round() as u8;
                    let fill = if *v < 0.0 {
                        format!("#{:02x}{:02x}{:02x}", fade(40), fade(160), fade(70))
                    } else {
                        format!("#{:02x}{:02x}{:02x}", fade(210), fade(50), fade(40))
                    };
                    (fill, fmt_delta_pct(*v))
                }
            };
            svg += &format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" \
                 stroke=\"white\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                CELL_W,
                CELL_H,
                x + CELL_W / 2,
                y + 16,
                escape_html(&text)
            );
        }
    }
    svg += "</svg>\n";
    (svg, (w, h))
}

#[derive(Serialize)]
struct Claim<'a> {
    claim: &'a str,
    support: &'a str,
    when: String,
    confidence: &'a str,
    exact: Option<&'a super::ExactVerdict>,
}

#[derive(Serialize)]
struct VerdictContext<'a> {
    summary: &'a str,
    false_draws: &'a str,
    forests: String,
    claims: Vec<Claim<'a>>,
    unknowns: &'a [String],
}

/// What a grid claim picks from a configuration's totals: its change and the decision.
type GridPick = fn(&GridTotal) -> (Measured, Judgement);

/// What a claim chart's caption says of its values' spread: counters are exact, and only
/// sampled values (times) have an interval to speak of.
fn spread<'a>(mut values: impl Iterator<Item = &'a Measured>) -> &'static str {
    if values.all(|m| m.exact) {
        "an exact count"
    } else {
        "with its interval"
    }
}

/// Forest plots of the grid's claims (terminal nodes, generated positions, time): one row per
/// `axon` configuration, its change against `off`, the paper's value, the decision's colour.
fn claim_forests(results: &Results, dir: &ReportDir) -> Result<String> {
    let p = &results.paper;
    let axon = results.voting_axon_totals();
    let claims: [(&str, &str, &Reference, GridPick); 3] = [
        (
            "claims-terminal.svg",
            "terminal nodes",
            &p.terminal_reference,
            |t| {
                let m = Measured::exact(t.terminal_change, Scope::positions(t.config.clone()));
                (m, t.terminal_vs_paper)
            },
        ),
        (
            "claims-generated.svg",
            "generated positions",
            &p.generated_reference,
            |t| {
                let m = Measured::exact(t.generated_change, Scope::positions(t.config.clone()));
                (m, t.generated_vs_paper)
            },
        ),
        ("claims-time.svg", "time", &p.time_reference, |t| {
            let m = Measured::sampled(&t.time_change, Scope::positions(t.config.clone()));
            (m, t.time_vs_paper)
        }),
    ];
    let mut html = String::new();
    for (file, what, reference, pick) in claims {
        let picked: Vec<(String, Measured, Judgement)> = axon
            .iter()
            .map(|t| {
                let (measured, decision) = pick(t);
                (t.config.clone(), measured, decision)
            })
            .collect();
        let spread = spread(picked.iter().map(|(_, m, _)| m));
        let rows = picked
            .into_iter()
            .map(|(config, measured, decision)| forest_row(config, &measured, reference, decision))
            .collect();
        let chart = forest_chart(
            format!(
                "{what}: axon against off per configuration, depth {}",
                results.config.settings.grid_depth
            ),
            format!("change of {what} against off"),
            Some(&reference.source),
            rows,
        );
        html += &dir.write_chart(
            file,
            &chart,
            &format!(
                "Change of {what} per configuration ({spread}), the paper's value ({}) as the \
                 dashed mark where it has a size and the scopes match, the decision as the \
                 colour",
                reference.scope
            ),
        )?;
    }
    Ok(html)
}

/// Forest plots of the claims that keep their comparisons ([`ClaimVerdict::rows`]: the
/// repetition rate per configuration, axon against matrix per position set), in claim order: one
/// row per comparison, the reference as the dashed mark where it has a size, the decision as
/// the colour.
fn row_forests(results: &Results, dir: &ReportDir) -> Result<String> {
    let mut html = String::new();
    for (i, claim) in results.verdict.claims.iter().enumerate() {
        let Some(first) = claim.rows.first().map(|r| &r.comparison) else {
            continue;
        };
        let rows = claim
            .rows
            .iter()
            .map(|r| {
                let c = &r.comparison;
                forest_row(r.label.clone(), &c.measured, &c.reference, c.decision)
            })
            .collect();
        let unit = first.measured.unit;
        let chart = ForestChart {
            percent: unit == Unit::Change,
            ..forest_chart(
                format!("{}: {}", first.what, claim.support),
                first.what.clone(),
                Some(&first.reference.source),
                rows,
            )
        };
        html += &dir.write_chart(
            &format!("claim-{}.svg", i + 1),
            &chart,
            &format!(
                "{} per row ({}), the {}'s value ({}, over {}) as the dashed mark where it has \
                 a size and the scopes match, the decision as the colour",
                first.what,
                if first.measured.exact {
                    "exact counts"
                } else {
                    "median with its interval"
                },
                first.reference.source,
                first.reference.text(),
                first.reference.scope
            ),
        )?;
    }
    Ok(html)
}

/// The settings table of the two profiles.
fn profiles_table(profiles: &[(String, SearchConfig)]) -> String {
    let field = |f: &dyn Fn(&SearchConfig) -> String| -> Vec<Cell> {
        profiles.iter().map(|(_, c)| Cell::text(f(c))).collect()
    };
    let rows: Vec<(&str, Vec<Cell>)> = vec![
        ("draw policy", field(&|c| c.policy.name().into())),
        (
            "null move",
            field(&|c| format!("{} (R = {})", c.null_move, c.null_reduction)),
        ),
        (
            "transposition table",
            field(&|c| {
                format!(
                    "{} ({})",
                    c.effective_tt_mode().name(),
                    c.tt_bits
                        .map_or("none".into(), |b| format!("2^{b} entries"))
                )
            }),
        ),
        (
            "check extension",
            field(&|c| format!("{}, limit {}", c.check_extension, c.extension_limit.name())),
        ),
        (
            "checks in quiescence",
            field(&|c| c.qsearch_checks.to_string()),
        ),
        ("evaluation", field(&|c| c.eval.name().into())),
        ("contempt", field(&|c| c.contempt.to_string())),
    ];
    let mut headers = vec!["setting".to_string()];
    headers.extend(profiles.iter().map(|(n, _)| n.clone()));
    let body: Vec<Vec<Cell>> = rows
        .into_iter()
        .map(|(name, cells)| {
            let mut row = vec![Cell::text(name)];
            row.extend(cells);
            row
        })
        .collect();
    table_html(&headers, &body, false)
}

fn dist(d: &Distribution) -> Cell {
    Cell::text(fmt_estimate(&d.median))
}

/// The aggregates table of a position set.
fn set_table(aggs: &[Aggregate]) -> String {
    let headers = [
        "profile",
        "detector",
        "positions",
        "Δ terminal, median [95% CI]",
        "Δ generated, median [95% CI]",
        "Δ generated, quartiles",
        "tree shrinks",
        "tree grows",
        "Δ time, median [95% CI]",
        "pooled Δ generated",
        "pooled Δ time",
        "repetitions",
        "best move ≠ off",
    ];
    let rows: Vec<Vec<Cell>> = aggs
        .iter()
        .map(|a| {
            vec![
                Cell::text(&a.profile),
                Cell::text(a.detector.name()),
                a.positions.into(),
                dist(&a.terminal),
                dist(&a.generated),
                Cell::text(format!(
                    "{} … {}",
                    fmt_delta_pct(a.generated.quartiles[0]),
                    fmt_delta_pct(a.generated.quartiles[1])
                )),
                Cell::text(format!("{:.0}%", a.generated.shrinks * 100.0)),
                Cell::text(format!("{:.0}%", a.generated.grows * 100.0)),
                Cell::text(a.time.median.cell(Quantity::Change, fmt_delta_pct)),
                Cell::text(fmt_delta_pct(a.pooled_generated_change)),
                Cell::text(fmt_delta_pct(a.pooled_time_change.value)),
                a.repetitions.into(),
                a.best_move_changed.into(),
            ]
        })
        .collect();
    table_html(&headers, &rows, true)
}

/// Writes `grid.svg`, `grid-depth.svg` and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    let verdict = verdict_section(results, dir)?;
    let profiles = profiles_section(results)?;
    let grid = grid_section(results, dir)?;
    let method = method_section(results)?;
    Page::new(TITLE, &results.meta)
        .nav([
            ("All reports", "../index.html"),
            ("One-position reproduction", "../axon/index.html"),
        ])
        .section("Verdict", verdict)
        .section("Searcher profiles and assumptions", profiles)
        .section("Sensitivity grid (WAC.018)", grid)
        .section("Endgames", set_section(&results.endgames)?)
        .section("WAC, for contrast", set_section(&results.wac)?)
        .section("Method", method)
        .write(dir, "index.html")?;
    Ok(())
}

/// The "Verdict" section: the summary, the claims and their forest plots (written into `dir`).
fn verdict_section(results: &Results, dir: &ReportDir) -> Result<String> {
    let v = &results.verdict;
    Ok(render_fragment(
        "study/verdict.html",
        VERDICT,
        &VerdictContext {
            summary: &v.summary,
            false_draws: &v.false_draws,
            forests: claim_forests(results, dir)? + &row_forests(results, dir)?,
            claims: v
                .claims
                .iter()
                .map(|c| Claim {
                    claim: &c.claim,
                    support: &c.support,
                    when: fold_values(&c.when),
                    confidence: &c.confidence,
                    exact: c.exact.as_ref(),
                })
                .collect(),
            unknowns: &v.unknowns,
        },
    )?)
}

/// A claim's "under which searcher choices" as HTML: the grid claims' closing list of every
/// configuration's value (`(axon against off: default −11.3%; …)`) folded into a `<details>`
/// that states how many values it holds; other text escaped as it is.
fn fold_values(when: &str) -> String {
    const VALUES: &str = " (axon against off: ";
    let Some((head, values)) = when
        .split_once(VALUES)
        .and_then(|(head, rest)| Some((head, rest.strip_suffix(".)")?)))
    else {
        return escape_html(when);
    };
    format!(
        "{} <details><summary>axon against off, {} configurations</summary>{}.</details>",
        escape_html(head),
        values.split("; ").count(),
        escape_html(values)
    )
}

/// The "Searcher profiles and assumptions" section: the table of the searcher profiles.
fn profiles_section(results: &Results) -> Result<String> {
    let profiles: Vec<(String, SearchConfig)> = results
        .profiles
        .iter()
        .map(|p| (p.name.clone(), p.search))
        .collect();
    Ok(render_fragment(
        "study/profiles.html",
        PROFILES,
        &json!({
            "table": profiles_table(&profiles),
        }),
    )?)
}

/// Writes `grid.svg`, the heat map of the totals (rows = configurations, columns = detector ×
/// quantity), and returns its figure.
fn totals_figure(results: &Results, dir: &ReportDir) -> Result<String> {
    let dets = &GRID_DETECTORS[1..];
    let mut columns = Vec::new();
    for d in dets {
        for q in ["terminal", "generated", "time"] {
            columns.push(format!("{d} Δ{q}"));
        }
    }
    let total = |config: &str, det: DetectorId| {
        results
            .grid_totals
            .iter()
            .find(|t| t.config == config && t.detector == det)
    };
    let mut rows = vec![(
        "paper (Axon, 2004)".to_string(),
        vec![
            Some(results.paper.terminal_change),
            Some(results.paper.generated_change),
            Some(results.paper.time_change),
            None,
            None,
            None,
        ],
    )];
    for c in &results.grid_configs {
        let mut values = Vec::new();
        for d in dets {
            let t = total(&c.name, *d);
            values.push(t.map(|t| t.terminal_change));
            values.push(t.map(|t| t.generated_change));
            values.push(t.map(|t| t.time_change.value));
        }
        rows.push((c.name.clone(), values));
    }
    let (svg, size) = heatmap(&columns, &rows);
    dir.write("grid.svg", svg)?;
    Ok(figure_html(
        "grid.svg",
        "Change against detection off, depths summed, per configuration (green: smaller or \
         faster, red: larger or slower)",
        size,
    ))
}

/// Writes `grid-depth.svg`, the heat map per depth of axon's generated positions against off,
/// and returns its figure.
fn depth_figure(results: &Results, dir: &ReportDir) -> Result<String> {
    let depths: Vec<u32> = (1..=results.config.settings.grid_depth).collect();
    let columns: Vec<String> = depths.iter().map(|d| format!("depth {d}")).collect();
    let mut rows = vec![(
        "paper (Axon, 2004)".to_string(),
        depths
            .iter()
            .map(|d| {
                results
                    .paper
                    .generated_change_by_depth
                    .iter()
                    .find(|(k, _)| k == d)
                    .map(|(_, x)| *x)
            })
            .collect(),
    )];
    for c in &results.grid_configs {
        rows.push((
            c.name.clone(),
            depths
                .iter()
                .map(|d| {
                    results
                        .grid
                        .iter()
                        .find(|g| g.config == c.name && g.detector == SUBJECT && g.depth == *d)
                        .map(|g| g.generated_change)
                })
                .collect(),
        ));
    }
    let (svg, size) = heatmap(&columns, &rows);
    dir.write("grid-depth.svg", svg)?;
    Ok(figure_html(
        "grid-depth.svg",
        "axon against off: generated positions per depth, where the sign flips",
        size,
    ))
}

/// The table of the grid's totals: one row per configuration and detector, with the judgements
/// against the paper.
fn grid_totals_table(results: &Results) -> String {
    let headers = [
        "configuration",
        "detector",
        "nodes",
        "terminal",
        "generated",
        "repetitions",
        "time (median)",
        "Δ terminal",
        "Δ generated",
        "Δ time [95% CI]",
        "terminal vs paper",
        "generated vs paper",
        "time vs paper",
        "best move",
    ];
    let table_rows: Vec<Vec<Cell>> = results
        .grid_totals
        .iter()
        .map(|t| {
            let j =
                |j: super::Judgement| Cell::text(if t.detector == "off" { "" } else { j.phrase() });
            // A configuration's name may break after its slash (`axon-like/<wbr>tt-no-path-scores`).
            let config = replab_report::escape_html(&t.config).replace('/', "/<wbr>");
            vec![
                Cell::html(config),
                Cell::text(t.detector.name()),
                t.counters.nodes.into(),
                t.counters.terminal_nodes.into(),
                t.counters.generated.into(),
                t.counters.repetitions.into(),
                Cell::text(t.time_ms.cell(Quantity::Level, fmt_ms)),
                Cell::text(fmt_delta_pct(t.terminal_change)),
                Cell::text(fmt_delta_pct(t.generated_change)),
                Cell::text(t.time_change.cell(Quantity::Change, fmt_delta_pct)),
                j(t.terminal_vs_paper),
                j(t.generated_vs_paper),
                j(t.time_vs_paper),
                Cell::text(&t.final_best_move),
            ]
        })
        .collect();
    table_html(&headers, &table_rows, true)
}

/// The axon configurations whose totals judge as `both` on terminal and generated positions
/// against the paper, comma-separated, or "none".
fn axon_configs_judged(results: &Results, both: super::Judgement) -> String {
    let v: Vec<&str> = results
        .voting_axon_totals()
        .into_iter()
        .filter(|t| t.terminal_vs_paper == both && t.generated_vs_paper == both)
        .map(|t| t.config.as_str())
        .collect();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}

/// Groups of names that are one search, as `a (= b, c); d (= e)`, or "none".
fn groups_text(groups: &[super::results::OneSearch]) -> String {
    if groups.is_empty() {
        return "none".into();
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(kept, others)| format!("{kept} (= {})", others.join(", ")))
        .collect();
    parts.join("; ")
}

/// The "Sensitivity grid (WAC.018)" section: the two heat maps (written into `dir`), the totals
/// table and the configurations that reproduce or reverse the paper.
fn grid_section(results: &Results, dir: &ReportDir) -> Result<String> {
    let totals_figure = totals_figure(results, dir)?;
    let depth_figure = depth_figure(results, dir)?;
    Ok(render_fragment(
        "study/grid.html",
        GRID,
        &json!({
            "depth": results.config.settings.grid_depth,
            "repeat": results.config.settings.repeat,
            "grid_threads": results.config.settings.grid_threads,
            "per_search": results.config.settings.fresh_searchers,
            "shared_core": results.config.settings.shared_core,
            "set_rounds": results.config.settings.set_rounds,
            "configurations": results.grid_configs.len(),
            "totals_figure": totals_figure,
            "depth_figure": depth_figure,
            "table": grid_totals_table(results),
            "reproduced": axon_configs_judged(results, super::Judgement::SameDirectionSimilarSize),
            "reversed": axon_configs_judged(results, super::Judgement::Opposite),
            "same_settings": groups_text(&results.one_search_groups().0),
            "same_search": groups_text(&results.one_search_groups().1),
            "voting": results.voting_axon_totals().len(),
            "noise": fmt_delta_pct(results.config.count_noise),
            "rule": crate::resolution::figures_with(
                results.config.settings.edge_factor,
                results.config.settings.time_resolution,
            ),
            "low": format!("{:.1}", results.config.size_tolerance[0]),
            "high": format!("{:.1}", results.config.size_tolerance[1]),
        }),
    )?)
}

/// The section of one position set (endgames or WAC): its description, classes and table.
fn set_section(s: &super::PositionSet) -> Result<String> {
    let mut classes: Vec<(String, usize)> = Vec::new();
    for p in &s.positions {
        match classes.iter_mut().find(|(c, _)| *c == p.class) {
            Some((_, n)) => *n += 1,
            None => classes.push((p.class.clone(), 1)),
        }
    }
    Ok(render_fragment(
        "study/sets.html",
        SETS,
        &json!({
            "description": s.description.clone(),
            "depth": s.depth,
            "positions": s.positions.len(),
            "table": set_table(&s.aggregates),
            "classes": classes
                .iter()
                .map(|(c, n)| format!("{c} {}", fmt_int(*n)))
                .collect::<Vec<_>>()
                .join(", "),
        }),
    )?)
}

/// The "Method" section: seed, endgame size and threads.
fn method_section(results: &Results) -> Result<String> {
    Ok(render_fragment(
        "study/method.html",
        METHOD,
        &json!({
            "seed": results.config.settings.seed,
            "max_men": results.config.max_men,
            "threads": results.config.settings.threads,
        }),
    )?)
}

#[cfg(test)]
mod tests {
    use super::{Measured, Scope, fold_values, spread};

    #[test]
    fn a_chart_of_counts_is_not_captioned_as_times_with_intervals() {
        let count = Measured::exact(-0.2, Scope::positions("a".to_string()));
        assert_eq!(spread([&count, &count].into_iter()), "an exact count");
    }

    #[test]
    fn grid_values_fold_into_a_count() {
        let when = "opposite: default, a<b. (axon against off: default −11.3%; a<b +0.6%.)";
        assert_eq!(
            fold_values(when),
            "opposite: default, a&lt;b. <details><summary>axon against off, 2 configurations\
             </summary>default −11.3%; a&lt;b +0.6%.</details>"
        );
        assert_eq!(
            fold_values("matrix was not searched."),
            "matrix was not searched."
        );
    }
}
