//! The audit's outputs: the stdout table, `results.json` and `index.html`.

use std::{fmt::Write as _, path::PathBuf};

use anyhow::Result;
use replab_registry::Stats;
use replab_report::{
    BarChart, Cell, LineChart, Meta, Page, ReportDir, Series, escape_html, fmt_int, fmt_pct,
    table_html,
};
use serde::{Serialize, Serializer, ser::SerializeMap};

use super::{
    Audited, Example, Run,
    games::STARTS,
    judge::{Check, Confusion, Kind, Spec},
};

/// A percentage with two decimals, `—` for none.
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "—".to_owned(), |v| format!("{:.2}%", v * 100.0))
}

fn check_name(c: Check) -> &'static str {
    match c {
        Check::Probe => "probe",
        Check::Upcoming => "upcoming",
    }
}

/// `12 plies: cause`, or `—`.
fn example_cell(e: Option<&Example>) -> String {
    e.map_or_else(
        || "—".to_owned(),
        |e| format!("{} plies: {}", e.case.moves.len(), e.cause),
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
fn agreement_rows(run: &Run) -> Vec<Vec<String>> {
    run.main
        .iter()
        .map(|a| {
            let c = &a.tally.confusion;
            vec![
                a.spec.label(),
                check_name(a.spec.check()).to_owned(),
                c.tp.to_string(),
                c.fp.to_string(),
                c.fn_.to_string(),
                c.tn.to_string(),
                pct(c.precision()),
                pct(c.recall()),
                pct(c.error_rate()),
                example_cell(a.examples[0].as_ref()),
                example_cell(a.examples[1].as_ref()),
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

/// The rows of one table-size experiment.
fn size_rows<'a>(run: &'a Run, technique: &str) -> Vec<(&'a Audited, Vec<String>)> {
    run.sizes
        .iter()
        .filter(|a| a.spec.technique() == technique)
        .map(|a| {
            let c = &a.tally.confusion;
            let s = &a.tally.stats;
            let size = match a.spec {
                Spec::TtOpenBits(b) | Spec::RookieBits(b) => 1u64 << b,
                Spec::FiloSlots(n) => n as u64,
                Spec::Named(_) => 0,
            };
            (
                a,
                vec![
                    a.spec.label(),
                    size.to_string(),
                    c.fp.to_string(),
                    c.fn_.to_string(),
                    pct(c.error_rate()),
                    pct(c.recall().map(|r| 1.0 - r)),
                    s.misses.to_string(),
                    s.collisions.to_string(),
                    s.futile.to_string(),
                    a.tally.capacity_errors.to_string(),
                ],
            )
        })
        .collect()
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

/// The stdout report.
pub fn text(run: &Run) -> String {
    let t = &run.totals;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "replab audit: {} games, {} plies judged (seed {}, max {} plies), truth repetitions at \
         {} plies ({}); {:.1} s on {} thread{}, shrinking {:.1} s",
        t.games,
        t.plies,
        run.seed,
        run.max_plies,
        t.repetitions,
        pct(Some(t.repetitions as f64 / t.plies.max(1) as f64)),
        run.play_seconds,
        run.threads,
        if run.threads == 1 { "" } else { "s" },
        run.shrink_seconds,
    );
    out.push('\n');
    out.push_str(&plain_table(
        &AGREEMENT_HEADERS,
        &agreement_rows(run),
        &[1, 9, 10],
    ));
    for technique in ["tt-open", "filo", "rookie"] {
        let rows: Vec<Vec<String>> = size_rows(run, technique)
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        if !rows.is_empty() {
            let _ = writeln!(out, "\ntable size: {technique}");
            out.push_str(&plain_table(&SIZE_HEADERS, &rows, &[]));
        }
    }
    let mut causes = String::new();
    for a in &run.main {
        for (kind, cause, count, e) in &a.causes {
            let shortest = e.as_ref().map_or_else(String::new, |e| {
                format!(" (shortest {} plies)", e.case.moves.len())
            });
            let _ = writeln!(
                causes,
                "  {:<16} {:<15} {:>8}  {cause}{shortest}",
                a.spec.label(),
                kind.words(),
                count,
            );
        }
    }
    if !causes.is_empty() {
        out.push_str("\nerrors by cause:\n");
        out.push_str(&causes);
    }
    let examples: Vec<(&Audited, Kind, &Example)> = run
        .main
        .iter()
        .flat_map(|a| {
            Kind::ALL
                .into_iter()
                .filter_map(move |k| a.examples[k as usize].as_ref().map(|e| (a, k, e)))
        })
        .collect();
    if !examples.is_empty() {
        out.push_str("\nshortest counterexamples (shrunk):\n");
        for (a, kind, e) in examples {
            let _ = writeln!(
                out,
                "  {} {} ({} plies, from game {} at ply {}): {}\n    FEN {}\n    {}",
                a.spec.label(),
                kind.words(),
                e.case.moves.len(),
                e.game,
                e.found_plies,
                e.cause,
                e.case.start.fen(),
                super::shrink::numbered(&e.case.start, &e.sans).join(" "),
            );
        }
    }
    out
}

// ---- results.json ------------------------------------------------------------------------

/// Serialises `(name, value)` pairs as a JSON object in their order.
struct Ordered<T>(Vec<(String, T)>);

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(Serialize)]
struct RunMeta<'a> {
    #[serde(flatten)]
    meta: &'a Meta,
    seed: u64,
    games: u64,
    max_plies: u32,
    detectors: &'a [String],
    tt_bits: &'a [u64],
    filo_slots: &'a [u64],
    rookie_bits: &'a [u64],
    threads: usize,
    play_seconds: f64,
    shrink_seconds: f64,
}

#[derive(Serialize)]
struct TotalsJson {
    games: u64,
    plies: u64,
    repetitions: u64,
    upcoming: u64,
    finished_games: u64,
}

#[derive(Serialize)]
struct StatsJson {
    probes: u64,
    hits: u64,
    verified: u64,
    futile: u64,
    misses: u64,
    collisions: u64,
    overflows: u64,
    comparisons: u64,
}

impl From<&Stats> for StatsJson {
    fn from(s: &Stats) -> Self {
        StatsJson {
            probes: s.probes,
            hits: s.hits,
            verified: s.verified,
            futile: s.futile,
            misses: s.misses,
            collisions: s.collisions,
            overflows: s.overflows,
            comparisons: s.comparisons,
        }
    }
}

#[derive(Serialize)]
struct ExampleJson<'a> {
    plies: usize,
    pgn: &'a str,
    cause: &'a str,
    fen_start: String,
    moves: &'a [String],
    uci: Vec<String>,
    detail: &'a str,
    game: u64,
    found_plies: usize,
}

impl<'a> From<&'a Example> for ExampleJson<'a> {
    fn from(e: &'a Example) -> Self {
        ExampleJson {
            plies: e.case.moves.len(),
            pgn: &e.pgn,
            cause: e.cause,
            fen_start: e.case.start.fen(),
            moves: &e.sans,
            uci: e.case.moves.iter().map(|m| m.uci().to_string()).collect(),
            detail: &e.detail,
            game: e.game,
            found_plies: e.found_plies,
        }
    }
}

#[derive(Serialize)]
struct CauseJson<'a> {
    kind: &'static str,
    cause: &'static str,
    count: u64,
    example: Option<ExampleJson<'a>>,
}

#[derive(Serialize)]
struct DetectorJson<'a> {
    detector: String,
    check: &'static str,
    size: Option<u64>,
    true_positive: u64,
    false_positive: u64,
    false_negative: u64,
    true_negative: u64,
    precision: Option<f64>,
    recall: Option<f64>,
    error_rate: Option<f64>,
    errors_after_miss_or_overflow: u64,
    stats: StatsJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    counterexamples: Option<Ordered<Option<ExampleJson<'a>>>>,
    causes: Vec<CauseJson<'a>>,
}

fn detector_json(a: &Audited, with_examples: bool) -> DetectorJson<'_> {
    let c: &Confusion = &a.tally.confusion;
    let size = match a.spec {
        Spec::TtOpenBits(b) | Spec::RookieBits(b) => Some(1u64 << b),
        Spec::FiloSlots(n) => Some(n as u64),
        Spec::Named(_) => None,
    };
    let counterexamples = with_examples.then(|| {
        Ordered(
            Kind::ALL
                .into_iter()
                .map(|k| {
                    let e = a.examples[k as usize].as_ref().map(ExampleJson::from);
                    (k.key().to_owned(), e)
                })
                .collect(),
        )
    });
    DetectorJson {
        detector: a.spec.label(),
        check: check_name(a.spec.check()),
        size,
        true_positive: c.tp,
        false_positive: c.fp,
        false_negative: c.fn_,
        true_negative: c.tn,
        precision: c.precision(),
        recall: c.recall(),
        error_rate: c.error_rate(),
        errors_after_miss_or_overflow: a.tally.capacity_errors,
        stats: (&a.tally.stats).into(),
        counterexamples,
        causes: a
            .causes
            .iter()
            .map(|(kind, cause, count, e)| CauseJson {
                kind: kind.key(),
                cause,
                count: *count,
                example: e.as_ref().map(ExampleJson::from),
            })
            .collect(),
    }
}

#[derive(Serialize)]
struct Results<'a> {
    meta: RunMeta<'a>,
    totals: TotalsJson,
    detectors: Ordered<DetectorJson<'a>>,
    table_size: Ordered<Vec<DetectorJson<'a>>>,
}

/// `results.json`.
pub fn json(run: &Run, meta: &Meta) -> Result<String> {
    let t = &run.totals;
    let results = Results {
        meta: RunMeta {
            meta,
            seed: run.seed,
            games: run.games,
            max_plies: run.max_plies,
            detectors: &run.detectors,
            tt_bits: &run.tt_bits,
            filo_slots: &run.filo_slots,
            rookie_bits: &run.rookie_bits,
            threads: run.threads,
            play_seconds: run.play_seconds,
            shrink_seconds: run.shrink_seconds,
        },
        totals: TotalsJson {
            games: t.games,
            plies: t.plies,
            repetitions: t.repetitions,
            upcoming: t.upcoming,
            finished_games: t.finished,
        },
        detectors: Ordered(
            run.main
                .iter()
                .map(|a| (a.spec.label(), detector_json(a, true)))
                .collect(),
        ),
        table_size: Ordered(
            ["tt-open", "filo", "rookie"]
                .into_iter()
                .map(|tech| {
                    let rows = run
                        .sizes
                        .iter()
                        .filter(|a| a.spec.technique() == tech)
                        .map(|a| detector_json(a, false))
                        .collect();
                    (tech.to_owned(), rows)
                })
                .collect(),
        ),
    };
    let mut s = serde_json::to_string_pretty(&results)?;
    s.push('\n');
    Ok(s)
}

// ---- index.html --------------------------------------------------------------------------

fn cells(row: Vec<String>) -> Vec<Cell> {
    row.into_iter().map(Cell::text).collect()
}

/// The counterexample section of one detector and kind (`tag` distinguishes the per-cause
/// examples).
fn example_html(a: &Audited, kind: Kind, e: &Example, tag: &str) -> String {
    let label = a.spec.label();
    let id = format!("{label}-{}{tag}", kind.key()).replace(['+', '/', '^'], "-");
    let mut html = format!(
        "<h3 id=\"{}\">{} — {} ({} plies)</h3>\n<p><strong>Cause:</strong> {}. {}. Shrunk from \
         game {} (error at ply {}).</p>\n<pre>{}</pre>\n",
        escape_html(&id),
        escape_html(&label),
        kind.words(),
        e.case.moves.len(),
        escape_html(e.cause),
        escape_html(&e.detail),
        e.game,
        e.found_plies,
        escape_html(&e.pgn),
    );
    let last = e.case.moves.len();
    let note = |ply: usize| -> String {
        if ply == last {
            format!("{label} errs here")
        } else if Some(ply) == e.earlier {
            match kind {
                Kind::FalsePositive => format!("the occurrence {label} reports"),
                Kind::FalseNegative => "the earlier occurrence truth finds".to_owned(),
            }
        } else {
            String::new()
        }
    };
    let mut pos = e.case.start;
    let mut rows = vec![vec![
        Cell::text("0"),
        Cell::text("—"),
        Cell::text("start"),
        Cell::html(format!("<code>{}</code>", escape_html(&pos.fen()))),
        Cell::text(note(0)),
    ]];
    for (i, (&m, san)) in e.case.moves.iter().zip(&e.sans).enumerate() {
        pos = pos.play(m);
        let mover = if i % 2 == 0 {
            e.case.start.side_to_move()
        } else {
            e.case.start.side_to_move().flip()
        };
        rows.push(vec![
            Cell::text((i + 1).to_string()),
            Cell::text(format!("{mover:?}").to_lowercase()),
            Cell::text(san.clone()),
            Cell::html(format!("<code>{}</code>", escape_html(&pos.fen()))),
            Cell::text(note(i + 1)),
        ]);
    }
    let table = table_html(&["ply", "side", "move", "FEN after", "note"], &rows, false);
    let _ = write!(
        html,
        "<details{}><summary>Move list ({last} plies)</summary>\n{table}</details>\n",
        if last <= 24 { " open" } else { "" }
    );
    html
}

/// Writes `results.json`, the charts and `index.html` into `dir` and swaps it in.
pub fn write(run: &Run, dir: ReportDir) -> Result<PathBuf> {
    let meta = Meta::collect(&run.command);
    dir.write("results.json", json(run, &meta)?)?;

    let t = &run.totals;
    let summary = format!(
        "<p>{} seeded random games (seed {}, at most {} plies each, {} ended in mate or \
         stalemate) that favour reversible moves: {} plies judged, at {} of which ({}) truth \
         reports a repetition{}. Every detector is driven by game replay and compared with \
         <code>truth</code> (exact FIDE identity) at every ply; <code>cuckoo</code> answers \
         whether a legal move reaches an earlier position and is compared with the exact \
         answer. Played in {:.1} s on {} thread(s); shrinking the counterexamples took \
         {:.1} s.</p>\n",
        fmt_int(t.games),
        run.seed,
        run.max_plies,
        fmt_int(t.finished),
        fmt_int(t.plies),
        fmt_int(t.repetitions),
        fmt_pct(t.repetitions as f64 / t.plies.max(1) as f64),
        if run.detectors.iter().any(|d| d == "cuckoo") {
            format!(
                " and at {} a legal move reaches an earlier position",
                fmt_int(t.upcoming)
            )
        } else {
            String::new()
        },
        run.play_seconds,
        run.threads,
        run.shrink_seconds,
    );

    let rows: Vec<Vec<Cell>> = agreement_rows(run).into_iter().map(cells).collect();
    let agreement = table_html(&AGREEMENT_HEADERS, &rows, true);

    // Errors per detector, log scale when the non-zero counts span two decades or more.
    let fp: Vec<f64> = run
        .main
        .iter()
        .map(|a| a.tally.confusion.fp as f64)
        .collect();
    let fn_: Vec<f64> = run
        .main
        .iter()
        .map(|a| a.tally.confusion.fn_ as f64)
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
    let log_y = !nonzero.is_empty() && hi / lo >= 100.0;
    let chart = BarChart {
        log_y,
        categories: run.main.iter().map(|a| a.spec.label()).collect(),
        series: vec![
            Series::values("false positives", fp),
            Series::values("false negatives", fn_),
        ],
        ..BarChart::new("Errors per detector", "detector", "errors (plies)")
    };
    let errors_figure = dir.write_chart(
        "errors.svg",
        &chart,
        "False positives and false negatives per detector (a missing bar is zero)",
    )?;

    let mut sizes_html = String::from(
        "<p>The same games, with <code>tt-open</code>, <code>filo</code> and <code>rookie</code> \
         at several table sizes. <em>errors after miss</em> counts errors made in a game after \
         the detector had failed to store a position (a taken or full slot).</p>\n",
    );
    let mut lines = Vec::new();
    for technique in ["tt-open", "filo", "rookie"] {
        let rows = size_rows(run, technique);
        if rows.is_empty() {
            continue;
        }
        let points = |f: &dyn Fn(&Audited) -> u64| -> Vec<(f64, f64)> {
            rows.iter()
                .map(|(a, _)| {
                    let size = match a.spec {
                        Spec::TtOpenBits(b) | Spec::RookieBits(b) => b as f64,
                        Spec::FiloSlots(n) => (n as f64).log2(),
                        Spec::Named(_) => 0.0,
                    };
                    (size, f(a) as f64)
                })
                .collect()
        };
        lines.push(Series::new(
            technique,
            points(&|a| a.tally.confusion.errors()),
        ));
        let extra = if technique == "rookie" {
            Series::new(
                "rookie futile back-traces",
                points(&|a| a.tally.stats.futile),
            )
        } else {
            Series::new(
                format!("{technique} misses"),
                points(&|a| a.tally.stats.misses),
            )
        };
        lines.push(extra.dashed());
        let _ = writeln!(sizes_html, "<h3>{technique}</h3>");
        let rows: Vec<Vec<Cell>> = rows.into_iter().map(|(_, r)| cells(r)).collect();
        sizes_html.push_str(&table_html(&SIZE_HEADERS, &rows, true));
    }
    if !lines.is_empty() {
        let chart = LineChart {
            log_y: true,
            series: lines,
            ..LineChart::new(
                "Errors, misses and futile back-traces by table size",
                "table size (log2 entries)",
                "count (plies or events)",
            )
        };
        sizes_html.push_str(&dir.write_chart(
            "table-size.svg",
            &chart,
            "Errors (solid, named after the detector) and misses or futile back-traces \
             (dashed) as tables shrink; zero values are not drawn on the log scale",
        )?);
    }

    let mut examples = String::new();
    let mut by_cause = String::new();
    let mut cause_rows = Vec::new();
    for a in &run.main {
        for kind in Kind::ALL {
            if let Some(e) = &a.examples[kind as usize] {
                examples.push_str(&example_html(a, kind, e, ""));
            }
        }
        for (i, (kind, cause, count, e)) in a.causes.iter().enumerate() {
            cause_rows.push(vec![
                Cell::text(a.spec.label()),
                Cell::text(kind.words()),
                Cell::text(*cause),
                Cell::from(*count),
                Cell::text(
                    e.as_ref()
                        .map_or_else(|| "—".to_owned(), |e| e.case.moves.len().to_string()),
                ),
            ]);
            if let Some(e) = e {
                by_cause.push_str(&example_html(a, *kind, e, &format!("-cause-{i}")));
            }
        }
    }
    let causes_html = if cause_rows.is_empty() {
        "<p>No errors.</p>\n".to_owned()
    } else {
        format!(
            "<p>Every erroneous ply classified by comparing the two positions concerned (the \
             current one and the earlier one the detector or truth points at) and the moves \
             between them.</p>\n{}<details><summary>A shrunk counterexample per cause</summary>\n{}</details>\n",
            table_html(
                &[
                    "detector",
                    "error",
                    "cause",
                    "erroneous plies",
                    "shortest example (plies)"
                ],
                &cause_rows,
                true
            ),
            by_cause
        )
    };
    if examples.is_empty() {
        examples.push_str("<p>No detector disagreed with truth.</p>\n");
    } else {
        examples.insert_str(
            0,
            "<p>For each detector and error kind, the shortest erroneous ply found (fewest \
             plies from its game's start), shrunk: the game's prefix dropped (a later position \
             as FEN start) and moves deleted while the sequence stays legal and the detector \
             still errs at its last ply.</p>\n",
        );
    }

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
    let starts = format!(
        "<p>Each game starts from one of these positions, drawn uniformly; an opening move, if \
         given, is played first in three games out of four.</p>\n{}",
        table_html(&["theme", "FEN", "opening"], &start_rows, true)
    );

    Page::new("Repetition-detection audit", &meta)
        .nav([("All reports", "../index.html"), ("Audit", "index.html")])
        .current("index.html")
        .section("Summary", summary)
        .section(
            "Agreement with truth",
            format!("{agreement}{errors_figure}"),
        )
        .section("Errors by cause", causes_html)
        .section("Table size", sizes_html)
        .section("Counterexamples", examples)
        .section("Start positions", starts)
        .write(&dir, "index.html")?;
    Ok(dir.commit()?)
}
