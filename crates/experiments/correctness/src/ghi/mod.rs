//! Graph-history interaction (`replab ghi`): path-dependent scores — repetition draws and
//! fifty-move draws — stored in the transposition table and reused where the position is
//! reached by another path.
//!
//! Positions with game histories (the repetition suite; positions from the games in
//! `datasets/games/*.pgn` late in reversible sequences; seeded endgames with long reversible
//! histories, halfmove clocks 90–99) are searched to one depth with the table as engines use it
//! (`TtMode::On`) and with the path-safe reference (`TtMode::NoPathScores`: a score whose subtree
//! scored a path-dependent draw is never stored, so no cut-off reuses one). A position whose
//! root score or best move differs is classified by ablation: searched again withholding only
//! repetition-tainted scores (`TtMode::NoRepetitionScores`) and only fifty-move-tainted ones
//! (`TtMode::NoFiftyScores`); the cause is the kind whose removal alone restores the
//! reference. The searcher's taint bits and tainted cut-off counters (`TableStats`) are the
//! evidence that reuse happened. The engines' mitigations are measured the same way against
//! the reference. [`run`] searches, [`write`] writes `results.json`, `examples.pgn`, a chart and
//! `index.html`.

mod config;
mod page;
mod positions;

use std::path::Path;

use anyhow::{Result, anyhow};
use replab_board::{Move, Position};
use replab_registry::{DetectorId, with_detector};
use replab_report::{Meta, ReportDir, fmt_delta_pct, fmt_int};
use replab_search::{DynSearch, SearchConfig, SearchResult, TableStats, TtMode};
use serde::{Deserialize, Serialize};

pub use config::{Config, MAX_DEPTH};
pub use positions::{GamePosition, positions};

use crate::contribution::Phrase;
use crate::experiment::{Conclusion, Configuration, Experiment, Headline};
use crate::{
    Progress,
    engine::{Done, parallel},
};

/// The page title.
pub const TITLE: &str = "Graph-history interaction: path-dependent draws reused from the table";

/// The detector of every search.
pub const DETECTOR: DetectorId = DetectorId::reference();

/// One table configuration: a name and how it differs from the default searcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// Its name (`on`, `reference`, `no-draw-scores`, `cutoff-clock-90`, …).
    pub name: &'static str,
    /// What it is.
    pub what: &'static str,
    /// Table mode.
    pub tt_mode: TtMode,
    /// No cut-offs from this halfmove clock on.
    pub tt_cutoff_halfmove: Option<u16>,
    /// Halfmove-clock bucket width mixed into the key.
    pub tt_halfmove_bucket: Option<u16>,
}

const fn mode(name: &'static str, what: &'static str, tt_mode: TtMode) -> Mode {
    Mode {
        name,
        what,
        tt_mode,
        tt_cutoff_halfmove: None,
        tt_halfmove_bucket: None,
    }
}

/// The modes searched for every position: the engines' table, the reference, the mitigations.
pub const MODES: [Mode; 6] = [
    mode(
        "on",
        "the table as engines use it: every score stored, any may cut off",
        TtMode::On,
    ),
    mode(
        "reference",
        "path-safe reference: scores whose subtree scored a path-dependent draw are never stored",
        TtMode::NoPathScores,
    ),
    mode(
        "no-draw-scores",
        "mitigation: a score equal to the draw score is never stored",
        TtMode::NoDrawScores,
    ),
    Mode {
        tt_cutoff_halfmove: Some(90),
        ..mode(
            "cutoff-clock-90",
            "mitigation: no table cut-off at halfmove clock ≥ 90 (Stockfish's remedy, its older threshold)",
            TtMode::On,
        )
    },
    Mode {
        tt_cutoff_halfmove: Some(96),
        ..mode(
            "cutoff-clock-96",
            "mitigation: no table cut-off at halfmove clock ≥ 96 (Stockfish's current threshold)",
            TtMode::On,
        )
    },
    Mode {
        tt_halfmove_bucket: Some(8),
        ..mode(
            "clock-bucket-8",
            "mitigation: the halfmove clock in buckets of 8 mixed into the table key",
            TtMode::On,
        )
    },
];

/// The two ablations, searched for positions where `on` differs from the reference.
pub const ABLATIONS: [Mode; 2] = [
    mode(
        "no-repetition-scores",
        "ablation: repetition-tainted scores are never stored",
        TtMode::NoRepetitionScores,
    ),
    mode(
        "no-fifty-scores",
        "ablation: fifty-move-tainted scores are never stored",
        TtMode::NoFiftyScores,
    ),
];

/// A mode as recorded in `results.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ModeRecord {
    /// Its name.
    pub name: String,
    /// What it is.
    pub what: String,
    /// Table mode.
    pub tt_mode: TtMode,
    /// No cut-offs from this halfmove clock on.
    pub tt_cutoff_halfmove: Option<u16>,
    /// Halfmove-clock bucket width mixed into the key.
    pub tt_halfmove_bucket: Option<u16>,
}

impl From<&Mode> for ModeRecord {
    fn from(m: &Mode) -> ModeRecord {
        ModeRecord {
            name: m.name.into(),
            what: m.what.into(),
            tt_mode: m.tt_mode,
            tt_cutoff_halfmove: m.tt_cutoff_halfmove,
            tt_halfmove_bucket: m.tt_halfmove_bucket,
        }
    }
}

/// What one search found.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Outcome {
    /// Root score, side to move's view (cp).
    pub score_cp: i32,
    /// Best move (UCI), `-` for none.
    pub best_move: String,
    /// Nodes, all iterations.
    pub nodes: u64,
    /// Table cut-offs taken.
    pub cutoffs: u64,
    /// Cut-offs from repetition-tainted entries.
    pub repetition_tainted_cutoffs: u64,
    /// Cut-offs from fifty-move-tainted entries.
    pub fifty_tainted_cutoffs: u64,
    /// Results stored without their score.
    pub withheld: u64,
}

impl Outcome {
    fn of(res: &SearchResult, t: TableStats) -> Outcome {
        Outcome {
            score_cp: res.score().map_or(0, |s| s.0),
            best_move: res
                .best_move()
                .map_or_else(|| "-".into(), |m| m.uci().to_string()),
            nodes: res.totals().nodes,
            cutoffs: t.cutoffs,
            repetition_tainted_cutoffs: t.repetition_tainted_cutoffs,
            fifty_tainted_cutoffs: t.fifty_tainted_cutoffs,
            withheld: t.withheld,
        }
    }

    /// Whether the root score or best move differs from `other`'s.
    pub fn differs(&self, other: &Outcome) -> bool {
        self.score_cp != other.score_cp || self.best_move != other.best_move
    }
}

/// Why `on` differs from the reference.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// Withholding repetition-tainted scores alone restores the reference; withholding
    /// fifty-move-tainted ones alone does not.
    Repetition,
    /// Withholding fifty-move-tainted scores alone restores the reference; the other does not.
    FiftyMove,
    /// Both kinds are involved: either removal alone restores it, or only both together.
    Both,
    /// No cut-off from a tainted entry happened: not a reused path-dependent draw.
    Other,
}

impl Cause {
    /// Every cause, in report order.
    pub const ALL: [Cause; 4] = [
        Cause::Repetition,
        Cause::FiftyMove,
        Cause::Both,
        Cause::Other,
    ];

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Repetition => "repetition draw reused",
            Cause::FiftyMove => "fifty-move draw reused",
            Cause::Both => "both kinds",
            Cause::Other => "other",
        }
    }
}

/// One position: its origin and every mode's outcome.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PositionResult {
    /// `repetition`, `games` or `long`.
    pub set: String,
    /// Its id.
    pub id: String,
    /// Game plies before the root.
    pub history_plies: usize,
    /// Halfmove clock at the root.
    pub halfmove_clock: u32,
    /// Outcome per mode, in [`MODES`] order.
    pub outcomes: Vec<Outcome>,
    /// The ablations' outcomes (only when `on` differs from the reference).
    pub ablations: Vec<Outcome>,
    /// The cause, when `on` differs from the reference.
    pub cause: Option<Cause>,
}

/// A mode's totals over a set.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ModeTotal {
    /// The set (`all` for every position).
    pub set: String,
    /// The mode.
    pub mode: String,
    /// Positions.
    pub positions: usize,
    /// Positions whose root score or best move differs from the reference's.
    pub differ: usize,
    /// Of which the score differs.
    pub score_differs: usize,
    /// Nodes summed.
    pub nodes: u64,
    /// Nodes against the reference (relative change).
    pub nodes_vs_reference: f64,
    /// Nodes against `on`.
    pub nodes_vs_on: f64,
    /// Cut-offs from tainted entries (either kind), summed.
    pub tainted_cutoffs: u64,
}

/// The shortest example of a cause, as PGN.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Example {
    /// The cause.
    pub cause: Cause,
    /// The position's id.
    pub id: String,
    /// History plies kept.
    pub history_plies: usize,
    /// The smallest depth that shows it.
    pub depth: u32,
    /// `on`'s outcome and the reference's.
    pub on: Outcome,
    /// The reference's outcome.
    pub reference: Outcome,
    /// The PGN game (FEN/SetUp tags, the history, a comment with both results).
    pub pgn: String,
}

/// The settings as recorded: the run's [`Config`] and what it derives from them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Setup {
    /// The settings, their fields beside the two below in JSON.
    #[serde(flatten)]
    pub settings: Config,
    /// Detector.
    pub detector: DetectorId,
    /// Searcher settings (table mode and clock options per mode).
    pub search: SearchConfig,
}

/// Everything `replab ghi` measured.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Results {
    /// Provenance.
    pub meta: Meta,
    /// Settings.
    pub config: Setup,
    /// The modes, in outcome order.
    pub modes: Vec<ModeRecord>,
    /// Every position.
    pub positions: Vec<PositionResult>,
    /// Totals per set and mode (sets `repetition`, `games`, `long`, `all`).
    pub totals: Vec<ModeTotal>,
    /// Differences by set and cause: `(set, cause, count)`.
    pub causes: Vec<(String, Cause, usize)>,
    /// The shortest example of each cause found.
    pub examples: Vec<Example>,
}

/// The searcher settings of `mode`.
pub fn search_config(config: &Config, depth: u32, mode: &Mode) -> SearchConfig {
    SearchConfig {
        max_depth: depth,
        policy: config.policy,
        tt_mode: mode.tt_mode,
        tt_cutoff_halfmove: mode.tt_cutoff_halfmove,
        tt_halfmove_bucket: mode.tt_halfmove_bucket,
        ..SearchConfig::default()
    }
}

fn engine(config: &Config, depth: u32, mode: &Mode) -> Result<Box<dyn DynSearch>> {
    let search = search_config(config, depth, mode);
    with_detector!(DETECTOR.name(), search.policy, |d| {
        replab_search::boxed(d, search).map_err(|e| anyhow!("{e}"))
    })
    .map_err(|e| anyhow!(e))?
}

/// Searches one game with one mode.
fn outcome(
    config: &Config,
    depth: u32,
    mode: &Mode,
    positions: &[Position],
    moves: &[Move],
) -> Result<Outcome> {
    let mut e = engine(config, depth, mode)?;
    let r = e.search_game(positions, moves);
    Ok(Outcome::of(&r, e.table_stats()))
}

/// The cause of a difference between `on` and the reference, from the ablations.
pub fn classify(on: &Outcome, reference: &Outcome, ablations: &[Outcome]) -> Cause {
    if on.repetition_tainted_cutoffs + on.fifty_tainted_cutoffs == 0 {
        return Cause::Other;
    }
    let rep_fixes = !ablations[0].differs(reference);
    let fifty_fixes = !ablations[1].differs(reference);
    match (rep_fixes, fifty_fixes) {
        (true, false) => Cause::Repetition,
        (false, true) => Cause::FiftyMove,
        _ => Cause::Both,
    }
}

/// Searches a game with `on`, the reference and (if they differ) the ablations, returning the
/// cause (`None` when they agree) and the two outcomes.
pub fn diagnose(
    config: &Config,
    depth: u32,
    positions: &[Position],
    moves: &[Move],
) -> Result<(Option<Cause>, Outcome, Outcome)> {
    let on = outcome(config, depth, &MODES[0], positions, moves)?;
    let reference = outcome(config, depth, &MODES[1], positions, moves)?;
    if !on.differs(&reference) {
        return Ok((None, on, reference));
    }
    let ablations = ABLATIONS
        .iter()
        .map(|m| outcome(config, depth, m, positions, moves))
        .collect::<Result<Vec<_>>>()?;
    Ok((Some(classify(&on, &reference, &ablations)), on, reference))
}

/// The shortest example of `cause` among `candidates` (fewest history plies, then the smallest
/// depth): the smallest depth showing it with the full history, then the fewest history plies
/// at that depth.
fn shortest_example(
    config: &Config,
    cause: Cause,
    candidates: &[&GamePosition],
) -> Result<Option<Example>> {
    let mut best: Option<Example> = None;
    for g in candidates.iter().take(3) {
        let (mut depth, mut found) = (0, None);
        for d in 1..=config.depth {
            let (c, on, reference) = diagnose(config, d, &g.positions, &g.moves)?;
            if c == Some(cause) {
                (depth, found) = (d, Some((on, reference)));
                break;
            }
        }
        let Some(mut shown) = found else { continue };
        let n = g.moves.len();
        let mut keep = n;
        let tries: Vec<usize> = (0..=n.min(24))
            .chain([32, 48, 64, 96].into_iter().filter(|&k| k < n))
            .collect();
        for k in tries {
            let (c, on, reference) =
                diagnose(config, depth, &g.positions[n - k..], &g.moves[n - k..])?;
            if c == Some(cause) {
                keep = k;
                shown = (on, reference);
                break;
            }
        }
        let better = best
            .as_ref()
            .is_none_or(|b| (keep, depth) < (b.history_plies, b.depth));
        if better {
            let start = &g.positions[n - keep];
            let mut pgn = format!(
                "[Event \"replab ghi: {}\"]\n[Site \"{}\"]\n[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n\n",
                cause.name(),
                g.id,
                start.fen()
            );
            let mut pos = *start;
            for (i, &m) in g.moves[n - keep..].iter().enumerate() {
                if i == 0 || pos.side_to_move() == replab_board::Color::White {
                    let number = pos.fullmove_number();
                    if pos.side_to_move() == replab_board::Color::White {
                        pgn += &format!("{number}. ");
                    } else {
                        pgn += &format!("{number}... ");
                    }
                }
                pgn += &pos.san(m);
                pgn += " ";
                pos = pos.play(m);
            }
            pgn += &format!(
                "{{ searched here to depth {depth} with policy {} and {DETECTOR}: the table as \
                 engines use it gives {} cp, best {}; the path-safe reference gives {} cp, best \
                 {} }} *\n",
                config.policy,
                shown.0.score_cp,
                shown.0.best_move,
                shown.1.score_cp,
                shown.1.best_move
            );
            best = Some(Example {
                cause,
                id: g.id.clone(),
                history_plies: keep,
                depth,
                on: shown.0,
                reference: shown.1,
                pgn,
            });
        }
    }
    Ok(best)
}

/// Runs every search.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let meta = Meta::collect(&config.command);
    let games = positions(config)?;
    let results = search_positions(config, &games, progress)?;
    progress.stage("ghi examples", 0);
    let examples = examples(config, &games, &results)?;
    progress.finish();
    let (totals, causes) = totals(&results);
    Ok(Results {
        meta,
        config: setup(config),
        modes: MODES
            .iter()
            .chain(&ABLATIONS)
            .map(ModeRecord::from)
            .collect(),
        positions: results,
        totals,
        causes,
        examples,
    })
}

/// Searches every position in every mode, one progress stage, on the configured threads.
fn search_positions(
    config: &Config,
    games: &[GamePosition],
    progress: &mut dyn Progress,
) -> Result<Vec<PositionResult>> {
    progress.stage("ghi", games.len() as u64);
    parallel(
        games.len(),
        config.threads,
        progress,
        || {
            MODES
                .iter()
                .map(|m| engine(config, config.depth, m))
                .collect::<Result<Vec<_>>>()
        },
        |engines, i, done: &Done| {
            let result = search_position(config, engines, &games[i])?;
            done.add(1);
            Ok(result)
        },
    )
}

/// One position searched by every mode's engine; when the table as engines use it and the
/// path-safe reference differ, the ablations too, and the cause.
fn search_position(
    config: &Config,
    engines: &mut [Box<dyn DynSearch>],
    g: &GamePosition,
) -> Result<PositionResult> {
    let outcomes: Vec<Outcome> = engines
        .iter_mut()
        .map(|e| {
            let r = e.search_game(&g.positions, &g.moves);
            Outcome::of(&r, e.table_stats())
        })
        .collect();
    let (mut ablations, mut cause) = (Vec::new(), None);
    if outcomes[0].differs(&outcomes[1]) {
        ablations = ABLATIONS
            .iter()
            .map(|m| outcome(config, config.depth, m, &g.positions, &g.moves))
            .collect::<Result<Vec<_>>>()?;
        cause = Some(classify(&outcomes[0], &outcomes[1], &ablations));
    }
    Ok(PositionResult {
        set: g.set.clone(),
        id: g.id.clone(),
        history_plies: g.moves.len(),
        halfmove_clock: g.root().halfmove_clock().into(),
        outcomes,
        ablations,
        cause,
    })
}

/// The shortest example of each cause (repetition, fifty-move, both) among the positions whose
/// results carry it.
fn examples(
    config: &Config,
    games: &[GamePosition],
    results: &[PositionResult],
) -> Result<Vec<Example>> {
    let mut examples = Vec::new();
    for cause in [Cause::Repetition, Cause::FiftyMove, Cause::Both] {
        let mut candidates: Vec<&GamePosition> = games
            .iter()
            .zip(results)
            .filter(|(_, r)| r.cause == Some(cause))
            .map(|(g, _)| g)
            .collect();
        candidates.sort_by_key(|g| g.moves.len());
        if let Some(e) = shortest_example(config, cause, &candidates)? {
            examples.push(e);
        }
    }
    Ok(examples)
}

/// The totals per set and mode, and the differences per set and cause (`all` included; sets
/// without positions are left out).
fn totals(results: &[PositionResult]) -> (Vec<ModeTotal>, Vec<(String, Cause, usize)>) {
    let sets = ["repetition", "games", "long", "all"];
    let mut totals = Vec::new();
    let mut causes = Vec::new();
    for set in sets {
        let rs: Vec<&PositionResult> = results
            .iter()
            .filter(|r| set == "all" || r.set == set)
            .collect();
        if rs.is_empty() {
            continue;
        }
        for (m, mode) in MODES.iter().enumerate() {
            totals.push(mode_total(set, m, mode, &rs));
        }
        for cause in Cause::ALL {
            causes.push((
                set.to_string(),
                cause,
                rs.iter().filter(|r| r.cause == Some(cause)).count(),
            ));
        }
    }
    (totals, causes)
}

/// The total of mode `m` over the positions `rs` of `set`, against the reference (mode 1) and
/// the table as engines use it (mode 0).
fn mode_total(set: &str, m: usize, mode: &Mode, rs: &[&PositionResult]) -> ModeTotal {
    let nodes = |m: usize| rs.iter().map(|r| r.outcomes[m].nodes).sum::<u64>();
    let change = |base: u64| {
        if base == 0 {
            0.0
        } else {
            nodes(m) as f64 / base as f64 - 1.0
        }
    };
    ModeTotal {
        set: set.into(),
        mode: mode.name.into(),
        positions: rs.len(),
        differ: rs
            .iter()
            .filter(|r| r.outcomes[m].differs(&r.outcomes[1]))
            .count(),
        score_differs: rs
            .iter()
            .filter(|r| r.outcomes[m].score_cp != r.outcomes[1].score_cp)
            .count(),
        nodes: nodes(m),
        nodes_vs_reference: change(nodes(1)),
        nodes_vs_on: change(nodes(0)),
        tainted_cutoffs: rs
            .iter()
            .map(|r| r.outcomes[m].repetition_tainted_cutoffs + r.outcomes[m].fifty_tainted_cutoffs)
            .sum(),
    }
}

/// The settings of a run and what it derives from them.
fn setup(config: &Config) -> Setup {
    Setup {
        settings: Config {
            command: String::new(), // meta's, not the settings'
            ..config.clone()
        },
        detector: DETECTOR,
        search: search_config(config, config.depth, &MODES[0]),
    }
}

/// Writes `results.json`, `examples.pgn`, the chart and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_string_pretty(results)?)?;
    let pgn: String = results
        .examples
        .iter()
        .map(|e| e.pgn.clone())
        .collect::<Vec<_>>()
        .join("\n");
    dir.write("examples.pgn", pgn)?;
    page::write(results, dir)
}

/// The headline: how many positions differ, by cause.
pub fn headline(results: &Results) -> String {
    let all = |m: &str| {
        results
            .totals
            .iter()
            .find(|t| t.set == "all" && t.mode == m)
    };
    let Some(on) = all("on") else {
        return String::new();
    };
    let by_cause: Vec<String> = results
        .causes
        .iter()
        .filter(|(s, _, n)| s == "all" && *n > 0)
        .map(|(_, c, n)| format!("{n} {}", c.name()))
        .collect();
    format!(
        "With the table as engines use it, {} of {} positions with game histories (depth {}) \
         get another root score or best move than the path-safe reference ({})",
        on.differ,
        on.positions,
        results.config.settings.depth,
        if by_cause.is_empty() {
            "none".to_string()
        } else {
            by_cause.join(", ")
        }
    )
}

/// The table the command line prints.
pub fn summary_table(results: &Results) -> String {
    let mut out = format!(
        "{:<11} {:<16} {:>6} {:>7} {:>7} {:>12} {:>9} {:>9} {:>9}\n",
        "set", "mode", "pos", "differ", "≠score", "nodes", "vs ref", "vs on", "tainted"
    );
    for t in &results.totals {
        out += &format!(
            "{:<11} {:<16} {:>6} {:>7} {:>7} {:>12} {:>9} {:>9} {:>9}\n",
            t.set,
            t.mode,
            t.positions,
            t.differ,
            t.score_differs,
            fmt_int(t.nodes),
            fmt_delta_pct(t.nodes_vs_reference),
            fmt_delta_pct(t.nodes_vs_on),
            fmt_int(t.tainted_cutoffs)
        );
    }
    out += "\nDifferences of `on` against the reference, by cause:\n";
    for (set, cause, n) in &results.causes {
        out += &format!("  {set:<11} {:<24} {n}\n", cause.name());
    }
    for e in &results.examples {
        out += &format!(
            "\nShortest example, {}: {} ({} history plies, depth {})\n",
            e.cause.name(),
            e.id,
            e.history_plies,
            e.depth
        );
    }
    out += &format!("\n{}\n", headline(results));
    out
}

/// Graph-history interaction as an experiment of the table.
pub struct Ghi;

impl Experiment for Ghi {
    const NAME: &'static str = "ghi";
    const DIR: &'static str = "ghi";
    const TITLE: &'static str = TITLE;
    type Config = Config;
    type Results = Results;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
        run(config, progress)
    }

    fn write(results: &Results, dir: &ReportDir) -> Result<()> {
        write(results, dir)
    }

    fn summary(results: &Results) -> String {
        summary_table(results)
    }

    fn conclude(results: &Results, index: &Path) -> Result<Conclusion> {
        Ok(Conclusion::table(summary_table(results), index))
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        vec![Headline {
            label: "Graph-history interaction".into(),
            context: Phrase::parenthesised([Phrase::report("draws reused from the table", "ghi")]),
            text: headline(results),
        }]
    }
}

#[cfg(test)]
mod tests;
