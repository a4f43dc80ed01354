//! `replab elo [--quick]`: what each repetition choice is worth in Elo. A gauntlet of
//! self-play matches (`replab-selfplay`) against a baseline, linear detection with
//! Stockfish's draw policy: detection off, every searchable detector, each draw policy (with
//! the engine presets that equal it), the upcoming-cycle rule, truncated keys, the GHI
//! mitigations and Stockfish's draw-score jitter, at fixed nodes and, for a few rows, at a
//! time control.

pub mod matches;
mod page;
mod rows;
mod validation;
replab_harness::settings!(Config, check);

/// The self-play gauntlet as an experiment of the table.
pub struct Elo;

impl replab_harness::experiment::Experiment for Elo {
    replab_harness::experiment_items!("elo", "elo", summary);

    /// The site's settings, with the binary that counts the equal-cost rows' instructions.
    fn bench_config(site: &replab_harness::experiment::Site) -> Result<Config> {
        Ok(Config {
            exe: site.exe.clone(),
            ..site.settings::<Self>()
        })
    }

    fn headlines(results: &Results) -> Vec<replab_harness::experiment::Headline> {
        vec![replab_harness::experiment::Headline {
            label: "Elo by self-play".into(),
            context: Phrase::parenthesised([Phrase::report(
                "gauntlet against linear/Stockfish",
                "elo",
            )]),
            text: headline(results),
        }]
    }

    /// The rows of detection off, each detector and each draw-policy preset, one value per
    /// control (the decision table's strength columns), fixed nodes first.
    fn contributions(results: &Results) -> Vec<Contribution> {
        let mut values: Vec<(bool, Contribution)> =
            results.rows.iter().filter_map(decision_value).collect();
        values.sort_by_key(|(deterministic, _)| !deterministic);
        values.into_iter().map(|(_, c)| c).collect()
    }
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
/// policy played with linear (a preset row). A row that measured a busy machine contributes
/// nothing.
fn decision_value(r: &RowResult) -> Option<(bool, Contribution)> {
    if r.machine_too_busy || !matches!(r.measure, Measure::Balanced | Measure::Clock) {
        return None;
    }
    let spec = PlayerSpec::parse(&r.a).ok()?;
    let policy = match r.group.as_str() {
        "detection" | "detector" | "upcoming" => None,
        "policy" => Some(spec.policy),
        _ => return None,
    };
    let (key, heading) = if r.deterministic {
        ("elo-fixed-nodes", "Elo, fixed nodes")
    } else {
        ("elo-time-control", "Elo, clock")
    };
    let column = Column::new(key, heading, Unit::Elo).what("Elo").decision(
        Role::Strength,
        Better::Higher,
        Rows::Choice,
    );
    let value = Measured::value(r.elo.value)
        .interval(r.elo.interval)
        .note(format!("{} games at {}", r.games, r.control))
        .against(choice_of(&PlayerSpec::parse(&r.b).ok()?)?);
    let detector = DetectorId::from_name(&spec.detector)?;
    Some((
        r.deterministic,
        Contribution::new(detector, column, value).under(policy),
    ))
}

#[cfg(test)]
mod tests;

use std::sync::Arc;

use anyhow::{Context, Result, ensure};
use replab_registry::DetectorId;
use replab_report::{Meta, ReportDir};
use replab_selfplay::{
    Book, Control, MatchConfig, MatchResults, PlayerSpec, Termination,
    book::REPETITION_NAME,
    play,
    stats::{self, Decision, EloEstimate},
};
use serde::{Deserialize, Serialize};

pub use rows::{BASELINE, Published, ROWS, Row, Scale};
pub use validation::{Agreement, Validation, validate};

use crate::matches::cost;
use replab_harness::Progress;
use replab_harness::contribution::{
    Better, Choice, Column, Contribution, Measured, Phrase, Role, Rows, Unit,
};
use replab_harness::experiment::check_range;

/// The page's title.
pub const TITLE: &str = "Elo of each choice: self-play gauntlet";

/// The settings of `replab elo`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Nodes per move of the fixed-node matches (the engine profile's median completed depth
    /// is 8 at 10,000 nodes on the middlegame suite: `tools/depth_at_nodes.py`).
    pub nodes: u64,
    /// Games per fixed-node match on the balanced book (even).
    pub games: u64,
    /// Games per fixed-node match on the repetition-rich book (even; 0: none).
    pub rep_games: u64,
    /// Games per equal-cost match of the detector rows (even; 0: none).
    pub cost_games: u64,
    /// The time control of the timed matches (`BASE+INC` seconds).
    pub tc: String,
    /// Games per timed match (even; 0: no timed matches).
    pub tc_games: u64,
    /// Seed of the opening order.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Only the rows whose player A is one of these specifications, as the rows write them
    /// (`off`, `linear+cuckoo`, `linear:policy=twofold`, …); empty: every row.
    pub only: Vec<String>,
    /// The replab binary that counts the equal-cost rows' instructions under valgrind
    /// (`replab measure`); `None` takes the recorded table (`datasets/player-costs.json`),
    /// and the results say which.
    pub exe: Option<std::path::PathBuf>,
    /// Whether to count the equal-cost rows' instructions with `exe` (the quick run takes the
    /// recorded table: counting would take most of its two minutes; the results say which).
    pub count_costs: bool,
    /// The command line that regenerates the report.
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
            threads: replab_workloads::engine::default_threads(),
            only: Vec::new(),
            exe: None,
            count_costs: true,
            command: "replab elo".into(),
        }
    }
}

impl Config {
    /// The short run of `bench --quick`.
    pub fn quick() -> Self {
        Config {
            games: 2,
            rep_games: 2,
            cost_games: 2,
            tc_games: 2,
            count_costs: false,
            command: "replab elo --quick".into(),
            ..Config::default()
        }
    }

    /// Checks the settings, with the command line's option names.
    pub fn check(&self) -> Result<()> {
        ensure!(
            self.games >= 2 && self.games.is_multiple_of(2),
            "--games {}: an even number of at least 2",
            self.games
        );
        for (option, games) in [
            ("--rep-games", self.rep_games),
            ("--cost-games", self.cost_games),
            ("--tc-games", self.tc_games),
        ] {
            ensure!(games.is_multiple_of(2), "{option} {games}: an even number");
        }
        ensure!(
            (1..=10_000_000).contains(&self.nodes),
            "--nodes {} is out of range (1 to 10000000)",
            self.nodes
        );
        Control::parse_tc(&self.tc).context("--tc")?;
        // The clock rows play one game per core (the match refuses more): refused here, before
        // the fixed-node columns have been played.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        ensure!(
            self.tc_games == 0 || self.threads <= cores,
            "--threads {} with --tc-games {}: this machine has {cores} cores and a clock shared \
             by two games measures the machine; at most --threads {cores}, or --tc-games 0",
            self.threads,
            self.tc_games
        );
        for a in &self.only {
            ensure!(
                ROWS.iter().any(|r| &r.a == a),
                "--only {a:?}: no row's player A is that specification (the rows' are {})",
                ROWS.iter()
                    .map(|r| r.a.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        check_range("--threads", self.threads, 1..=256)?;
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
    /// Logistic Elo of A over B, 95% interval.
    pub elo: EloEstimate,
    /// Normalized Elo, 95% interval.
    pub nelo: EloEstimate,
    /// LLR of the normalized SPRT [0, 2].
    pub llr: f64,
    /// Its decision.
    pub decision: Decision,
    /// Whether the interval contains 0.
    pub no_measurable_difference: bool,
    /// Games the shard recipe would need for the interval to exclude 0 if the difference
    /// were the measured one (`None` when the estimate is 0).
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

/// The settings as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigRecord {
    /// Nodes per move.
    pub nodes: u64,
    /// Games per fixed-node match.
    pub games: u64,
    /// Time control.
    pub tc: String,
    /// Games per fixed-node match on the repetition-rich book.
    #[serde(default)]
    pub rep_games: u64,
    /// Games per equal-cost match.
    #[serde(default)]
    pub cost_games: u64,
    /// Games per timed match.
    pub tc_games: u64,
    /// Seed.
    pub seed: u64,
    /// The balanced opening book.
    pub book: String,
    /// The repetition-rich opening book.
    #[serde(default)]
    pub repetition_book: String,
    /// The baseline.
    pub baseline: String,
}

/// Results of `replab elo`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Settings.
    pub config: ConfigRecord,
    /// One result per row and measurement, in [`Measure::ALL`] order.
    pub rows: Vec<RowResult>,
    /// Every row measured both at equal cost and at the clock: whether the two agree.
    #[serde(default)]
    pub validations: Vec<Validation>,
    /// Totals.
    pub totals: Totals,
    /// Report metadata.
    pub meta: Meta,
}

/// One match of the gauntlet: a row, measured one way, over `games` games.
struct Job<'a> {
    row: &'a Row,
    measure: Measure,
    games: u64,
}

/// The gauntlet's matches in the table's order: every row on each book at fixed nodes, the
/// rows whose players differ in technique at equal cost, the rows marked for it at the clock.
fn jobs(config: &Config) -> Vec<Job<'static>> {
    let mut out = Vec::new();
    for measure in Measure::ALL {
        let games = match measure {
            Measure::Balanced => config.games,
            Measure::RepetitionRich => config.rep_games,
            Measure::EqualCost => config.cost_games,
            Measure::Clock => config.tc_games,
        };
        let chosen = |r: &&Row| config.only.is_empty() || config.only.contains(&r.a);
        let rows = ROWS.iter().filter(chosen).filter(|r| match measure {
            Measure::Balanced | Measure::RepetitionRich => true,
            Measure::EqualCost => r.technique_differs(),
            Measure::Clock => r.at_tc,
        });
        if games > 0 {
            out.extend(rows.map(|row| Job {
                row,
                measure,
                games,
            }));
        }
    }
    out
}

/// The two books: balanced (the built-in one) and repetition-rich.
struct Books {
    balanced: Arc<Book>,
    repetition: Arc<Book>,
}

impl Books {
    /// Reads both, refusing a repetition-rich match with more pairs than openings.
    fn read(config: &Config) -> Result<Books> {
        let repetition = Book::read(std::path::Path::new(REPETITION_NAME))?;
        let openings = repetition.openings.len() as u64;
        ensure!(
            config.rep_games / 2 <= openings,
            "--rep-games {}: the repetition-rich book {REPETITION_NAME} has {openings} \
             openings, so at most --rep-games {} distinct pairs",
            config.rep_games,
            2 * openings
        );
        Ok(Books {
            balanced: Arc::new(Book::builtin()),
            repetition: Arc::new(repetition),
        })
    }
}

/// The match of `job`: its players, control and book; at equal cost the players' budgets
/// scaled by their instruction costs (`costs` caches each player's count).
fn match_config(
    config: &Config,
    job: &Job,
    books: &Books,
    costs: &mut cost::Counted,
) -> Result<MatchConfig> {
    let label = || format!("row {}", job.row.label);
    let mut m = MatchConfig {
        a: PlayerSpec::parse(&job.row.a).with_context(label)?,
        b: PlayerSpec::parse(&job.row.b).with_context(label)?,
        control: match job.measure {
            Measure::Clock => Control::parse_tc(&config.tc)?,
            _ => Control::Nodes(config.nodes),
        },
        games: job.games,
        seed: config.seed,
        book: match job.measure {
            Measure::RepetitionRich => books.repetition.clone(),
            _ => books.balanced.clone(),
        },
        bounds: stats::DEFAULT_BOUNDS,
        early_stop: false,
        shard: None,
        threads: config.threads,
        cost_scaling: None,
    };
    if job.measure == Measure::EqualCost {
        let exe = config.exe.as_deref().filter(|_| config.count_costs);
        let scaling = cost::scaling_cached(&m, exe, costs).with_context(label)?;
        m.a.nodes = Some(scaling.a_nodes);
        m.b.nodes = Some(scaling.b_nodes);
        m.cost_scaling = Some(scaling);
    }
    Ok(m)
}

/// Plays every row's matches.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let books = Books::read(config)?;
    let jobs = jobs(config);
    let total_games: u64 = jobs.iter().map(|j| j.games).sum();
    let mut costs = cost::Counted::default();
    let configs: Vec<MatchConfig> = jobs
        .iter()
        .map(|j| match_config(config, j, &books, &mut costs))
        .collect::<Result<_>>()?;
    progress.stage("elo: games", total_games);
    let mut rows = Vec::with_capacity(jobs.len());
    let mut totals = Totals {
        threads: config.threads,
        ..Totals::default()
    };
    let mut search_s = 0.0;
    for (job, m) in jobs.iter().zip(&configs) {
        let mut last = 0;
        let (results, _) = play(m, &mut |done, _| {
            progress.advance(2 * (done - last));
            last = done;
        })?;
        totals.games += results.games;
        totals.wall_s += results.timing.wall_s;
        search_s += results.timing.search_s;
        totals.table_bytes_per_worker = totals
            .table_bytes_per_worker
            .max(results.timing.table_bytes_per_worker);
        rows.push(row_result(job, &results));
    }
    progress.finish();
    let thread_s = totals.wall_s * config.threads as f64;
    (totals.games_per_second, totals.outside_search_share) =
        replab_selfplay::run::Timing::rates(totals.games, totals.wall_s, thread_s, search_s);
    totals.peak_rss_kib = replab_selfplay::run::peak_rss_kib();
    Ok(Results {
        config: ConfigRecord {
            nodes: config.nodes,
            games: config.games,
            rep_games: config.rep_games,
            cost_games: config.cost_games,
            tc: config.tc.clone(),
            tc_games: config.tc_games,
            seed: config.seed,
            book: books.balanced.name.clone(),
            repetition_book: books.repetition.name.clone(),
            baseline: BASELINE.into(),
        },
        validations: validate(&rows),
        rows,
        totals,
        meta: Meta::collect(&config.command),
    })
}

/// A row's line of the table from its match.
fn row_result(job: &Job, r: &MatchResults) -> RowResult {
    let control = match (r.identity.control, &r.identity.cost_scaling) {
        (Control::Nodes(_), Some(s)) => format!("{} : {} nodes", s.a_nodes, s.b_nodes),
        (Control::Nodes(n), None) => format!("{n} nodes"),
        (c, _) => format!("tc {}", c.pgn()),
    };
    let p = r.pentanomial_fastchess;
    let forfeits = r
        .terminations
        .get(Termination::TimeForfeit.name())
        .copied()
        .unwrap_or(0);
    let games_for_2_elo = stats::games_for_half_width(&p, 2.0);
    let search_s_per_game = r.timing.search_s / r.games.max(1) as f64;
    RowResult {
        group: job.row.group.into(),
        label: job.row.label.clone(),
        measure: job.measure,
        book: r.identity.book.clone(),
        a: r.identity.a.clone(),
        b: r.identity.b.clone(),
        control,
        cost_scaling: r.identity.cost_scaling.clone(),
        median_depth: r.play.median_depth,
        median_plies: r.play.median_plies,
        terminations: r.terminations.clone(),
        draw_rule_pairs: r.play.draw_rule_pairs,
        min_cpu_share: r.play.min_cpu_share,
        games_for_2_elo,
        core_hours_for_2_elo: games_for_2_elo.map(|g| g as f64 * search_s_per_game / 3600.0),
        deterministic: r.deterministic,
        games: r.games,
        pentanomial: r.pentanomial,
        elo: r.elo,
        nelo: r.nelo,
        llr: r.sprt.llr,
        decision: r.sprt.decision,
        no_measurable_difference: r.elo.contains(0.0),
        games_to_resolve: stats::games_to_resolve(&p, r.elo.value),
        games_identical: !r.pair_results.is_empty() && r.pair_results.iter().all(|q| q.same_moves),
        zero_variance: r.pairs > 0 && r.pentanomial[2] == r.pairs,
        published: job.row.published.clone(),
        time_forfeits: forfeits,
        machine_too_busy: !r.deterministic && (too_busy(forfeits, r.games) || r.play.cpu_starved()),
        wall_s: r.timing.wall_s,
        search_s: r.timing.search_s,
    }
}

/// Writes `results.json`, the chart and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_string_pretty(results)?)?;
    page::write(results, dir)
}

/// The headline: how many choices differ measurably from the baseline at fixed nodes.
pub fn headline(results: &Results) -> String {
    let fixed: Vec<&RowResult> = results
        .rows
        .iter()
        .filter(|r| r.measure == Measure::Balanced)
        .collect();
    let measurable: Vec<String> = fixed
        .iter()
        .filter(|r| !r.no_measurable_difference)
        .map(|r| format!("{} {:+.0} ± {:.0}", r.a, r.elo.value, r.elo.error()))
        .collect();
    format!(
        "Against {} at {} nodes per move on the balanced book ({} games per choice), {} of {} \
         choices differ measurably in Elo (95% interval excludes 0){}",
        results.config.baseline,
        results.config.nodes,
        results.config.games,
        measurable.len(),
        fixed.len(),
        if measurable.is_empty() {
            String::new()
        } else {
            format!(": {}", measurable.join(", "))
        }
    )
}

/// The table the command line prints.
pub fn summary_table(results: &Results) -> String {
    let mut out = format!(
        "{:<44} {:<10} {:<16} {:>7} {:>6} {:>24} {:>20} {:>9}\n",
        "player A (vs baseline B)",
        "measure",
        "control",
        "depth",
        "games",
        "Elo [95%]",
        "[LL LD WL+DD WD WW]",
        "draw-rule"
    );
    for r in &results.rows {
        let p = r.pentanomial;
        let d = |x: Option<u32>| x.map_or("-".to_string(), |d| d.to_string());
        // A row whose every pair was one game twice has no variance, hence no interval.
        let elo = if r.games_identical {
            "identical play".to_string()
        } else if r.zero_variance {
            "every pair 1-1".to_string()
        } else {
            format!(
                "{:+.1} [{:+.1}, {:+.1}]",
                r.elo.value + 0.0,
                r.elo.interval.lo,
                r.elo.interval.hi
            )
        };
        out += &format!(
            "{:<44} {:<10} {:<16} {:>7} {:>6} {:>24} {:>20} {:>9}\n",
            format!("{} (vs {})", r.a, r.b),
            r.measure.short(),
            r.control,
            format!("{}/{}", d(r.median_depth[0]), d(r.median_depth[1])),
            r.games,
            elo,
            format!("[{} {} {} {} {}]", p[0], p[1], p[2], p[3], p[4]),
            format!("{}/{}", r.draw_rule_pairs, r.games / 2),
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
