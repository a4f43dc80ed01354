//! Detector micro-benchmarks for `replab bench` (issue 5, item 3).
//!
//! One measurement code, two timers: the [`jobs`] (each of the [`scenarios`], the [`walk`] and
//! the copy-make yardstick, run `n` times) are timed by `replab bench` with the deterministic
//! round-robin loop of [`measure`] (median of several calibrated rounds), which needs no cargo
//! at run time and gives every cost as a ratio to one copy-make of a quiet move measured in
//! the same round, so the figures survive a noisy machine; and by criterion (`cargo bench -p
//! replab-benches --bench detectors`), whose estimates the page shows beside them
//! ([`criterion`]) as an independent check.
//!
//! [`run`] measures and returns the [`Results`] (serialisable); [`write()`] writes
//! `results.json`, `index.html` and the `microbench-*.svg` charts into a staged [`ReportDir`].

pub mod criterion;
pub mod measure;
mod page;
pub mod summary;

/// The scenarios, the search walk and their timed jobs, shared with the instruction counts and
/// criterion's benches: they live with the workloads.
pub use replab_workloads::{jobs, scenarios, walk};

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use anyhow::Result;
use replab_report::{Meta, Page, ReportDir};
use replab_settings::Settings;
use serde::{Deserialize, Serialize};

use crate::Progress;
use crate::contribution::{Column, Contribution, Measured, Plot, Table, Unit};
use crate::experiment::{Configuration, Experiment, Headline, Takes};

/// The reversible runs whose cycle cost the landing page's ranking shows (all are plotted).
const RANKED_RUNS: [usize; 4] = [0, 8, 32, 100];

/// The run at which the ranking shows the ratio to a copy-make.
const COPY_MAKE_RUN: usize = 32;

/// A point of the landing page's chart: the cost of a cycle at reversible run `run`.
fn scaling_plot(run: usize) -> Plot {
    Plot {
        title: "Cost of one enter + probe + leave vs reversible run behind the position".into(),
        x_label: "reversible run (plies)".into(),
        y_label: "time (ns per cycle)".into(),
        log_y: true,
        x: run as f64,
    }
}
pub use criterion::{CriterionEstimate, criterion_dir, read_criterion};
pub use summary::{Cheapest, CycleCost, MicrobenchSummary, WalkCost, summarise, summarise_with};

use measure::{Budget, measure_all};

/// The page's title (and the landing page's name for it).
pub const TITLE: &str = "Detector micro-benchmarks";

/// The settings of one micro-benchmark run. No subcommand exposes them (the run is a step of
/// `bench`), so none is an option: `bench` picks [`Config::default`] or [`Config::quick`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// A `--quick` run: recorded in the results and noted on the page (the budget below is what
    /// makes it short; [`Config::quick`] sets both).
    #[arg(skip)]
    pub quick: bool,
    /// Timed rounds per figure (the median is reported), at least 1.
    #[arg(skip)]
    pub rounds: usize,
    /// Target duration of one timed batch.
    #[arg(skip)]
    pub batch: Duration,
    /// Where criterion's results are (`<target>/criterion`, [`criterion_dir`]); the page shows
    /// its estimates beside replab's loop when `cargo bench -p replab-benches --bench detectors`
    /// has left them there. `None`: do not look.
    #[arg(skip)]
    pub criterion_dir: Option<PathBuf>,
    /// The command line that regenerates the report (for `meta`).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
    /// Instruction counts measured elsewhere (`bench`'s own step hands them over,
    /// [`Microbench`]'s [`Takes`]): each run length whose cycles were counted for every
    /// detector is ranked by them.
    #[arg(skip)]
    #[serde(skip)]
    pub instructions: Option<crate::callgrind::InstructionCosts>,
}

impl Default for Config {
    /// `replab bench`'s full run: 61 rounds of 0.5 ms batches (about 15 s on an idle machine);
    /// criterion's results looked for in [`criterion_dir`] of the current directory (the
    /// repository root, where `replab bench` runs).
    fn default() -> Self {
        Self {
            quick: false,
            rounds: Budget::FULL.reps,
            batch: Budget::FULL.batch,
            criterion_dir: Some(criterion_dir(Path::new(""))),
            command: String::new(),
            instructions: None,
        }
    }
}

impl Config {
    /// `replab bench --quick`'s run: 21 rounds of 0.2 ms batches (about 3 s).
    pub fn quick() -> Self {
        Self {
            quick: true,
            rounds: Budget::QUICK.reps,
            batch: Budget::QUICK.batch,
            ..Self::default()
        }
    }

    /// The timing budget of this run.
    pub fn budget(&self) -> Budget {
        Budget {
            reps: self.rounds,
            batch: self.batch,
        }
    }
}

/// Everything `results.json` holds and the page shows:
/// `{"meta": …, "summary": …, "criterion_dir": …, "criterion": …}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// How the report was made.
    pub meta: Meta,
    /// Every figure of the run.
    pub summary: MicrobenchSummary,
    /// Where criterion's results were looked for (`null`: not looked for).
    #[serde(default)]
    pub criterion_dir: Option<String>,
    /// criterion's estimates found there, sorted; `null` when there were none.
    #[serde(default)]
    pub criterion: Option<Vec<CriterionEstimate>>,
}

/// Runs every micro-benchmark with `config`'s budget, checking each detector against the
/// oracle on each scenario first, and summarises them; reads criterion's estimates from
/// `config.criterion_dir` if there are any. Reports one stage to `progress`.
///
/// # Errors
/// If a detector disagrees with the oracle on a scenario.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    let meta = Meta::collect(&config.command);
    let measured = measure_all(config.budget(), progress);
    progress.finish();
    Ok(Results {
        meta,
        summary: summarise_with(&measured?, config.quick, config.instructions.as_ref()),
        criterion_dir: config
            .criterion_dir
            .as_ref()
            .map(|d| d.display().to_string()),
        criterion: config.criterion_dir.as_deref().and_then(read_criterion),
    })
}

/// Writes `results.json`, the `microbench-*.svg` charts and `index.html` into `dir`. The page
/// links back to `../index.html`, the landing page of `replab bench`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_vec_pretty(results)?)?;
    let mut page = Page::new(TITLE, &results.meta)
        .nav([("All reports", "../index.html")])
        .section("Summary", page::summary_section(&results.summary)?);
    for (heading, html) in page::sections(&results.summary, dir)? {
        page = page.section(heading, html);
    }
    page = page.section("criterion's estimates", page::criterion_section(results)?);
    page.write(dir, "index.html")?;
    Ok(())
}

/// The micro-benchmarks as an experiment of the table (no subcommand of their own).
pub struct Microbench;

impl Configuration for Config {
    fn quick() -> Self {
        Config::quick()
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }
}

/// In `bench`, the micro-benchmarks take the instruction counts of `bench`'s own step: their
/// cycles rank the detectors exactly where every detector was counted.
impl Takes for Microbench {
    type Input = Option<crate::callgrind::InstructionCosts>;

    fn take(config: &mut Config, input: &Self::Input) {
        config.instructions.clone_from(input);
    }
}

impl Experiment for Microbench {
    const NAME: &'static str = "micro-benchmarks";
    const DIR: &'static str = "microbench";
    const TITLE: &'static str = TITLE;
    type Config = Config;
    type Results = Results;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
        run(config, progress)
    }

    fn write(results: &Results, dir: &ReportDir) -> Result<()> {
        write(results, dir)
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        vec![Headline {
            label: "Cheapest per probe.".into(),
            context: Vec::new(),
            text: results.summary.cheapest_sentence.clone(),
        }]
    }

    /// The cost of a cycle with no repetition, by reversible run: every run on the landing
    /// page's chart, a few of them and the ratio to a copy-make in the ranking.
    fn contributions(results: &Results) -> Vec<Contribution> {
        results
            .summary
            .runs
            .iter()
            .filter(|c| !c.hit)
            .flat_map(|c| {
                let tables: &'static [Table] = if RANKED_RUNS.contains(&c.run) {
                    &[Table::Ranking]
                } else {
                    &[]
                };
                let ns = Column::new(
                    format!("ns-run-{}", c.run),
                    format!("ns, run {}", c.run),
                    Unit::Number { decimals: 1 },
                )
                .tables(tables)
                .plot(scaling_plot(c.run));
                let ratio = (c.run == COPY_MAKE_RUN).then(|| {
                    let column = Column::new(
                        format!("copy-make-run-{}", c.run),
                        format!("× copy-make, run {}", c.run),
                        Unit::Number { decimals: 2 },
                    );
                    Contribution::new(c.detector, column, Measured::value(c.ratio.value))
                });
                std::iter::once(Contribution::new(
                    c.detector,
                    ns,
                    Measured::value(c.ns.value),
                ))
                .chain(ratio)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
