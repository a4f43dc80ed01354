//! The gauntlet's page: the Elo table, a chart with error bars, and the method.

use anyhow::Result;
use replab_report::{
    Cell, ForestChart, ForestRow, Page, RGBColor, ReportDir, escape_html, fmt_int, table_html,
};

use replab_harness::{compare::Unit, experiment::Experiment as _};
use replab_selfplay::{MatchOptions, stats::NoInterval};

use super::{Measure, Results, RowResult, TARGET_DEPTH, TITLE};

/// Writes `elo.svg` and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    let figure = dir.write_chart(
        "elo.svg",
        &chart(&results.rows),
        "Elo of player A against its baseline B, with 95% intervals (fixed nodes: filled; time \
         control: open)",
    )?;
    let mut page = Page::new(TITLE, &results.meta)
        .nav([("All reports", "../index.html")])
        .section("Summary", summary(results, &figure));
    for measure in Measure::ALL {
        let rows: Vec<&RowResult> = results
            .rows
            .iter()
            .filter(|r| r.measure == measure)
            .collect();
        if !rows.is_empty() {
            let table = measure_table(measure, &rows, results, dir)?;
            page = page.section(measure.heading(), table);
        }
    }
    if !results.config.settings.smoke_run {
        page = page.section("Elo at equal time", equal_time_section(results));
    }
    if !results.validations.is_empty() {
        page = page.section(
            "Equal cost against real clocks",
            validation_section(results),
        );
    }
    page.section("Cost per node across budgets", budgets_section())
        .section(
            "Elo at equal time across budgets",
            crate::across::html(&results.across_budgets),
        )
        .section("Carried to your engine", carried_section())
        .section(
            "How often each choice changes the move",
            move_change_section(),
        )
        .section("Published figures", published_table(results))
        .section("Method", method(results))
        .write(dir, "index.html")?;
    Ok(())
}

/// The calculator that carries each detector's node cost to another engine's speed
/// ([`crate::carry`]), or why it cannot (no recording of this build's engine).
fn carried_section() -> String {
    match crate::carry::Costs::recorded().and_then(|c| crate::carry::calculator(&c)) {
        Ok(html) => html,
        Err(e) => format!(
            "<p>No figures to carry: {}.</p>",
            replab_report::escape_html(&format!("{e:#}"))
        ),
    }
}

/// The recorded instructions per node across budgets ([`crate::budgets`]), or why there are
/// none.
fn budgets_section() -> String {
    match crate::budgets::Recorded::built_in() {
        Ok(r) => crate::budgets::html(&r),
        Err(why) => format!(
            "<p>No counts to show: {}.</p>",
            replab_report::escape_html(&why)
        ),
    }
}

/// The recorded move-change counts by budget ([`crate::move_change`]), or why there are none.
fn move_change_section() -> String {
    match crate::move_change::recorded() {
        Ok(r) => crate::move_change::html(&r),
        Err(why) => format!(
            "<p>No counts to show: {}.</p>",
            replab_report::escape_html(&why)
        ),
    }
}

/// The headline, the chart and the totals.
fn summary(results: &Results, figure: &str) -> String {
    let t = &results.totals;
    format!(
        "<p>{}.</p>\n{figure}\n<p>{} games in {:.1} s: {:.1} games per second on {} threads; \
         {:.1}% of the threads' time was spent outside the searches (match loop, arbiter, PGN; \
         goal under 5%); peak memory {} KiB (the two players' tables take {} bytes per \
         worker). The balanced and the repetition-rich figures are separate tables and are \
         never pooled.</p>\n",
        escape_html(&headline(results)),
        fmt_int(t.games),
        t.wall_s,
        t.games_per_second,
        t.threads,
        100.0 * t.outside_search_share,
        fmt_int(t.peak_rss_kib),
        fmt_int(t.table_bytes_per_worker),
    )
}

/// The table of one measurement's rows, also written as `elo-<measure>.csv` into `dir`.
fn measure_table(
    measure: Measure,
    rows: &[&RowResult],
    results: &Results,
    dir: &ReportDir,
) -> Result<String> {
    let smoke_run = results.config.settings.smoke_run;
    let mut headers = vec![
        "player A (vs baseline B)",
        "control",
        "median depth A / B",
        "median plies",
        "games",
        "[LL, LD, WL+DD, WD, WW]",
        "Elo (95%)",
        "nElo (95%)",
        "pairs a draw rule ended",
        "±2 Elo would need",
        "verdict",
    ];
    if measure == Measure::Clock {
        headers.insert(9, "CPU share (lowest player)");
    }
    let lines: Vec<Vec<Cell>> = rows.iter().map(|r| table_row(r, smoke_run)).collect();
    let ends = rows
        .iter()
        .map(|r| {
            format!(
                "<li>{}: {}</li>",
                escape_html(&r.a),
                escape_html(&endings(r))
            )
        })
        .collect::<String>();
    let csv = format!("elo-{}.csv", measure.short());
    let decided = rows
        .iter()
        .filter(|r| {
            use replab_selfplay::stats::Verdict;
            matches!(r.test.verdict, Verdict::Better | Verdict::Worse)
        })
        .count();
    let family = if smoke_run {
        String::new()
    } else {
        let book = match measure {
            Measure::RepetitionRich => &results.config.repetition_book,
            _ => &results.config.book,
        };
        let note =
            super::verdict::family_note(rows.len(), decided, book, results.config.settings.seed);
        format!("<p>{}</p>\n", escape_html(&note))
    };
    Ok(format!(
        "{}\n{family}<details><summary>How the games ended, per row</summary><ul>{ends}</ul></details>\n",
        dir.write_table(&csv, &headers, &lines, true)?
    ))
}

/// The terminations of a row, most frequent first.
fn endings(r: &RowResult) -> String {
    let mut t: Vec<(&String, &u64)> = r.terminations.iter().collect();
    t.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
    t.iter()
        .map(|(name, n)| format!("{name} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An estimate with its interval, or with the reason it has none (identical play, every pair
/// 1–1, too few games).
fn elo_cell(r: &RowResult, e: &replab_selfplay::stats::EloEstimate) -> Cell {
    match (e.interval, r.no_interval) {
        (Some(_), _) => Cell::text(e.text(|x| Unit::Elo.bare(x))),
        (None, reason) => Cell::text(format!(
            "{:+.1} ({})",
            e.value + 0.0,
            reason.unwrap_or(NoInterval::TooFewGames).text()
        )),
    }
}

/// The depths of A and B, flagged when either is below [`TARGET_DEPTH`].
fn depth_cell(r: &RowResult) -> Cell {
    let d = |x: Option<u32>| x.map_or("–".to_string(), |d| d.to_string());
    let shallow = r.median_depth.iter().flatten().any(|d| *d < TARGET_DEPTH);
    Cell::text(format!(
        "{} / {}{}",
        d(r.median_depth[0]),
        d(r.median_depth[1]),
        if shallow {
            format!(" (below {TARGET_DEPTH})")
        } else {
            String::new()
        }
    ))
}

/// The verdict of a row: none in a smoke run, a busy machine's, or the row's own (its test's,
/// with what a fixed-sample test would need where the interval contains 0).
fn verdict(r: &RowResult, smoke_run: bool) -> String {
    if smoke_run {
        return "smoke run: not evidence".into();
    }
    if r.machine_too_busy {
        let cpu = r.min_cpu_share.map_or(String::new(), |s| {
            format!(", lowest CPU share {:.0}%", 100.0 * s)
        });
        return format!(
            "machine too busy: {} of {} games lost on time (limit 1%){cpu} (limit 90%); no \
             verdict",
            r.time_forfeits, r.games
        );
    }
    let text = r.verdict_text();
    match r.games_to_resolve.filter(|_| r.no_measurable_difference) {
        Some(g) => format!(
            "{text}; about {} games would detect {:+.1} Elo 80% of the time",
            fmt_int(g),
            r.elo.value
        ),
        None => text,
    }
}

/// The games and core-hours a ±2 Elo interval would need.
fn needs_cell(r: &RowResult) -> Cell {
    match (r.games_for_2_elo, r.core_hours_for_2_elo) {
        (Some(g), Some(h)) => Cell::text(format!("{} games, {h:.1} core-h", fmt_int(g))),
        (Some(g), None) => Cell::text(format!("{} games", fmt_int(g))),
        _ => Cell::text("–"),
    }
}

/// One line of a table.
fn table_row(r: &RowResult, smoke_run: bool) -> Vec<Cell> {
    let p = r.pentanomial;
    let mut cells = vec![
        Cell::text(format!("{} (vs {})", r.a, r.b)),
        Cell::text(&r.control),
        depth_cell(r),
        Cell::text(r.median_plies.map_or("–".into(), |p| format!("{p:.0}"))),
        r.games.into(),
        Cell::text(format!(
            "[{}, {}, {}, {}, {}]",
            p[0], p[1], p[2], p[3], p[4]
        )),
        elo_cell(r, &r.elo),
        elo_cell(r, &r.nelo),
        Cell::text(format!("{} of {}", r.draw_rule_pairs, r.games / 2)),
        needs_cell(r),
        Cell::text(verdict(r, smoke_run)),
    ];
    if r.measure == Measure::Clock {
        let share = r
            .min_cpu_share
            .map_or("–".into(), |s| format!("{:.1}%", 100.0 * s));
        cells.insert(9, Cell::text(share));
    }
    cells
}

/// The identical-play rows' Elo at equal time (the recorded slope times the doublings of nodes
/// their cost gives up or gains), or why there is none.
fn equal_time_section(results: &Results) -> String {
    let e = &results.equal_time;
    let Some(slope) = &e.slope else {
        return format!(
            "<p>No row has an Elo at equal time: {}.</p>\n",
            escape_html(e.none_because.as_deref().unwrap_or("no slope applies"))
        );
    };
    let s = &slope.slope;
    let rows: Vec<Vec<Cell>> = e.rows.iter().map(equal_time_cells).collect();
    let none = e
        .none_because
        .as_deref()
        .map_or(String::new(), |w| format!(" {}.", escape_html(w)));
    let apart: Vec<&str> = e
        .rows
        .iter()
        .filter(|t| t.cost_ratios_agree() == Some(false))
        .map(|t| t.label.as_str())
        .collect();
    let timed = e
        .rows
        .iter()
        .filter(|t| t.cost_ratios_agree().is_some())
        .count();
    let clock = match (&e.time, &e.time_none_because) {
        (Some(t), _) => format!(
            " The time per node by the clock comes from {} (alternating runs of each player and \
             the baseline on the same workload); its Elo uses the same slope, with the ratio's \
             error added (the ratio's interval is a Student-t interval over the pairs' log \
             ratios: 95% where those are normal, a coverage no simulation here checks). In {} \
             of {timed} rows the instruction ratio lies outside the time \
             ratio's 95% interval{}: there the clock sees a cost (or a saving) the instruction \
             count does not, and the two Elo columns differ.",
            escape_html(&t.file),
            apart.len(),
            if apart.is_empty() {
                String::new()
            } else {
                format!(" ({})", escape_html(&apart.join(", ")))
            }
        ),
        (None, Some(why)) => format!(" No time per node by the clock: {}.", escape_html(why)),
        (None, None) => String::new(),
    };
    let checked: Vec<_> = e.rows.iter().filter_map(|t| t.check.as_ref()).collect();
    let agree = checked
        .iter()
        .filter(|c| c.difference.agreement == super::Agreement::Agrees)
        .count();
    format!(
        "<p>A row whose players made the same moves in every game pair at fixed nodes differs \
         from the baseline only in what a node costs. Its Elo at equal time is the engine's \
         Elo per doubling of nodes, {} ({} games, recorded in {} with this engine at {} nodes \
         a move), times log2 of the baseline's instructions per node over the player's: the \
         doublings of nodes the player gives up (negative) or gains at the same cost. The \
         interval is the slope's, scaled by that exact factor.{none}{clock}</p>\n<p>The check: \
         each row's equal-cost match (the player at the nodes that cost what the baseline's \
         {} cost, played to its game count) against the model's figure, independent games, \
         agreeing when the 95% interval of their difference contains 0: {agree} of {} checked \
         rows agree.</p>\n{}",
        s.elo_per_doubling.text(|x| format!("{x:+.1}")),
        fmt_int(s.games),
        escape_html(&slope.file),
        fmt_int(slope.nodes),
        fmt_int(slope.nodes),
        checked.len(),
        table_html(
            &[
                "row",
                "instructions per node (A / B)",
                "doublings",
                "Elo at equal time [95%]",
                "cost counted by",
                "time per node, A / B [95%] (clock)",
                "Elo by the clock [95%]",
                "equal-cost match, played [95%]",
                "played − model [95%]",
            ],
            &rows,
            false
        )
    )
}

/// One identical-play row of the equal-time table.
fn equal_time_cells(t: &super::EqualTime) -> Vec<Cell> {
    let dash = || "–".to_string();
    vec![
        Cell::text(&t.label),
        Cell::text(format!(
            "{:.1} / {:.1}",
            t.instructions_per_node[0], t.instructions_per_node[1]
        )),
        Cell::text(format!("{:+.3}", t.doublings)),
        Cell::text(t.elo.text(|x| format!("{x:+.1}"))),
        Cell::text(&t.cost_source),
        Cell::text(t.time_per_node.as_ref().map_or_else(dash, |r| {
            format!(
                "{} (P(slower) {:.0}%); {}",
                r.ratio.text(|x| format!("{x:.3}")),
                100.0 * r.p_a_slower,
                t.cost_ratios_text().unwrap_or_default()
            )
        })),
        Cell::text(
            t.elo_by_time
                .as_ref()
                .map_or_else(dash, |e| e.text(|x| Unit::Elo.bare(x))),
        ),
        Cell::text(t.check.as_ref().map_or_else(dash, |c| {
            format!(
                "{} ({} games at {})",
                c.played.text(|x| Unit::Elo.bare(x)),
                fmt_int(c.games),
                c.control
            )
        })),
        Cell::text(t.check.as_ref().map_or_else(dash, |c| {
            format!(
                "{}: {}",
                c.difference.text(),
                c.difference.agreement.phrase()
            )
        })),
    ]
}

/// Each row played at equal cost and at the clock, and whether the two figures agree.
fn validation_section(results: &Results) -> String {
    let items: String = results
        .validations
        .iter()
        .map(|v| {
            let cpu = v.min_cpu_share.map_or(String::new(), |s| {
                format!(", lowest CPU share {:.1}%", 100.0 * s)
            });
            format!(
                "<li>{} (clock: {} games lost on time{cpu})</li>",
                escape_html(&v.sentence()),
                v.time_forfeits
            )
        })
        .collect();
    let agree = results
        .validations
        .iter()
        .filter(|v| v.agreement == super::Agreement::Agrees)
        .count();
    format!(
        "<p>{agree} of {} rows agree. The two matches are independent: the difference of \
         their Elo figures has a standard error √(se₁² + se₂²), each se read from its 95% \
         interval as (upper − lower) / 3.92, and the figures agree when the difference's \
         95% interval contains 0. A clock row that measured a busy machine is not \
         compared.</p>\n<ul>{items}</ul>\n",
        results.validations.len()
    )
}

/// The published figures beside the balanced fixed-node rows, with their scale, test and
/// control, and what differs from the row.
fn published_table(results: &Results) -> String {
    let rows: Vec<Vec<Cell>> = results
        .rows
        .iter()
        .filter(|r| r.measure == Measure::Balanced)
        .filter_map(|r| {
            let p = r.published.as_ref()?;
            let direction = p
                .comparison(&r.a, &r.b, &r.elo)
                .map_or("–".to_string(), |c| c.sentence());
            Some(vec![
                Cell::text(&r.label),
                Cell::text(&p.figure),
                Cell::text(direction),
                Cell::text(p.scale.name()),
                Cell::text(p.test.as_deref().unwrap_or("–")),
                Cell::text(&p.control),
                Cell::text(p.caveat(&r.control)),
                Cell::text(&p.source),
            ])
        })
        .collect();
    format!(
        "<p>What other engines measured for a comparable change. Their games ran at time \
         controls, against their own baselines: they show the size of effect the field \
         measured, not a prediction for this searcher. Where a figure has a direction, the \
         row's balanced Elo is set against it by the comparison every verdict of the site \
         uses: the direction only (scale and control differ), and no direction at all where \
         the row's interval contains 0.</p>\n{}",
        table_html(
            &[
                "row",
                "published",
                "this row's Elo against its direction",
                "scale",
                "test",
                "control",
                "differs from the row",
                "source"
            ],
            &rows,
            false
        )
    )
}

/// A row's label on the chart: player A, the control and the measurement, so that a row's
/// balanced and repetition-rich dots read apart (`off (10000 nodes, repetition)`).
pub(crate) fn chart_label(r: &RowResult) -> String {
    format!("{} ({}, {})", r.a, r.control, r.measure.short())
}

/// The ends of a row's error bar: its interval's, or its value twice when it has none.
fn ends(r: &RowResult) -> [f64; 2] {
    r.elo.interval.map_or([r.elo.value; 2], |i| [i.lo, i.hi])
}

/// The chart's colour, every row's: the marker's fill tells fixed nodes from a clock.
const CHART_COLOUR: RGBColor = RGBColor(0x1f, 0x77, 0xb4);
/// The chart's group of reproducible rows (fixed nodes, equal cost): filled markers.
const FIXED_NODES: &str = "fixed nodes";
/// The chart's group of rows under a real clock: open markers.
const TIME_CONTROL: &str = "time control";

/// The forest chart of the rows: one line per row, its Elo with its interval, in the rows'
/// order.
pub(crate) fn chart(rows: &[RowResult]) -> ForestChart {
    ForestChart {
        groups: vec![
            (FIXED_NODES.into(), CHART_COLOUR),
            (TIME_CONTROL.into(), CHART_COLOUR),
        ],
        rows: rows.iter().map(chart_row).collect(),
        ..ForestChart::new(
            "Elo of player A against its baseline B",
            "Elo with its 95% interval",
            "",
        )
    }
}

/// A row of the chart: its label, Elo and interval; under a real clock an open marker.
fn chart_row(r: &RowResult) -> ForestRow {
    ForestRow {
        label: chart_label(r),
        estimate: r.elo.value,
        interval: ends(r),
        reference: None,
        group: if r.deterministic {
            FIXED_NODES
        } else {
            TIME_CONTROL
        }
        .into(),
        hollow: !r.deterministic,
    }
}

/// The method section.
fn method(results: &Results) -> String {
    let (c, settings) = (&results.config, &results.config.settings);
    format!(
        "<p>Each row is player A against its baseline B, measured up to four ways: at {} nodes \
         per move on the balanced book {} ({} games: <code>replab {match_command} {set_a} A {set_b} B {set_games} {} \
         {set_nodes} {} {set_seed} {}</code>), at the same nodes on the repetition-rich book {} ({} \
         games), at equal cost ({} games: <code>{set_scale_by_cost}</code>, B at {} nodes and A at \
         as many as the same instructions buy, each player's instructions per node counted by \
         callgrind on a fixed workload; only the rows whose players differ in technique) and, \
         for a few rows, at the clock <code>{}</code> ({} games, one game per core, each \
         player's CPU time recorded). The node budget is chosen so that the engine profile \
         completes depth {TARGET_DEPTH} or more: each row gives A's and B's median last \
         completed depth, flagged below {TARGET_DEPTH}. Both players are replab's searcher \
         with their own detector, draw policy, key width and transposition table, and see the \
         whole game. Each opening is played twice with colours swapped, every pair from a \
         distinct opening; the pentanomial counts are of those pairs, and a pair counts as \
         ended by a draw rule when threefold, fivefold, fifty or seventy-five moves ended one \
         of its games. The repetition-rich book holds positions from which Stockfish's own \
         games went on to a threefold repetition (tools/make_repetition_book.py; \
         datasets/SOURCES.md); its figures are a separate table, never pooled with the \
         balanced ones. Games end by the FIDE Laws as the exact arbiter decides (checkmate, \
         stalemate, insufficient material, fivefold, 75 moves, threefold and fifty moves \
         claimed at once), then by {} or the ply cap. Elo and normalized Elo with 95% \
         intervals come from <code>replab-elo</code>: a Student-t interval on the pair scores \
         and a delta-method interval on the normalized scale, given only from {} game pairs \
         that do not all score the same (a seeded simulation measured that the frameworks' \
         normal approximation covers far less than 95% below that). Each row runs two \
         one-sided pentanomial GSPRTs in normalized Elo (fishtest's <code>LLR_normalized</code>, \
         α = β = 0.05 each) on its games: a gain test [0, {hi:+}] and a loss test [{lo:+}, 0]. \
         The match stops, from {} pairs on, at the first pair where they conclude \
         \"better\" (the gain test passes), \"worse\" (the loss test fails) or \"within\" \
         (the gain test fails and the loss test passes); otherwise it plays to its cap and \
         reads \"undecided\" with the games the test expects to need at the bounds (Wald's \
         mean sample number), which the power check also sets against the cap. Fixed-node and equal-cost games are reproducible; timed \
         games are not, and a timed row with more than 1% of its games lost on time or a \
         player whose CPU time was under 90% of its searches' wall time measured the \
         machine: it gets no verdict. Where an interval includes 0, the games needed to \
         detect the measured difference d 80% of the time with a two-sided 95% test are \
         estimated from the match's own score s and variance v per game pair: N = v · ((1.96 + \
         0.84) · 400 / (ln 10 · s(1 − s)) / d)² pairs, twice as many games; the games for a \
         ±2 Elo interval are v · (1.96 · 400 / (ln 10 · s(1 − s)) / 2)² pairs, twice as many \
         games, and their core-hours follow from the row's search time per game. A row whose \
         every pair was one game played twice has no variance and no interval: it reads \
         \"identical play\" and needs no test. <code>tools/elo_parallel.sh</code> and \
         <code>tools/elo_slurm.sh</code> spread that many games over machines \
         (docs/elo.md).</p>\n",
        settings.nodes,
        escape_html(&c.book),
        settings.games,
        settings.games,
        settings.nodes,
        settings.seed,
        escape_html(&c.repetition_book),
        settings.rep_games,
        settings.cost_games,
        settings.nodes,
        escape_html(&settings.tc),
        settings.tc_games,
        adjudication_text(&settings.adjudication),
        replab_selfplay::stats::MIN_INTERVAL_SAMPLES,
        crate::MIN_VERDICT_PAIRS,
        lo = settings.bounds.elo0,
        hi = settings.bounds.elo1,
        match_command = crate::matches::Match::NAME,
        set_a = MatchOptions::A,
        set_b = MatchOptions::B,
        set_games = MatchOptions::GAMES,
        set_nodes = MatchOptions::NODES,
        set_scale_by_cost = crate::matches::Config::SCALE_BY_COST,
        set_seed = MatchOptions::SEED
    )
}

/// The arbiter's adjudications in words.
fn adjudication_text(a: &replab_selfplay::Adjudication) -> String {
    let resign = a.resign.map_or("no resign adjudication".into(), |r| {
        format!(
            "resign adjudication (both players beyond {} cp for {} moves each)",
            r.score, r.moves
        )
    });
    let draw = a.draw.map_or(
        "no draw adjudication (the draws are left to the rules)".into(),
        |d| {
            format!(
                "draw adjudication (from move {}, both within {} cp for {} moves each)",
                d.from_move, d.score, d.moves
            )
        },
    );
    format!("{resign}, {draw}")
}

/// The headline: a smoke run says it is one; otherwise how many choices differ measurably
/// from the baseline at fixed nodes, and how many the tests decided.
pub fn headline(results: &Results) -> String {
    let (c, settings) = (&results.config, &results.config.settings);
    if settings.smoke_run {
        return format!(
            "Smoke run of the gauntlet's machinery ({} games per row at {} nodes per move): not \
             evidence, so no Elo, no direction and no recommendation",
            settings.games, settings.nodes
        );
    }
    let fixed: Vec<&RowResult> = results
        .rows
        .iter()
        .filter(|r| r.measure == Measure::Balanced)
        .collect();
    let measurable: Vec<String> = fixed
        .iter()
        .filter(|r| !r.no_measurable_difference)
        .filter(|r| r.elo.interval.is_some())
        .map(|r| format!("{} {}", r.a, r.elo.text(|x| format!("{x:+.0}"))))
        .collect();
    let decided = fixed
        .iter()
        .filter(|r| r.test.verdict != replab_selfplay::stats::Verdict::Continue)
        .count();
    format!(
        "Against {} at {} nodes per move on the balanced book (up to {} games per choice), {} \
         of {} choices differ measurably in Elo (95% interval excludes 0){}; the GSPRT at {} \
         decided {decided} of them",
        c.baseline,
        settings.nodes,
        settings.games,
        measurable.len(),
        fixed.len(),
        if measurable.is_empty() {
            String::new()
        } else {
            format!(": {}", measurable.join(", "))
        },
        crate::verdict::bounds_text(settings.bounds.pair()),
    )
}

/// The table the command line prints.
pub fn summary_table(results: &Results) -> String {
    let mut out = format!(
        "{:<44} {:<10} {:<16} {:>7} {:>6} {:>40} {:>40} {:>20} {:>9}  {}\n",
        "player A (vs baseline B)",
        "measure",
        "control",
        "depth",
        "games",
        "Elo [95%]",
        "nElo [95%]",
        "[LL LD WL+DD WD WW]",
        "draw-rule",
        "verdict"
    );
    for r in &results.rows {
        let p = r.pentanomial;
        let d = |x: Option<u32>| x.map_or("-".to_string(), |d| d.to_string());
        let elo = replab_selfplay::stats::estimate_text(&r.elo, r.no_interval);
        let nelo = replab_selfplay::stats::estimate_text(&r.nelo, r.no_interval);
        out += &format!(
            "{:<44} {:<10} {:<16} {:>7} {:>6} {:>40} {:>40} {:>20} {:>9}  {}\n",
            format!("{} (vs {})", r.a, r.b),
            r.measure.short(),
            r.control,
            format!("{}/{}", d(r.median_depth[0]), d(r.median_depth[1])),
            r.games,
            elo,
            nelo,
            format!("[{} {} {} {} {}]", p[0], p[1], p[2], p[3], p[4]),
            format!("{}/{}", r.draw_rule_pairs, r.games / 2),
            verdict(r, results.config.settings.smoke_run),
        );
    }
    let t = &results.totals;
    out += &format!(
        "{} games in {:.1} s ({:.1} games/s), {:.1}% of thread time outside search, peak \
         memory {} KiB\n",
        t.games,
        t.wall_s,
        t.games_per_second,
        100.0 * t.outside_search_share,
        t.peak_rss_kib
    );
    out
}
