//! `replab elo [--quick]`: what each repetition choice is worth in Elo. A gauntlet of
//! self-play matches (`replab-selfplay`) against a baseline, linear detection with
//! Stockfish's draw policy: detection off, every searchable detector, each draw policy (with
//! the engine presets that equal it), the upcoming-cycle rule, truncated keys, the GHI
//! mitigations and Stockfish's draw-score jitter, at fixed nodes and, for a few rows, at a
//! time control.

mod page;
mod rows;
crate::settings!(Config, check);

/// The self-play gauntlet as an experiment of the table.
pub struct Elo;

impl crate::experiment::Experiment for Elo {
    crate::experiment_items!("elo", "elo", summary);

    fn headlines(results: &Results) -> Vec<crate::experiment::Headline> {
        vec![crate::experiment::Headline {
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
    if r.machine_too_busy {
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
    Book, Control, MatchConfig, MatchResults, PlayerSpec, Termination, play,
    stats::{self, Decision, EloEstimate},
};
use serde::{Deserialize, Serialize};

pub use rows::{BASELINE, Published, ROWS, Row};

use crate::Progress;
use crate::contribution::{
    Better, Choice, Column, Contribution, Measured, Phrase, Role, Rows, Unit,
};
use crate::experiment::check_range;

/// The page's title.
pub const TITLE: &str = "Elo of each choice: self-play gauntlet";

/// The settings of `replab elo`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Nodes per move of the fixed-node matches.
    pub nodes: u64,
    /// Games per fixed-node match (even).
    pub games: u64,
    /// The time control of the timed matches (`BASE+INC` seconds).
    pub tc: String,
    /// Games per timed match (even; 0: no timed matches).
    pub tc_games: u64,
    /// Seed of the opening order.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// The command line that regenerates the report.
    pub command: String,
}

impl Default for Config {
    /// The full run (part of `bench`).
    fn default() -> Self {
        Config {
            nodes: 1000,
            games: 600,
            tc: "0.2+0.002".into(),
            tc_games: 100,
            seed: 1,
            threads: crate::engine::default_threads(),
            command: "replab elo".into(),
        }
    }
}

impl Config {
    /// The short run of `bench --quick`.
    pub fn quick() -> Self {
        Config {
            nodes: 1000,
            games: 100,
            tc: "0.2+0.002".into(),
            tc_games: 16,
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
        ensure!(
            self.tc_games.is_multiple_of(2),
            "--tc-games {}: an even number",
            self.tc_games
        );
        ensure!(
            (1..=10_000_000).contains(&self.nodes),
            "--nodes {} is out of range (1 to 10000000)",
            self.nodes
        );
        Control::parse_tc(&self.tc).context("--tc")?;
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
    /// Player A, canonical.
    pub a: String,
    /// Player B (the baseline of the row), canonical.
    pub b: String,
    /// `N nodes` or the time control.
    pub control: String,
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
    /// The published figure of the same change, if an engine measured it.
    pub published: Option<Published>,
    /// Games lost on time (timed rows; 0 at fixed nodes).
    #[serde(default)]
    pub time_forfeits: u64,
    /// A timed row with more than [`BUSY_FORFEIT_SHARE`] of its games lost on time: the clock
    /// measured the machine, not the engine, so the row gets no verdict.
    #[serde(default)]
    pub machine_too_busy: bool,
    /// Wall time, seconds.
    #[serde(with = "crate::interval::single_sample")]
    pub wall_s: f64,
    /// Search time summed over threads, seconds.
    #[serde(with = "crate::interval::single_sample")]
    pub search_s: f64,
}

/// The share of a timed row's games that may end by time forfeit before the row is judged
/// to have measured the machine (1%).
pub const BUSY_FORFEIT_SHARE: f64 = 0.01;

/// Whether `forfeits` of `games` timed games is more than [`BUSY_FORFEIT_SHARE`].
pub fn too_busy(forfeits: u64, games: u64) -> bool {
    games > 0 && forfeits as f64 > BUSY_FORFEIT_SHARE * games as f64
}

/// Totals of the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Games played.
    pub games: u64,
    /// Wall time of all matches, seconds.
    #[serde(with = "crate::interval::single_sample")]
    pub wall_s: f64,
    /// Games per second of wall time.
    #[serde(with = "crate::interval::single_sample")]
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
    /// Games per timed match.
    pub tc_games: u64,
    /// Seed.
    pub seed: u64,
    /// The opening book.
    pub book: String,
    /// The baseline.
    pub baseline: String,
}

/// Results of `replab elo`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Settings.
    pub config: ConfigRecord,
    /// One result per row and control, fixed nodes first.
    pub rows: Vec<RowResult>,
    /// Totals.
    pub totals: Totals,
    /// Report metadata.
    pub meta: Meta,
}

/// Plays every row's match.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let book = Arc::new(Book::builtin());
    let tc = Control::parse_tc(&config.tc)?;
    let mut jobs: Vec<(&Row, Control, u64)> = ROWS
        .iter()
        .map(|r| (r, Control::Nodes(config.nodes), config.games))
        .collect();
    if config.tc_games > 0 {
        jobs.extend(
            ROWS.iter()
                .filter(|r| r.at_tc)
                .map(|r| (r, tc, config.tc_games)),
        );
    }
    let total_games: u64 = jobs.iter().map(|j| j.2).sum();
    progress.stage("elo: games", total_games);
    let mut rows = Vec::with_capacity(jobs.len());
    let mut totals = Totals {
        threads: config.threads,
        ..Totals::default()
    };
    let mut search_s = 0.0;
    for (row, control, games) in jobs {
        let m = MatchConfig {
            a: PlayerSpec::parse(&row.a).with_context(|| format!("row {}", row.label))?,
            b: PlayerSpec::parse(&row.b).with_context(|| format!("row {}", row.label))?,
            control,
            games,
            seed: config.seed,
            book: book.clone(),
            bounds: stats::DEFAULT_BOUNDS,
            early_stop: false,
            shard: None,
            threads: config.threads,
            cost_scaling: None,
        };
        let mut last = 0;
        let (results, _) = play(&m, &mut |done, _| {
            progress.advance(2 * (done - last));
            last = done;
        })?;
        totals.games += results.games;
        totals.wall_s += results.timing.wall_s;
        search_s += results.timing.search_s;
        totals.table_bytes_per_worker = totals
            .table_bytes_per_worker
            .max(results.timing.table_bytes_per_worker);
        rows.push(row_result(row, &results));
    }
    progress.finish();
    totals.games_per_second = totals.games as f64 / totals.wall_s.max(1e-9);
    totals.outside_search_share =
        (1.0 - search_s / (totals.wall_s * config.threads as f64)).max(0.0);
    totals.peak_rss_kib = replab_selfplay::run::peak_rss_kib();
    Ok(Results {
        config: ConfigRecord {
            nodes: config.nodes,
            games: config.games,
            tc: config.tc.clone(),
            tc_games: config.tc_games,
            seed: config.seed,
            book: book.name.clone(),
            baseline: BASELINE.into(),
        },
        rows,
        totals,
        meta: Meta::collect(&config.command),
    })
}

/// A row's line of the table from its match.
fn row_result(row: &Row, r: &MatchResults) -> RowResult {
    let control = match r.identity.control {
        Control::Nodes(n) => format!("{n} nodes"),
        c => format!("tc {}", c.pgn()),
    };
    let p = r.pentanomial_fastchess;
    let no_difference = r.elo.contains(0.0);
    let forfeits = r
        .terminations
        .get(Termination::TimeForfeit.name())
        .copied()
        .unwrap_or(0);
    RowResult {
        group: row.group.into(),
        label: row.label.clone(),
        a: r.identity.a.clone(),
        b: r.identity.b.clone(),
        control,
        deterministic: r.deterministic,
        games: r.games,
        pentanomial: r.pentanomial,
        elo: r.elo,
        nelo: r.nelo,
        llr: r.sprt.llr,
        decision: r.sprt.decision,
        no_measurable_difference: no_difference,
        games_to_resolve: stats::games_to_resolve(&p, r.elo.value),
        games_identical: !r.pair_results.is_empty() && r.pair_results.iter().all(|q| q.same_moves),
        published: row.published.clone(),
        time_forfeits: forfeits,
        machine_too_busy: !r.deterministic && too_busy(forfeits, r.games),
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
    let fixed: Vec<&RowResult> = results.rows.iter().filter(|r| r.deterministic).collect();
    let measurable: Vec<String> = fixed
        .iter()
        .filter(|r| !r.no_measurable_difference)
        .map(|r| format!("{} {:+.0} ± {:.0}", r.a, r.elo.value, r.elo.error()))
        .collect();
    format!(
        "Against {} at {} nodes per move ({} games per choice), {} of {} choices differ \
         measurably in Elo (95% interval excludes 0){}",
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
        "{:<44} {:<12} {:>6} {:>24} {:>20}\n",
        "player A (vs baseline B)", "control", "games", "Elo [95%]", "[LL LD WL+DD WD WW]"
    );
    for r in &results.rows {
        let p = r.pentanomial;
        out += &format!(
            "{:<44} {:<12} {:>6} {:>+8.1} [{:>+6.1}, {:>+6.1}] {:>20}\n",
            format!("{} (vs {})", r.a, r.b),
            r.control,
            r.games,
            r.elo.value,
            r.elo.interval.lo,
            r.elo.interval.hi,
            format!("[{} {} {} {} {}]", p[0], p[1], p[2], p[3], p[4]),
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
