//! The HTML page and SVG charts of `replab reproduce axon`, drawn from [`Results`] alone. The
//! prose and markup are templates in `crates/lab/templates/reproduce/axon/`.

use anyhow::Result;
use replab_registry::info;
use replab_report::{
    BarChart, Cell, LineChart, Page, ReportDir, Series, colour_hex, fmt_delta_pct, fmt_int, fmt_ms,
    render_fragment, table_html,
};
use serde::Serialize;
use serde_json::json;

use super::results::{Paper, PaperRow, Results, Run, Summary, runs_of};

/// A template of `templates/reproduce/axon/` by file name: its name and source.
macro_rules! template {
    ($file:literal) => {
        (
            concat!("reproduce/axon/", $file),
            include_str!(concat!("../../../templates/reproduce/axon/", $file)),
        )
    };
}

/// The introduction (section without heading).
const INTRO: (&str, &str) = template!("intro.html");
/// "Summary": the verdict, the totals table and the change chart.
const SUMMARY: (&str, &str) = template!("summary.html");
/// "Tables 2 and 3 beside ours".
const TABLES: (&str, &str) = template!("tables.html");
/// "Time and the head-to-head".
const TIME: (&str, &str) = template!("time.html");
/// One further position (Figure 1, Diep–Axon).
const CASE: (&str, &str) = template!("case.html");
/// "All runs on WAC.018", folded.
const ALL_RUNS: (&str, &str) = template!("all-runs.html");
/// "Method".
const METHOD: (&str, &str) = template!("method.html");
/// The small HTML table cells.
const CELLS: (&str, &str) = template!("cells.html");

/// Renders one of the templates above with `context`.
fn render(template: (&str, &str), context: &impl Serialize) -> Result<String> {
    Ok(render_fragment(template.0, template.1, context)?)
}

/// A table cell from `cells.html` (the context's `kind` picks the snippet).
fn cell(context: &serde_json::Value) -> Result<Cell> {
    Ok(Cell::html(render(CELLS, context)?))
}

/// A score in pawns from White's view (`+2.30`, `−0.45`), or a mate (`#3`, `#−2`).
fn fmt_eval(cp: i32, mate: Option<i32>) -> String {
    match mate {
        Some(n) if n < 0 => format!("#\u{2212}{}", -n),
        Some(n) => format!("#{n}"),
        None if cp < 0 => format!("\u{2212}{:.2}", f64::from(-cp) / 100.0),
        None => format!("+{:.2}", f64::from(cp) / 100.0),
    }
}

/// A detector name with its chart colour.
fn swatch(name: &str) -> Result<Cell> {
    cell(&json!({ "kind": "swatch", "colour": colour_hex(name), "name": name }))
}

/// The detectors of the head-to-head among the configurations `names`: every single technique
/// (neither `off` nor a composition), grouped as move chains, matrices, keys, then key tables,
/// in the registry's order within a group.
fn head_to_head_detectors<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let group = |name: &str| match info(name).map_or("", |i| i.crate_name) {
        "replab-axon" => 0,
        "replab-matrix" => 1,
        "replab-linear" => 2,
        "replab-tt-open" | "replab-tt-thompson" => 4,
        _ => 3,
    };
    let mut out: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| info(n).is_some_and(|i| !i.caps.composite))
        .collect();
    out.sort_by_key(|n| group(n));
    out
}

/// A count as an English word up to twelve ("eight"), else in digits.
fn count_word(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

/// One series of `f(run)` against depth for configuration `name`.
fn series(runs: &[Run], name: &str, f: impl Fn(&Run) -> f64) -> Series {
    Series::new(
        name,
        runs_of(runs, name)
            .into_iter()
            .map(|r| (f64::from(r.depth), f(r))),
    )
}

fn paper_series(name: &str, rows: &[PaperRow]) -> Series {
    Series::new(
        name,
        rows.iter().map(|r| (f64::from(r.depth), r.nodes as f64)),
    )
    .dashed()
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
    let max_depth = r.config.max_depth;
    let off_total: u64 = r.runs_of("off").iter().map(|r| r.counters.nodes).sum();
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
            "repeat": r.config.repeat,
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

/// The verdict, the totals beside the paper's, and the change chart.
fn summary(r: &Results, paper: &Paper, dir: &ReportDir) -> Result<String> {
    let max_depth = r.config.max_depth;
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
        fmt_int(paper.off.iter().map(|r| r.nodes).sum::<u64>()).into(),
        t.off.terminal_nodes.into(),
        dash(),
        t.off.generated.into(),
        dash(),
        dash(),
        dash(),
        dash(),
    ]);
    rows.push(vec![
        swatch("paper-on")?,
        fmt_int(paper.on.iter().map(|r| r.nodes).sum::<u64>()).into(),
        t.on.terminal_nodes.into(),
        fmt_delta_pct(p_term).into(),
        t.on.generated.into(),
        fmt_delta_pct(p_gen).into(),
        dash(),
        fmt_delta_pct(p_time).into(),
        t.on.repetitions.unwrap_or(0).into(),
    ]);
    let table = table_html(
        &[
            "configuration",
            "nodes",
            "terminal nodes",
            "Δ vs off",
            "generated",
            "Δ vs off",
            "time",
            "Δ vs off",
            "repetitions",
        ],
        &rows,
        true,
    );
    let change_chart = BarChart {
        categories: vec![
            "terminal nodes".into(),
            "generated positions".into(),
            "time".into(),
        ],
        series: std::iter::once(
            Series::values("paper-on", [p_term * 100.0, p_gen * 100.0, p_time * 100.0]).dashed(),
        )
        .chain(r.summary.iter().filter(|s| s.detector != "off").map(|s| {
            Series::values(
                s.detector.as_str(),
                [
                    s.terminal_nodes_change * 100.0,
                    s.generated_change * 100.0,
                    s.time_change * 100.0,
                ],
            )
        }))
        .collect(),
        ..BarChart::new(
            format!("Change against detection off, totals over depths 1–{max_depth}"),
            "total",
            "change vs off (%)",
        )
    };
    let chart = dir.write_chart(
        "change.svg",
        &change_chart,
        "Change of the totals against detection off; the paper's Axon (on vs off) is the light \
         bar with the dashed outline",
    )?;
    render(
        SUMMARY,
        &json!({ "verdict": r.verdict, "table": table, "chart": chart }),
    )
}

/// The paper's Tables 2 and 3, each beside our matching runs.
fn tables(r: &Results, paper: &Paper) -> Result<String> {
    let last_depth = r
        .config
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
                r.counters.nodes.into(),
            ],
            None => vec!["—".into(), "—".into(), "—".into()],
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
                "nodes",
                &format!("ours ({ours_name}): move"),
                "eval",
                "nodes",
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
    render(TABLES, &json!({ "tables": tables }))
}

/// Nodes, their change against `off`, terminal nodes, generated moves and repetitions per depth.
fn trees(r: &Results, paper: &Paper, names: &[&str], dir: &ReportDir) -> Result<String> {
    let nodes = dir.write_chart(
        "nodes.svg",
        &depth_chart(
            r,
            Some(paper),
            names,
            "Nodes per depth",
            "nodes (count)",
            true,
            |r| r.counters.nodes as f64,
        ),
        "Nodes per iteration (log scale). Dashed: the paper's Axon, Table 2 (off) and Table 3 (on)",
    )?;
    let off_nodes: Vec<(u32, f64)> = r
        .runs_of("off")
        .iter()
        .map(|r| (r.depth, r.counters.nodes as f64))
        .collect();
    let mut change_series = vec![
        Series::new(
            "paper-on",
            paper.on.iter().zip(&paper.off).map(|(on, off)| {
                (
                    f64::from(on.depth),
                    (on.nodes as f64 / off.nodes as f64 - 1.0) * 100.0,
                )
            }),
        )
        .dashed(),
    ];
    for name in names.iter().filter(|n| **n != "off") {
        change_series.push(Series::new(
            *name,
            r.runs_of(name).into_iter().filter_map(|run| {
                off_nodes
                    .iter()
                    .find(|(d, _)| *d == run.depth)
                    .map(|(_, off)| {
                        (
                            f64::from(run.depth),
                            (run.counters.nodes as f64 / off - 1.0) * 100.0,
                        )
                    })
            }),
        ));
    }
    let node_change = dir.write_chart(
        "nodes-change.svg",
        &LineChart {
            series: change_series,
            ..LineChart::new(
                "Nodes against detection off, per depth",
                "depth (plies)",
                "change vs off (%)",
            )
        },
        "Node count of each detector relative to detection off at the same depth; dashed: the \
         paper's Table 3 against its Table 2",
    )?;
    let terminal = dir.write_chart(
        "terminal.svg",
        &depth_chart(
            r,
            None,
            names,
            "Terminal nodes per depth",
            "static evaluations (count)",
            true,
            |r| r.counters.terminal_nodes as f64,
        ),
        "Terminal nodes (static evaluations) per iteration (log scale); the paper printed only totals",
    )?;
    let generated = dir.write_chart(
        "generated.svg",
        &depth_chart(
            r,
            None,
            names,
            "Generated positions per depth",
            "moves generated (count)",
            true,
            |r| r.counters.generated as f64,
        ),
        "Moves generated per iteration (log scale); the paper printed only totals",
    )?;
    let mut rep_chart = depth_chart(
        r,
        None,
        names,
        "Repetitions scored as draws per depth",
        "repetitions (count)",
        false,
        |r| r.counters.repetitions as f64,
    );
    rep_chart.series.retain(|s| s.name != "off");
    let reps = dir.write_chart(
        "repetitions.svg",
        &rep_chart,
        &format!(
            "Repetitions found and scored as draws per iteration (detection off finds none); the \
             paper noted {} in total",
            fmt_int(paper.totals.on.repetitions.unwrap_or(0))
        ),
    )?;
    Ok(nodes + &node_change + &terminal + &generated + &reps)
}

/// `f(run)` against depth for every configuration, with the paper's node counts when `paper`
/// is given.
fn depth_chart(
    r: &Results,
    paper: Option<&Paper>,
    names: &[&str],
    title: &str,
    y: &str,
    log: bool,
    f: fn(&Run) -> f64,
) -> LineChart {
    let mut s = Vec::new();
    if let Some(paper) = paper {
        s.push(paper_series("paper-off", &paper.off));
        s.push(paper_series("paper-on", &paper.on));
    }
    s.extend(names.iter().map(|n| series(&r.runs, n, f)));
    LineChart {
        log_y: log,
        series: s,
        ..LineChart::new(title, "depth (plies)", y)
    }
}

/// Time per depth, the speed cost of each detector, and the head-to-head on equal trees.
fn time(r: &Results, names: &[&str], dir: &ReportDir) -> Result<String> {
    let time_chart = dir.write_chart(
        "time.svg",
        &depth_chart(r, None, names, "Time per depth", "time (ms)", true, |r| {
            r.time_ms
        }),
        "Wall time per iteration (log scale), fastest of the repeated runs",
    )?;
    let detectors = || r.summary.iter().filter(|s| s.detector != "off");
    let overhead = BarChart {
        categories: detectors().map(|s| s.detector.clone()).collect(),
        series: vec![Series::values(
            "NPS(off)/NPS(detector) − 1",
            detectors().map(|s| (s.overhead - 1.0) * 100.0),
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
         one, over the whole run (trees differ where detectors see different repetitions)",
    )?;
    let contenders = head_to_head_detectors(names);
    let tables: Vec<&str> = contenders
        .iter()
        .copied()
        .filter(|n| *n != "axon" && *n != "linear" && !n.starts_with("matrix"))
        .collect();
    render(
        TIME,
        &json!({
            "time_chart": time_chart,
            "overhead_chart": overhead_chart,
            "cost_table": cost_table(&r.summary)?,
            "tables": tables,
            "head_to_head": head_to_head(&r.runs, r.config.max_depth, &contenders)?,
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

/// Which configurations score the draw (0.00), and from which depth.
struct Draws<'a> {
    /// Depth of the first draw score, and the configurations reaching it there; by depth.
    by_depth: Vec<(u32, Vec<&'a str>)>,
    /// Configurations never scoring the draw.
    never: Vec<&'a str>,
    /// Configurations whose deepest iteration no longer scores the draw.
    unstable: Vec<&'a str>,
}

/// When each configuration of `names` first scores the draw in `runs`.
fn draws<'a>(runs: &[Run], names: &[&'a str]) -> Draws<'a> {
    let mut draws = Draws {
        by_depth: Vec::new(),
        never: Vec::new(),
        unstable: Vec::new(),
    };
    for name in names {
        let rs = runs_of(runs, name);
        match rs.iter().find(|r| r.eval_cp == 0 && r.mate.is_none()) {
            Some(first) => {
                match draws.by_depth.iter_mut().find(|(d, _)| *d == first.depth) {
                    Some((_, v)) => v.push(name),
                    None => draws.by_depth.push((first.depth, vec![name])),
                }
                if rs.last().is_some_and(|r| r.eval_cp != 0) {
                    draws.unstable.push(name);
                }
            }
            None => draws.never.push(name),
        }
    }
    draws.by_depth.sort_by_key(|(d, _)| *d);
    draws
}

/// Every WAC.018 run, folded away.
fn all_runs(r: &Results) -> Result<String> {
    let rows = r
        .runs
        .iter()
        .map(|run| {
            let c = &run.counters;
            Ok(vec![
                swatch(&run.detector)?,
                run.depth.into(),
                run.best_move_san.clone().into(),
                fmt_eval(run.eval_cp, run.mate).into(),
                c.nodes.into(),
                c.terminal_nodes.into(),
                c.generated.into(),
                c.repetitions.into(),
                c.probes.into(),
                c.hits.into(),
                fmt_ms(run.time_ms).into(),
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
    let on_off = |b: bool| if b { "on" } else { "off" };
    render(
        METHOD,
        &json!({
            "max_depth": c.max_depth,
            "check_extension": on_off(c.check_extension),
            "null_move": on_off(c.null_move),
            "null_reduction": c.null_reduction,
            "tt_bits": c.tt_bits,
            "policy": c.policy,
            "contempt": c.contempt,
            "cuckoo_root_rule": c.cuckoo_root_rule,
            "repeat": c.repeat,
        }),
    )
}

fn summary_row(s: &Summary) -> Result<Vec<Cell>> {
    let delta = |x: f64| {
        if s.detector == "off" {
            Cell::text("—")
        } else {
            Cell::text(fmt_delta_pct(x))
        }
    };
    let c = &s.counters;
    Ok(vec![
        swatch(&s.detector)?,
        c.nodes.into(),
        c.terminal_nodes.into(),
        delta(s.terminal_nodes_change),
        c.generated.into(),
        delta(s.generated_change),
        fmt_ms(s.time_ms).into(),
        delta(s.time_change),
        c.repetitions.into(),
    ])
}

/// Speed and detector statistics per configuration.
fn cost_table(summary: &[Summary]) -> Result<String> {
    let rows = summary
        .iter()
        .map(|s| {
            let off = s.detector == "off";
            let c = &s.counters;
            Ok(vec![
                swatch(&s.detector)?,
                c.nodes.into(),
                fmt_ms(s.time_ms).into(),
                format!("{:.2}", s.nps / 1e6).into(),
                if off {
                    Cell::text("—")
                } else {
                    Cell::text(format!("{:.3}", s.overhead))
                },
                format!("{:.1}", s.time_ms * 1e6 / c.nodes.max(1) as f64).into(),
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
            "time",
            "Mnps",
            "NPS(off)/NPS",
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
    let mut rows = Vec::new();
    // Per detector: time, nodes and depths where its tree equals linear's.
    let mut equal = vec![(0.0f64, 0u64, 0u32); detectors.len()];
    for d in 1..=max_depth {
        let Some(reference) = find("linear", d) else {
            continue;
        };
        let mut row: Vec<Cell> = vec![d.into(), reference.counters.nodes.into()];
        let mut differing = Vec::new();
        for (i, name) in detectors.iter().enumerate() {
            match find(name, d) {
                Some(run) if run.counters.nodes == reference.counters.nodes => {
                    equal[i].0 += run.time_ms;
                    equal[i].1 += run.counters.nodes;
                    equal[i].2 += 1;
                    row.push(fmt_ms(run.time_ms).into());
                }
                Some(run) => {
                    differing.push(*name);
                    row.push(cell(&json!({
                        "kind": "differs",
                        "nodes": fmt_int(run.counters.nodes),
                        "time": fmt_ms(run.time_ms),
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
    total.push("tree = linear's".into());
    per_node.push("".into());
    let mut own: Vec<Cell> = vec![label("all depths: ns per node")?, "".into()];
    for name in detectors {
        let (ms, nodes) = runs_of(runs, name).iter().fold((0.0, 0u64), |(t, n), r| {
            (t + r.time_ms, n + r.counters.nodes)
        });
        own.push(format!("{:.1}", ms * 1e6 / nodes.max(1) as f64).into());
    }
    own.push("own trees".into());
    rows.extend([total, per_node, own]);
    let headers: Vec<String> = ["depth".to_string(), "nodes (linear)".to_string()]
        .into_iter()
        .chain(detectors.iter().map(|n| n.to_string()))
        .chain(std::iter::once("trees".to_string()))
        .collect();
    Ok(table_html(&headers, &rows, false))
}

#[cfg(test)]
mod tests {
    use replab_registry::SEARCH_DETECTORS;

    use super::*;

    #[test]
    fn head_to_head_groups_every_single_technique() {
        // The configurations before the policy checks: the head-to-head of the first report.
        let before = [
            "off",
            "linear",
            "tt-open",
            "filo",
            "rookie",
            "axon",
            "matrix",
            "matrix-checksum",
            "linear+cuckoo",
        ];
        assert_eq!(
            head_to_head_detectors(&before),
            [
                "axon",
                "matrix",
                "matrix-checksum",
                "linear",
                "filo",
                "rookie",
                "tt-open"
            ]
        );
        let all: Vec<&str> = std::iter::once("off").chain(SEARCH_DETECTORS).collect();
        let mut expected: Vec<&str> = SEARCH_DETECTORS
            .iter()
            .copied()
            .filter(|n| info(n).is_some_and(|i| !i.caps.composite))
            .collect();
        let mut ours = head_to_head_detectors(&all);
        assert_eq!(ours[0], "axon");
        expected.sort_unstable();
        ours.sort_unstable();
        assert_eq!(ours, expected);
    }

    #[test]
    fn evals_and_counts_read_as_on_the_page() {
        assert_eq!(fmt_eval(230, None), "+2.30");
        assert_eq!(fmt_eval(-45, None), "\u{2212}0.45");
        assert_eq!(fmt_eval(29_995, Some(3)), "#3");
        assert_eq!(fmt_eval(-29_996, Some(-2)), "#\u{2212}2");
        assert_eq!(count_word(8), "eight");
        assert_eq!(count_word(13), "13");
    }

    #[test]
    fn cells_render_their_snippets() {
        let html = |c: Cell| match c {
            Cell::Html(h) => h,
            Cell::Text(t) => panic!("text cell {t}"),
        };
        let swatch = html(swatch("a<b").unwrap());
        assert!(swatch.starts_with("<span style=\"color:#"), "{swatch}");
        assert!(swatch.ends_with("</span> a&lt;b"), "{swatch}");
        let label = html(cell(&json!({ "kind": "label", "label": "x" })).unwrap());
        assert_eq!(label, "<strong>x</strong>");
    }
}
