//! The gauntlet's page: the Elo table, a chart with error bars, and the method.

use std::fmt::Write as _;

use anyhow::Result;
use replab_report::{Cell, Page, ReportDir, escape_html, figure_html, fmt_int, table_html};

use super::{Results, RowResult, TITLE, headline};

/// Writes `elo.svg` and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    let (svg, size) = chart(&results.rows);
    dir.write("elo.svg", svg)?;
    let figure = figure_html(
        "elo.svg",
        "Elo of player A against its baseline B, with 95% intervals (fixed nodes: filled; time \
         control: open)",
        size,
    );
    let headers = [
        "group",
        "player A",
        "baseline B",
        "control",
        "games",
        "[LL, LD, WL+DD, WD, WW]",
        "Elo (95%)",
        "nElo (95%)",
        "LLR [0, 2]",
        "verdict",
        "published (source)",
    ];
    let rows: Vec<Vec<Cell>> = results.rows.iter().map(table_row).collect();
    let t = &results.totals;
    let summary = format!(
        "<p>{}.</p>\n{}\n{figure}\n<p>{} games in {:.1} s: {:.1} games per second on {} \
         threads; {:.1}% of the threads' time was spent outside the searches (match loop, \
         arbiter, PGN; goal under 5%); peak memory {} KiB (the two players' tables take {} \
         bytes per worker).</p>\n",
        escape_html(&headline(results)),
        table_html(&headers, &rows, true),
        fmt_int(t.games),
        t.wall_s,
        t.games_per_second,
        t.threads,
        100.0 * t.outside_search_share,
        fmt_int(t.peak_rss_kib),
        fmt_int(t.table_bytes_per_worker),
    );
    Page::new(TITLE, &results.meta)
        .nav([("All reports", "../index.html")])
        .section("Summary", summary)
        .section("Method", method(results))
        .write(dir, "index.html")?;
    Ok(())
}

/// An Elo with its interval; a row whose every pair was one game played twice has no
/// variance, so no interval: it says so instead.
fn elo_cell(r: &RowResult, e: &replab_selfplay::stats::EloEstimate) -> Cell {
    if r.games_identical {
        return Cell::text("identical play");
    }
    Cell::text(format!(
        "{:+.1} [{:+.1}, {:+.1}]",
        e.value, e.interval.lo, e.interval.hi
    ))
}

/// One line of the table.
fn table_row(r: &RowResult) -> Vec<Cell> {
    let p = r.pentanomial;
    let verdict = if r.machine_too_busy {
        format!(
            "machine too busy: {} of {} games lost on time (over 1%); no verdict",
            r.time_forfeits, r.games
        )
    } else if r.games_identical {
        format!(
            "identical play in every pair ({} games): no difference to measure",
            r.games
        )
    } else if r.no_measurable_difference {
        match r.games_to_resolve {
            Some(g) => format!(
                "no measurable difference at {} games; about {} games would detect {:+.1} Elo \
                 80% of the time",
                r.games,
                fmt_int(g),
                r.elo.value
            ),
            None => format!("no measurable difference at {} games", r.games),
        }
    } else {
        format!(
            "{} measurably",
            if r.elo.value > 0.0 {
                "stronger"
            } else {
                "weaker"
            }
        )
    };
    let published = r
        .published
        .as_ref()
        .map_or(String::new(), |p| format!("{} ({})", p.figure, p.source));
    vec![
        Cell::text(&r.group),
        Cell::text(&r.a),
        Cell::text(&r.b),
        Cell::text(&r.control),
        r.games.into(),
        Cell::text(format!(
            "[{}, {}, {}, {}, {}]",
            p[0], p[1], p[2], p[3], p[4]
        )),
        elo_cell(r, &r.elo),
        elo_cell(r, &r.nelo),
        Cell::text(format!("{:.2}", r.llr)),
        Cell::text(verdict),
        Cell::text(published),
    ]
}

/// A horizontal error-bar chart, one line per row; returns the SVG and its size.
fn chart(rows: &[RowResult]) -> (String, (u32, u32)) {
    let (w, line, left, right, top) = (760.0, 18.0, 300.0, 20.0, 30.0);
    let h = top + line * rows.len() as f64 + 30.0;
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let span = rows
        .iter()
        .flat_map(|r| {
            [
                finite(r.elo.interval.lo).abs(),
                finite(r.elo.interval.hi).abs(),
            ]
        })
        .fold(10.0f64, f64::max)
        .min(800.0);
    let x = |elo: f64| {
        left + (finite(elo).clamp(-span, span) + span) / (2.0 * span) * (w - left - right)
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" \
         fill=\"white\"/>\n"
    );
    let zero = x(0.0);
    let _ = writeln!(
        svg,
        "<line x1=\"{zero}\" y1=\"{}\" x2=\"{zero}\" y2=\"{}\" stroke=\"#888\"/>\n<text \
         x=\"{zero}\" y=\"{}\" text-anchor=\"middle\">0 Elo (axis ±{span:.0})</text>",
        top - 10.0,
        h - 20.0,
        h - 6.0
    );
    for (i, r) in rows.iter().enumerate() {
        let y = top + line * i as f64 + line / 2.0;
        let fill = if r.deterministic { "#1f77b4" } else { "white" };
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} ({})</text>\n<line x1=\"{}\" \
             y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n<circle \
             cx=\"{}\" cy=\"{y}\" r=\"4\" fill=\"{fill}\" stroke=\"#1f77b4\"/>",
            left - 6.0,
            y + 4.0,
            escape_html(&r.a),
            escape_html(&r.control),
            x(r.elo.interval.lo),
            x(r.elo.interval.hi),
            x(r.elo.value)
        );
    }
    svg.push_str("</svg>\n");
    (svg, (w as u32, h as u32))
}

/// The method section.
fn method(results: &Results) -> String {
    let c = &results.config;
    format!(
        "<p>Each row is one match between player A and its baseline B (<code>replab match \
         --a A --b B --games {} --nodes {} --seed {}</code>; the timed rows use <code>--tc \
         {}</code> and {} games). Both players are replab's searcher with their own detector, \
         draw policy, key width and transposition table, and see the whole game. Openings: \
         {} (seeded order), each played twice with colours swapped; the pentanomial counts \
         are of those pairs. Games end by the FIDE Laws as the exact arbiter decides \
         (checkmate, stalemate, insufficient material, fivefold, 75 moves, threefold and fifty \
         moves claimed at once), by resign adjudication (both players beyond 600 cp for 3 \
         moves each), draw adjudication (from move 34, both within 20 cp for 8 moves each) or \
         the ply cap. Elo and normalized Elo with 95% intervals, and the LLR of fishtest's \
         pentanomial GSPRT with bounds [0, 2] normalized Elo, α = β = 0.05, come from \
         <code>replab-elo</code>. Fixed-node games measure the change of the tree and are \
         reproducible; timed games include each technique's cost and are not reproducible. \
         Where an interval includes 0, the games needed to detect the measured difference d \
         80% of the time with a two-sided 95% test are estimated from the match's own score \
         s and variance v per game pair: N = v · ((1.96 + 0.84) · 400 / (ln 10 · s(1 − s)) / \
         d)² pairs, twice as many games. A row whose every pair was one game played twice \
         has no variance and no interval: it reads \"identical play\". \
         <code>tools/elo_parallel.sh</code> \
         spreads that many games over machines (docs/elo.md). Published figures come from \
         other engines, at their own time controls and baselines: they show the size of \
         effect the field measured, not a prediction for this searcher.</p>\n",
        c.games,
        c.nodes,
        c.seed,
        escape_html(&c.tc),
        c.tc_games,
        escape_html(&c.book)
    )
}
