//! The Axon experiment (Vučković & Vidanović, §5 "Experimental data"): WAC.018 searched by
//! iterative deepening to depths 1–12 with detection off and with every detector, the paper's
//! Tables 2 and 3 beside ours; plus the paper's Figure 1 perpetual and the Diep–Axon game.

use std::{io::Write, path::PathBuf};

use anyhow::{Context, Result, anyhow, ensure};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use replab_board::{Color, Move, Position};
use replab_detect::{Detector, DrawPolicy};
use replab_pgn::PgnReader;
use replab_registry::{RootRule, SEARCH_DETECTORS, with_detector};
use replab_report::{Meta, ReportDir, fmt_delta_pct, fmt_int};
use replab_search::{Iteration, SearchConfig, Searcher};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::page;

/// WAC.018, the paper's Figure 3 (White to move; Rh8 wins).
pub const WAC018: &str = "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1";
/// The paper's Figure 1: White draws by perpetual check (Qh6+).
pub const FIGURE1: &str = "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1";
/// Diep–Axon before 38…Nxe3+ (the paper's Figure 4), Black to move.
pub const DIEP_AXON: &str = "5k2/RQ5p/1p2p3/3n2p1/6p1/4P3/P4PKP/2q5 b - - 4 38";

/// The paper's Tables 2 and 3 and totals, typed in from the seed (`datasets/paper`).
const PAPER_JSON: &str = include_str!("../../../../datasets/paper/axon-tables.json");
/// The appendix game (`datasets/games`).
const DIEP_AXON_PGN: &str = include_str!("../../../../datasets/games/diep-axon.pgn");

/// Arguments of `replab reproduce axon`.
#[derive(Args)]
pub struct AxonArgs {
    /// Deepest iteration in plies (1 to 20); the paper went to 12.
    #[arg(long, value_name = "N", default_value_t = 12,
          value_parser = clap::value_parser!(u32).range(1..=20))]
    max_depth: u32,
    /// Report directory; replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR", default_value = "reports/axon")]
    out: PathBuf,
    /// Search each WAC.018 configuration this many times, interleaved; times are the fastest
    /// of the runs (their counters must agree).
    #[arg(long, value_name = "K", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    repeat: u32,
}

/// One row of the paper's Tables 2 and 3.
#[derive(Clone, Debug, Deserialize)]
pub struct PaperRow {
    /// Depth in plies.
    pub depth: u32,
    /// Key move, UCI.
    pub best_move: String,
    /// Key move, SAN.
    pub best_move_san: String,
    /// Evaluation in centipawns, White's view.
    pub eval_cp: i32,
    /// Node count as printed.
    pub nodes: u64,
}

/// The totals printed under the tables.
#[derive(Clone, Debug, Deserialize)]
pub struct PaperTotals {
    /// Terminal nodes and generated positions with detection off.
    pub off: PaperCounts,
    /// The same with detection on, plus repetitions.
    pub on: PaperCounts,
    /// Time change on vs off, percent (−10).
    pub time_change_percent: f64,
}

/// Printed totals of one modality.
#[derive(Clone, Debug, Deserialize)]
pub struct PaperCounts {
    /// Terminal nodes evaluated.
    pub terminal_nodes: u64,
    /// Positions generated.
    pub generated: u64,
    /// Repetitions noted (detection on only).
    #[serde(default)]
    pub repetitions: Option<u64>,
}

/// The paper's data.
#[derive(Clone, Debug, Deserialize)]
pub struct Paper {
    /// Table 2 (detection off).
    pub off: Vec<PaperRow>,
    /// Table 3 (detection on).
    pub on: Vec<PaperRow>,
    /// Totals.
    pub totals: PaperTotals,
}

impl Paper {
    /// Relative change on vs off of terminal nodes, generated positions and time.
    pub fn changes(&self) -> (f64, f64, f64) {
        let t = &self.totals;
        (
            t.on.terminal_nodes as f64 / t.off.terminal_nodes as f64 - 1.0,
            t.on.generated as f64 / t.off.generated as f64 - 1.0,
            t.time_change_percent / 100.0,
        )
    }
}

/// One search iteration as recorded in `results.json` (contracts.md field names, plus extras).
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// `off` or a detector name.
    pub detector: String,
    /// Draw policy.
    pub policy: String,
    /// Iteration depth in plies.
    pub depth: u32,
    /// Best move (UCI), `-` when the root has no legal move.
    pub best_move: String,
    /// Best move (SAN).
    pub best_move_san: String,
    /// Score in centipawns from White's point of view; mates are ±(30000 − plies to mate).
    pub eval_cp: i32,
    /// Moves to mate from White's point of view (positive: White mates), if a mate score.
    pub mate: Option<i32>,
    /// Positions entered (quiescence included).
    pub nodes: u64,
    /// Static evaluations at leaves.
    pub terminal_nodes: u64,
    /// Moves generated.
    pub generated: u64,
    /// Repetitions scored as draws.
    pub repetitions: u64,
    /// Detector probes.
    pub probes: u64,
    /// Probes that found a repetition.
    pub hits: u64,
    /// Wall time in milliseconds (the fastest of the repeated runs for WAC.018).
    pub time_ms: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Principal variation (UCI).
    pub pv: Vec<String>,
}

impl Run {
    fn new(detector: &str, policy: DrawPolicy, root: &Position, it: &Iteration) -> Run {
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
            nodes: it.counters.nodes,
            terminal_nodes: it.counters.terminal_nodes,
            generated: it.counters.generated,
            repetitions: it.counters.repetitions,
            probes: it.counters.probes,
            hits: it.counters.hits,
            time_ms: it.time_ms,
            nps: it.nps(),
            pv: it.pv.iter().map(|m| m.uci().to_string()).collect(),
        }
    }

    /// Everything a rerun must reproduce exactly (all but the time).
    fn signature(&self) -> (u32, &str, i32, u64, u64, u64, u64, u64, u64) {
        (
            self.depth,
            &self.best_move,
            self.eval_cp,
            self.nodes,
            self.terminal_nodes,
            self.generated,
            self.repetitions,
            self.probes,
            self.hits,
        )
    }
}

/// Totals of one configuration over all depths, and the change against `off`.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// `off` or a detector name.
    pub detector: String,
    /// Summed counters.
    pub nodes: u64,
    /// Summed terminal nodes.
    pub terminal_nodes: u64,
    /// Summed generated moves.
    pub generated: u64,
    /// Summed repetitions scored as draws.
    pub repetitions: u64,
    /// Summed probes.
    pub probes: u64,
    /// Summed hits.
    pub hits: u64,
    /// Summed time, ms.
    pub time_ms: f64,
    /// Nodes per second over the whole run.
    pub nps: f64,
    /// NPS(off) / NPS(this).
    pub overhead: f64,
    /// Relative change vs off (fractions, e.g. −0.18).
    pub nodes_change: f64,
    /// Relative change of terminal nodes vs off.
    pub terminal_nodes_change: f64,
    /// Relative change of generated moves vs off.
    pub generated_change: f64,
    /// Relative change of time vs off.
    pub time_change: f64,
    /// Best move at the deepest iteration (UCI).
    pub final_best_move: String,
    /// Score at the deepest iteration (cp, White's view).
    pub final_eval_cp: i32,
    /// Bytes the detector's structures use.
    pub memory_bytes: usize,
}

/// A further position from the paper, searched by every configuration.
#[derive(Clone, Debug, Serialize)]
pub struct Case {
    /// Short identifier (`figure1`, `diep-axon`).
    pub id: String,
    /// Title on the page.
    pub title: String,
    /// The searched position.
    pub fen: String,
    /// Game positions before it given as history.
    pub history_plies: usize,
    /// What the paper says about it.
    pub note: String,
    /// One run per configuration and depth.
    pub runs: Vec<Run>,
}

/// The search configuration as recorded.
#[derive(Clone, Debug, Serialize)]
pub struct ConfigRecord {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Draw policy.
    pub policy: String,
    /// Contempt, cp.
    pub contempt: i32,
    /// Null-move pruning.
    pub null_move: bool,
    /// Null-move reduction R.
    pub null_reduction: u32,
    /// Transposition-table index bits.
    pub tt_bits: Option<u32>,
    /// Check extension.
    pub check_extension: bool,
    /// Quiet checks in quiescence.
    pub qsearch_checks: bool,
    /// Node limit.
    pub node_limit: Option<u64>,
    /// Root rule of the cuckoo detector.
    pub cuckoo_root_rule: String,
    /// Runs per WAC.018 configuration (times: the fastest).
    pub repeat: u32,
}

/// Everything written to `results.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Results {
    /// WAC.018.
    pub position: String,
    /// How the report was made.
    pub meta: Meta,
    /// No randomness is involved.
    pub seed: Option<u64>,
    /// The searcher's configuration.
    pub config: ConfigRecord,
    /// The paper's tables and totals as typed in (`datasets/paper/axon-tables.json`).
    pub paper: Value,
    /// One run per configuration and depth.
    pub runs: Vec<Run>,
    /// Totals per configuration.
    pub summary: Vec<Summary>,
    /// The generated sentence comparing our result with the paper's.
    pub verdict: String,
    /// Figure 1 and Diep–Axon.
    pub cases: Vec<Case>,
}

/// The configurations searched: `off`, then every search detector.
pub fn configurations() -> Vec<&'static str> {
    std::iter::once("off").chain(SEARCH_DETECTORS).collect()
}

/// The root rule the cuckoo detector uses with `policy` (any earlier position under `twofold`).
fn root_rule(policy: DrawPolicy) -> RootRule {
    if policy == DrawPolicy::Twofold {
        RootRule::AnyEarlier
    } else {
        RootRule::Stockfish
    }
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
    with_detector!(name, root_rule(config.policy), |d| {
        Box::new(Searcher::new(d, config)) as Box<dyn Engine>
    })
    .map_err(|e| anyhow!(e))
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

/// The command line as typed, for the report footer.
fn command_line() -> String {
    let quote = |a: String| {
        if !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=+,:@".contains(c))
        {
            a
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    };
    std::iter::once("replab".to_string())
        .chain(std::env::args().skip(1).map(quote))
        .collect::<Vec<_>>()
        .join(" ")
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
        fmt_int(axon.repetitions),
        rate(axon.repetitions, axon.nodes),
        fmt_int(paper_reps),
        fmt_int(paper.totals.on.generated),
        rate(paper_reps, paper.totals.on.generated),
        overall,
        range(|s| s.terminal_nodes_change),
        range(|s| s.generated_change),
        range(|s| s.time_change),
    )
}

/// Totals per configuration, in the order of `configurations()`.
fn summarise(runs: &[Run], memory: &[(String, usize)]) -> Vec<Summary> {
    let total = |name: &str| {
        let rs: Vec<&Run> = runs.iter().filter(|r| r.detector == name).collect();
        let sum = |f: fn(&Run) -> u64| rs.iter().map(|r| f(r)).sum::<u64>();
        let last = rs.last().copied();
        (
            sum(|r| r.nodes),
            sum(|r| r.terminal_nodes),
            sum(|r| r.generated),
            sum(|r| r.repetitions),
            sum(|r| r.probes),
            sum(|r| r.hits),
            rs.iter().map(|r| r.time_ms).sum::<f64>(),
            last.map_or("-".into(), |r| r.best_move.clone()),
            last.map_or(0, |r| r.eval_cp),
        )
    };
    let off = total("off");
    let nps = |nodes: u64, ms: f64| {
        if ms > 0.0 {
            nodes as f64 * 1000.0 / ms
        } else {
            0.0
        }
    };
    let off_nps = nps(off.0, off.6);
    let change = |x: f64, base: f64| if base > 0.0 { x / base - 1.0 } else { 0.0 };
    memory
        .iter()
        .map(|(name, bytes)| {
            let t = total(name);
            let n = nps(t.0, t.6);
            Summary {
                detector: name.clone(),
                nodes: t.0,
                terminal_nodes: t.1,
                generated: t.2,
                repetitions: t.3,
                probes: t.4,
                hits: t.5,
                time_ms: t.6,
                nps: n,
                overhead: if n > 0.0 { off_nps / n } else { 0.0 },
                nodes_change: change(t.0 as f64, off.0 as f64),
                terminal_nodes_change: change(t.1 as f64, off.1 as f64),
                generated_change: change(t.2 as f64, off.2 as f64),
                time_change: change(t.6, off.6),
                final_best_move: t.7,
                final_eval_cp: t.8,
                memory_bytes: *bytes,
            }
        })
        .collect()
}

/// The progress bar on stderr (hidden when stderr is not a terminal).
fn progress(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed:>4} [{bar:32.cyan/blue}] {pos}/{len} iterations  {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Runs the experiment and writes the report.
pub fn run(args: &AxonArgs) -> Result<()> {
    let paper: Paper =
        serde_json::from_str(PAPER_JSON).context("datasets/paper/axon-tables.json")?;
    let paper_value: Value = serde_json::from_str(PAPER_JSON)?;
    let paper_record = serde_json::json!({
        "off": paper_value["off"],
        "on": paper_value["on"],
        "totals": paper_value["totals"],
        "source": paper_value["source"],
    });
    let (diep_positions, diep_moves) = diep_axon_history()?;

    // Fail on an unusable --out before searching for a minute.
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;
    let meta = Meta::collect(&command_line());

    let config = SearchConfig {
        max_depth: args.max_depth,
        ..SearchConfig::default()
    };
    let policy = config.policy;
    let names = configurations();
    let depth = u64::from(args.max_depth);
    let n = names.len() as u64;
    let bar = progress(n * depth * (u64::from(args.repeat) + 2));

    // WAC.018: every configuration, `repeat` times interleaved, keeping the fastest time. Each
    // configuration keeps its searcher, so later runs do not pay for first-touch page faults.
    let wac = Position::from_fen(WAC018).expect("WAC.018 FEN is valid");
    let mut engines = names
        .iter()
        .map(|name| engine(name, config))
        .collect::<Result<Vec<_>>>()?;
    let mut best: Vec<Option<Vec<Run>>> = vec![None; names.len()];
    let mut memory = Vec::new();
    for rep in 0..args.repeat {
        for (i, name) in names.iter().enumerate() {
            bar.set_message(format!(
                "WAC.018 · {name} · run {}/{}",
                rep + 1,
                args.repeat
            ));
            let engine = &mut engines[i];
            let iterations = engine.run(&[wac], &[], &mut || bar.inc(1));
            let bytes = engine.detector_bytes();
            let runs: Vec<Run> = iterations
                .iter()
                .map(|it| Run::new(name, policy, &wac, it))
                .collect();
            match &mut best[i] {
                None => {
                    memory.push((name.to_string(), bytes));
                    best[i] = Some(runs);
                }
                Some(kept) => {
                    for (k, r) in kept.iter_mut().zip(&runs) {
                        ensure!(
                            k.signature() == r.signature(),
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
    let verdict = verdict(&summary, &paper);

    // The two further cases: once per configuration.
    let figure1 = Position::from_fen(FIGURE1).expect("Figure 1 FEN is valid");
    let mut cases = Vec::new();
    for (id, title, positions, moves, note) in [
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
    ] {
        let root = *positions.last().expect("non-empty");
        let mut runs = Vec::new();
        for name in &names {
            bar.set_message(format!("{title} · {name}"));
            let iterations = engine(name, config)?.run(&positions, &moves, &mut || bar.inc(1));
            runs.extend(
                iterations
                    .iter()
                    .map(|it| Run::new(name, policy, &root, it)),
            );
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
    bar.finish_and_clear();

    let results = Results {
        position: WAC018.to_string(),
        meta: meta.clone(),
        seed: None,
        config: ConfigRecord {
            max_depth: config.max_depth,
            policy: policy.name().to_string(),
            contempt: config.contempt,
            null_move: config.null_move,
            null_reduction: config.null_reduction,
            tt_bits: config.tt_bits,
            check_extension: config.check_extension,
            qsearch_checks: config.qsearch_checks,
            node_limit: config.node_limit,
            cuckoo_root_rule: match root_rule(policy) {
                RootRule::AnyEarlier => "any-earlier".into(),
                RootRule::Stockfish => "stockfish".into(),
            },
            repeat: args.repeat,
        },
        paper: paper_record,
        runs,
        summary,
        verdict,
        cases,
    };
    dir.write("results.json", serde_json::to_string_pretty(&results)?)
        .context("writing results.json")?;
    page::write(&dir, &results, &paper, &meta).context("writing index.html")?;
    let target = dir.commit().context("replacing the report directory")?;

    let mut out = std::io::stdout().lock();
    print_summary(&mut out, &results, &paper)?;
    writeln!(out, "\nwrote {}", target.join("index.html").display())?;
    Ok(())
}

/// The summary table on stdout.
fn print_summary(out: &mut impl Write, results: &Results, paper: &Paper) -> Result<()> {
    let max_depth = results.config.max_depth;
    writeln!(
        out,
        "WAC.018 ({}), depths 1-{max_depth}, policy {}, fastest of {} run(s)",
        results.position, results.config.policy, results.config.repeat
    )?;
    writeln!(
        out,
        "{:<16} {:>11} {:>11} {:>12} {:>6} {:>9} {:>6} {:>8} {:>8} {:>8} {:>8} {:>6} {:>7}",
        "detector",
        "nodes",
        "terminal",
        "generated",
        "reps",
        "time ms",
        "Mnps",
        "overhead",
        "Δterm",
        "Δgen",
        "Δtime",
        "best",
        "eval"
    )?;
    for s in &results.summary {
        writeln!(
            out,
            "{:<16} {:>11} {:>11} {:>12} {:>6} {:>9.1} {:>6.2} {:>8.3} {:>8} {:>8} {:>8} {:>6} {:>+7.2}",
            s.detector,
            fmt_int(s.nodes),
            fmt_int(s.terminal_nodes),
            fmt_int(s.generated),
            fmt_int(s.repetitions),
            s.time_ms,
            s.nps / 1e6,
            s.overhead,
            fmt_delta_pct(s.terminal_nodes_change),
            fmt_delta_pct(s.generated_change),
            fmt_delta_pct(s.time_change),
            s.final_best_move,
            f64::from(s.final_eval_cp) / 100.0,
        )?;
    }
    let (p_term, p_gen, p_time) = paper.changes();
    let last = |rows: &[PaperRow]| {
        rows.last().map_or(("-".to_string(), 0.0), |r| {
            (r.best_move.clone(), f64::from(r.eval_cp) / 100.0)
        })
    };
    let (off_move, off_eval) = last(&paper.off);
    let (on_move, on_eval) = last(&paper.on);
    let t = &paper.totals;
    writeln!(
        out,
        "{:<16} {:>11} {:>11} {:>12} {:>6} {:>9} {:>6} {:>8} {:>8} {:>8} {:>8} {:>6} {:>+7.2}",
        "paper off",
        "-",
        fmt_int(t.off.terminal_nodes),
        fmt_int(t.off.generated),
        "-",
        "-",
        "-",
        "-",
        "",
        "",
        "",
        off_move,
        off_eval
    )?;
    writeln!(
        out,
        "{:<16} {:>11} {:>11} {:>12} {:>6} {:>9} {:>6} {:>8} {:>8} {:>8} {:>8} {:>6} {:>+7.2}",
        "paper on",
        "-",
        fmt_int(t.on.terminal_nodes),
        fmt_int(t.on.generated),
        fmt_int(t.on.repetitions.unwrap_or(0)),
        "-",
        "-",
        "-",
        fmt_delta_pct(p_term),
        fmt_delta_pct(p_gen),
        fmt_delta_pct(p_time),
        on_move,
        on_eval
    )?;
    writeln!(out, "\n{}", results.verdict)?;
    Ok(())
}
