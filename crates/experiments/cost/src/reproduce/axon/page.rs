//! The HTML page of `replab reproduce axon`, drawn from [`Results`] alone: what it says is
//! computed in `analysis.rs`, its charts are drawn in `figures.rs`, its small table cells in
//! `cells.rs`, and its prose and markup are templates in
//! `crates/experiments/cost/templates/reproduce/axon/`.

use anyhow::Result;
use replab_registry::DetectorId;
use replab_report::template;
use replab_report::{
    BarChart, Cell, LineChart, Page, ReportDir, fmt_delta_pct, fmt_int, fmt_ms, render_fragment,
    table_html,
};
use replab_workloads::colours;
use serde::Serialize;
use serde_json::json;

use super::analysis::{
    count_word, distinct_moves, draws, early_moves, fmt_eval, group, head_to_head_detectors,
    move_agreement, ours_last_eval, ours_san, ours_settled, paper_last, paper_san, paper_settled,
    rh8_endings, series, wac_rook_endings,
};
use super::cells::{cell, fmt_change, fmt_ratio, fmt_time, interval_text, swatch, time_cell};
use super::figures::{
    change_chart, claims_chart, depth_chart, generated_change_figure, generated_figure,
    nodes_figure, repetitions_figure, terminal_figure,
};
use super::results::{Paper, PaperRow, Results, Run, Summary, runs_of};
use super::run::ADAPTIVE_DETECTOR;
use super::verdict::per_thousand;
use crate::stats::LEVEL;

/// The introduction (section without heading).
const INTRO: (&str, &str) = template!("reproduce/axon/intro.html");
/// "Summary": the verdict, the totals table and the change chart.
const SUMMARY: (&str, &str) = template!("reproduce/axon/summary.html");
/// "Tables 2 and 3 beside ours".
const TABLES: (&str, &str) = template!("reproduce/axon/tables.html");
/// "The position": why WAC.018 is the paper's position.
const POSITION: (&str, &str) = template!("reproduce/axon/position.html");
/// "Time and the head-to-head".
const TIME: (&str, &str) = template!("reproduce/axon/time.html");
/// One further position (Figure 1, Diep–Axon).
const CASE: (&str, &str) = template!("reproduce/axon/case.html");
/// "All runs on WAC.018", folded.
const ALL_RUNS: (&str, &str) = template!("reproduce/axon/all-runs.html");
/// "Method".
const METHOD: (&str, &str) = template!("reproduce/axon/method.html");

/// Renders one of the templates above with `context`.
fn render(template: (&str, &str), context: &impl Serialize) -> Result<String> {
    Ok(render_fragment(template.0, template.1, context)?)
}

/// Writes `index.html` and its charts into `dir`.
pub fn write(r: &Results, dir: &ReportDir) -> Result<()> {
    let paper = r.paper.tables();
    let names = r.configurations();
    let mut page = Page::new(
        "Reproducing Axon's repetition-detection experiment (WAC.018)",
        &r.meta,
    );
    page = page.section("", intro(r, paper, &names)?);
    page = page.section("The position: WAC.018", position(r, paper)?);
    page = page.section("Summary", summary(r, paper, dir)?);
    page = page.section("Tables 2 and 3 beside ours", tables(r, paper)?);
    page = page.section("Search trees per depth", trees(r, paper, &names, dir)?);
    page = page.section("Time and the head-to-head", time(r, &names, dir)?);
    for (html, title) in cases(r, &names, dir)? {
        page = page.section(title, html);
    }
    page = page.section("All runs on WAC.018", all_runs(r)?);
    page = page.section("Method", method(r)?);
    Ok(page.write(dir, "index.html")?)
}

/// The introduction: the paper's experiment and how ours compares.
fn intro(r: &Results, paper: &Paper, names: &[&str]) -> Result<String> {
    let max_depth = r.config.settings.max_depth;
    let off_total: u64 = r.runs_of("off").iter().map(|r| r.counters.generated).sum();
    let paper_total: u64 = paper
        .off
        .iter()
        .filter(|row| row.depth <= max_depth)
        .map(|row| row.nodes)
        .sum();
    let (p_term, p_gen, p_time) = paper.changes();
    let cut = |change: f64| format!("{:.0}", -change * 100.0);
    render(
        INTRO,
        &json!({
            "position": r.position,
            "max_depth": max_depth,
            "policy": r.config.policy,
            "repeat": r.config.settings.repeat,
            "coverage": format!("{:.0}", r.config.time_ci_coverage * 100.0),
            "low_coverage": r.config.time_ci_coverage < LEVEL,
            "detector_count": count_word(names.iter().filter(|n| **n != "off").count()),
            "paper_terminal_cut": cut(p_term),
            "paper_generated_cut": cut(p_gen),
            "paper_time_cut": cut(p_time),
            "paper_repetitions": fmt_int(paper.totals.on.repetitions.unwrap_or(0)),
            "off_total": fmt_int(off_total),
            "paper_total": fmt_int(paper_total),
            "fewer": (off_total > 0 && paper_total >= off_total)
                .then(|| format!("{:.0}", paper_total as f64 / off_total as f64)),
        }),
    )
}

/// Why WAC.018 is the paper's position, and what of its tables our searcher matches.
fn position(r: &Results, paper: &Paper) -> Result<String> {
    let wac = replab_board::Position::from_fen(&r.position)?;
    let paper_moves: Vec<&PaperRow> = paper.off.iter().chain(&paper.on).collect();
    let legal = paper_moves
        .iter()
        .filter(|row| wac.parse_uci(&row.best_move).is_ok())
        .count();
    let endings = wac_rook_endings();
    let (agree_off, common_off) = move_agreement(r, |x| (&x.paper_off_move, &x.ours_off_move));
    let (agree_on, common_on) = move_agreement(r, |x| (&x.paper_on_move, &x.ours_axon_move));
    let (paper_depth, paper_off_eval) = paper_last(&paper.off);
    let (_, paper_on_eval) = paper_last(&paper.on);
    render(
        POSITION,
        &json!({
            "fen": r.position,
            "endings": endings.iter().map(|(id, bm)| format!("{id} (bm {bm})")).collect::<Vec<_>>(),
            "rh8": rh8_endings(&endings),
            "moves": distinct_moves(&paper_moves),
            "legal": legal,
            "paper_rows": paper_moves.len(),
            "agree_off": agree_off,
            "common_off": common_off,
            "agree_on": agree_on,
            "common_on": common_on,
            "paper_settled_off": paper_settled(&paper.off),
            "paper_settled_on": paper_settled(&paper.on),
            "ours_settled_off": ours_settled(r, "off"),
            "ours_settled_on": ours_settled(r, "axon"),
            "paper_early": early_moves(vec![paper_san(&paper.off), paper_san(&paper.on)]),
            "ours_early": early_moves(vec![ours_san(r, "off"), ours_san(r, "axon")]),
            "paper_depth": paper_depth,
            "paper_off_eval": paper_off_eval,
            "paper_on_eval": paper_on_eval,
            "max_depth": r.config.settings.max_depth,
            "ours_off_eval": ours_last_eval(r, "off"),
            "ours_on_eval": ours_last_eval(r, "axon"),
        }),
    )
}

/// The verdict, the totals beside the paper's, and the change chart.
fn summary(r: &Results, paper: &Paper, dir: &ReportDir) -> Result<String> {
    let table = summary_table(r, paper)?;
    let linear = linear_overhead(r);
    let adaptive = r.overhead_adaptive.as_ref().map(|a| {
        json!({
            "target": format!("{:.1}", a.target * 100.0),
            "extra_rounds": a.extra_rounds,
            "seconds": format!("{:.0}", a.seconds.value),
            "stopped": a.stopped,
        })
    });
    let chart = change_chart(r, paper, dir)?;
    let claims = claims_chart(r, dir)?;
    render(
        SUMMARY,
        &json!({
            "verdict": r.verdict,
            "claims": claims,
            "table": table,
            "chart": chart,
            "repeat": r.config.settings.repeat,
            "rule": crate::resolution::figures_with(
                r.config.settings.edge_factor,
                r.config.settings.time_resolution,
            ),
            "linear": linear,
            "adaptive": adaptive,
        }),
    )
}

/// The totals table: one row per configuration searched, then the paper's off and on rows.
fn summary_table(r: &Results, paper: &Paper) -> Result<String> {
    let (p_term, p_gen, p_time) = paper.changes();
    let mut rows = r
        .summary
        .iter()
        .map(summary_row)
        .collect::<Result<Vec<_>>>()?;
    let t = &paper.totals;
    let dash = || Cell::text("—");
    rows.push(vec![
        swatch("paper-off")?,
        t.off.generated.into(),
        dash(),
        t.off.terminal_nodes.into(),
        dash(),
        dash(),
        dash(),
        dash(),
        dash(),
        dash(),
    ]);
    let paper_reps = t.on.repetitions.unwrap_or(0);
    rows.push(vec![
        swatch("paper-on")?,
        t.on.generated.into(),
        fmt_delta_pct(p_gen).into(),
        t.on.terminal_nodes.into(),
        fmt_delta_pct(p_term).into(),
        dash(),
        dash(),
        fmt_delta_pct(p_time).into(),
        paper_reps.into(),
        format!("{:.2}", per_thousand(paper_reps, t.on.generated)).into(),
    ]);
    Ok(table_html(
        &[
            "configuration",
            "generated",
            "Δ vs off",
            "terminal nodes",
            "Δ vs off",
            "nodes entered",
            "time [95% interval]",
            "Δ time vs off [95% interval]",
            "repetitions",
            "per 1,000 generated",
        ],
        &rows,
        true,
    ))
}

/// The adaptively measured detector's time overhead with its interval, if it was searched.
fn linear_overhead(r: &Results) -> Option<serde_json::Value> {
    r.summary
        .iter()
        .find(|s| s.detector == ADAPTIVE_DETECTOR)
        .map(|s| {
            json!({
                "name": s.detector,
                "overhead": fmt_ratio(&s.overhead),
                "half_width": format!(
                    "{:.2}",
                    (s.overhead.interval.hi - s.overhead.interval.lo) / 2.0 * 100.0
                ),
                "rounds": s.overhead.interval.n,
                "measurable": !s.overhead.interval.contains(1.0),
            })
        })
}

/// The paper's Tables 2 and 3, each beside our matching runs.
fn tables(r: &Results, paper: &Paper) -> Result<String> {
    let last_depth = r
        .config
        .settings
        .max_depth
        .max(paper.off.last().map_or(0, |r| r.depth));
    let paper_cells = |rows: &[PaperRow], d: u32| -> Vec<Cell> {
        match rows.iter().find(|r| r.depth == d) {
            Some(r) => vec![
                r.best_move_san.clone().into(),
                fmt_eval(r.eval_cp, None).into(),
                r.nodes.into(),
            ],
            None => vec!["—".into(), "—".into(), "—".into()],
        }
    };
    let our_cells = |rows: &[&Run], d: u32| -> Vec<Cell> {
        match rows.iter().find(|r| r.depth == d) {
            Some(r) => vec![
                r.best_move_san.clone().into(),
                fmt_eval(r.eval_cp, r.mate).into(),
                r.counters.generated.into(),
                r.counters.nodes.into(),
            ],
            None => vec!["—".into(), "—".into(), "—".into(), "—".into()],
        }
    };
    let side_by_side = |paper_rows: &[PaperRow], ours: &[&Run], ours_name: &str| {
        let rows: Vec<Vec<Cell>> = (1..=last_depth)
            .map(|d| {
                let mut row: Vec<Cell> = vec![d.into()];
                row.extend(paper_cells(paper_rows, d));
                row.extend(our_cells(ours, d));
                row
            })
            .collect();
        table_html(
            &[
                "depth",
                "paper: move",
                "eval",
                "node count",
                &format!("ours ({ours_name}): move"),
                "eval",
                "generated",
                "nodes entered",
            ],
            &rows,
            false,
        )
    };
    let tables: Vec<_> = [
        ("Table 2: detection off", &paper.off, "off"),
        ("Table 3: detection on", &paper.on, "axon"),
    ]
    .into_iter()
    .map(|(heading, paper_rows, name)| {
        json!({
            "heading": heading,
            "table": side_by_side(paper_rows, &r.runs_of(name), name),
        })
    })
    .collect();
    render(
        TABLES,
        &json!({ "tables": tables, "comparison": comparison_table(r),
            "paper_off_total": fmt_int(paper.off.iter().map(|r| r.nodes).sum::<u64>()),
            "paper_on_total": fmt_int(paper.on.iter().map(|r| r.nodes).sum::<u64>()) }),
    )
}

/// The per-depth comparison in the paper's unit: its node counts beside our generated
/// positions, with the on-vs-off change of each, and the totals over the common depths.
fn comparison_table(r: &Results) -> String {
    let opt = |x: Option<u64>| x.map_or_else(|| Cell::text("—"), Cell::from);
    let pct = |x: Option<f64>| x.map_or_else(|| Cell::text("—"), |x| Cell::text(fmt_delta_pct(x)));
    let mut rows: Vec<Vec<Cell>> = r
        .comparison
        .iter()
        .map(|c| {
            vec![
                c.depth.into(),
                opt(c.paper_off),
                c.ours_off_generated.into(),
                opt(c.paper_on),
                c.ours_axon_generated.into(),
                pct(c.paper_change),
                pct(Some(c.ours_change)),
                c.ours_off_nodes.into(),
                c.ours_axon_nodes.into(),
            ]
        })
        .collect();
    let common: Vec<_> = r
        .comparison
        .iter()
        .filter(|c| c.paper_off.is_some() && c.paper_on.is_some())
        .collect();
    let sum = |f: fn(&super::results::Comparison) -> u64| common.iter().map(|c| f(c)).sum::<u64>();
    let (p_off, p_on) = (
        sum(|c| c.paper_off.unwrap_or(0)),
        sum(|c| c.paper_on.unwrap_or(0)),
    );
    let (o_off, o_on) = (
        sum(|c| c.ours_off_generated),
        sum(|c| c.ours_axon_generated),
    );
    let change = |on: u64, off: u64| {
        if off > 0 {
            Some(on as f64 / off as f64 - 1.0)
        } else {
            None
        }
    };
    if let (Some(first), Some(last)) = (common.first(), common.last()) {
        let label = cell(&json!({
            "kind": "label",
            "label": format!("total {}–{}", first.depth, last.depth),
        }))
        .unwrap_or_else(|_| Cell::text("total"));
        rows.push(vec![
            label,
            p_off.into(),
            o_off.into(),
            p_on.into(),
            o_on.into(),
            pct(change(p_on, p_off)),
            pct(change(o_on, o_off)),
            sum(|c| c.ours_off_nodes).into(),
            sum(|c| c.ours_axon_nodes).into(),
        ]);
    }
    table_html(
        &[
            "depth",
            "paper off: node count",
            "ours off: generated",
            "paper on: node count",
            "ours axon: generated",
            "paper on vs off",
            "ours axon vs off",
            "ours off: nodes entered",
            "ours axon: nodes entered",
        ],
        &rows,
        false,
    )
}

/// Nodes, their change against `off`, terminal nodes, generated moves and repetitions per depth.
fn trees(r: &Results, paper: &Paper, names: &[&str], dir: &ReportDir) -> Result<String> {
    let generated = generated_figure(r, paper, names, dir)?;
    let generated_change = generated_change_figure(r, paper, names, dir)?;
    let terminal = terminal_figure(r, names, dir)?;
    let nodes = nodes_figure(r, names, dir)?;
    let reps = repetitions_figure(r, paper, names, dir)?;
    Ok(generated + &generated_change + &terminal + &nodes + &reps)
}

/// Time per depth, the speed cost of each detector, and the head-to-head on equal trees.
fn time(r: &Results, names: &[&str], dir: &ReportDir) -> Result<String> {
    let time_chart = dir.write_chart(
        "time.svg",
        &depth_chart(r, None, names, "Time per depth", "time (ms)", true, |r| {
            r.time_ms.value
        }),
        &format!(
            "Wall time per iteration (log scale), the median of {} interleaved rounds; the \
             intervals are in the table of all runs",
            r.config.settings.repeat
        ),
    )?;
    let detectors = || r.summary.iter().filter(|s| s.detector != DetectorId::Off);
    let overhead = BarChart {
        categories: detectors().map(|s| s.detector.to_string()).collect(),
        series: vec![colours::values(
            "NPS(off)/NPS(detector) − 1",
            detectors().map(|s| (s.overhead.value - 1.0) * 100.0),
        )],
        ..BarChart::new(
            "Speed cost of each detector",
            "detector",
            "NPS(off)/NPS − 1 (%)",
        )
    };
    let overhead_chart = dir.write_chart(
        "overhead.svg",
        &overhead,
        "Nodes per second with detection off divided by nodes per second with the detector, minus \
         one: the median over paired rounds of the whole run (trees differ where detectors see \
         different repetitions); the intervals are in the table below",
    )?;
    let contenders = head_to_head_detectors(names);
    let tables: Vec<&str> = contenders
        .iter()
        .copied()
        .filter(|n| group(n) >= 3)
        .collect();
    render(
        TIME,
        &json!({
            "time_chart": time_chart,
            "overhead_chart": overhead_chart,
            "cost_table": cost_table(&r.summary)?,
            "repeat": r.config.settings.repeat,
            "overhead_clock": r.config.overhead_clock,
            "tables": tables,
            "head_to_head": head_to_head(&r.runs, r.config.settings.max_depth, &contenders)?,
        }),
    )
}

/// One section per further position: its table of runs, when the draw is seen, a score chart.
/// Returns (html, title) per case.
fn cases<'a>(r: &'a Results, names: &[&str], dir: &ReportDir) -> Result<Vec<(String, &'a str)>> {
    let mut out = Vec::new();
    for case in &r.cases {
        let depths = case.runs.iter().map(|r| r.depth).max().unwrap_or(0);
        let mut rows = Vec::new();
        for d in 1..=depths {
            let mut row: Vec<Cell> = vec![d.into()];
            for name in names {
                let run = case
                    .runs
                    .iter()
                    .find(|r| r.detector == *name && r.depth == d);
                row.push(match run {
                    Some(run) => cell(&json!({
                        "kind": "case",
                        "san": run.best_move_san,
                        "eval": fmt_eval(run.eval_cp, run.mate),
                        "nodes": fmt_int(run.counters.nodes),
                    }))?,
                    None => Cell::text("—"),
                });
            }
            rows.push(row);
        }
        let headers: Vec<&str> = std::iter::once("depth")
            .chain(names.iter().copied())
            .collect();
        let chart = LineChart {
            series: names
                .iter()
                .map(|n| {
                    series(&case.runs, n, |r| {
                        let cp = f64::from(r.eval_cp);
                        if r.mate.is_some() {
                            cp.clamp(-2000.0, 2000.0)
                        } else {
                            cp
                        }
                    })
                })
                .collect(),
            ..LineChart::new(
                format!("{}: score per depth", case.title),
                "depth (plies)",
                "score, White's view (cp)",
            )
        };
        let chart = dir.write_chart(
            &format!("{}-score.svg", case.id),
            &chart,
            "Score per depth for each configuration (mate scores drawn at ±2000 cp)",
        )?;
        let draws = draws(&case.runs, names);
        let html = render(
            CASE,
            &json!({
                "note": case.note,
                "fen": case.fen,
                "history_plies": case.history_plies,
                "table": table_html(&headers, &rows, false),
                "depths": depths,
                "draw_depths": draws.by_depth.iter()
                    .map(|(depth, names)| json!({ "depth": depth, "names": names }))
                    .collect::<Vec<_>>(),
                "never": draws.never,
                "unstable": draws.unstable,
                "chart": chart,
            }),
        )?;
        out.push((html, case.title.as_str()));
    }
    Ok(out)
}

/// Every WAC.018 run, folded away.
fn all_runs(r: &Results) -> Result<String> {
    let rows = r
        .runs
        .iter()
        .map(|run| {
            let c = &run.counters;
            Ok(vec![
                swatch(run.detector.name())?,
                run.depth.into(),
                run.best_move_san.clone().into(),
                fmt_eval(run.eval_cp, run.mate).into(),
                c.nodes.into(),
                c.terminal_nodes.into(),
                c.generated.into(),
                c.repetitions.into(),
                c.probes.into(),
                c.hits.into(),
                fmt_time(&run.time_ms).into(),
                Cell::text(run.pv.join(" ")),
            ])
        })
        .collect::<Result<Vec<_>>>()?;
    let table = table_html(
        &[
            "configuration",
            "depth",
            "move",
            "eval",
            "nodes",
            "terminal",
            "generated",
            "repetitions",
            "probes",
            "hits",
            "time",
            "principal variation",
        ],
        &rows,
        true,
    );
    render(ALL_RUNS, &json!({ "count": r.runs.len(), "table": table }))
}

/// How the searcher was configured and what differs from the paper.
fn method(r: &Results) -> Result<String> {
    let c = &r.config;
    let target = c.settings.overhead_target;
    let on_off = |b: bool| if b { "on" } else { "off" };
    render(
        METHOD,
        &json!({
            "profile": c.settings.profile,
            "qsearch_checks": c.qsearch_checks,
            "extension_limit": c.search.extension_limit.name(),
            "tt_mode": c.search.tt_mode.name(),
            "eval": match c.search.eval {
                replab_search::Eval::Full => "material + piece-square",
                replab_search::Eval::Material => "material-only",
                replab_search::Eval::Tapered => "tapered material + piece-square",
            },
            "max_depth": c.settings.max_depth,
            "check_extension": on_off(c.check_extension),
            "null_move": on_off(c.null_move),
            "null_reduction": c.null_reduction,
            "tt_bits": c.tt_bits,
            "policy": c.policy,
            "contempt": c.contempt,
            "cuckoo_root_rule": c.cuckoo_root_rule,
            "repeat": c.settings.repeat,
            "overhead_target": (target > 0.0).then(|| format!("{:.1}", target * 100.0)),
            "overhead_max_rounds": fmt_int(c.settings.overhead_max_rounds),
            "overhead_max_seconds": format!("{:.0}", c.settings.overhead_max_seconds),
            "overhead_clock": c.overhead_clock,
        }),
    )
}

fn summary_row(s: &Summary) -> Result<Vec<Cell>> {
    let delta = |x: f64| {
        if s.detector == DetectorId::Off {
            Cell::text("—")
        } else {
            Cell::text(fmt_delta_pct(x))
        }
    };
    let c = &s.counters;
    Ok(vec![
        swatch(s.detector.name())?,
        c.generated.into(),
        delta(s.generated_change),
        c.terminal_nodes.into(),
        delta(s.terminal_nodes_change),
        c.nodes.into(),
        fmt_time(&s.time_ms).into(),
        if s.detector == DetectorId::Off {
            Cell::text("—")
        } else {
            Cell::text(fmt_change(&s.time_change))
        },
        c.repetitions.into(),
        format!("{:.2}", per_thousand(c.repetitions, c.generated)).into(),
    ])
}

/// Speed and detector statistics per configuration. Costs are compared by the overlap rule:
/// overlapping intervals are no measurable difference.
fn cost_table(summary: &[Summary]) -> Result<String> {
    let linear = summary
        .iter()
        .find(|s| s.detector == ADAPTIVE_DETECTOR)
        .map(|s| s.overhead);
    let rows = summary
        .iter()
        .map(|s| {
            let off = s.detector == DetectorId::Off;
            let c = &s.counters;
            let own = s.overhead;
            let against_off = if off {
                "—".to_string()
            } else if own.interval.contains(1.0) {
                "no measurable difference".to_string()
            } else if own.value > 1.0 {
                "slower".to_string()
            } else {
                "faster".to_string()
            };
            let against_linear = match &linear {
                Some(_) if off || s.detector == ADAPTIVE_DETECTOR => "—".to_string(),
                Some(l) if own.overlaps(l) => "no measurable difference".to_string(),
                Some(l) if own.value > l.value => "slower".to_string(),
                Some(_) => "faster".to_string(),
                None => "—".to_string(),
            };
            Ok(vec![
                swatch(s.detector.name())?,
                c.nodes.into(),
                s.overhead_instructions
                    .map_or_else(|| Cell::text("—"), |x| format!("{x:.3}").into()),
                fmt_time(&s.time_ms).into(),
                format!("{:.2}", s.nps.value / 1e6).into(),
                if off {
                    Cell::text("—")
                } else {
                    Cell::text(fmt_ratio(&s.overhead))
                },
                if off {
                    Cell::text("—")
                } else {
                    Cell::from(s.overhead.interval.n)
                },
                Cell::text(against_off),
                Cell::text(against_linear),
                format!("{:.1}", s.time_ms.value * 1e6 / c.nodes.max(1) as f64).into(),
                c.probes.into(),
                c.hits.into(),
                fmt_int(s.memory_bytes).into(),
            ])
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(table_html(
        &[
            "configuration",
            "nodes",
            "instructions per node vs off (exact)",
            "time [95% interval]",
            "Mnps",
            "NPS(off)/NPS [95% interval]",
            "paired rounds",
            "speed vs off",
            "speed vs linear",
            "ns per node",
            "probes",
            "hits",
            "detector bytes",
        ],
        &rows,
        true,
    ))
}

/// Time per depth of the head-to-head `detectors`, marking trees that differ from linear's.
fn head_to_head(runs: &[Run], max_depth: u32, detectors: &[&str]) -> Result<String> {
    let find = |name: &str, d: u32| runs.iter().find(|r| r.detector == name && r.depth == d);
    let linear = DetectorId::reference();
    let mut rows = Vec::new();
    // Per detector: time, nodes and depths where its tree equals linear's.
    let mut equal = vec![(0.0f64, 0u64, 0u32); detectors.len()];
    for d in 1..=max_depth {
        let Some(reference) = find(linear.name(), d) else {
            continue;
        };
        let mut row: Vec<Cell> = vec![d.into(), reference.counters.nodes.into()];
        let mut differing = Vec::new();
        for (i, name) in detectors.iter().enumerate() {
            match find(name, d) {
                Some(run) if run.counters.nodes == reference.counters.nodes => {
                    equal[i].0 += run.time_ms.value;
                    equal[i].1 += run.counters.nodes;
                    equal[i].2 += 1;
                    row.push(time_cell(run)?);
                }
                Some(run) => {
                    differing.push(*name);
                    row.push(cell(&json!({
                        "kind": "differs",
                        "nodes": fmt_int(run.counters.nodes),
                        "time": fmt_ms(run.time_ms.value),
                        "ci": interval_text(run),
                    }))?);
                }
                None => row.push("—".into()),
            }
        }
        row.push(if differing.is_empty() {
            "all equal".into()
        } else {
            format!("≠ {}", differing.join(", ")).into()
        });
        rows.push(row);
    }
    let label = |text: &str| cell(&json!({ "kind": "label", "label": text }));
    let mut total: Vec<Cell> = vec![label("equal trees: time")?, "".into()];
    let mut per_node: Vec<Cell> = vec![label("equal trees: ns per node")?, "".into()];
    for (ms, nodes, depths) in equal {
        total.push(if depths == 0 {
            "—".into()
        } else {
            cell(&json!({ "kind": "equal-total", "time": fmt_ms(ms), "depths": depths }))?
        });
        per_node.push(if nodes == 0 {
            "—".into()
        } else {
            format!("{:.1}", ms * 1e6 / nodes as f64).into()
        });
    }
    total.push(format!("tree = {linear}'s").into());
    per_node.push("".into());
    let mut own: Vec<Cell> = vec![label("all depths: ns per node")?, "".into()];
    for name in detectors {
        let (ms, nodes) = runs_of(runs, name).iter().fold((0.0, 0u64), |(t, n), r| {
            (t + r.time_ms.value, n + r.counters.nodes)
        });
        own.push(format!("{:.1}", ms * 1e6 / nodes.max(1) as f64).into());
    }
    own.push("own trees".into());
    rows.extend([total, per_node, own]);
    let headers: Vec<String> = ["depth".to_string(), format!("nodes ({linear})")]
        .into_iter()
        .chain(detectors.iter().map(|n| n.to_string()))
        .chain(std::iter::once("trees".to_string()))
        .collect();
    Ok(table_html(&headers, &rows, false))
}
