//! The audit's outputs, made from [`Results`] alone: the stdout table ([`text`]) and the
//! report page with its charts ([`write`]). The page's prose is in `templates/audit/`.

use std::fmt::Write as _;

use anyhow::Result;
use replab_board::Position;
use replab_report::{
    BarChart, Cell, LineChart, Page, ReportDir, escape_html, fmt_int, fmt_pct, render_fragment,
    table_html,
};
use replab_workloads::colours;
use serde::Serialize;
use serde_json::json;

use super::{
    games::STARTS,
    results::{Audited, Example, Results},
    shrink::{Case, first_error, numbered},
    spec::{Cause, Check, Kind, Spec},
};

/// A percentage with two decimals, `—` for none.
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "—".to_owned(), |v| format!("{:.2}%", v * 100.0))
}

/// `12 plies: cause`, or `—`.
fn example_cell(e: Option<&Example>) -> String {
    e.map_or_else(
        || "—".to_owned(),
        |e| format!("{} plies: {}", e.plies, e.cause),
    )
}

/// Lays out `rows` as a plain-text table: first column left-aligned, the others right-aligned
/// unless `left` says otherwise.
fn plain_table(headers: &[&str], rows: &[Vec<String>], left: &[usize]) -> String {
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([headers[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let mut line = |cells: Vec<&str>| {
        let mut l = String::new();
        for (c, cell) in cells.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c > 0 {
                l.push_str("  ");
            }
            if c == 0 || left.contains(&c) {
                l.push_str(cell);
                if c + 1 < cells.len() {
                    l.push_str(&" ".repeat(pad));
                }
            } else {
                l.push_str(&" ".repeat(pad));
                l.push_str(cell);
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(headers.to_vec());
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    line(rule.iter().map(String::as_str).collect());
    for r in rows {
        line(r.iter().map(String::as_str).collect());
    }
    out
}

/// The agreement rows of the main detectors.
fn agreement_rows(results: &Results) -> Vec<Vec<String>> {
    results
        .detectors
        .values()
        .map(|a| {
            vec![
                a.detector.clone(),
                a.check.name().to_owned(),
                a.true_positive.to_string(),
                a.false_positive.to_string(),
                a.false_negative.to_string(),
                a.true_negative.to_string(),
                pct(a.precision),
                pct(a.recall),
                pct(a.error_rate),
                example_cell(a.example(Kind::FalsePositive)),
                example_cell(a.example(Kind::FalseNegative)),
            ]
        })
        .collect()
}

const AGREEMENT_HEADERS: [&str; 11] = [
    "detector",
    "check",
    "TP",
    "FP",
    "FN",
    "TN",
    "precision",
    "recall",
    "error rate",
    "shortest FP",
    "shortest FN",
];

/// The row of one size variant.
fn size_row(a: &Audited) -> Vec<String> {
    let s = &a.stats;
    vec![
        a.detector.clone(),
        a.size.unwrap_or(0).to_string(),
        a.false_positive.to_string(),
        a.false_negative.to_string(),
        pct(a.error_rate),
        pct(a.recall.map(|r| 1.0 - r)),
        s.misses.to_string(),
        s.collisions.to_string(),
        s.futile.to_string(),
        a.errors_after_miss_or_overflow.to_string(),
    ]
}

const SIZE_HEADERS: [&str; 10] = [
    "variant",
    "size",
    "FP",
    "FN",
    "error rate",
    "FN rate",
    "misses",
    "collisions",
    "futile",
    "errors after miss",
];

/// The summary table printed to stdout: totals, agreement per detector, the table-size
/// experiments, errors by cause and the shortest counterexamples.
pub fn text(results: &Results) -> String {
    let (t, m) = (&results.totals, &results.meta);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "replab audit: {} games, {} plies judged (seed {}, max {} plies), truth repetitions at \
         {} plies ({}); {:.1} s on {} thread{}, shrinking {:.1} s",
        t.games,
        t.plies,
        m.settings.seed,
        m.settings.max_plies,
        t.repetitions,
        pct(Some(t.repetitions as f64 / t.plies.max(1) as f64)),
        m.play_seconds.value,
        m.settings.threads,
        if m.settings.threads == 1 { "" } else { "s" },
        m.shrink_seconds.value,
    );
    out.push('\n');
    out.push_str(&plain_table(
        &AGREEMENT_HEADERS,
        &agreement_rows(results),
        &[1, 9, 10],
    ));
    for (technique, runs) in &results.table_size.0 {
        if !runs.is_empty() {
            let rows: Vec<Vec<String>> = runs.iter().map(size_row).collect();
            let _ = writeln!(out, "\ntable size: {technique}");
            out.push_str(&plain_table(&SIZE_HEADERS, &rows, &[]));
        }
    }
    let mut causes = String::new();
    for a in results.detectors.values() {
        for c in &a.causes {
            let shortest = c
                .example
                .as_ref()
                .map_or_else(String::new, |e| format!(" (shortest {} plies)", e.plies));
            let _ = writeln!(
                causes,
                "  {:<16} {:<15} {:>8}  {}{shortest}",
                a.detector,
                c.kind.words(),
                c.count,
                c.cause,
            );
        }
    }
    if !causes.is_empty() {
        out.push_str("\nerrors by cause:\n");
        out.push_str(&causes);
    }
    let examples: Vec<(&Audited, Kind, &Example)> = results
        .detectors
        .values()
        .flat_map(|a| {
            Kind::ALL
                .into_iter()
                .filter_map(move |k| a.example(k).map(|e| (a, k, e)))
        })
        .collect();
    if !examples.is_empty() {
        out.push_str("\nshortest counterexamples (shrunk):\n");
        for (a, kind, e) in examples {
            let movetext = Position::from_fen(&e.fen_start)
                .map_or_else(|_| e.moves.join(" "), |p| numbered(&p, &e.moves).join(" "));
            let _ = writeln!(
                out,
                "  {} {} ({} plies, from game {} at ply {}): {}\n    FEN {}\n    {}",
                a.detector,
                kind.words(),
                e.plies,
                e.game,
                e.found_plies,
                e.cause,
                e.fen_start,
                movetext,
            );
        }
    }
    out
}

// ---- index.html --------------------------------------------------------------------------

fn cells(row: Vec<String>) -> Vec<Cell> {
    row.into_iter().map(Cell::text).collect()
}

/// Renders the template `templates/audit/<name>` with `context`.
fn render(name: &str, source: &str, context: &impl Serialize) -> Result<String> {
    Ok(render_fragment(&format!("audit/{name}"), source, context)?)
}

/// The context of `example.html`.
#[derive(Serialize)]
struct ExampleContext<'a> {
    id: String,
    label: &'a str,
    kind: &'static str,
    plies: usize,
    cause: Cause,
    detail: &'a str,
    game: u64,
    found_plies: usize,
    pgn: &'a str,
    open: bool,
    moves: String,
}

/// The counterexample section of one detector and kind (`want` is the cause of a per-cause
/// example, `tag` tells their anchors apart). The earlier occurrence the error is about is
/// found by replaying the example.
fn example_html(
    a: &Audited,
    kind: Kind,
    e: &Example,
    want: Option<Cause>,
    tag: &str,
) -> Result<String> {
    let label = a.detector.as_str();
    let id = format!("{label}-{}{tag}", kind.key()).replace(['+', '/', '^'], "-");
    let case = e.case().unwrap_or_else(|| Case {
        start: Position::startpos(),
        moves: Vec::new(),
    });
    let earlier = Spec::named(label)
        .and_then(|spec| first_error(&spec, &case, kind, want))
        .and_then(|at| at.earlier(kind));
    let last = case.moves.len();
    let note = |ply: usize| -> String {
        if ply == last {
            format!("{label} errs here")
        } else if Some(ply) == earlier {
            match kind {
                Kind::FalsePositive => format!("the occurrence {label} reports"),
                Kind::FalseNegative => "the earlier occurrence truth finds".to_owned(),
            }
        } else {
            String::new()
        }
    };
    let fen_cell = |pos: &Position| Cell::html(format!("<code>{}</code>", escape_html(&pos.fen())));
    let mut pos = case.start;
    let mut rows = vec![vec![
        Cell::text("0"),
        Cell::text("—"),
        Cell::text("start"),
        fen_cell(&pos),
        Cell::text(note(0)),
    ]];
    for (i, (&m, san)) in case.moves.iter().zip(&e.moves).enumerate() {
        pos = pos.play(m);
        let mover = if i % 2 == 0 {
            case.start.side_to_move()
        } else {
            case.start.side_to_move().flip()
        };
        rows.push(vec![
            Cell::text((i + 1).to_string()),
            Cell::text(format!("{mover:?}").to_lowercase()),
            Cell::text(san.clone()),
            fen_cell(&pos),
            Cell::text(note(i + 1)),
        ]);
    }
    let moves = table_html(&["ply", "side", "move", "FEN after", "note"], &rows, false);
    let html = render(
        "example.html",
        include_str!("../../templates/audit/example.html"),
        &ExampleContext {
            id,
            label,
            kind: kind.words(),
            plies: e.plies,
            cause: e.cause,
            detail: &e.detail,
            game: e.game,
            found_plies: e.found_plies,
            pgn: &e.pgn,
            open: last <= 24,
            moves,
        },
    )?;
    Ok(html + "\n")
}

/// The errors-per-detector bar chart, log scale when the non-zero counts span two decades
/// or more.
fn errors_chart(results: &Results) -> BarChart {
    let fp: Vec<f64> = results
        .detectors
        .values()
        .map(|a| a.false_positive as f64)
        .collect();
    let fn_: Vec<f64> = results
        .detectors
        .values()
        .map(|a| a.false_negative as f64)
        .collect();
    let nonzero: Vec<f64> = fp
        .iter()
        .chain(&fn_)
        .copied()
        .filter(|v| *v > 0.0)
        .collect();
    let (lo, hi) = nonzero
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    BarChart {
        log_y: !nonzero.is_empty() && hi / lo >= 100.0,
        categories: results
            .detectors
            .values()
            .map(|a| a.detector.clone())
            .collect(),
        series: vec![
            colours::values("false positives", fp),
            colours::values("false negatives", fn_),
        ],
        ..BarChart::new("Errors per detector", "detector", "errors (plies)")
    }
}

/// One technique's table in `sizes.html`.
#[derive(Serialize)]
struct SizeTable<'a> {
    technique: &'a str,
    table: String,
}

/// The context of `sizes.html`.
#[derive(Serialize)]
struct SizesContext<'a> {
    techniques: Vec<&'a str>,
    tables: Vec<SizeTable<'a>>,
    chart: String,
}

/// The table-size section: a table per technique and one chart of errors and misses (or
/// futile back-traces, for a table that loses no position: `rookie`) against the table size.
fn sizes_html(results: &Results, dir: &ReportDir) -> Result<String> {
    let mut tables = Vec::new();
    let mut lines = Vec::new();
    for (technique, runs) in &results.table_size.0 {
        if runs.is_empty() {
            continue;
        }
        let points = |f: &dyn Fn(&Audited) -> u64| -> Vec<(f64, f64)> {
            runs.iter()
                .map(|a| ((a.size.unwrap_or(1) as f64).log2(), f(a) as f64))
                .collect()
        };
        lines.push(colours::series(technique, points(&|a| a.errors())));
        // A table with no limit (`rookie`'s counters only grow) never loses a position; what a
        // small table costs it is futile back-traces.
        let limit = replab_registry::info(technique).map(|d| d.caps.table_limit);
        let extra = if limit == Some(replab_registry::TableLimit::None) {
            colours::series(
                format!("{technique} futile back-traces"),
                points(&|a| a.stats.futile),
            )
        } else {
            colours::series(format!("{technique} misses"), points(&|a| a.stats.misses))
        };
        lines.push(extra.dashed());
        let rows: Vec<Vec<Cell>> = runs.iter().map(|a| cells(size_row(a))).collect();
        tables.push(SizeTable {
            technique,
            table: dir.write_table(&format!("size-{technique}.csv"), &SIZE_HEADERS, &rows, true)?,
        });
    }
    let chart = if lines.is_empty() {
        String::new()
    } else {
        let chart = LineChart {
            log_y: true,
            series: lines,
            ..LineChart::new(
                "Errors, misses and futile back-traces by table size",
                "table size (log2 entries)",
                "count (plies or events)",
            )
        };
        dir.write_chart(
            "table-size.svg",
            &chart,
            "Errors (solid, named after the detector) and misses or futile back-traces \
             (dashed) as tables shrink; zero values are not drawn on the log scale",
        )?
    };
    render(
        "sizes.html",
        include_str!("../../templates/audit/sizes.html"),
        &SizesContext {
            techniques: results
                .table_size
                .0
                .iter()
                .map(|(t, _)| t.as_str())
                .collect(),
            tables,
            chart,
        },
    )
}

/// The summary: the games, plies, repetitions and timings of the run.
fn summary_section(results: &Results) -> Result<String> {
    let (t, m) = (&results.totals, &results.meta);
    render(
        "summary.html",
        include_str!("../../templates/audit/summary.html"),
        &json!({
            "games": fmt_int(t.games),
            "seed": m.settings.seed,
            "max_plies": m.settings.max_plies,
            "finished": fmt_int(t.finished),
            "plies": fmt_int(t.plies),
            "repetitions": fmt_int(t.repetitions),
            "repetitions_pct": fmt_pct(t.repetitions as f64 / t.plies.max(1) as f64),
            "upcoming": results
                .detectors
                .values()
                .any(|a| a.check == Check::Upcoming)
                .then(|| fmt_int(t.upcoming)),
            "play_seconds": format!("{:.1}", m.play_seconds.value),
            "threads": m.settings.threads,
            "shrink_seconds": format!("{:.1}", m.shrink_seconds.value),
        }),
    )
}

/// The errors-by-cause section and the counterexamples section: `(causes, examples)`.
fn causes_and_examples(results: &Results) -> Result<(String, String)> {
    let mut examples = String::new();
    let mut by_cause = String::new();
    let mut cause_rows = Vec::new();
    for a in results.detectors.values() {
        for kind in Kind::ALL {
            if let Some(e) = a.example(kind) {
                examples.push_str(&example_html(a, kind, e, None, "")?);
            }
        }
        for (i, c) in a.causes.iter().enumerate() {
            cause_rows.push(vec![
                Cell::text(a.detector.clone()),
                Cell::text(c.kind.words()),
                Cell::text(c.cause.text()),
                Cell::from(c.count),
                Cell::text(
                    c.example
                        .as_ref()
                        .map_or_else(|| "—".to_owned(), |e| e.plies.to_string()),
                ),
            ]);
            if let Some(e) = &c.example {
                let tag = format!("-cause-{i}");
                by_cause.push_str(&example_html(a, c.kind, e, Some(c.cause), &tag)?);
            }
        }
    }
    let causes = render(
        "causes.html",
        include_str!("../../templates/audit/causes.html"),
        &json!({
            "table": (!cause_rows.is_empty()).then(|| {
                table_html(
                    &[
                        "detector",
                        "error",
                        "cause",
                        "erroneous plies",
                        "shortest example (plies)",
                    ],
                    &cause_rows,
                    true,
                )
            }),
            "examples": by_cause,
        }),
    )?;
    let examples = render(
        "examples.html",
        include_str!("../../templates/audit/examples.html"),
        &json!({
            "table": null,
            "examples": examples,
        }),
    )?;
    Ok((causes, examples))
}

/// The start positions of the games.
fn starts_section() -> Result<String> {
    let start_rows: Vec<Vec<Cell>> = STARTS
        .iter()
        .map(|s| {
            vec![
                Cell::text(s.theme),
                Cell::html(format!("<code>{}</code>", escape_html(s.fen))),
                Cell::text(s.opening.unwrap_or("—")),
            ]
        })
        .collect();
    render(
        "starts.html",
        include_str!("../../templates/audit/starts.html"),
        &json!({
            "table": table_html(&["theme", "FEN", "opening"], &start_rows, true),
        }),
    )
}

/// Writes `results.json`, the charts and `index.html` into `dir` (staged: the caller
/// commits it).
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    let mut json = serde_json::to_string_pretty(results)?;
    json.push('\n');
    dir.write("results.json", json)?;

    let summary = summary_section(results)?;
    let rows: Vec<Vec<Cell>> = agreement_rows(results).into_iter().map(cells).collect();
    let agreement = dir.write_table("agreement.csv", &AGREEMENT_HEADERS, &rows, true)?;
    let errors_figure = dir.write_chart(
        "errors.svg",
        &errors_chart(results),
        "False positives and false negatives per detector (a missing bar is zero)",
    )?;
    let sizes = sizes_html(results, dir)?;
    let (causes, examples) = causes_and_examples(results)?;
    let starts = starts_section()?;

    Page::new("Repetition-detection audit", &results.meta.meta)
        .nav([("All reports", "../index.html"), ("Audit", "index.html")])
        .current("index.html")
        .section("Summary", summary)
        .section("Agreement with truth", agreement + &errors_figure)
        .section("Errors by cause", causes)
        .section("Table size", sizes)
        .section("Counterexamples", examples)
        .section("Start positions", starts)
        .write(dir, "index.html")?;
    Ok(())
}
