//! Searching: WAC.018 with every configuration in interleaved rounds for the times (medians
//! with 95% intervals, `crate::stats`), linear's overhead to a target precision, and the paper's
//! two further positions; then the totals. The comparison with the paper and the verdict are
//! `verdict.rs`.

use std::time::Instant;

use anyhow::{Context, Result, anyhow, ensure};
use replab_board::{Color, Move, Position};
use replab_detect::DrawPolicy;
use replab_pgn::PgnReader;
use replab_registry::{DetectorId, SEARCH_DETECTORS, check_policy};
use replab_report::Meta;
use replab_search::{Counters, DynSearch, Iteration, SearchConfig};
use replab_settings::Settings;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::results::{Adaptive, Case, PaperRecord, Results, Run, Setup, Summary, runs_of};
use super::verdict::{claims, comparison, verdict};
use crate::experiment::Configuration;
use crate::resolution;
use crate::stats::{Estimate, Interval, median_ci, median_coverage};
use crate::{Progress, Silent, engine::engine};
use replab_workloads::rounds;

pub use crate::datasets::WAC018;
/// The paper's Figure 1: White draws by perpetual check (Qh6+).
pub const FIGURE1: &str = "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1";
/// Diep–Axon before 38…Nxe3+ (the paper's Figure 4), Black to move.
pub const DIEP_AXON: &str = "5k2/RQ5p/1p2p3/3n2p1/6p1/4P3/P4PKP/2q5 b - - 4 38";

/// The deepest iteration allowed (the paper went to 12).
pub const MAX_DEPTH: u32 = 20;
/// The most runs per WAC.018 configuration allowed.
pub const MAX_REPEAT: u32 = 100;

/// The clock behind the overheads: wall time summed over the iterations, as the searcher
/// reports it. (Thread CPU time would leave out the waits for a core, but
/// `/proc/thread-self/schedstat` advances only in scheduler ticks, 4 ms here, too coarse for
/// 40 ms searches, and `clock_gettime` needs a foreign call the workspace does not allow.)
pub const OVERHEAD_CLOCK: &str = "wall time, all iterations";

/// The searcher profiles `--profile` accepts ([`SearchConfig::PROFILE_NAMES`]).
pub const PROFILES: [&str; 2] = SearchConfig::PROFILE_NAMES;

/// The detector whose overhead is measured to [`Config::overhead_target`].
pub const ADAPTIVE_DETECTOR: DetectorId = DetectorId::reference();

/// The settings of `replab reproduce axon`, each declared on its field: the doc comment is its
/// help. Round `r` of the WAC.018 configurations searches every configuration once; with an
/// overhead target, paired (off, [`ADAPTIVE_DETECTOR`]) rounds of the whole search are added
/// after the fixed ones until the overhead interval is that narrow or a cap is hit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// Deepest iteration in plies ({range}); the paper went to 12.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub max_depth: u32,
    /// Search each WAC.018 configuration this many times in interleaved rounds ({range}); times
    /// are the median with a 95% interval (the runs' counters must agree).
    #[arg(long, value_name = "K")]
    #[setting(range = 1..=MAX_REPEAT)]
    pub repeat: u32,
    /// Paired rounds at the edge: a time change whose interval does not clear zero by the
    /// timing's resolution is timed again, a paired round at a time, up to this many times the
    /// fixed rounds ({range}; 1 adds none and gives such a change as within ±x% at once).
    #[arg(long, value_name = "K")]
    #[setting(range = 1..=10)]
    #[serde(default = "crate::resolution::default_factor")]
    pub edge_factor: usize,
    /// Cap on the wall time of the rounds added at the edge, seconds ({range}): no round is
    /// begun after it once nine rounds, the settled count, were taken, and a change still at
    /// the edge is given as within ±x%.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    #[setting(range = 0.0..=3600.0)]
    #[serde(default = "crate::resolution::default_edge_seconds")]
    pub edge_max_seconds: f64,
    /// The smallest resolution of a timed change, a fraction ({range}): a time change gives a
    /// direction only when its interval clears 0 by this (or by its half-width, if larger).
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    #[setting(range = 0.01..=10.0)]
    #[serde(default = "crate::resolution::default_floor")]
    pub time_resolution: f64,
    /// Measure linear's overhead (NPS off / NPS linear) to this half-width, a fraction ({range};
    /// 0.01 = ±1 percentage point), adding paired rounds after the fixed ones; 0 turns this off.
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    #[setting(range = 0.0..=0.5)]
    pub overhead_target: f64,
    /// Cap on the paired rounds behind linear's overhead (fixed rounds included).
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=100_000)]
    pub overhead_max_rounds: u32,
    /// Cap on the wall time of the added rounds, seconds.
    #[arg(
        long,
        value_name = "S",
        value_parser = super::parse_seconds,
        allow_negative_numbers = true
    )]
    pub overhead_max_seconds: f64,
    /// Searcher profile: `default` (replab's searcher) or `axon-like` (set up as closely as the
    /// paper describes Axon; every choice it leaves open is listed on the page).
    #[arg(
        long,
        value_name = "NAME",
        value_parser = clap::builder::PossibleValuesParser::new(PROFILES)
    )]
    pub profile: String,
    /// The command line that regenerates the report (in `meta`).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
    /// The replab binary, to count instructions per node under valgrind (`measure` in a child
    /// process); `None`: no instruction counts (`overhead_instructions` stays `null`).
    #[arg(skip)]
    #[serde(skip)]
    pub exe: Option<std::path::PathBuf>,
    /// Instruction counts measured elsewhere (`bench`'s own step hands them over, [`Axon`]'s
    /// [`Takes`](crate::experiment::Takes)), used when `exe` is `None`.
    #[arg(skip)]
    #[serde(skip)]
    pub instructions: Option<crate::callgrind::InstructionCosts>,
}

impl Default for Config {
    /// The command line's defaults (the full run): depth 12, 21 rounds, linear's overhead to
    /// ±1 percentage point within 2,000 rounds or 30 s (four full benches of 2026-11-29: the
    /// target was met within the fixed rounds once; three times 1,236 to 1,370 rounds in 120 s
    /// left it at ±2.1 to ±3.5 points, out of reach within any cap a bench of 20 minutes can
    /// afford).
    fn default() -> Self {
        Self {
            max_depth: 12,
            repeat: 21,
            edge_factor: crate::resolution::EDGE_ROUNDS_FACTOR,
            edge_max_seconds: crate::resolution::EDGE_SECONDS,
            time_resolution: crate::resolution::TIME_RESOLUTION,
            overhead_target: 0.01,
            overhead_max_rounds: 2_000,
            overhead_max_seconds: 30.0,
            profile: "default".to_string(),
            command: String::new(),
            exe: None,
            instructions: None,
        }
    }
}

impl Config {
    /// The quick run's settings (`bench --quick`): depth 9, six rounds (the fewest whose
    /// median interval reaches 95%: 96.9%), no adaptive target, no rounds added at the edge.
    pub fn quick() -> Self {
        Self {
            max_depth: 9,
            repeat: 6,
            edge_factor: 1,
            time_resolution: crate::resolution::SHORT_RUN_RESOLUTION,
            overhead_target: 0.0,
            ..Self::default()
        }
    }
}

/// The detectors whose instructions per node are counted: every configuration but `off`
/// (the baseline every count is relative to).
fn names_for_instructions(policy: DrawPolicy) -> Vec<&'static str> {
    configurations(policy)
        .into_iter()
        .filter(|n| *n != "off")
        .collect()
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

/// The id of `name`, a configuration of [`configurations`] (registry names and `off`).
fn registered(name: &str) -> DetectorId {
    name.parse().expect("a configuration is a registry name")
}

/// One iteration's record: scores turned to White's view, moves to UCI and SAN.
fn record(detector: &str, policy: DrawPolicy, root: &Position, it: &Iteration) -> Run {
    let white = match root.side_to_move() {
        Color::White => it.score,
        Color::Black => it.score.flip(),
    };
    Run {
        detector: registered(detector),
        policy: policy.name().to_string(),
        depth: it.depth,
        best_move: it.best_move.map_or("-".into(), |m| m.uci().to_string()),
        best_move_san: it.best_move.map_or("-".into(), |m| root.san(m)),
        eval_cp: white.value(),
        mate: white.mate_in(),
        counters: it.counters,
        time_ms: Estimate::single(it.time_ms),
        nps: Estimate::single(it.nps()),
        pv: it.pv.iter().map(|m| m.uci().to_string()).collect(),
    }
}

/// Everything a rerun must reproduce exactly (all but the time).
fn signature(run: &Run) -> (u32, &str, i32, Counters) {
    (run.depth, &run.best_move, run.eval_cp, run.counters)
}

/// The Diep–Axon game up to the position before 38…Nxe3+: positions and moves.
fn diep_axon_history() -> Result<(Vec<Position>, Vec<Move>)> {
    let mut reader = PgnReader::new(crate::datasets::DIEP_AXON.text.as_bytes());
    let game = reader
        .next_game()
        .map_err(|e| anyhow!("{}: {e}", crate::datasets::DIEP_AXON.path))?
        .with_context(|| format!("{} holds no game", crate::datasets::DIEP_AXON.path))?;
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
    let tables = crate::datasets::AXON_TABLES;
    let typed_in: Value = serde_json::from_str(tables.text).context(tables.path)?;
    let record = serde_json::json!({
        "off": typed_in["off"],
        "on": typed_in["on"],
        "totals": typed_in["totals"],
        "source": typed_in["source"],
    });
    PaperRecord::new(record).context(tables.path)
}

/// One configuration's WAC.018 measurement.
struct Measured {
    /// The configuration's name.
    name: &'static str,
    /// The first round's runs (every round must give the same counters).
    runs: Vec<Run>,
    /// Per depth (index `depth − 1`), the iteration's time in every fixed round, ms.
    times: Vec<Vec<f64>>,
    /// Per fixed round, the whole search's time (all depths), ms.
    totals: Vec<f64>,

    /// Bytes the detector's structures use.
    bytes: usize,
    /// For the adaptive detector: `(off, this)` whole-search times of the added paired rounds.
    extra: Vec<(f64, f64)>,
}

impl Measured {
    fn new(name: &'static str) -> Self {
        Self {
            name,
            runs: Vec::new(),
            times: Vec::new(),
            totals: Vec::new(),

            bytes: 0,
            extra: Vec::new(),
        }
    }

    /// Checks one round's search against the first round's counters; returns its whole time.
    fn check(&mut self, runs: &[Run], round: usize) -> Result<f64> {
        if self.runs.is_empty() {
            self.times = vec![Vec::new(); runs.len()];
            self.runs = runs.to_vec();
        }
        ensure!(
            runs.len() == self.runs.len(),
            "{}: round {} searched {} depths, round 1 {}",
            self.name,
            round + 1,
            runs.len(),
            self.runs.len()
        );
        for (k, r) in self.runs.iter().zip(runs) {
            ensure!(
                signature(k) == signature(r),
                "{}: round {} differs from round 1 at depth {} (the search must be deterministic)",
                self.name,
                round + 1,
                r.depth
            );
        }
        Ok(runs.iter().map(|r| r.time_ms.value).sum())
    }

    /// Records a fixed round: checks it and keeps its times.
    fn add_fixed(&mut self, runs: &[Run], round: usize) -> Result<f64> {
        let total = self.check(runs, round)?;
        for (slot, r) in self.times.iter_mut().zip(runs) {
            slot.push(r.time_ms.value);
        }
        self.totals.push(total);

        Ok(total)
    }

    /// The runs with their median times and intervals.
    fn timed_runs(&self) -> Vec<Run> {
        self.runs
            .iter()
            .zip(&self.times)
            .map(|(run, times)| {
                let e = median_ci(times);
                Run {
                    time_ms: e,
                    nps: e.map(|ms| nps(run.counters.nodes, ms)),
                    ..run.clone()
                }
            })
            .collect()
    }

    /// Nodes over all depths.
    fn nodes(&self) -> u64 {
        self.runs.iter().map(|r| r.counters.nodes).sum()
    }
}

/// Nodes per second from a node count and milliseconds (0 for no time).
fn nps(nodes: u64, ms: f64) -> f64 {
    if ms > 0.0 {
        nodes as f64 * 1000.0 / ms
    } else {
        0.0
    }
}

/// `a / b`, with `b` kept away from zero (a timer may read 0 for a tiny search).
fn ratio(a: f64, b: f64) -> f64 {
    a / b.max(1e-9)
}

/// Per paired round, time(this) / time(off) of the whole search: the fixed rounds, then the
/// added ones.
fn time_ratios(off: &Measured, this: &Measured) -> Vec<f64> {
    off.totals
        .iter()
        .zip(&this.totals)
        .map(|(o, t)| ratio(*t, *o))
        .chain(this.extra.iter().map(|(o, t)| ratio(*t, *o)))
        .collect()
}

/// NPS(off) / NPS(this) per paired round: the time ratio scaled by the (exact) node counts.
fn overhead_samples(off: &Measured, this: &Measured) -> Vec<f64> {
    let scale = ratio(off.nodes() as f64, this.nodes() as f64);
    time_ratios(off, this)
        .into_iter()
        .map(|r| r * scale)
        .collect()
}

/// Totals per configuration, `off` first (the first of `measured`).
fn summarise(measured: &[Measured], runs: &[Run]) -> Vec<Summary> {
    let off = &measured[0];
    let off_counters = totals_of(runs, off.name);
    let change = |x: f64, base: f64| if base > 0.0 { x / base - 1.0 } else { 0.0 };
    let count_change = |x: u64, base: u64| change(x as f64, base as f64);
    measured
        .iter()
        .map(|m| {
            let c = totals_of(runs, m.name);
            let time = median_ci(&m.totals);
            let (overhead, time_change) = if m.name == off.name {
                let one = Estimate {
                    interval: Interval {
                        n: time.interval.n,
                        ..Interval::exact(1.0)
                    },
                    ..Estimate::exact(1.0)
                };
                (one, one.map(|x| x - 1.0))
            } else {
                (
                    median_ci(&overhead_samples(off, m)),
                    median_ci(&time_ratios(off, m)).map(|x| x - 1.0),
                )
            };
            let last = m.runs.last();
            Summary {
                detector: registered(m.name),
                counters: c,
                time_ms: time,
                nps: time.map(|ms| nps(c.nodes, ms)),
                overhead,
                overhead_instructions: None,
                nodes_change: count_change(c.nodes, off_counters.nodes),
                terminal_nodes_change: count_change(c.terminal_nodes, off_counters.terminal_nodes),
                generated_change: count_change(c.generated, off_counters.generated),
                time_change,
                final_best_move: last.map_or("-".into(), |r| r.best_move.clone()),
                final_eval_cp: last.map_or(0, |r| r.eval_cp),
                memory_bytes: m.bytes,
            }
        })
        .collect()
}

/// The counters of configuration `name` summed over its runs.
fn totals_of(runs: &[Run], name: &str) -> Counters {
    let mut c = Counters::default();
    for r in runs_of(runs, name) {
        c += r.counters;
    }
    c
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

/// Runs the experiment: WAC.018 with detection off and every search detector in `repeat`
/// interleaved rounds (times: the median with its 95% interval), then, with an
/// [`overhead_target`](Config::overhead_target), paired (off, linear) rounds until linear's
/// overhead interval is narrow enough; then Figure 1 and Diep–Axon once per configuration.
/// Progress: one stage per position (and one for the added rounds), one unit per iteration
/// (per paired round for the added rounds).
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let paper = paper_record()?;
    let cases_in = further_cases()?;
    let meta = Meta::collect(&config.command);
    let search = config.search()?;
    let policy = search.policy;
    let names = configurations(policy);
    let per_search = u64::from(config.max_depth) * names.len() as u64;

    // WAC.018: every configuration once per round, `repeat` rounds. Each configuration keeps its
    // searcher, so later rounds do not pay for first-touch page faults.
    progress.stage("WAC.018", per_search * u64::from(config.repeat));
    let mut wac = Wac018::new(&names, search)?;
    wac.fixed_rounds(config.repeat as usize, progress)?;
    let adaptive = wac.adaptive(config, progress)?;
    wac.edge_rounds(config.repeat as usize, config.edge_limits(), progress)?;
    let measured = wac.into_measured();
    let runs: Vec<Run> = measured.iter().flat_map(Measured::timed_runs).collect();
    let mut summary = summarise(&measured, &runs);
    let cases = further_runs(cases_in, &names, search, per_search, progress)?;
    let instructions_depth = if let Some(exe) = &config.exe {
        let depth = search.max_depth.min(crate::callgrind::DEFAULT_DEPTH);
        instructions(exe, policy, depth, &mut summary, progress)?
    } else if let Some(costs) = &config.instructions {
        for s in &mut summary {
            s.overhead_instructions = costs.overhead(s.detector.name());
        }
        costs.search.first().map(|s| s.depth)
    } else {
        None
    };
    let floor = config.time_resolution;
    let claims = claims(&summary, paper.tables(), search.max_depth, floor);
    let verdict = verdict(&summary, paper.tables(), &claims, instructions_depth, floor);
    let comparison = comparison(&runs, paper.tables());
    progress.finish();

    Ok(Results {
        position: WAC018.to_string(),
        meta,
        seed: None,
        config: config.setup(search),
        paper,
        runs,
        summary,
        comparison,
        overhead_adaptive: adaptive,
        instructions_depth,
        claims,
        verdict,
        cases,
    })
}

impl Configuration for Config {
    fn quick() -> Self {
        Config::quick()
    }

    /// The short run to depth 6.
    fn smoke() -> Self {
        Config {
            max_depth: 6,
            ..Config::quick()
        }
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }

    /// Refuses settings out of range (a fraction for the overhead target), a time cap that is
    /// not a number of seconds and an unknown profile, naming the setting: the only validator.
    fn check(&self) -> Result<()> {
        self.check_ranges()?;
        ensure!(
            self.overhead_max_seconds >= 0.0 && self.overhead_max_seconds.is_finite(),
            "{} {} is not a number of seconds",
            Config::OVERHEAD_MAX_SECONDS,
            self.overhead_max_seconds
        );
        self.search().map(|_| ())
    }
}

impl Config {
    /// How far the rounds at the edge go: the edge factor, the time resolution and the edge's
    /// seconds.
    fn edge_limits(&self) -> resolution::EdgeLimits {
        resolution::EdgeLimits::new(self.edge_factor, self.time_resolution)
            .within(self.edge_max_seconds)
    }

    /// The searcher's settings: the named profile, searched to `max_depth`.
    fn search(&self) -> Result<SearchConfig> {
        let Some(profile) = SearchConfig::profile(&self.profile) else {
            anyhow::bail!(
                "{} {}: unknown searcher profile (known: {})",
                Config::PROFILE,
                self.profile,
                SearchConfig::PROFILE_NAMES.join(", ")
            );
        };
        Ok(SearchConfig {
            max_depth: self.max_depth,
            ..profile
        })
    }

    /// The settings of a run searched with `search`, and what it searched with.
    fn setup(&self, search: SearchConfig) -> Setup {
        let policy = search.policy;
        Setup {
            settings: self.clone(),
            search,
            policy: policy.name().to_string(),
            contempt: search.contempt,
            null_move: search.null_move,
            null_reduction: search.null_reduction,
            tt_bits: search.tt_bits,
            check_extension: search.check_extension,
            qsearch_checks: search.qsearch_checks,
            node_limit: search.node_limit,
            cuckoo_root_rule: policy.root_rule().name().to_string(),
            time_ci_coverage: median_coverage(self.repeat as usize),
            overhead_clock: OVERHEAD_CLOCK.to_string(),
        }
    }
}

/// The WAC.018 measurement under way: one searcher per configuration, kept across rounds, and
/// each configuration's measurement so far.
struct Wac018 {
    /// The configurations' names.
    names: Vec<&'static str>,
    /// The draw policy searched under.
    policy: DrawPolicy,
    /// WAC.018.
    root: Position,
    /// One searcher per configuration.
    engines: Vec<Box<dyn DynSearch>>,
    /// One measurement per configuration.
    measured: Vec<Measured>,
}

impl Wac018 {
    /// A searcher and an empty measurement for every configuration of `names`.
    fn new(names: &[&'static str], search: SearchConfig) -> Result<Self> {
        let root = Position::from_fen(WAC018).expect("WAC.018 FEN is valid");
        let engines = names
            .iter()
            .map(|name| engine(name, search))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            names: names.to_vec(),
            policy: search.policy,
            root,
            engines,
            measured: names.iter().map(|n| Measured::new(n)).collect(),
        })
    }

    /// Searches WAC.018 once with configuration `i`; one record per iteration.
    fn search_once(&mut self, i: usize, progress: &mut dyn Progress) -> Vec<Run> {
        let iterations = self.engines[i]
            .search_game_with(&[self.root], &[], &mut |_| progress.advance(1))
            .iterations;
        iterations
            .iter()
            .map(|it| record(self.names[i], self.policy, &self.root, it))
            .collect()
    }

    /// The fixed rounds: every configuration once per round, `repeat` rounds, interleaved; the
    /// first failed check ends them with its error.
    fn fixed_rounds(&mut self, repeat: usize, progress: &mut dyn Progress) -> Result<()> {
        rounds::interleaved(self.names.len(), repeat, |i, round| {
            let runs = self.search_once(i, progress);
            self.measured[i].add_fixed(&runs, round)
        })?;
        Ok(())
    }

    /// Linear's overhead to the target: paired rounds of the whole search (all depths, the
    /// quantity the fixed rounds measure), off and linear in alternating order. `None` when the
    /// target is 0 (or without the adaptive detector among the configurations).
    fn adaptive(
        &mut self,
        config: &Config,
        progress: &mut dyn Progress,
    ) -> Result<Option<Adaptive>> {
        let li = self
            .names
            .iter()
            .position(|n| *n == ADAPTIVE_DETECTOR.name());
        let target = config.overhead_target;
        let Some(li) = li.filter(|_| target > 0.0) else {
            return Ok(None);
        };
        let cap = config.overhead_max_rounds as usize;
        progress.stage(
            &format!("{ADAPTIVE_DETECTOR} overhead to ±{:.1} pp", target * 100.0),
            cap.saturating_sub(config.repeat as usize) as u64,
        );
        let start = Instant::now();
        let stopped = self.paired_rounds(config, target, li, start, progress)?;
        let samples = overhead_samples(&self.measured[0], &self.measured[li]);
        let e = median_ci(&samples);
        Ok(Some(Adaptive {
            detector: ADAPTIVE_DETECTOR,
            target,
            rounds: samples.len(),
            extra_rounds: self.measured[li].extra.len(),
            half_width: (e.interval.hi - e.interval.lo) / 2.0,
            seconds: Estimate::single(start.elapsed().as_secs_f64()),
            stopped: stopped.to_string(),
        }))
    }

    /// Adds paired (off, configuration `li`) rounds until the overhead's half-width reaches
    /// `target` or a cap (rounds, seconds since `start`) is hit; returns what stopped them.
    fn paired_rounds(
        &mut self,
        config: &Config,
        target: f64,
        li: usize,
        start: Instant,
        progress: &mut dyn Progress,
    ) -> Result<&'static str> {
        let cap = config.overhead_max_rounds as usize;
        let mut next_check = 0;
        loop {
            let samples = overhead_samples(&self.measured[0], &self.measured[li]);
            if samples.len() >= next_check {
                let hw = median_ci(&samples).interval;
                if (hw.hi - hw.lo) / 2.0 <= target {
                    return Ok("target");
                }
                next_check = samples.len() + (samples.len() / 20).max(5);
            }
            if samples.len() >= cap {
                return Ok("rounds cap");
            }
            if start.elapsed().as_secs_f64() >= config.overhead_max_seconds {
                return Ok("time cap");
            }
            let round = samples.len();
            let order = if round.is_multiple_of(2) {
                [0, li]
            } else {
                [li, 0]
            };
            let mut t = [0.0; 2];
            for i in order {
                let runs = self.search_once(i, &mut Silent);
                t[usize::from(i == li)] = self.measured[i].check(&runs, round)?;
            }
            self.measured[li].extra.push((t[0], t[1]));
            progress.advance(1);
        }
    }

    /// The time change of configuration `i` against `off` (the first) from every paired round
    /// so far: the median of time(this) / time(off) − 1, with its interval.
    fn time_change(&self, i: usize) -> Estimate {
        median_ci(&time_ratios(&self.measured[0], &self.measured[i])).map(|x| x - 1.0)
    }

    /// Paired rounds at the edge ([`resolution::edge_rounds`]): while the time change of a
    /// configuration against `off` sits at the edge, one more round of `off` and every such
    /// configuration (in an order rotated each round) whose rounds are still under
    /// [`resolution::round_cap`] of the `repeat` fixed rounds and the limits' factor. Progress:
    /// one stage, one unit per round.
    fn edge_rounds(
        &mut self,
        repeat: usize,
        limits: resolution::EdgeLimits,
        progress: &mut dyn Progress,
    ) -> Result<usize> {
        let others = self.names.len() - 1;
        let cap = resolution::round_cap(repeat, limits.factor);
        if cap <= repeat {
            return Ok(0);
        }
        progress.stage("WAC.018 at the edge", (cap - repeat) as u64);
        resolution::edge_rounds(
            repeat,
            limits,
            self,
            |w| (1..=others).map(|i| w.time_change(i)).collect(),
            |w, edge| {
                // A configuration whose rounds already reach the cap (linear, when its
                // adaptive overhead rounds reached it) gets no more.
                let configs: Vec<usize> = std::iter::once(0)
                    .chain(
                        edge.iter()
                            .map(|e| e + 1)
                            .filter(|&i| time_ratios(&w.measured[0], &w.measured[i]).len() < cap),
                    )
                    .collect();
                if configs.len() > 1 {
                    w.paired_round(&configs)?;
                }
                progress.advance(1);
                Ok(())
            },
        )
    }

    /// One paired round of `configs` (`off`, the first, and the others), each searched once in
    /// an order rotated by the round; each other's `(off, this)` whole-search times are kept
    /// beside its fixed rounds.
    fn paired_round(&mut self, configs: &[usize]) -> Result<()> {
        let round = self.measured[configs[1]].extra.len();
        let mut times = vec![0.0; configs.len()];
        for k in (0..configs.len()).map(|k| (k + round) % configs.len()) {
            let runs = self.search_once(configs[k], &mut Silent);
            let this = &mut self.measured[configs[k]];
            let number = this.totals.len() + this.extra.len();
            times[k] = this.check(&runs, number)?;
        }
        for (k, &i) in configs.iter().enumerate().skip(1) {
            self.measured[i].extra.push((times[0], times[k]));
        }
        Ok(())
    }

    /// The measurements, with each configuration's detector bytes; the searchers are dropped.
    fn into_measured(self) -> Vec<Measured> {
        let mut measured = self.measured;
        for (m, e) in measured.iter_mut().zip(&self.engines) {
            m.bytes = e.detector_bytes();
        }
        measured
    }
}

/// The two further cases: once per configuration of `names` (single times), one progress stage
/// each.
fn further_runs(
    cases_in: Vec<FurtherCase>,
    names: &[&'static str],
    search: SearchConfig,
    per_search: u64,
    progress: &mut dyn Progress,
) -> Result<Vec<Case>> {
    let policy = search.policy;
    let mut cases = Vec::new();
    for (id, title, positions, moves, note) in cases_in {
        progress.stage(title.split([':', ',']).next().unwrap_or(title), per_search);
        let root = *positions.last().expect("non-empty");
        let mut runs = Vec::new();
        for name in names {
            let iterations = engine(name, search)?
                .search_game_with(&positions, &moves, &mut |_| progress.advance(1))
                .iterations;
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
    Ok(cases)
}

/// Each detector's overhead in instructions per node, counted under valgrind with the replab
/// binary `exe` in searches to `depth` (the run's own, up to [`crate::callgrind::DEFAULT_DEPTH`]:
/// deeper is slow under valgrind), into the summary; returns the depth of the counted searches
/// (`None` without valgrind).
fn instructions(
    exe: &std::path::Path,
    policy: DrawPolicy,
    depth: u32,
    summary: &mut [Summary],
    progress: &mut dyn Progress,
) -> Result<Option<u32>> {
    let plan = crate::callgrind::Plan {
        depth,
        runs: &[],
        cycles: crate::callgrind::CYCLES,
    };
    let costs = crate::callgrind::measure(exe, &names_for_instructions(policy), &plan, progress)?;
    for s in summary {
        s.overhead_instructions = costs.overhead(s.detector.name());
    }
    Ok(costs.search.first().map(|s| s.depth))
}
