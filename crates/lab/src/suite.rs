//! `replab suite --epd FILE [--depth N] [--nodes N] [--detectors LIST] [--policy P] [--out DIR]`:
//! every EPD record searched with every detector (and `off`), counters per record and detector,
//! aggregate tables and charts (contracts.md, `replab suite`).
//!
//! # Game history in EPD records
//! A record may carry the game that led to its position (so game-history repetitions matter,
//! as the sources insist), with two operations of replab's own:
//! `hfen "<six-field FEN of the history's first position>";` and
//! `hmoves "<UCI moves separated by spaces>";`. Playing `hmoves` from `hfen` must reach the
//! record's position exactly (placement, side, castling rights, legal en passant); `hmvc` and
//! `fmvn` give the clocks of the record's position as usual.

use std::{
    fs,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use replab_board::{Epd, Move, Position};
use replab_detect::DrawPolicy;
use replab_registry::{SEARCH_DETECTORS, parse_list, root_rule_for, with_detector};
use replab_report::{
    BarChart, Cell, Meta, Page, ReportDir, Series, fmt_delta_pct, fmt_int, fmt_ms, table_html,
};
use replab_search::{SearchConfig, SearchResult, Searcher};
use serde::Serialize;

use crate::util::command_line;

/// Arguments of `replab suite`.
#[derive(Args, Clone)]
pub struct SuiteArgs {
    /// EPD file (one record per line; `hfen`/`hmoves` operations give a game history).
    #[arg(long)]
    pub epd: PathBuf,
    /// Search depth in plies (1 to 30).
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Node budget per search (the deepest completed iteration counts); default none.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Comma-separated detectors, or `all` (every searcher detector); `off` is always added.
    #[arg(long, default_value = "all")]
    pub detectors: String,
    /// Draw policy: twofold, stanback, moreland, stockfish or threefold.
    #[arg(long, default_value = "twofold")]
    pub policy: String,
    /// Output directory.
    #[arg(long, default_value = "reports/suite")]
    pub out: PathBuf,
    /// Skip bad records (reported; exit status 2 at the end) instead of stopping at the first.
    #[arg(long)]
    pub keep_going: bool,
    /// Only the first N records.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// A record ready to search: its game (history positions and moves; the root last).
pub struct Record {
    /// The `id` operation, or `line N`.
    pub id: String,
    /// 1-based line in the file.
    pub line: usize,
    /// History positions, the record's position last.
    pub positions: Vec<Position>,
    /// Moves between the positions.
    pub moves: Vec<Move>,
    /// `bm` moves.
    pub best: Vec<Move>,
    /// `am` moves.
    pub avoid: Vec<Move>,
}

/// Parses one EPD line into a [`Record`].
fn parse_record(text: &str, line: usize) -> Result<Record, String> {
    let epd = Epd::parse(text).map_err(|e| e.to_string())?;
    let best = epd.moves("bm").map_err(|e| e.to_string())?;
    let avoid = epd.moves("am").map_err(|e| e.to_string())?;
    let id = epd
        .id()
        .map(str::to_string)
        .unwrap_or_else(|| format!("line {line}"));
    let operand = |op: &str| {
        epd.operation(op)
            .map(|o| o.operands.join(" "))
            .filter(|s| !s.is_empty())
    };
    let (positions, moves) = match (operand("hfen"), operand("hmoves")) {
        (None, None) => (vec![epd.position], Vec::new()),
        (Some(hfen), hmoves) => {
            let mut pos =
                Position::from_fen(&hfen).map_err(|e| format!("invalid hfen {hfen:?}: {e}"))?;
            let mut positions = vec![pos];
            let mut moves = Vec::new();
            for (i, uci) in hmoves
                .unwrap_or_default()
                .split_ascii_whitespace()
                .enumerate()
            {
                let m = pos
                    .parse_uci(uci)
                    .map_err(|e| format!("hmoves move {} ({uci}): {e}", i + 1))?;
                pos = pos.play(m);
                positions.push(pos);
                moves.push(m);
            }
            if !pos.same_position(&epd.position) {
                return Err(format!(
                    "hmoves from hfen reach {:?}, not the record's position {:?}",
                    pos.epd_fen(),
                    epd.position.epd_fen()
                ));
            }
            // The record's clocks (hmvc/fmvn) win over the replayed ones only if given.
            *positions.last_mut().expect("non-empty") = if epd.operation("hmvc").is_some() {
                epd.position
            } else {
                pos
            };
            (positions, moves)
        }
        (None, Some(_)) => return Err("hmoves without hfen".into()),
    };
    Ok(Record {
        id,
        line,
        positions,
        moves,
        best,
        avoid,
    })
}

/// Reads every record of an EPD file; bad records are errors naming `file:line`.
pub fn read_records(path: &Path, keep_going: bool) -> Result<(Vec<Record>, Vec<String>)> {
    let text = fs::read_to_string(path)
        .with_context(|| format!("cannot read --epd {}", path.display()))?;
    let mut records = Vec::new();
    let mut skipped = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match parse_record(trimmed, i + 1) {
            Ok(r) => records.push(r),
            Err(e) => {
                let msg = format!("{}:{}: {e}", path.display(), i + 1);
                if !keep_going {
                    bail!("{msg}");
                }
                skipped.push(msg);
            }
        }
    }
    Ok((records, skipped))
}

/// One searched (record, detector) pair, as written to `results.json`.
#[derive(Serialize, Clone, Debug)]
pub struct SuiteRun {
    /// Record id.
    pub id: String,
    /// 1-based line of the record in the EPD file.
    pub line: usize,
    /// `off` or a detector name.
    pub detector: String,
    /// Draw policy.
    pub policy: String,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Best move (UCI), or `null` without legal moves.
    pub best_move: Option<String>,
    /// Score in centipawns from the side to move's view (mates encoded near ±30000).
    pub eval_cp: i32,
    /// Positions entered, all iterations.
    pub nodes: u64,
    /// Static evaluations at leaves, all iterations.
    pub terminal_nodes: u64,
    /// Moves generated, all iterations.
    pub generated: u64,
    /// Repetition draws scored.
    pub repetitions: u64,
    /// Detector probes.
    pub probes: u64,
    /// Probes that found a repetition.
    pub hits: u64,
    /// Wall time, all iterations, ms.
    pub time_ms: f64,
    /// For `bm`/`am` records: whether the best move is a `bm` move and no `am` move.
    pub solved: Option<bool>,
    /// Plies of game history before the record's position.
    pub history_plies: usize,
}

fn run_of(record: &Record, detector: &str, policy: DrawPolicy, res: &SearchResult) -> SuiteRun {
    let totals = res.totals();
    let best = res.best_move();
    let solved = if record.best.is_empty() && record.avoid.is_empty() {
        None
    } else {
        Some(best.is_some_and(|m| {
            (record.best.is_empty() || record.best.contains(&m)) && !record.avoid.contains(&m)
        }))
    };
    SuiteRun {
        id: record.id.clone(),
        line: record.line,
        detector: detector.to_string(),
        policy: policy.name().to_string(),
        depth: res.last().map_or(0, |it| it.depth),
        best_move: best.map(|m| m.uci().to_string()),
        eval_cp: res.score().map_or(0, |s| s.value()),
        nodes: totals.nodes,
        terminal_nodes: totals.terminal_nodes,
        generated: totals.generated,
        repetitions: totals.repetitions,
        probes: totals.probes,
        hits: totals.hits,
        time_ms: res.time_ms(),
        solved,
        history_plies: record.moves.len(),
    }
}

/// Searches every record with every detector (one searcher per detector, reused across
/// records). `on_done` is called after each search.
pub fn search_all(
    records: &[Record],
    detectors: &[String],
    config: SearchConfig,
    mut on_done: impl FnMut(&SuiteRun),
) -> Result<Vec<SuiteRun>> {
    let mut runs = Vec::with_capacity(records.len() * detectors.len());
    let rule = root_rule_for(config.policy);
    for name in detectors {
        with_detector!(name.as_str(), rule, |d| {
            let mut searcher = Searcher::new(d, config);
            for record in records {
                let res = searcher.search_game(&record.positions, &record.moves);
                let run = run_of(record, name, config.policy, &res);
                on_done(&run);
                runs.push(run);
            }
        })?;
    }
    Ok(runs)
}

/// Aggregate figures of one detector over the suite.
#[derive(Serialize, Clone, Debug)]
pub struct Aggregate {
    /// `off` or a detector name.
    pub detector: String,
    /// Records searched.
    pub records: usize,
    /// Sums over records.
    pub nodes: u64,
    /// Sum of terminal nodes.
    pub terminal_nodes: u64,
    /// Sum of generated moves.
    pub generated: u64,
    /// Sum of repetition draws scored.
    pub repetitions: u64,
    /// Sum of wall times, ms.
    pub time_ms: f64,
    /// Median nodes per record.
    pub median_nodes: u64,
    /// Median time per record, ms.
    pub median_time_ms: f64,
    /// Records with `bm`/`am` solved.
    pub solved: usize,
    /// Records with `bm`/`am`.
    pub solvable: usize,
    /// Records whose best move differs from `off`'s.
    pub best_move_changed: usize,
    /// Nodes relative to `off` (−0.1 = 10% fewer).
    pub nodes_vs_off: Option<f64>,
    /// Time relative to `off`.
    pub time_vs_off: Option<f64>,
    /// Terminal nodes relative to `off`.
    pub terminal_vs_off: Option<f64>,
    /// Generated moves relative to `off`.
    pub generated_vs_off: Option<f64>,
}

fn median_u64(mut v: Vec<u64>) -> u64 {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    v[v.len() / 2]
}

fn median_f64(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn rel(x: f64, base: f64) -> Option<f64> {
    (base > 0.0).then(|| x / base - 1.0)
}

/// Totals, medians, solved counts and changes relative to `off`, per detector in order.
pub fn aggregate(runs: &[SuiteRun], detectors: &[String]) -> Vec<Aggregate> {
    fn of<'a>(runs: &'a [SuiteRun], d: &'a str) -> impl Iterator<Item = &'a SuiteRun> + 'a {
        runs.iter().filter(move |r| r.detector == d)
    }
    let mut out: Vec<Aggregate> = detectors
        .iter()
        .map(|d| {
            let rs: Vec<&SuiteRun> = of(runs, d).collect();
            let changed = rs
                .iter()
                .filter(|r| {
                    of(runs, "off")
                        .find(|o| o.id == r.id)
                        .is_some_and(|o| o.best_move != r.best_move)
                })
                .count();
            Aggregate {
                detector: d.clone(),
                records: rs.len(),
                nodes: rs.iter().map(|r| r.nodes).sum(),
                terminal_nodes: rs.iter().map(|r| r.terminal_nodes).sum(),
                generated: rs.iter().map(|r| r.generated).sum(),
                repetitions: rs.iter().map(|r| r.repetitions).sum(),
                time_ms: rs.iter().map(|r| r.time_ms).sum(),
                median_nodes: median_u64(rs.iter().map(|r| r.nodes).collect()),
                median_time_ms: median_f64(rs.iter().map(|r| r.time_ms).collect()),
                solved: rs.iter().filter(|r| r.solved == Some(true)).count(),
                solvable: rs.iter().filter(|r| r.solved.is_some()).count(),
                best_move_changed: changed,
                nodes_vs_off: None,
                time_vs_off: None,
                terminal_vs_off: None,
                generated_vs_off: None,
            }
        })
        .collect();
    if let Some(off) = out.iter().find(|a| a.detector == "off").cloned() {
        for a in &mut out {
            a.nodes_vs_off = rel(a.nodes as f64, off.nodes as f64);
            a.time_vs_off = rel(a.time_ms, off.time_ms);
            a.terminal_vs_off = rel(a.terminal_nodes as f64, off.terminal_nodes as f64);
            a.generated_vs_off = rel(a.generated as f64, off.generated as f64);
        }
    }
    out
}

/// Everything `results.json` holds.
#[derive(Serialize)]
pub struct SuiteResults {
    /// Provenance.
    pub meta: Meta,
    /// The EPD file.
    pub epd: String,
    /// Search configuration.
    pub config: ConfigRecord,
    /// Records skipped with `--keep-going`, with their reasons.
    pub skipped: Vec<String>,
    /// Per detector.
    pub aggregates: Vec<Aggregate>,
    /// Per record and detector.
    pub runs: Vec<SuiteRun>,
}

/// The searcher configuration, as recorded.
#[derive(Serialize)]
pub struct ConfigRecord {
    /// Depth.
    pub depth: u32,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Policy name.
    pub policy: String,
    /// Contempt.
    pub contempt: i32,
    /// Null-move pruning.
    pub null_move: bool,
    /// TT size (log2 entries).
    pub tt_bits: Option<u32>,
    /// Detectors searched.
    pub detectors: Vec<String>,
}

fn opt_pct(v: Option<f64>) -> Cell {
    v.map_or_else(|| Cell::text("—"), |f| Cell::text(fmt_delta_pct(f)))
}

/// Writes `results.json` and `index.html` (with charts) into the staged `dir`, then commits it
/// (the previous report stays in place until then).
pub fn write_report(dir: ReportDir, title: &str, results: &SuiteResults) -> Result<()> {
    dir.write("results.json", serde_json::to_vec_pretty(results)?)?;
    let aggs = &results.aggregates;
    let headers = [
        "detector",
        "records",
        "nodes",
        "nodes vs off",
        "terminal nodes",
        "generated",
        "repetitions",
        "time",
        "time vs off",
        "median nodes",
        "solved",
        "best move ≠ off",
    ];
    let rows: Vec<Vec<Cell>> = aggs
        .iter()
        .map(|a| {
            vec![
                Cell::text(&a.detector),
                a.records.into(),
                a.nodes.into(),
                opt_pct(a.nodes_vs_off),
                a.terminal_nodes.into(),
                a.generated.into(),
                a.repetitions.into(),
                Cell::text(fmt_ms(a.time_ms)),
                opt_pct(a.time_vs_off),
                a.median_nodes.into(),
                Cell::text(if a.solvable > 0 {
                    format!("{}/{}", a.solved, a.solvable)
                } else {
                    "—".into()
                }),
                a.best_move_changed.into(),
            ]
        })
        .collect();
    let names: Vec<String> = aggs.iter().map(|a| a.detector.clone()).collect();
    let time_chart = BarChart {
        categories: names.clone(),
        series: vec![Series::values("time", aggs.iter().map(|a| a.time_ms))],
        ..BarChart::new("Total search time per detector", "detector", "time (ms)")
    };
    let nodes_chart = BarChart {
        categories: names.clone(),
        series: vec![
            Series::values("nodes", aggs.iter().map(|a| a.nodes as f64)),
            Series::values(
                "terminal nodes",
                aggs.iter().map(|a| a.terminal_nodes as f64),
            ),
        ],
        ..BarChart::new("Tree size per detector", "detector", "count (all records)")
    };
    let reps_chart = BarChart {
        categories: names,
        series: vec![Series::values(
            "repetitions",
            aggs.iter().map(|a| a.repetitions as f64),
        )],
        ..BarChart::new("Repetition draws scored", "detector", "repetitions (count)")
    };
    let fig_time = dir.write_chart("time.svg", &time_chart, "Total search time per detector")?;
    let fig_nodes = dir.write_chart("nodes.svg", &nodes_chart, "Nodes and terminal nodes")?;
    let fig_reps = dir.write_chart("repetitions.svg", &reps_chart, "Repetition draws scored")?;

    // Per record: nodes and best move for each detector.
    let mut rec_headers = vec!["record".to_string(), "history".to_string()];
    for a in aggs {
        rec_headers.push(format!("{} nodes", a.detector));
    }
    rec_headers.push("best moves (off / detectors)".into());
    let mut ids: Vec<&str> = Vec::new();
    for r in &results.runs {
        if !ids.contains(&r.id.as_str()) {
            ids.push(&r.id);
        }
    }
    let rec_rows: Vec<Vec<Cell>> = ids
        .iter()
        .map(|id| {
            let rs: Vec<&SuiteRun> = results.runs.iter().filter(|r| r.id == *id).collect();
            let mut row = vec![
                Cell::text(*id),
                rs.first().map_or(0, |r| r.history_plies).into(),
            ];
            for a in aggs {
                row.push(
                    rs.iter()
                        .find(|r| r.detector == a.detector)
                        .map_or(Cell::text("—"), |r| r.nodes.into()),
                );
            }
            let mut moves: Vec<String> = Vec::new();
            for r in &rs {
                let m = r.best_move.clone().unwrap_or_else(|| "—".into());
                if !moves.contains(&m) {
                    moves.push(m);
                }
            }
            row.push(Cell::text(moves.join(" / ")));
            row
        })
        .collect();
    let cfg = &results.config;
    let summary = format!(
        "<p>{} records of <code>{}</code> searched to depth {}{} with policy <code>{}</code> \
         by {} configurations; {} skipped.</p>",
        ids.len(),
        replab_report::escape_html(&results.epd),
        cfg.depth,
        cfg.nodes
            .map_or(String::new(), |n| format!(" (node budget {})", fmt_int(n))),
        cfg.policy,
        aggs.len(),
        results.skipped.len()
    );
    Page::new(title, &results.meta)
        .nav([("All reports", "../index.html")])
        .section(
            "Summary",
            format!("{summary}{}", table_html(&headers, &rows, true)),
        )
        .section("Charts", format!("{fig_time}{fig_nodes}{fig_reps}"))
        .section("Per record", table_html(&rec_headers, &rec_rows, true))
        .write(&dir, "index.html")?;
    dir.commit()?;
    Ok(())
}

/// Parses the detector list and policy, checking every name.
pub fn parse_options(detectors: &str, policy: &str) -> Result<(Vec<String>, DrawPolicy)> {
    let mut names = parse_list(detectors, &SEARCH_DETECTORS)
        .with_context(|| format!("invalid --detectors {detectors:?}"))?;
    if names.iter().any(|n| n == "truth" || n == "cuckoo") {
        bail!(
            "invalid --detectors {detectors:?}: `truth` and `cuckoo` are not search detectors \
             (use linear+cuckoo)"
        );
    }
    names.retain(|n| n != "off");
    names.insert(0, "off".into());
    let policy: DrawPolicy = policy
        .parse()
        .with_context(|| format!("invalid --policy {policy:?}"))?;
    Ok((names, policy))
}

/// Runs `replab suite`.
pub fn run(args: &SuiteArgs) -> Result<()> {
    if !(1..=30).contains(&args.depth) {
        bail!("--depth {} is out of range (1 to 30)", args.depth);
    }
    if args.nodes == Some(0) {
        bail!("--nodes must be at least 1");
    }
    let (detectors, policy) = parse_options(&args.detectors, &args.policy)?;
    let (mut records, skipped) = read_records(&args.epd, args.keep_going)?;
    if let Some(n) = args.limit {
        records.truncate(n);
    }
    if records.is_empty() {
        bail!("no records to search in {}", args.epd.display());
    }
    // Stage the output first: an unwritable --out fails before the search, and an interrupted
    // run leaves only its staging folder, which the next run removes.
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write --out {}", args.out.display()))?;
    let config = SearchConfig {
        max_depth: args.depth,
        policy,
        node_limit: args.nodes,
        ..SearchConfig::default()
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new((records.len() * detectors.len()) as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("suite {bar:40} {pos}/{len} {msg} [{elapsed}<{eta}]")
            .expect("valid template"),
    );
    let runs = search_all(&records, &detectors, config, |r| {
        bar.set_message(format!("{} {}", r.detector, r.id));
        bar.inc(1);
    })?;
    bar.finish_and_clear();
    let aggregates = aggregate(&runs, &detectors);
    println!(
        "{:<16} {:>12} {:>9} {:>12} {:>9} {:>8} {:>8}",
        "detector", "nodes", "vs off", "time ms", "vs off", "reps", "solved"
    );
    for a in &aggregates {
        println!(
            "{:<16} {:>12} {:>9} {:>12.1} {:>9} {:>8} {:>8}",
            a.detector,
            a.nodes,
            a.nodes_vs_off.map_or("—".into(), fmt_delta_pct),
            a.time_ms,
            a.time_vs_off.map_or("—".into(), fmt_delta_pct),
            a.repetitions,
            if a.solvable > 0 {
                format!("{}/{}", a.solved, a.solvable)
            } else {
                "—".into()
            }
        );
    }
    let results = SuiteResults {
        meta: Meta::collect(&command_line()),
        epd: args.epd.display().to_string(),
        config: ConfigRecord {
            depth: args.depth,
            nodes: args.nodes,
            policy: policy.name().into(),
            contempt: config.contempt,
            null_move: config.null_move,
            tt_bits: config.tt_bits,
            detectors: detectors.clone(),
        },
        skipped: skipped.clone(),
        aggregates,
        runs,
    };
    let title = format!(
        "Suite {}",
        args.epd.file_name().map_or_else(
            || args.epd.display().to_string(),
            |f| f.to_string_lossy().into_owned()
        )
    );
    write_report(dir, &title, &results)?;
    eprintln!("wrote {}", args.out.join("index.html").display());
    if !skipped.is_empty() {
        for s in &skipped {
            eprintln!("replab: skipped {s}");
        }
        bail!(
            "{} record(s) skipped in {}",
            skipped.len(),
            args.epd.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_records_replay_and_are_checked() {
        let r = parse_record(
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - hfen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"; hmoves \"g1f3 g8f6 f3g1 f6g8 g1f3\"; id \"shuffle\";",
            1,
        )
        .unwrap();
        assert_eq!(
            (r.positions.len(), r.moves.len(), r.id.as_str()),
            (6, 5, "shuffle")
        );
        let e = parse_record(
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - hfen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"; hmoves \"g1f3 g8f6\";",
            3,
        )
        .err()
        .unwrap();
        assert!(e.contains("not the record's position"), "{e}");
        let e = parse_record("8/8/8/8/8/8/8/8 w - - hmoves \"e2e4\";", 4)
            .err()
            .unwrap();
        assert!(e.contains("no king"), "{e}");
        let e = parse_record(
            "4k3/8/8/8/8/8/8/4K3 w - - hfen \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"; hmoves \"e1e3\";",
            5,
        )
        .err()
        .unwrap();
        assert!(e.contains("hmoves move 1 (e1e3)"), "{e}");
    }

    #[test]
    fn options_are_checked() {
        assert!(parse_options("all", "twofold").unwrap().0.len() == 9);
        assert!(parse_options("nosuch", "twofold").is_err());
        assert!(parse_options("truth", "twofold").is_err());
        assert!(parse_options("linear", "sometimes").is_err());
        assert_eq!(
            parse_options("linear,off", "stockfish").unwrap().0,
            ["off", "linear"]
        );
    }
}
