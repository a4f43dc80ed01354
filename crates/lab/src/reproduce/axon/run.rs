//! Searching: WAC.018 with every configuration, repeated for the times, and the paper's two
//! further positions; then the totals and the verdict.

use anyhow::{Context, Result, anyhow, ensure};
use replab_board::{Color, Move, Position};
use replab_detect::{Detector, DrawPolicy};
use replab_pgn::PgnReader;
use replab_registry::{SEARCH_DETECTORS, check_policy, with_detector};
use replab_report::{Meta, fmt_delta_pct, fmt_int};
use replab_search::{Counters, Iteration, SearchConfig, Searcher};
use serde_json::Value;

use super::results::{Case, ConfigRecord, Paper, PaperRecord, Results, Run, Summary, runs_of};
use crate::Progress;

/// WAC.018, the paper's Figure 3 (White to move; Rh8 wins).
pub const WAC018: &str = "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1";
/// The paper's Figure 1: White draws by perpetual check (Qh6+).
pub const FIGURE1: &str = "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1";
/// Diep–Axon before 38…Nxe3+ (the paper's Figure 4), Black to move.
pub const DIEP_AXON: &str = "5k2/RQ5p/1p2p3/3n2p1/6p1/4P3/P4PKP/2q5 b - - 4 38";

/// The deepest iteration allowed (the paper went to 12).
pub const MAX_DEPTH: u32 = 20;
/// The most runs per WAC.018 configuration allowed.
pub const MAX_REPEAT: u32 = 100;

/// The paper's Tables 2 and 3 and totals, typed in from the seed (`datasets/paper`).
const PAPER_JSON: &str = include_str!("../../../../../datasets/paper/axon-tables.json");
/// The appendix game (`datasets/games`).
const DIEP_AXON_PGN: &str = include_str!("../../../../../datasets/games/diep-axon.pgn");

/// The settings of `replab reproduce axon`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Deepest iteration in plies, 1 to [`MAX_DEPTH`].
    pub max_depth: u32,
    /// Runs of each WAC.018 configuration, interleaved (1 to [`MAX_REPEAT`]); times are the
    /// fastest run, and every run must give the same counters.
    pub repeat: u32,
    /// The command line that regenerates the report (for `meta`).
    pub command: String,
}

impl Default for Config {
    /// The command line's defaults: depth 12, five runs.
    fn default() -> Self {
        Self {
            max_depth: 12,
            repeat: 5,
            command: "replab reproduce axon".to_string(),
        }
    }
}

/// The configurations searched under `policy`: `off`, then every search detector of the
/// registry that can serve the policy (`replab_registry::check_policy`: Gerbil's `filo` does not
/// serve `twofold`, the experiment's policy, and is left out), in the registry's order.
pub fn configurations(policy: DrawPolicy) -> Vec<&'static str> {
    std::iter::once("off")
        .chain(
            SEARCH_DETECTORS
                .into_iter()
                .filter(|name| check_policy(name, policy).is_ok()),
        )
        .collect()
}

/// A searcher with its detector, behind one interface so searchers of every detector type can be
/// kept side by side and reused (a reused searcher has its tables already in memory).
trait Engine {
    /// Searches the last of `positions`; `tick` runs after each iteration.
    fn run(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        tick: &mut dyn FnMut(),
    ) -> Vec<Iteration>;
    /// Bytes the detector's structures use.
    fn detector_bytes(&self) -> usize;
}

impl<D: Detector> Engine for Searcher<D> {
    fn run(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        tick: &mut dyn FnMut(),
    ) -> Vec<Iteration> {
        self.search_game_with(positions, moves, |_| tick())
            .iterations
    }

    fn detector_bytes(&self) -> usize {
        self.detector().memory_bytes()
    }
}

/// A searcher using the detector `name` (or none for `off`).
fn engine(name: &str, config: SearchConfig) -> Result<Box<dyn Engine>> {
    with_detector!(name, config.policy.root_rule(), |d| {
        Searcher::try_new(d, config)
            .map(|s| Box::new(s) as Box<dyn Engine>)
            .map_err(|e| anyhow!("{name}: {e}"))
    })
    .map_err(|e| anyhow!(e))?
}

/// One iteration's record: scores turned to White's view, moves to UCI and SAN.
fn record(detector: &str, policy: DrawPolicy, root: &Position, it: &Iteration) -> Run {
    let white = match root.side_to_move() {
        Color::White => it.score,
        Color::Black => it.score.flip(),
    };
    Run {
        detector: detector.to_string(),
        policy: policy.name().to_string(),
        depth: it.depth,
        best_move: it.best_move.map_or("-".into(), |m| m.uci().to_string()),
        best_move_san: it.best_move.map_or("-".into(), |m| root.san(m)),
        eval_cp: white.value(),
        mate: white.mate_in(),
        counters: it.counters,
        time_ms: it.time_ms,
        nps: it.nps(),
        pv: it.pv.iter().map(|m| m.uci().to_string()).collect(),
    }
}

/// Everything a rerun must reproduce exactly (all but the time).
fn signature(run: &Run) -> (u32, &str, i32, Counters) {
    (run.depth, &run.best_move, run.eval_cp, run.counters)
}

/// The Diep–Axon game up to the position before 38…Nxe3+: positions and moves.
fn diep_axon_history() -> Result<(Vec<Position>, Vec<Move>)> {
    let mut reader = PgnReader::new(DIEP_AXON_PGN.as_bytes());
    let game = reader
        .next_game()
        .map_err(|e| anyhow!("datasets/games/diep-axon.pgn: {e}"))?
        .context("datasets/games/diep-axon.pgn holds no game")?;
    let mut positions = vec![Position::startpos()];
    let mut moves = Vec::new();
    for token in &game.moves {
        let pos = *positions.last().expect("non-empty");
        if pos.fen() == DIEP_AXON {
            let next = pos
                .parse_san(&token.text)
                .with_context(|| format!("diep-axon.pgn line {}: {}", token.line, token.text))?;
            ensure!(
                pos.san(next) == "Nxe3+",
                "diep-axon.pgn: expected 38...Nxe3+ after the studied position, found {}",
                token.text
            );
            return Ok((positions, moves));
        }
        let m = pos
            .parse_san(&token.text)
            .with_context(|| format!("diep-axon.pgn line {}: {}", token.line, token.text))?;
        moves.push(m);
        positions.push(pos.play(m));
    }
    Err(anyhow!("diep-axon.pgn never reaches {DIEP_AXON}"))
}

/// The paper's record as written to `results.json`: its tables, totals and source.
fn paper_record() -> Result<PaperRecord> {
    let typed_in: Value =
        serde_json::from_str(PAPER_JSON).context("datasets/paper/axon-tables.json")?;
    let record = serde_json::json!({
        "off": typed_in["off"],
        "on": typed_in["on"],
        "totals": typed_in["totals"],
        "source": typed_in["source"],
    });
    PaperRecord::new(record).context("datasets/paper/axon-tables.json")
}

/// Changes of the counters below this are "unchanged" (they are exact).
const COUNT_NOISE: f64 = 0.005;
/// Changes of the time below this are within the noise of a shared machine.
const TIME_NOISE: f64 = 0.03;

/// Direction and size of `ours` against `paper` (relative changes); `noise` is the smallest
/// change that counts.
fn judge(ours: f64, paper: f64, noise: f64) -> &'static str {
    if ours.abs() < noise {
        return if noise > COUNT_NOISE {
            "within measurement noise"
        } else {
            "essentially unchanged"
        };
    }
    if ours.signum() != paper.signum() {
        return "the opposite direction";
    }
    let ratio = ours.abs() / paper.abs();
    if ratio < 0.5 {
        "the same direction but much smaller"
    } else if ratio > 2.0 {
        "the same direction but much larger"
    } else {
        "the same direction and a similar size"
    }
}

/// The sentence comparing the `axon` run (the paper's method) with the paper, from the numbers.
pub fn verdict(summary: &[Summary], paper: &Paper) -> String {
    let Some(axon) = summary.iter().find(|s| s.detector == "axon") else {
        return String::new();
    };
    let (p_term, p_gen, p_time) = paper.changes();
    let ours = [
        (
            "terminal nodes",
            axon.terminal_nodes_change,
            p_term,
            COUNT_NOISE,
        ),
        (
            "generated positions",
            axon.generated_change,
            p_gen,
            COUNT_NOISE,
        ),
        ("time", axon.time_change, p_time, TIME_NOISE),
    ];
    let parts: Vec<String> = ours
        .iter()
        .map(|(what, o, p, noise)| {
            format!(
                "{what} {} (paper {}: {})",
                fmt_delta_pct(*o),
                fmt_delta_pct(*p),
                judge(*o, *p, *noise)
            )
        })
        .collect();
    let agree = ours
        .iter()
        .filter(|(_, o, p, noise)| o.abs() >= *noise && o.signum() == p.signum())
        .count();
    let similar = ours
        .iter()
        .filter(|(_, o, p, noise)| judge(*o, *p, *noise) == "the same direction and a similar size")
        .count();
    let overall = if similar == 3 {
        "agrees with the paper in direction and size"
    } else if agree == 3 {
        "agrees with the paper in direction but not in size"
    } else if agree == 0 {
        "does not agree with the paper in direction"
    } else {
        "agrees with the paper in direction only in part"
    };
    let paper_reps = paper.totals.on.repetitions.unwrap_or(0);
    let rate = |reps: u64, nodes: u64| reps as f64 * 1000.0 / nodes.max(1) as f64;
    let others: Vec<&Summary> = summary
        .iter()
        .filter(|s| s.detector != "off" && s.detector != "axon")
        .collect();
    let range = |f: fn(&Summary) -> f64| {
        let lo = others.iter().map(|s| f(s)).fold(f64::INFINITY, f64::min);
        let hi = others
            .iter()
            .map(|s| f(s))
            .fold(f64::NEG_INFINITY, f64::max);
        format!("{} to {}", fmt_delta_pct(lo), fmt_delta_pct(hi))
    };
    format!(
        "With the paper's own method (the axon move-chain detector) against detection off, our \
         searcher changes {}. It scored {} repetitions as draws ({:.2} per 1,000 nodes; the paper \
         noted {} in a tree of {} positions, {:.2} per 1,000). Overall our result {}. The other \
         detectors change terminal nodes by {}, generated positions by {} and time by {}.",
        parts.join("; "),
        fmt_int(axon.counters.repetitions),
        rate(axon.counters.repetitions, axon.counters.nodes),
        fmt_int(paper_reps),
        fmt_int(paper.totals.on.generated),
        rate(paper_reps, paper.totals.on.generated),
        overall,
        range(|s| s.terminal_nodes_change),
        range(|s| s.generated_change),
        range(|s| s.time_change),
    )
}

/// Totals per configuration, in the order of `memory` (configuration name, detector bytes).
fn summarise(runs: &[Run], memory: &[(String, usize)]) -> Vec<Summary> {
    let total = |name: &str| {
        let rs = runs_of(runs, name);
        let mut counters = Counters::default();
        for r in &rs {
            counters += r.counters;
        }
        let time_ms = rs.iter().map(|r| r.time_ms).sum::<f64>();
        (counters, time_ms, rs.last().copied())
    };
    let nps = |nodes: u64, ms: f64| {
        if ms > 0.0 {
            nodes as f64 * 1000.0 / ms
        } else {
            0.0
        }
    };
    let (off, off_ms, _) = total("off");
    let off_nps = nps(off.nodes, off_ms);
    let change = |x: f64, base: f64| if base > 0.0 { x / base - 1.0 } else { 0.0 };
    let count_change = |x: u64, base: u64| change(x as f64, base as f64);
    memory
        .iter()
        .map(|(name, bytes)| {
            let (c, time_ms, last) = total(name);
            let n = nps(c.nodes, time_ms);
            Summary {
                detector: name.clone(),
                counters: c,
                time_ms,
                nps: n,
                overhead: if n > 0.0 { off_nps / n } else { 0.0 },
                nodes_change: count_change(c.nodes, off.nodes),
                terminal_nodes_change: count_change(c.terminal_nodes, off.terminal_nodes),
                generated_change: count_change(c.generated, off.generated),
                time_change: change(time_ms, off_ms),
                final_best_move: last.map_or("-".into(), |r| r.best_move.clone()),
                final_eval_cp: last.map_or(0, |r| r.eval_cp),
                memory_bytes: *bytes,
            }
        })
        .collect()
}

/// The two further positions: id, title, game positions, moves between them, the paper's note.
type FurtherCase = (
    &'static str,
    &'static str,
    Vec<Position>,
    Vec<Move>,
    &'static str,
);

/// Figure 1 and the Diep–Axon game position, with their histories.
fn further_cases() -> Result<Vec<FurtherCase>> {
    let figure1 = Position::from_fen(FIGURE1).expect("Figure 1 FEN is valid");
    let (diep_positions, diep_moves) = diep_axon_history()?;
    Ok(vec![
        (
            "figure1",
            "Figure 1: White draws by perpetual check",
            vec![figure1],
            Vec::new(),
            "The paper's Figure 1 (q4r1k/5p2/8/8/8/8/8/2Q3K1 w): Black is a rook and a pawn up, \
             but 1. Qh6+ Kg8 2. Qg5+ … checks forever. With detection the search should score \
             the draw (0.00) at a modest depth; without it, it cannot see the draw.",
        ),
        (
            "diep-axon",
            "Diep–Axon, before 38…Nxe3+",
            diep_positions,
            diep_moves,
            "The paper's appendix game (Figure 4): Axon, Black, saw that White mates next move and \
             drew by 38…Nxe3+! 39. fxe3 Qd2+ with a perpetual. The game's 75 earlier half-moves \
             are the search's history.",
        ),
    ])
}

/// Runs the experiment: WAC.018 with detection off and every search detector, `repeat` times
/// interleaved (times: the fastest run), then Figure 1 and Diep–Axon once per configuration.
/// Progress: one stage per position, one unit per iteration.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    ensure!(
        (1..=MAX_DEPTH).contains(&config.max_depth),
        "--max-depth {} is out of range (1 to {MAX_DEPTH})",
        config.max_depth
    );
    ensure!(
        (1..=MAX_REPEAT).contains(&config.repeat),
        "--repeat {} is out of range (1 to {MAX_REPEAT})",
        config.repeat
    );
    let paper = paper_record()?;
    let cases_in = further_cases()?;
    let meta = Meta::collect(&config.command);

    let search = SearchConfig {
        max_depth: config.max_depth,
        ..SearchConfig::default()
    };
    let policy = search.policy;
    let names = configurations(policy);
    let per_search = u64::from(config.max_depth) * names.len() as u64;

    // WAC.018: every configuration, `repeat` times interleaved, keeping the fastest time. Each
    // configuration keeps its searcher, so later runs do not pay for first-touch page faults.
    progress.stage("WAC.018", per_search * u64::from(config.repeat));
    let wac = Position::from_fen(WAC018).expect("WAC.018 FEN is valid");
    let mut engines = names
        .iter()
        .map(|name| engine(name, search))
        .collect::<Result<Vec<_>>>()?;
    let mut best: Vec<Option<Vec<Run>>> = vec![None; names.len()];
    let mut memory = Vec::new();
    for rep in 0..config.repeat {
        for (i, name) in names.iter().enumerate() {
            let engine = &mut engines[i];
            let iterations = engine.run(&[wac], &[], &mut || progress.advance(1));
            let bytes = engine.detector_bytes();
            let runs: Vec<Run> = iterations
                .iter()
                .map(|it| record(name, policy, &wac, it))
                .collect();
            match &mut best[i] {
                None => {
                    memory.push((name.to_string(), bytes));
                    best[i] = Some(runs);
                }
                Some(kept) => {
                    for (k, r) in kept.iter_mut().zip(&runs) {
                        ensure!(
                            signature(k) == signature(r),
                            "{name}: run {} differs from run 1 at depth {} (the search must be deterministic)",
                            rep + 1,
                            r.depth
                        );
                        if r.time_ms < k.time_ms {
                            k.time_ms = r.time_ms;
                            k.nps = r.nps;
                        }
                    }
                }
            }
        }
    }
    drop(engines);
    let runs: Vec<Run> = best.into_iter().flatten().flatten().collect();
    let summary = summarise(&runs, &memory);
    let verdict = verdict(&summary, paper.tables());

    // The two further cases: once per configuration.
    let mut cases = Vec::new();
    for (id, title, positions, moves, note) in cases_in {
        progress.stage(title.split([':', ',']).next().unwrap_or(title), per_search);
        let root = *positions.last().expect("non-empty");
        let mut runs = Vec::new();
        for name in &names {
            let iterations =
                engine(name, search)?.run(&positions, &moves, &mut || progress.advance(1));
            runs.extend(iterations.iter().map(|it| record(name, policy, &root, it)));
        }
        cases.push(Case {
            id: id.to_string(),
            title: title.to_string(),
            fen: root.fen(),
            history_plies: moves.len(),
            note: note.to_string(),
            runs,
        });
    }
    progress.finish();

    Ok(Results {
        position: WAC018.to_string(),
        meta,
        seed: None,
        config: ConfigRecord {
            max_depth: search.max_depth,
            policy: policy.name().to_string(),
            contempt: search.contempt,
            null_move: search.null_move,
            null_reduction: search.null_reduction,
            tt_bits: search.tt_bits,
            check_extension: search.check_extension,
            qsearch_checks: search.qsearch_checks,
            node_limit: search.node_limit,
            cuckoo_root_rule: policy.root_rule().name().to_string(),
            repeat: config.repeat,
        },
        paper,
        runs,
        summary,
        verdict,
        cases,
    })
}
