//! The Axon experiment as a study (`replab study`): does the paper's claim — move-chain
//! repetition detection makes the tree smaller and the search faster, "especially in
//! endgames" — hold beyond one position, one searcher and one timing?
//!
//! Three parts, all under draw policy `twofold` (the only one `axon` serves):
//! - the **sensitivity grid** ([`grid`]): WAC.018 by iterative deepening under 14 searcher
//!   configurations (the `default` and `axon-like` profiles, each as it is and with one setting
//!   changed), each with `off`, `axon` and `linear`; times are medians of interleaved repeats;
//! - the **endgame suite** ([`endgames`]): a few hundred seeded few-piece endings, each searched
//!   to a fixed depth under both profiles with `off`, `axon` and `linear`; the distribution of
//!   per-position changes with a distribution-free 95% interval of the median;
//! - **WAC** for contrast, the same way;
//!
//! and a [`Verdict`] generated from the numbers. [`run`] searches and returns the [`Results`],
//! [`write`] writes `results.json`, `endgames.epd`, the heat map and `index.html`;
//! [`summary_table`] is what the command line prints.

pub mod confirmed;
pub mod grid;
mod page;
mod results;
mod sets;
mod verdict;

use anyhow::{Context, Result};
use replab_board::Position;
use replab_detect::DrawPolicy;
use replab_registry::DetectorId;
use replab_report::{Meta, ReportDir, fmt_delta_pct};
use replab_search::SearchConfig;
use replab_settings::Settings;
use serde::{Deserialize, Serialize};

pub use results::{
    Aggregate, ClaimRow, ClaimVerdict, Distribution, ExactVerdict, FalseDraws, GridConfig, GridRun,
    GridTotal, Judgement, PaperClaims, PositionRun, PositionRuns, PositionSet, Profile, Results,
    Setup, Verdict,
};

use crate::contribution::Phrase;
use crate::experiment::{Configuration, Experiment, Headline, Takes};
use crate::{Progress, compare::Reference, datasets, endgames};

/// The page title.
pub const TITLE: &str = "The Axon experiment as a study: grid, endgames, verdict";

/// The settings of `replab study`, each declared on its field: the doc comment is its help.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// Deepest iteration of the WAC.018 grid ({range}; the paper's 12).
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub grid_depth: u32,
    /// Interleaved repeats of every grid configuration ({range}); times are their medians.
    #[arg(long, value_name = "K")]
    #[setting(range = 1..=100)]
    pub repeat: u32,
    /// Timings at the edge: where axon's time against matrix's on a position set (over its
    /// paired rounds), or a grid detector's against off, does not clear zero by the timing's
    /// resolution, another round is run (axon and matrix on every position of the set; every
    /// detector of the grid configuration), up to this many times the fixed rounds in all
    /// ({range}; 1 adds none and gives such a change as within ±x% at once).
    #[arg(long, value_name = "K")]
    #[setting(range = 1..=10)]
    #[serde(default = "crate::resolution::default_factor")]
    pub edge_factor: usize,
    /// Paired rounds of axon and matrix alone on every position of each set ({range}; 0 for
    /// none): the claim that move chains are faster than the matrix is judged on the median
    /// over the rounds of each round's median per-position change, with its interval over the
    /// rounds (6 is the fewest that reaches 95%); with 0, on the first pass's per-position
    /// times and their interval over the positions.
    #[arg(long, value_name = "K")]
    #[setting(range = 0..=50)]
    #[serde(default)]
    pub set_rounds: usize,
    /// Cap on the wall time of each set's (and each grid configuration's) rounds at the edge,
    /// seconds ({range}): no round is begun after it once nine rounds, the settled count, were
    /// taken.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    #[setting(range = 0.0..=3600.0)]
    #[serde(default = "crate::resolution::default_edge_seconds")]
    pub edge_max_seconds: f64,
    /// The smallest resolution of a timed change, a fraction ({range}): a timed claim gives a
    /// direction only when its interval clears 0 by this (or by its half-width, if larger).
    #[arg(long, value_name = "F")]
    #[setting(range = 0.01..=10.0)]
    #[serde(default = "crate::resolution::default_floor")]
    pub time_resolution: f64,
    /// Depth of the endgame searches.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub endgame_depth: u32,
    /// Endgames generated and searched.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=10_000)]
    pub endgames: usize,
    /// Depth of the WAC searches.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub wac_depth: u32,
    /// WAC records searched for contrast (the first N of datasets/wac.epd, {range}; 0 for none).
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=300)]
    pub wac_records: usize,
    /// Seed of the endgame generator.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Worker threads ({range}); the counters do not depend on it.
    #[arg(long, value_name = "T")]
    #[setting(range = 1..=256)]
    pub threads: usize,
    /// Worker threads of the grid ({range}; the short run's: the default of --threads). Its
    /// timed rounds move with a search on another core: timed beside one, with a searcher per
    /// search, the per-process medians of linear against off under default spread with a
    /// standard deviation of 1.9 points, alone 0.6 (2026-11-30), so the full run times the
    /// grid on one thread. The counters do not depend on it.
    #[arg(long, value_name = "T")]
    #[setting(range = 1..=256)]
    #[serde(default = "crate::engine::default_threads")]
    pub grid_threads: usize,
    /// Whether every grid search has a searcher of its own (true or false; the short run's:
    /// false). A searcher kept for every round keeps one placement of its tables in memory,
    /// and the run's median keeps that placement's speed; the short run, which adds no round
    /// at the edge and gives its times as figures, keeps one searcher per detector (a searcher
    /// per search made its study 2 s slower in 20, 2026-11-30).
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set, hide_possible_values = true)]
    #[setting(shown_by_display)]
    #[serde(default)]
    pub fresh_searchers: bool,
    /// Whether each grid round runs its three searches at once on one core, timed by each
    /// thread's CPU time (true or false; Linux only, with one grid thread; the short run's:
    /// false). Run one after another, a detector's search and `off`'s meet different spells
    /// of the machine: one job took 2.4 to 9.7 s in turn on the 2-core machine, and three at
    /// once on one core were within 2.5% of each other in every round (2026-11-30); the grid's
    /// searches of 4-20 s under tt-off moved a detector's median by 30% between full runs.
    /// A detector done first searches again until the last is done; its time is the mean over
    /// its complete searches.
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set, hide_possible_values = true)]
    #[setting(shown_by_display)]
    #[serde(default)]
    pub shared_core: bool,
    /// The command line that regenerates the report (in `meta`).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
    /// Instruction counts measured elsewhere (`bench`'s own step hands them over, [`Study`]'s
    /// [`Takes`]): the claim that move chains are faster than the matrix is judged on them too.
    #[arg(skip)]
    #[serde(skip)]
    pub instructions: Option<crate::callgrind::InstructionCosts>,
}

impl Default for Config {
    /// The command line's defaults (the full run).
    fn default() -> Self {
        Self {
            grid_depth: 12,
            repeat: 6,
            edge_factor: crate::resolution::EDGE_ROUNDS_FACTOR,
            set_rounds: SET_ROUNDS,
            edge_max_seconds: crate::resolution::EDGE_SECONDS,
            time_resolution: STUDY_TIME_RESOLUTION,
            endgame_depth: 8,
            endgames: 240,
            wac_depth: 6,
            wac_records: 100,
            seed: 1,
            threads: crate::engine::default_threads(),
            grid_threads: GRID_THREADS,
            fresh_searchers: true,
            shared_core: replab_workloads::one_core::available(),
            command: String::new(),
            instructions: None,
        }
    }
}

impl Config {
    /// How far the rounds at the edge go: the edge factor, the time resolution and the edge's
    /// seconds.
    pub fn edge_limits(&self) -> crate::resolution::EdgeLimits {
        crate::resolution::EdgeLimits::new(self.edge_factor, self.time_resolution)
            .within(self.edge_max_seconds)
    }

    /// The short run of `bench --quick`.
    pub fn quick() -> Self {
        Self {
            grid_depth: 8,
            repeat: 6,
            edge_factor: 1,
            set_rounds: 0,
            time_resolution: crate::resolution::SHORT_RUN_RESOLUTION,
            endgame_depth: 6,
            endgames: 200,
            wac_depth: 4,
            wac_records: 30,
            grid_threads: crate::engine::default_threads(),
            fresh_searchers: false,
            shared_core: false,
            ..Self::default()
        }
    }
}

/// The grid's worker threads in the full run: one, so that no search runs beside its timed
/// rounds ([`Config::grid_threads`]).
pub const GRID_THREADS: usize = 1;

/// The detectors of the paper's point that move chains are faster than the 512-bit position
/// matrix: `axon` against `matrix`, timed in paired rounds ([`Config::set_rounds`], more at the
/// edge: [`crate::resolution`]).
pub const CHAINS_AGAINST_MATRIX: [DetectorId; 2] = [grid::SUBJECT, DetectorId::Matrix];

/// The paired rounds of [`CHAINS_AGAINST_MATRIX`] on each position set in the full run: the
/// fewest whose interval over the rounds reaches 95% (96.9%).
pub const SET_ROUNDS: usize = 6;

/// The smallest resolution of the study's timed claims in the full run (15%; the Axon
/// reproduction keeps [`crate::resolution::TIME_RESOLUTION`]). The grid's time changes of
/// `linear` against `off` moved between full runs of one build by 2–3 points (b37a769,
/// 2026-11-30: `default/material` +6.1% and +8.2%, `default/qsearch-checks` +13.1% and +10.4%)
/// and between builds with the same search code by up to 12 (`default/material` from +5.5% to
/// +17.6% over eight full runs). At 5%, `default/material`'s row (+5.5% to +9.8% in seven of
/// them) gave a direction in three runs and none in five. Over the grid's rows of those eight
/// runs, an interval's nearer end lay within 2 points of the resolution it had to clear 12 times
/// at 5% and 5 times at 15%. The study's verdicts on the paper's counts rest on the exact
/// counters.
pub const STUDY_TIME_RESOLUTION: f64 = 0.15;

/// Deepest grid or endgame depth accepted.
pub const MAX_DEPTH: u32 = 20;

/// The paper's claims from `datasets/paper/axon-tables.json`, as references for a grid searched
/// to `grid_depth` (generated positions rescoped to depths 1–`grid_depth` from the per-depth
/// table; terminal nodes and time exist only as depth 1–12 totals).
pub fn paper_claims(grid_depth: u32) -> Result<PaperClaims> {
    let paper = crate::paper::load()?;
    let (terminal_change, generated_change, time_change) = paper.changes();
    let generated_reference = paper.generated_reference(grid_depth);
    let last = generated_reference.scope.depths.map_or(0, |d| d[1]);
    Ok(PaperClaims {
        terminal_reference: Reference::change("paper", terminal_change, paper.totals_scope()),
        time_reference: Reference::change("paper", time_change, paper.totals_scope()),
        generated_reference,
        generated_on_in_scope: paper
            .on
            .iter()
            .filter(|r| r.depth <= last)
            .map(|r| r.nodes)
            .sum(),
        terminal_change,
        generated_change,
        time_change,
        repetitions: paper.totals.on.repetitions.unwrap_or(0),
        generated_on: paper.totals.on.generated,
        generated_change_by_depth: paper
            .off
            .iter()
            .zip(&paper.on)
            .map(|(off, on)| (off.depth, grid::change(on.nodes as f64, off.nodes as f64)))
            .collect(),
    })
}

/// Runs the study: the grid, the endgames, WAC, the verdict. Progress: one stage per part.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let meta = Meta::collect(&config.command);
    let paper = paper_claims(config.grid_depth)?;
    let policy = DrawPolicy::Twofold;
    let profiles: Vec<Profile> = SearchConfig::profiles()
        .into_iter()
        .map(|(name, search)| Profile {
            name: name.to_string(),
            search,
        })
        .collect();

    // The grid.
    let wac018 = Position::from_fen(datasets::WAC018).expect("WAC.018 FEN is valid");
    let mut grid_configs = grid::configs(config.grid_depth);
    let (grid_runs, grid_totals) = grid::run(&wac018, &grid_configs, config, &paper, progress)?;
    grid::mark_identical(&mut grid_configs, &grid_runs);
    // Axon's own false draws: the same searches with every axon draw confirmed by the oracle.
    let false_draws = confirmed::measure(
        &wac018,
        &grid_configs,
        &grid_totals,
        config.threads,
        progress,
    )?;

    // The position sets.
    let detectors = set_detectors(policy);
    let endgames = endgame_set(config, &profiles, &detectors, policy, progress)?;

    let wac = wac_set(config, &profiles, &detectors, policy, progress)?;
    progress.finish();

    let mut results = Results {
        meta,
        config: setup(config, policy),
        paper,
        profiles,
        grid_configs,
        grid: grid_runs,
        grid_totals,
        false_draws,
        endgame_detectors: detectors,
        instructions: config
            .instructions
            .as_ref()
            .map(|c| c.search.clone())
            .unwrap_or_default(),
        endgames,
        wac,
        verdict: Verdict {
            claims: Vec::new(),
            summary: String::new(),
            unknowns: Vec::new(),
            false_draws: String::new(),
        },
    };
    results.verdict = verdict::verdict(&results);
    Ok(results)
}

/// The detectors searched on the position sets: `off`, `axon` and `linear` first, then every
/// other search detector `policy` allows.
fn set_detectors(policy: DrawPolicy) -> Vec<DetectorId> {
    grid::GRID_DETECTORS
        .into_iter()
        .chain(
            DetectorId::select(|c| c.searchable)
                .into_iter()
                .filter(|d| !grid::GRID_DETECTORS.contains(d))
                .filter(|d| replab_registry::check_policy(d.name(), policy).is_ok()),
        )
        .collect()
}

/// The searcher `profiles` at `depth` under `policy`.
fn with_depth(profiles: &[Profile], depth: u32, policy: DrawPolicy) -> Vec<(String, SearchConfig)> {
    profiles
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                SearchConfig {
                    max_depth: depth,
                    policy,
                    ..p.search
                },
            )
        })
        .collect()
}

/// Generates the seeded endgame suite and searches it with every profile and detector.
fn endgame_set(
    config: &Config,
    profiles: &[Profile],
    detectors: &[DetectorId],
    policy: DrawPolicy,
    progress: &mut dyn Progress,
) -> Result<PositionSet> {
    let suite = endgames::generate(config.seed, config.endgames)?;
    let jobs: Vec<sets::Job<'_>> = suite
        .iter()
        .map(|e| sets::Job {
            id: e.id.clone(),
            class: e.class.to_string(),
            positions: &e.positions,
            moves: &e.moves,
        })
        .collect();
    let searched = with_depth(profiles, config.endgame_depth, policy);
    let mut eg_positions = sets::search_set(
        "endgames",
        &jobs,
        &searched,
        detectors,
        config.threads,
        progress,
    )?;
    sets::time_in_rounds(
        "endgames",
        &jobs,
        &searched,
        &mut eg_positions,
        CHAINS_AGAINST_MATRIX,
        config,
        progress,
    )?;
    let eg_aggregates = sets::aggregate("endgames", &eg_positions);
    Ok(PositionSet {
        set: "endgames".into(),
        depth: config.endgame_depth,
        description: format!(
            "{} seeded endgames (seed {}) of at most {} men, kings included: rook, pawn and \
             minor-piece endings reduced from the positions of datasets/*.epd and \
             datasets/games/*.pgn, each after a seeded random playout of 4–16 plies that is its \
             game history",
            eg_positions.len(),
            config.seed,
            endgames::MAX_MEN
        ),
        positions: eg_positions,
        aggregates: eg_aggregates,
    })
}

/// Searches the first WAC records with every profile and detector.
fn wac_set(
    config: &Config,
    profiles: &[Profile],
    detectors: &[DetectorId],
    policy: DrawPolicy,
    progress: &mut dyn Progress,
) -> Result<PositionSet> {
    let wac_records = datasets::WAC.positions(config.wac_records)?;
    let wac_jobs: Vec<sets::Job<'_>> = wac_records
        .iter()
        .map(|(id, p)| sets::Job {
            id: id.clone(),
            class: "wac".into(),
            positions: std::slice::from_ref(p),
            moves: &[],
        })
        .collect();
    let searched = with_depth(profiles, config.wac_depth, policy);
    let mut wac_positions = if wac_jobs.is_empty() {
        Vec::new()
    } else {
        sets::search_set(
            "WAC",
            &wac_jobs,
            &searched,
            detectors,
            config.threads,
            progress,
        )?
    };
    sets::time_in_rounds(
        "WAC",
        &wac_jobs,
        &searched,
        &mut wac_positions,
        CHAINS_AGAINST_MATRIX,
        config,
        progress,
    )?;
    Ok(PositionSet {
        set: "wac".into(),
        depth: config.wac_depth,
        description: format!(
            "the first {} records of {} (Win At Chess, mostly middlegames), no game history",
            wac_positions.len(),
            datasets::WAC.path
        ),
        aggregates: sets::aggregate("wac", &wac_positions),
        positions: wac_positions,
    })
}

/// The settings the results record: `config` as run, the endgames' size limit, the policy and
/// the grid's thresholds.
fn setup(config: &Config, policy: DrawPolicy) -> Setup {
    Setup {
        settings: config.clone(),
        max_men: endgames::MAX_MEN,
        policy: policy.name().into(),
        count_noise: grid::COUNT_NOISE,
        size_tolerance: grid::SIZE_TOLERANCE,
    }
}

/// Writes `results.json`, `endgames.epd` (the generated suite, readable by `replab suite`),
/// `grid.svg` and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_string_pretty(results)?)
        .context("writing results.json")?;
    let suite = endgames::generate(
        results.config.settings.seed,
        results.config.settings.endgames,
    )?;
    let mut epd = format!(
        "# replab: the study's endgames, seed {}, at most {} men (generator: crates/lab/workloads/src/endgames.rs)\n",
        results.config.settings.seed,
        endgames::MAX_MEN
    );
    for e in &suite {
        epd.push_str(&e.epd_line());
        epd.push('\n');
    }
    dir.write("endgames.epd", epd)
        .context("writing endgames.epd")?;
    page::write(results, dir).context("writing index.html")
}

/// The table the command line prints: grid totals per configuration for axon and linear, the
/// position sets' medians, and the verdict.
pub fn summary_table(results: &Results) -> String {
    let mut out = format!(
        "Grid: WAC.018, depths 1-{}, policy twofold, time = median of {} interleaved repeats \
         (paper: terminal {}, generated {}, time {})\n",
        results.config.settings.grid_depth,
        results.config.settings.repeat,
        fmt_delta_pct(results.paper.terminal_change),
        fmt_delta_pct(results.paper.generated_change),
        fmt_delta_pct(results.paper.time_change),
    );
    out += &format!(
        "{:<30} {:<7} {:>8} {:>8} {:>22} {:>6} {:>16}\n",
        "configuration", "det", "Δterm", "Δgen", "Δtime [95% CI]", "reps", "term/gen/time"
    );
    for t in results.grid_totals.iter().filter(|t| t.detector != "off") {
        out += &format!(
            "{:<30} {:<7} {:>8} {:>8} {:>22} {:>6} {:>16}\n",
            t.config,
            t.detector,
            fmt_delta_pct(t.terminal_change),
            fmt_delta_pct(t.generated_change),
            t.time_change.text(fmt_delta_pct),
            t.counters.repetitions,
            format!(
                "{}/{}/{}",
                short(t.terminal_vs_paper),
                short(t.generated_vs_paper),
                short(t.time_vs_paper)
            ),
        );
    }
    for set in [&results.endgames, &results.wac] {
        if set.positions.is_empty() {
            continue;
        }
        out += &format!(
            "\n{} ({} positions, depth {}): per-position change against off, median [95% CI]\n",
            set.set,
            set.positions.len(),
            set.depth
        );
        out += &format!(
            "{:<10} {:<16} {:>26} {:>26} {:>9} {:>26}\n",
            "profile", "det", "Δterminal", "Δgenerated", "shrinks", "Δtime"
        );
        for a in &set.aggregates {
            let d = |x: &Distribution| x.median.text(fmt_delta_pct);
            out += &format!(
                "{:<10} {:<16} {:>26} {:>26} {:>8.0}% {:>26}\n",
                a.profile,
                a.detector,
                d(&a.terminal),
                d(&a.generated),
                a.generated.shrinks * 100.0,
                d(&a.time)
            );
        }
    }
    out += "\nVerdict:\n";
    for c in &results.verdict.claims {
        out += &format!(
            "- {}: {}. {} {}\n",
            c.claim, c.support, c.when, c.confidence
        );
    }
    out += &format!("\n{}\n", results.verdict.summary);
    if !results.verdict.false_draws.is_empty() {
        out += &format!("{}\n", results.verdict.false_draws);
    }
    out
}

/// A one-letter code of a judgement for the summary table.
fn short(j: Judgement) -> &'static str {
    match j {
        Judgement::SameDirectionSimilarSize => "R",
        Judgement::SameDirection => "d",
        Judgement::NoMeasurableDifference => "0",
        Judgement::Opposite => "X",
        Judgement::NotComparable => "-",
        Judgement::TooFewSamples => "?",
        Judgement::WithinResolution => "~",
    }
}

/// The study as an experiment of the table.
pub struct Study;

/// In `bench`, the study takes the instruction counts of `bench`'s own step: the searches of
/// `axon` and `matrix` judge the claim that move chains are faster on exact counts too.
impl Takes for Study {
    type Input = Option<crate::callgrind::InstructionCosts>;

    fn take(config: &mut Config, input: &Self::Input) {
        config.instructions.clone_from(input);
    }
}

impl Configuration for Config {
    fn quick() -> Self {
        Config::quick()
    }

    /// The grid to depth 6, 24 endgames at depth 4 and 6 WAC records at depth 3, each timed in
    /// the short run's 6 rounds.
    fn smoke() -> Self {
        Config {
            grid_depth: 6,
            endgame_depth: 4,
            endgames: 24,
            wac_depth: 3,
            wac_records: 6,
            ..Config::quick()
        }
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }

    /// Refuses settings out of range, and searches at once on one core where threads cannot
    /// be pinned or where several grid configurations would share the core.
    fn check(&self) -> Result<()> {
        self.check_ranges()?;
        if self.shared_core {
            anyhow::ensure!(
                replab_workloads::one_core::available(),
                "{} true needs Linux (pinning threads to one core); give {} false",
                Config::SHARED_CORE,
                Config::SHARED_CORE
            );
            anyhow::ensure!(
                self.grid_threads == 1,
                "{} true times three searches at once on one core, so it needs {} 1, not {}",
                Config::SHARED_CORE,
                Config::GRID_THREADS,
                self.grid_threads
            );
        }
        Ok(())
    }
}

impl Experiment for Study {
    const NAME: &'static str = "study";
    const DIR: &'static str = "study";
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

    fn headlines(results: &Results) -> Vec<Headline> {
        vec![Headline {
            label: "The same claims as a study".into(),
            context: Phrase::parenthesised([
                Phrase::text("many searcher configurations, an endgame suite, "),
                Phrase::report("the study", "study"),
            ]),
            text: results.verdict.summary.clone(),
        }]
    }
}

#[cfg(test)]
mod tests;
