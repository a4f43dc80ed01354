//! The HTML page and SVG charts of `replab reproduce axon`.

use std::fmt::Write as _;

use replab_report::{
    BarChart, Cell, LineChart, Meta, Page, ReportDir, ReportError, Series, colour_hex, escape_html,
    fmt_delta_pct, fmt_int, fmt_ms, table_html,
};

use super::axon::{Paper, PaperRow, Results, Run, Summary, configurations};

/// The detectors of the head-to-head: move chains, matrices, keys, tables.
const HEAD_TO_HEAD: [&str; 7] = [
    "axon",
    "matrix",
    "matrix-checksum",
    "linear",
    "filo",
    "rookie",
    "tt-open",
];

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
fn swatch(name: &str) -> Cell {
    Cell::html(format!(
        "<span style=\"color:{}\">&#9632;</span> {}",
        colour_hex(name),
        escape_html(name)
    ))
}

fn runs_of<'a>(runs: &'a [Run], name: &str) -> Vec<&'a Run> {
    runs.iter().filter(|r| r.detector == name).collect()
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

fn p(text: &str) -> String {
    format!("<p>{}</p>\n", escape_html(text))
}

/// Writes `index.html` and its charts into `dir`.
pub fn write(dir: &ReportDir, r: &Results, paper: &Paper, meta: &Meta) -> Result<(), ReportError> {
    let names = configurations();
    let max_depth = r.config.max_depth;
    let mut page = Page::new(
        "Reproducing Axon's repetition-detection experiment (WAC.018)",
        meta,
    );

    let off_total: u64 = runs_of(&r.runs, "off").iter().map(|r| r.nodes).sum();
    let paper_total: u64 = paper
        .off
        .iter()
        .filter(|row| row.depth <= max_depth)
        .map(|row| row.nodes)
        .sum();

    // ---- Introduction ----------------------------------------------------------------------
    let mut intro = String::from(
        "<style>.nowrap td { white-space: nowrap; } .compact table { font-size: .8rem; } \
         .compact td, .compact th { padding: .3rem .45rem; }</style>\n",
    );
    intro += &p(&format!(
        "Vučković and Vidanović (2004, §5 \"Experimental data\") searched WAC.018 \
         ({}, White to move, Rh8 wins) with Axon from depth 1 to 12, with their move-chain \
         repetition detection off and on, and reported per depth the key move, evaluation and \
         node count (their Tables 2 and 3) and, as totals, 18% fewer terminal nodes, 15% fewer \
         generated positions, 10% less time and 14,941 repetitions. They could not compare their \
         method with the matrix method on the same program. Here replab's searcher runs the same \
         experiment — iterative deepening to depth {max_depth}, draw policy {} — with detection \
         off and with each of the eight search detectors, on one deterministic searcher, so the \
         detectors are compared on the same trees.",
        r.position, r.config.policy
    ));
    intro += &p(&format!(
        "Counters per iteration: nodes = positions entered (quiescence included), terminal nodes = \
         static evaluations, generated = moves generated, repetitions = repetitions scored as \
         draws. Times are the fastest of {} interleaved runs per configuration; every run gave the \
         same counters. The paper's \"node count\" sums to its \"positions generated\", so its \
         per-depth counts are compared with our nodes and its totals with our generated moves; \
         with detection off our nodes total {} against the paper's {} ({}), so compare shapes \
         and percentages, not absolute counts.",
        r.config.repeat,
        fmt_int(off_total),
        fmt_int(paper_total),
        if off_total > 0 && paper_total >= off_total {
            format!("{:.0} times fewer", paper_total as f64 / off_total as f64)
        } else {
            "not fewer".to_string()
        }
    ));
    page = page.section("", intro);

    // ---- Summary -----------------------------------------------------------------------------
    let (p_term, p_gen, p_time) = paper.changes();
    let mut rows: Vec<Vec<Cell>> = r.summary.iter().map(summary_row).collect();
    let t = &paper.totals;
    let dash = || Cell::text("—");
    rows.push(vec![
        swatch("paper-off"),
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
        swatch("paper-on"),
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
    let change_fig = dir.write_chart(
        "change.svg",
        &change_chart,
        "Change of the totals against detection off; the paper's Axon (on vs off) is the light \
         bar with the dashed outline",
    )?;
    let mut summary = String::new();
    let _ = writeln!(
        summary,
        "<p><strong>{}</strong></p>",
        escape_html(&r.verdict)
    );
    summary += &p(
        "Totals over all depths. Δ columns are relative to detection off; the paper rows give \
         the totals printed under its Tables 2 and 3 (its node counts summed over depths equal \
         its generated positions).",
    );
    summary += &table;
    summary += &change_fig;
    page = page.section("Summary", summary);

    // ---- Tables 2 and 3 beside ours -------------------------------------------------------
    let ours_off = runs_of(&r.runs, "off");
    let ours_on = runs_of(&r.runs, "axon");
    let last_depth = max_depth.max(paper.off.last().map_or(0, |r| r.depth));
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
                r.nodes.into(),
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
    let mut tables = String::from("<div style=\"display:flex;flex-wrap:wrap;gap:0 2rem\">\n");
    for (heading, paper_rows, ours, name) in [
        ("Table 2: detection off", &paper.off, &ours_off, "off"),
        ("Table 3: detection on", &paper.on, &ours_on, "axon"),
    ] {
        let _ = write!(
            tables,
            "<div><h3>{heading}</h3>\n{}</div>\n",
            side_by_side(paper_rows, ours, name)
        );
    }
    tables += "</div>\n";
    page = page.section(
        "Tables 2 and 3 beside ours",
        p(
            "Key move (SAN), evaluation in pawns from White's point of view, and node count per \
           depth: the paper's Axon beside replab's searcher with detection off (Table 2) and with \
           the axon move-chain detector, the paper's method (Table 3). Every other detector's \
           runs are in the table of all runs at the end.",
        ) + &tables,
    );

    // ---- Trees per depth ----------------------------------------------------------------------
    let depth_chart = |title: &str, y: &str, log: bool, f: fn(&Run) -> f64, with_paper: bool| {
        let mut s = Vec::new();
        if with_paper {
            s.push(paper_series("paper-off", &paper.off));
            s.push(paper_series("paper-on", &paper.on));
        }
        s.extend(names.iter().map(|n| series(&r.runs, n, f)));
        LineChart {
            log_y: log,
            series: s,
            ..LineChart::new(title, "depth (plies)", y)
        }
    };
    let nodes = dir.write_chart(
        "nodes.svg",
        &depth_chart(
            "Nodes per depth",
            "nodes (count)",
            true,
            |r| r.nodes as f64,
            true,
        ),
        "Nodes per iteration (log scale). Dashed: the paper's Axon, Table 2 (off) and Table 3 (on)",
    )?;
    let off_nodes: Vec<(u32, f64)> = ours_off.iter().map(|r| (r.depth, r.nodes as f64)).collect();
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
            runs_of(&r.runs, name).into_iter().filter_map(|run| {
                off_nodes
                    .iter()
                    .find(|(d, _)| *d == run.depth)
                    .map(|(_, off)| (f64::from(run.depth), (run.nodes as f64 / off - 1.0) * 100.0))
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
        &depth_chart("Terminal nodes per depth", "static evaluations (count)", true, |r| r.terminal_nodes as f64, false),
        "Terminal nodes (static evaluations) per iteration (log scale); the paper printed only totals",
    )?;
    let generated = dir.write_chart(
        "generated.svg",
        &depth_chart(
            "Generated positions per depth",
            "moves generated (count)",
            true,
            |r| r.generated as f64,
            false,
        ),
        "Moves generated per iteration (log scale); the paper printed only totals",
    )?;
    let mut rep_chart = depth_chart(
        "Repetitions scored as draws per depth",
        "repetitions (count)",
        false,
        |r| r.repetitions as f64,
        false,
    );
    rep_chart.series.retain(|s| s.name != "off");
    let reps = dir.write_chart(
        "repetitions.svg",
        &rep_chart,
        "Repetitions found and scored as draws per iteration (detection off finds none); the \
         paper noted 14,941 in total",
    )?;
    page = page.section(
        "Search trees per depth",
        nodes + &node_change + &terminal + &generated + &reps,
    );

    // ---- Time ----------------------------------------------------------------------------------
    let time = dir.write_chart(
        "time.svg",
        &depth_chart("Time per depth", "time (ms)", true, |r| r.time_ms, false),
        "Wall time per iteration (log scale), fastest of the repeated runs",
    )?;
    let overhead_chart = BarChart {
        categories: r
            .summary
            .iter()
            .filter(|s| s.detector != "off")
            .map(|s| s.detector.clone())
            .collect(),
        series: vec![Series::values(
            "NPS(off)/NPS(detector) − 1",
            r.summary
                .iter()
                .filter(|s| s.detector != "off")
                .map(|s| (s.overhead - 1.0) * 100.0),
        )],
        ..BarChart::new(
            "Speed cost of each detector",
            "detector",
            "NPS(off)/NPS − 1 (%)",
        )
    };
    let overhead = dir.write_chart(
        "overhead.svg",
        &overhead_chart,
        "Nodes per second with detection off divided by nodes per second with the detector, minus \
         one, over the whole run (trees differ where detectors see different repetitions)",
    )?;
    let mut time_html = time + &overhead;
    time_html += &p(
        "Speed per configuration over the whole run. NPS(off)/NPS above 1 means the detector \
         slows the search; ns per node is the time per position entered.",
    );
    time_html += &cost_table(&r.summary);
    time_html += &p(
        "Head-to-head, the comparison the paper could not make: the same searcher with move \
         chains (axon), the 512-bit matrix (with and without a checksum), Zobrist keys scanned \
         linearly, and key tables (filo, rookie, tt-open). A time marked ≠ belongs to a tree that \
         differs from linear's at that depth (a different node count); unmarked times at a depth \
         are for identical trees.",
    );
    time_html += &format!(
        "<div class=\"nowrap compact\">{}</div>",
        head_to_head(&r.runs, max_depth)
    );
    page = page.section("Time and the head-to-head", time_html);

    // ---- Cases ---------------------------------------------------------------------------------
    for case in &r.cases {
        let mut html = p(&case.note);
        let _ = writeln!(
            html,
            "<p>Position <code>{}</code>{}. Cells: best move, score in pawns from White's point \
             of view, nodes.</p>",
            escape_html(&case.fen),
            if case.history_plies > 0 {
                format!(", with {} half-moves of game history", case.history_plies)
            } else {
                String::new()
            }
        );
        let depths = case.runs.iter().map(|r| r.depth).max().unwrap_or(0);
        let rows: Vec<Vec<Cell>> = (1..=depths)
            .map(|d| {
                let mut row: Vec<Cell> = vec![d.into()];
                for name in &names {
                    row.push(
                        match case
                            .runs
                            .iter()
                            .find(|r| r.detector == *name && r.depth == d)
                        {
                            Some(run) => Cell::html(format!(
                                "<span style=\"white-space:nowrap\">{} {}</span><br><small>{}</small>",
                                escape_html(&run.best_move_san),
                                escape_html(&fmt_eval(run.eval_cp, run.mate)),
                                fmt_int(run.nodes)
                            )),
                            None => Cell::text("—"),
                        },
                    );
                }
                row
            })
            .collect();
        let headers: Vec<&str> = std::iter::once("depth")
            .chain(names.iter().copied())
            .collect();
        html += &format!(
            "<div class=\"compact\">{}</div>",
            table_html(&headers, &rows, false)
        );
        html += &p(&draw_sentence(&case.runs, &names, depths));
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
        html += &dir.write_chart(
            &format!("{}-score.svg", case.id),
            &chart,
            "Score per depth for each configuration (mate scores drawn at ±2000 cp)",
        )?;
        page = page.section(case.title.as_str(), html);
    }

    // ---- All runs ---------------------------------------------------------------------------
    let rows: Vec<Vec<Cell>> = r
        .runs
        .iter()
        .map(|run| {
            vec![
                swatch(&run.detector),
                run.depth.into(),
                run.best_move_san.clone().into(),
                fmt_eval(run.eval_cp, run.mate).into(),
                run.nodes.into(),
                run.terminal_nodes.into(),
                run.generated.into(),
                run.repetitions.into(),
                run.probes.into(),
                run.hits.into(),
                fmt_ms(run.time_ms).into(),
                Cell::text(run.pv.join(" ")),
            ]
        })
        .collect();
    let all = table_html(
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
    page = page.section(
        "All runs on WAC.018",
        format!(
            "<details><summary>{} runs (click a header to sort)</summary>\n{all}</details>\n",
            r.runs.len()
        ),
    );

    // ---- Method --------------------------------------------------------------------------------
    let c = &r.config;
    let mut method = String::from("<ul>\n");
    for item in [
        format!(
            "Searcher: <code>replab-search</code>, iterative deepening 1–{}, PVS with quiescence \
             (captures and queen promotions; every evasion in check), check extension {}, null-move \
             pruning {} (R = {}), transposition table {}, move ordering hash move → MVV-LVA → two \
             killers → history; material + piece-square evaluation. Deterministic: equal \
             configurations give equal counters on every run.",
            c.max_depth,
            on_off(c.check_extension),
            on_off(c.null_move),
            c.null_reduction,
            c.tt_bits.map_or("off".into(), |b| format!(
                "2^{b} entries, cleared per search"
            )),
        ),
        format!(
            "Draw policy <code>{}</code> (any repetition of a position of the game or the search \
             line is a draw, as in Axon); contempt {} cp; the cuckoo half of \
             <code>linear+cuckoo</code> uses the root rule <code>{}</code>.",
            escape_html(&c.policy),
            c.contempt,
            escape_html(&c.cuckoo_root_rule)
        ),
        "Detector protocol at every node: push the position on the line, probe (never at the \
         root), score a draw without entering when the policy says so, else enter, search, leave, \
         pop. Null moves are barriers for every detector."
            .to_string(),
        format!(
            "Times: wall time per iteration, the fastest of {} runs of each configuration, \
             interleaved so machine noise spreads evenly; NPS = nodes / time.",
            c.repeat
        ),
        "Differences from the paper's Axon: our evaluation and pruning are not Axon's (its \
         endgame knowledge was switched off, its \"adaptive depth control\" is unknown), so trees \
         and key moves differ; the detectors, not the absolute numbers, are what this page \
         compares. The axon detector reproduces the paper's PERPETUAL routine faithfully, blind \
         spots included (no parity check, squares not pieces)."
            .to_string(),
        "Files: <a href=\"results.json\">results.json</a> holds every number on this page."
            .to_string(),
    ] {
        let _ = writeln!(method, "<li>{item}</li>");
    }
    method += "</ul>\n";
    page = page.section("Method", method);

    page.write(dir, "index.html")
}

/// Which configurations score the draw (0.00) and from which depth, from the runs.
fn draw_sentence(runs: &[Run], names: &[&str], depths: u32) -> String {
    let mut by_depth: Vec<(u32, Vec<&str>)> = Vec::new();
    let mut never = Vec::new();
    let mut unstable = Vec::new();
    for name in names {
        let rs = runs_of(runs, name);
        match rs.iter().find(|r| r.eval_cp == 0 && r.mate.is_none()) {
            Some(first) => {
                match by_depth.iter_mut().find(|(d, _)| *d == first.depth) {
                    Some((_, v)) => v.push(name),
                    None => by_depth.push((first.depth, vec![name])),
                }
                if rs.last().is_some_and(|r| r.eval_cp != 0) {
                    unstable.push(*name);
                }
            }
            None => never.push(*name),
        }
    }
    by_depth.sort_by_key(|(d, _)| *d);
    let mut parts: Vec<String> = by_depth
        .iter()
        .map(|(d, v)| format!("at depth {d} by {}", v.join(", ")))
        .collect();
    if !never.is_empty() {
        parts.push(format!(
            "never up to depth {depths} by {}",
            never.join(", ")
        ));
    }
    let mut text = format!("The draw score (0.00) is reached {}.", parts.join("; "));
    if !unstable.is_empty() {
        text += &format!(
            " It does not hold at the deepest iteration for {}.",
            unstable.join(", ")
        );
    }
    text
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

fn summary_row(s: &Summary) -> Vec<Cell> {
    let delta = |x: f64| {
        if s.detector == "off" {
            Cell::text("—")
        } else {
            Cell::text(fmt_delta_pct(x))
        }
    };
    vec![
        swatch(&s.detector),
        s.nodes.into(),
        s.terminal_nodes.into(),
        delta(s.terminal_nodes_change),
        s.generated.into(),
        delta(s.generated_change),
        fmt_ms(s.time_ms).into(),
        delta(s.time_change),
        s.repetitions.into(),
    ]
}

/// Speed and detector statistics per configuration.
fn cost_table(summary: &[Summary]) -> String {
    let rows: Vec<Vec<Cell>> = summary
        .iter()
        .map(|s| {
            let off = s.detector == "off";
            vec![
                swatch(&s.detector),
                s.nodes.into(),
                fmt_ms(s.time_ms).into(),
                format!("{:.2}", s.nps / 1e6).into(),
                if off {
                    Cell::text("—")
                } else {
                    Cell::text(format!("{:.3}", s.overhead))
                },
                format!("{:.1}", s.time_ms * 1e6 / s.nodes.max(1) as f64).into(),
                s.probes.into(),
                s.hits.into(),
                fmt_int(s.memory_bytes).into(),
            ]
        })
        .collect();
    table_html(
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
    )
}

/// Time per depth of the head-to-head detectors, marking trees that differ from linear's.
fn head_to_head(runs: &[Run], max_depth: u32) -> String {
    let find = |name: &str, d: u32| runs.iter().find(|r| r.detector == name && r.depth == d);
    let mut rows = Vec::new();
    // Per detector: time, nodes and depths where its tree equals linear's.
    let mut equal = [(0.0f64, 0u64, 0u32); HEAD_TO_HEAD.len()];
    for d in 1..=max_depth {
        let Some(reference) = find("linear", d) else {
            continue;
        };
        let mut row: Vec<Cell> = vec![d.into(), reference.nodes.into()];
        let mut differing = Vec::new();
        for (i, name) in HEAD_TO_HEAD.iter().enumerate() {
            match find(name, d) {
                Some(run) if run.nodes == reference.nodes => {
                    equal[i].0 += run.time_ms;
                    equal[i].1 += run.nodes;
                    equal[i].2 += 1;
                    row.push(fmt_ms(run.time_ms).into());
                }
                Some(run) => {
                    differing.push(*name);
                    row.push(Cell::html(format!(
                        "<span style=\"white-space:nowrap\" title=\"tree differs from \
                         linear's: {} nodes\">{} ≠</span>",
                        fmt_int(run.nodes),
                        escape_html(&fmt_ms(run.time_ms)),
                    )));
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
    let mut total: Vec<Cell> = vec![
        Cell::html("<strong>equal trees: time</strong>".to_string()),
        "".into(),
    ];
    let mut per_node: Vec<Cell> = vec![
        Cell::html("<strong>equal trees: ns per node</strong>".to_string()),
        "".into(),
    ];
    for (ms, nodes, depths) in equal {
        total.push(if depths == 0 {
            "—".into()
        } else {
            Cell::html(format!(
                "<span style=\"white-space:nowrap\">{}</span><br><small>{depths} depths</small>",
                escape_html(&fmt_ms(ms))
            ))
        });
        per_node.push(if nodes == 0 {
            "—".into()
        } else {
            format!("{:.1}", ms * 1e6 / nodes as f64).into()
        });
    }
    total.push("tree = linear's".into());
    per_node.push("".into());
    let mut own: Vec<Cell> = vec![
        Cell::html("<strong>all depths: ns per node</strong>".to_string()),
        "".into(),
    ];
    for name in HEAD_TO_HEAD {
        let (ms, nodes) = runs
            .iter()
            .filter(|r| r.detector == name)
            .fold((0.0, 0u64), |(t, n), r| (t + r.time_ms, n + r.nodes));
        own.push(format!("{:.1}", ms * 1e6 / nodes.max(1) as f64).into());
    }
    own.push("own trees".into());
    rows.extend([total, per_node, own]);
    let headers: Vec<String> = ["depth".to_string(), "nodes (linear)".to_string()]
        .into_iter()
        .chain(HEAD_TO_HEAD.iter().map(|n| n.to_string()))
        .chain(std::iter::once("trees".to_string()))
        .collect();
    table_html(&headers, &rows, false)
}
