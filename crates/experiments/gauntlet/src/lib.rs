//! `replab elo [--quick]`: what each repetition choice is worth in Elo. A gauntlet of
//! self-play matches (`replab-selfplay`) against a baseline, linear detection with
//! Stockfish's draw policy: detection off, every searchable detector, each draw policy (with
//! the engine presets that equal it), the upcoming-cycle rule, truncated keys, the GHI
//! mitigations and Stockfish's draw-score jitter, at fixed nodes and, for a few rows, at a
//! time control.

pub mod across;
pub mod budgets;
pub mod carry;
mod equal_time;
pub mod lineage;
pub mod matches;
pub mod move_change;
mod page;
mod rows;
mod running;
mod validation;
mod verdict;

use std::path::PathBuf;

use anyhow::{Context, Result, ensure};
use replab_harness::{
    Progress,
    experiment::{Configuration, Experiment, Headline, Site},
};
use replab_registry::DetectorId;
use replab_report::{Meta, ReportDir};
use replab_selfplay::{
    Adjudication, Control, PlayerSpec, check_even_games, check_one_game_per_core,
    options::{MAX_GAMES, MAX_NODES, MAX_THREADS},
    stats::{Bounds, EloEstimate, NoInterval},
};
use replab_settings::Settings;
use serde::{Deserialize, Serialize};

pub use equal_time::{
    EqualTime, EqualTimes, ModelCheck, SLOPE_BOOK, SLOPE_FILE, Slope, SlopeSource, TIME_FILE,
    TimeRatio, TimeSource, elo_at_equal_time, elo_by_time, equal_times, read_slope,
    read_time_ratios, recorded_notes,
};
pub use page::{headline, summary_table};
pub use rows::{BASELINE, Published, ROWS, Row, Scale};
pub use running::run;
pub use validation::{Agreement, Difference, Validation, validate};
pub use verdict::{DEFAULT_BOUNDS, MIN_VERDICT_PAIRS, RowTest};

use replab_harness::contribution::{
    Better, Choice, Column, Contribution, Measured, Phrase, Role, Rows, Unit,
};

/// Parses one specification of `--only`'s comma-separated list, trimmed (each checked against
/// the rows by the configuration's check).
pub fn parse_only(text: &str) -> Result<String, String> {
    let spec = text.trim();
    if spec.is_empty() {
        return Err("an empty specification in the list".into());
    }
    Ok(spec.to_string())
}

/// The self-play gauntlet as an experiment of the table.
pub struct Elo;

impl Experiment for Elo {
    const NAME: &'static str = "elo";
    const DIR: &'static str = "elo";
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

    /// The site's settings, with the binary that counts the equal-cost rows' instructions.
    fn bench_config(site: &Site) -> Result<Config> {
        Ok(Config {
            exe: site.exe.clone(),
            datasets: site.datasets.clone(),
            ..site.settings::<Self>()
        })
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        vec![Headline {
            label: "Elo by self-play".into(),
            context: Phrase::parenthesised([Phrase::report(
                "gauntlet against linear/Stockfish",
                "elo",
            )]),
            text: headline(results),
        }]
    }

    /// The rows of detection off, each detector and each draw-policy preset, one value per
    /// control (the decision table's strength columns), fixed nodes first; none from a smoke
    /// run.
    fn contributions(results: &Results) -> Vec<Contribution> {
        if results.config.settings.smoke_run {
            return Vec::new();
        }
        let settings = &results.config.settings;
        let mut values: Vec<(bool, Contribution)> = results
            .rows
            .iter()
            .filter_map(|r| decision_value(r, settings))
            .collect();
        values.sort_by_key(|(deterministic, _)| !deterministic);
        // A row with figures across the recorded budgets gives those (its run's budget among
        // them, on the same positions and by the same rule); another gives the run's own.
        let across = &results.across_budgets;
        let equal_time = results
            .equal_time
            .slope
            .as_ref()
            .map_or(Vec::new(), |slope| {
                let rows = results.equal_time.rows.iter();
                rows.filter(|e| !across.rows.iter().any(|r| r.a == e.a))
                    .filter_map(|e| equal_time_value(e, slope, settings))
                    .collect()
            });
        values
            .into_iter()
            .map(|(_, c)| c)
            .chain(equal_time)
            .chain(across_contributions(across))
            .collect()
    }
}

/// Each identical-play row's Elo at equal time at every recorded budget
/// ([`across::BudgetElo::decided`]: both cost measures), each holding at its budget, a fitted
/// slope's marked in its budget's words: the decision table's values across budgets.
pub fn across_contributions(across: &across::AcrossBudgets) -> Vec<Contribution> {
    let column = equal_time_column();
    across
        .rows
        .iter()
        .flat_map(|row| {
            let spec = PlayerSpec::parse(&row.a).ok();
            let against = PlayerSpec::parse(&row.b).ok().and_then(|b| choice_of(&b));
            let detector = spec.and_then(|s| DetectorId::from_name(&s.detector));
            let column = column.clone();
            row.budgets.iter().filter_map(move |b| {
                let decided = b.decided();
                let value = Measured::value(decided.value)
                    .interval(decided.interval)
                    .note(b.decided_text())
                    .at(b.budget())
                    .against(against?);
                Some(Contribution::new(detector?, column.clone(), value))
            })
        })
        .collect()
}

/// The decision table's column of Elo at equal time.
fn equal_time_column() -> Column {
    Column::new("elo-equal-time", "Elo, equal time", Unit::Elo)
        .what("Elo at equal time")
        .decision(Role::Strength, Better::Higher, Rows::Choice)
}

/// An identical-play row's Elo at equal time as a value of the decision table, with how it
/// was computed in the note; it holds at the fixed-node budget the slope was recorded at.
fn equal_time_value(e: &EqualTime, slope: &SlopeSource, config: &Config) -> Option<Contribution> {
    let spec = PlayerSpec::parse(&e.a).ok()?;
    let column = equal_time_column();
    let value = Measured::value(e.elo.value)
        .interval(e.elo.interval)
        .note(e.derivation(slope))
        .at(config.nodes_budget())
        .against(choice_of(&PlayerSpec::parse(&e.b).ok()?)?);
    let detector = DetectorId::from_name(&spec.detector)?;
    Some(Contribution::new(detector, column, value))
}

/// The choice a player specification plays: its detector, and its draw policy where it is not
/// the player's default.
fn choice_of(spec: &PlayerSpec) -> Option<Choice> {
    let detector = DetectorId::from_name(&spec.detector)?;
    let default = PlayerSpec::named(&spec.detector).policy;
    Some(Choice {
        detector,
        policy: (spec.policy != default).then_some(spec.policy),
    })
}

/// A row as a value of the decision table (whether it is at fixed nodes, and the value):
/// detection off, a detector or the upcoming-cycle detector (the detector's row), or a draw
/// policy played with linear (a preset row), with its verdict in the note and the budget of
/// `config` it was played at. A row that measured a busy machine, or that has no interval
/// without being identical play, contributes nothing.
fn decision_value(r: &RowResult, config: &Config) -> Option<(bool, Contribution)> {
    if r.machine_too_busy || !matches!(r.measure, Measure::Balanced | Measure::Clock) {
        return None;
    }
    let spec = PlayerSpec::parse(&r.a).ok()?;
    let policy = match r.group.as_str() {
        "detection" | "detector" | "upcoming" => None,
        "policy" => Some(spec.policy),
        _ => return None,
    };
    let (key, heading, budget) = if r.deterministic {
        ("elo-fixed-nodes", "Elo, fixed nodes", config.nodes_budget())
    } else {
        ("elo-time-control", "Elo, clock", config.clock_budget())
    };
    let column = Column::new(key, heading, Unit::Elo).what("Elo").decision(
        Role::Strength,
        Better::Higher,
        Rows::Choice,
    );
    // Identical play is exact: the same games, no difference. Another row without an
    // interval has no value the comparison could read.
    let value = match r.elo.interval {
        Some(interval) => Measured::value(r.elo.value).interval(interval),
        None if r.games_identical => Measured::exact(0.0),
        None => return None,
    };
    let value = value
        .note(format!(
            "{} games at {}; {}",
            r.games,
            r.control,
            r.verdict_text()
        ))
        .at(budget)
        .against(choice_of(&PlayerSpec::parse(&r.b).ok()?)?);
    let detector = DetectorId::from_name(&spec.detector)?;
    Some((
        r.deterministic,
        Contribution::new(detector, column, value).under(policy),
    ))
}

/// The page's title.
pub const TITLE: &str = "Elo of each choice: self-play gauntlet";

/// The settings of `replab elo`, each option declared on its field: the doc comment is its
/// help.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// Nodes per move of the fixed-node matches.
    // The engine profile's median completed depth is 8 at 10,000 nodes on the middlegame
    // suite: `tools/depth_at_nodes.py`.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_NODES)]
    pub nodes: u64,
    /// Games per fixed-node match on the balanced book ({range}; even).
    #[arg(long, value_name = "N")]
    #[setting(range = 2..=MAX_GAMES)]
    pub games: u64,
    /// Games per fixed-node match on the repetition-rich book ({range}; even; 0: none).
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=MAX_GAMES)]
    pub rep_games: u64,
    /// Games per equal-cost match of the rows that differ in technique ({range}; even; 0:
    /// none).
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=MAX_GAMES)]
    pub cost_games: u64,
    /// Time control of the timed matches, BASE+INC seconds.
    #[arg(long, value_name = "T")]
    pub tc: String,
    /// Games per timed match ({range}; even; 0: none).
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=MAX_GAMES)]
    pub tc_games: u64,
    /// Seed of the opening order.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Only the rows whose player A is one of these specifications, comma-separated as the
    /// rows write them (e.g. `off,linear+cuckoo`); every row when not given.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_only)]
    pub only: Vec<String>,
    /// Worker threads.
    #[arg(long, value_name = "T")]
    #[setting(range = 1..=MAX_THREADS)]
    pub threads: usize,
    /// Score adjudication of every match, changes to the default: draw=off or
    /// draw=SCORE/MOVES/FROM_MOVE, resign=off or resign=SCORE/MOVES, comma-separated.
    // The default leaves draw adjudication off: the draws are left to the rules, whose
    // effects the rows measure.
    #[arg(long = "adjudicate", value_name = "SPEC",
          value_parser = |t: &str| Adjudication::rules_draw().with(t))]
    #[setting(shown_by_display)]
    pub adjudication: Adjudication,
    /// Each row's test bounds in normalized Elo: a gain test [0, ELO1] and a loss test
    /// [ELO0, 0] (ELO0 < 0 < ELO1); a match stops at their verdict or its game count.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub bounds: Bounds,
    /// The replab binary that counts the equal-cost rows' instructions under valgrind
    /// (`replab measure`); `None` takes the recorded table (`datasets/player-costs.json`),
    /// and the results say which.
    #[arg(skip)]
    pub exe: Option<PathBuf>,
    /// Whether to count the equal-cost rows' instructions with `exe` (the quick run takes the
    /// recorded table: counting would take most of its two minutes; the results say which).
    #[arg(skip)]
    pub count_costs: bool,
    /// A smoke run of the machinery (`bench --quick`): too few games to be evidence, so its
    /// rows give no Elo, no direction and no recommendation.
    #[arg(skip)]
    pub smoke_run: bool,
    /// The datasets folder, where the Elo slope is recorded ([`SLOPE_FILE`]).
    #[arg(skip)]
    pub datasets: PathBuf,
    /// The command line that regenerates the report (in `meta`).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
}

impl Default for Config {
    /// The full run (part of `bench`).
    fn default() -> Self {
        Config {
            nodes: 10_000,
            games: 60,
            rep_games: 60,
            cost_games: 60,
            tc: "0.5+0.005".into(),
            tc_games: 40,
            seed: 1,
            only: Vec::new(),
            threads: replab_workloads::engine::default_threads(),
            adjudication: Adjudication::rules_draw(),
            bounds: DEFAULT_BOUNDS,
            exe: None,
            count_costs: true,
            smoke_run: false,
            datasets: "datasets".into(),
            command: String::new(),
        }
    }
}

impl Config {
    /// The short run of `bench --quick`.
    pub fn quick() -> Self {
        Config {
            // A smoke run shows that the machinery runs, not what a choice is worth: a tenth
            // of the nodes keeps `bench --quick` (and its test) short (2,000 took twice the
            // CPU time: 10.2 s against 5.2 s for the games at fixed nodes).
            nodes: 1_000,
            games: 2,
            rep_games: 2,
            cost_games: 2,
            tc_games: 2,
            // The clock's machinery runs, at a fifth of the full run's time control: the smoke
            // run's clock games took 12 of its 17 s at 0.5+0.005.
            tc: "0.1+0.001".into(),
            count_costs: false,
            smoke_run: true,
            ..Config::default()
        }
    }

    /// The budget the fixed-node matches are played at, which their verdicts hold at:
    /// `10,000 nodes a move`.
    pub fn nodes_budget(&self) -> String {
        format!("{} nodes a move", replab_report::fmt_int(self.nodes))
    }

    /// The budget the timed matches are played at: `a 0.5+0.005 s clock`.
    pub fn clock_budget(&self) -> String {
        format!("a {} s clock", self.tc)
    }

    /// Refuses odd game counts, naming each (the rule of every match, checked here before any
    /// game is played).
    fn check_game_counts(&self) -> Result<()> {
        for (setting, games) in [
            (Config::GAMES, self.games),
            (Config::REP_GAMES, self.rep_games),
            (Config::COST_GAMES, self.cost_games),
            (Config::TC_GAMES, self.tc_games),
        ] {
            check_even_games(setting, games)?;
        }
        Ok(())
    }

    /// Refuses clock rows with more threads than cores (one game per core, the rule of every
    /// clock match), before the fixed-node columns are played.
    fn check_clock_threads(&self) -> Result<()> {
        if self.tc_games == 0 {
            return Ok(());
        }
        let clock = format!("{} {}", Config::TC_GAMES, self.tc_games);
        check_one_game_per_core(Config::THREADS, self.threads, &clock)
    }

    /// Refuses an `--only` specification that is no row's player A, listing the rows'.
    fn check_only(&self) -> Result<()> {
        for a in &self.only {
            ensure!(
                ROWS.iter().any(|r| &r.a == a),
                "{} {a:?}: no row's player A is that specification (the rows' are {})",
                Config::ONLY,
                ROWS.iter()
                    .map(|r| r.a.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
        Ok(())
    }
}

impl Configuration for Config {
    fn quick() -> Self {
        Config::quick()
    }

    /// The short run at 400 nodes a move (its games took 3.7 s where 1,000 nodes took 7.8 s,
    /// the test build, 2026-11-29).
    fn smoke() -> Self {
        Config {
            nodes: 400,
            ..Config::quick()
        }
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }

    /// The declared ranges, then the rules across the settings, each naming its option.
    fn check(&self) -> Result<()> {
        self.check_ranges()?;
        self.check_game_counts()?;
        Control::parse_tc(&self.tc).with_context(|| Config::TC.to_string())?;
        self.check_clock_threads()?;
        self.check_only()?;
        replab_selfplay::stats::three_way(self.bounds.pair()).with_context(|| {
            format!(
                "{} {}: ELO0 below 0 and ELO1 above, both in reach (normalized Elo)",
                Config::BOUNDS,
                self.bounds
            )
        })?;
        Ok(())
    }
}

/// One row's match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowResult {
    /// The row's group (`detection`, `detector`, `policy`, …).
    pub group: String,
    /// What is compared, in words.
    pub label: String,
    /// Which of the row's measurements this is.
    pub measure: Measure,
    /// The opening book.
    pub book: String,
    /// Player A, canonical.
    pub a: String,
    /// Player B (the baseline of the row), canonical.
    pub b: String,
    /// `N nodes`, `N : M nodes (equal cost)` or the time control.
    pub control: String,
    /// Equal cost: A's and B's nodes per move, in the inverse ratio of their instructions
    /// per node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_scaling: Option<replab_selfplay::CostScaling>,
    /// Median last completed depth of A's and B's searched moves.
    pub median_depth: [Option<u32>; 2],
    /// Median plies per game.
    pub median_plies: Option<f64>,
    /// Games per termination.
    pub terminations: std::collections::BTreeMap<String, u64>,
    /// Pairs with a game ended by threefold, fivefold, fifty or seventy-five moves.
    pub draw_rule_pairs: u64,
    /// Timed rows: the lower of the two players' CPU shares (CPU time ÷ search wall time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_cpu_share: Option<f64>,
    /// Games an interval of ±2 Elo would need at the row's own score and variance.
    pub games_for_2_elo: Option<u64>,
    /// Core-hours those games would take at the row's measured search time per game.
    pub core_hours_for_2_elo: Option<f64>,
    /// Whether the games are reproducible (fixed nodes).
    pub deterministic: bool,
    /// Games played.
    pub games: u64,
    /// `[LL, LD, WL+DD, WD, WW]` of A.
    pub pentanomial: [u64; 5],
    /// Logistic Elo of A over B, 95% interval (none below 20 pairs or without variance).
    pub elo: EloEstimate,
    /// Normalized Elo, 95% interval (as `elo`).
    pub nelo: EloEstimate,
    /// Why the estimates carry no interval (`null` when they carry one).
    pub no_interval: Option<NoInterval>,
    /// The row's three-way GSPRT and its verdict.
    pub test: RowTest,
    /// Whether the test's verdict stopped the match before its cap.
    pub stopped_early: bool,
    /// Whether no interval excludes 0 (no interval at all, or one that contains 0).
    pub no_measurable_difference: bool,
    /// Games the shard recipe would need for the interval to exclude 0 if the difference
    /// were the measured one (`None` when the estimate is 0 or there is no interval).
    pub games_to_resolve: Option<u64>,
    /// Whether every game pair was the same game twice with colours swapped (the two
    /// players never searched differently enough to change a move).
    pub games_identical: bool,
    /// Whether every pair scored exactly one point (WL or DD), identical play or not: the
    /// pair scores have no variance, so the interval would come from the zero-count
    /// substitution, not from the games; none is shown.
    #[serde(default)]
    pub zero_variance: bool,
    /// The published figure of the same change, if an engine measured it.
    pub published: Option<Published>,
    /// Games lost on time (timed rows; 0 at fixed nodes).
    #[serde(default)]
    pub time_forfeits: u64,
    /// A timed row with more than [`BUSY_FORFEIT_SHARE`] of its games lost on time, or a
    /// player whose CPU share was under 90%: the clock measured the machine, not the engine,
    /// so the row gets no verdict.
    #[serde(default)]
    pub machine_too_busy: bool,
    /// Wall time, seconds.
    #[serde(with = "replab_harness::interval::single_sample")]
    pub wall_s: f64,
    /// Search time summed over threads, seconds.
    #[serde(with = "replab_harness::interval::single_sample")]
    pub search_s: f64,
}

impl RowResult {
    /// The row's verdict in words: a busy machine's none, identical play's, or the test's
    /// (with its power check when the cap cannot resolve the bounds).
    pub fn verdict_text(&self) -> String {
        if self.machine_too_busy {
            return "machine too busy: no verdict".into();
        }
        if self.games_identical {
            return "identical play in every pair: no difference to test".into();
        }
        let text = self.test.text(self.games);
        match self.test.power_note() {
            Some(note) if self.test.verdict == replab_selfplay::stats::Verdict::Continue => {
                format!("{text}; {note}")
            }
            _ => text,
        }
    }
}

/// The share of a timed row's games that may end by time forfeit before the row is judged
/// to have measured the machine (1%).
pub const BUSY_FORFEIT_SHARE: f64 = 0.01;

/// Whether `forfeits` of `games` timed games is more than [`BUSY_FORFEIT_SHARE`].
pub fn too_busy(forfeits: u64, games: u64) -> bool {
    games > 0 && forfeits as f64 > BUSY_FORFEIT_SHARE * games as f64
}

/// The measurements of a row: what the two players play with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// Fixed nodes on the balanced book: the change of the tree alone.
    Balanced,
    /// Fixed nodes on the repetition-rich book: where repetitions decide games.
    RepetitionRich,
    /// Equal cost on the balanced book: each player the nodes the same instructions buy.
    EqualCost,
    /// A real clock on the balanced book.
    Clock,
}

impl Measure {
    /// Every measurement, in the table's order.
    pub const ALL: [Measure; 4] = [
        Measure::Balanced,
        Measure::RepetitionRich,
        Measure::EqualCost,
        Measure::Clock,
    ];

    /// The heading of its table.
    pub fn heading(self) -> &'static str {
        match self {
            Measure::Balanced => "Fixed nodes, balanced book",
            Measure::RepetitionRich => "Fixed nodes, repetition-rich book",
            Measure::EqualCost => "Equal cost (instructions), balanced book",
            Measure::Clock => "Real clock, balanced book",
        }
    }

    /// A short name for the command line's table.
    pub fn short(self) -> &'static str {
        match self {
            Measure::Balanced => "balanced",
            Measure::RepetitionRich => "repetition",
            Measure::EqualCost => "equal-cost",
            Measure::Clock => "clock",
        }
    }

    /// Whether the games are reproducible.
    pub fn deterministic(self) -> bool {
        self != Measure::Clock
    }
}

/// The median completed depth the gauntlet's budgets are chosen to reach (issue: repetition
/// handling matters only where the search sees past a few plies).
pub const TARGET_DEPTH: u32 = 8;

/// Totals of the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Games played.
    pub games: u64,
    /// Wall time of all matches, seconds.
    #[serde(with = "replab_harness::interval::single_sample")]
    pub wall_s: f64,
    /// Games per second of wall time.
    #[serde(with = "replab_harness::interval::single_sample")]
    pub games_per_second: f64,
    /// Share of the threads' time outside the searches.
    pub outside_search_share: f64,
    /// Peak resident memory of the process, KiB.
    pub peak_rss_kib: u64,
    /// The two players' tables per worker, bytes (largest of the rows).
    pub table_bytes_per_worker: u64,
    /// Worker threads.
    pub threads: usize,
}

/// The settings as given, and what the run set up from them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The settings (written flat, beside what follows).
    #[serde(flatten)]
    pub settings: Config,
    /// The balanced opening book.
    pub book: String,
    /// The repetition-rich opening book.
    pub repetition_book: String,
    /// The baseline.
    pub baseline: String,
}

/// Results of `replab elo`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// The settings and what the run set up from them.
    pub config: Setup,
    /// One result per row and measurement, in [`Measure::ALL`] order.
    pub rows: Vec<RowResult>,
    /// Every row measured both at equal cost and at the clock: whether the two agree.
    #[serde(default)]
    pub validations: Vec<Validation>,
    /// The identical-play rows' Elo at equal time, from the recorded slope (none in a smoke
    /// run).
    #[serde(default)]
    pub equal_time: EqualTimes,
    /// The same across the recorded search budgets, with the slopes' fall.
    #[serde(default)]
    pub across_budgets: across::AcrossBudgets,
    /// Totals.
    pub totals: Totals,
    /// Report metadata.
    pub meta: Meta,
}

/// Writes `results.json`, the chart and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_string_pretty(results)?)?;
    page::write(results, dir)
}

#[cfg(test)]
mod tests;
