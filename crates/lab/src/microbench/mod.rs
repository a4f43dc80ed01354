//! Detector micro-benchmarks for `replab bench` (issue 5, item 3).
//!
//! The careful numbers come from criterion (`cargo bench -p replab-lab --bench detectors`);
//! `replab bench` runs the same [`scenarios`] and [`walk`] through the simple deterministic
//! timing loop of [`measure`] (median of several calibrated rounds), so it needs no cargo at run
//! time. Every cost is also given as a ratio to one copy-make of a quiet move measured in the
//! same round, so the figures survive a noisy machine.
//!
//! [`run`] measures and returns the [`Results`] (serialisable); [`write()`] writes
//! `results.json`, `index.html` and the `microbench-*.svg` charts into a staged [`ReportDir`].

pub mod measure;
mod page;
pub mod scenarios;
pub mod summary;
pub mod walk;

use std::time::Duration;

use anyhow::Result;
use replab_report::{Meta, Page, ReportDir};
use serde::{Deserialize, Serialize};

use crate::Progress;
pub use summary::{Cheapest, CycleCost, MicrobenchSummary, TIE, WalkCost, summarise};

use measure::{Budget, measure_all};

/// The page's title (and the landing page's name for it).
pub const TITLE: &str = "Detector micro-benchmarks";

/// The settings of one micro-benchmark run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// A `--quick` run: recorded in the results and noted on the page (the budget below is what
    /// makes it short; [`Config::quick`] sets both).
    pub quick: bool,
    /// Timed rounds per figure (the median is reported), at least 1.
    pub rounds: usize,
    /// Target duration of one timed batch.
    pub batch: Duration,
    /// The command line that regenerates the report (for `meta`).
    pub command: String,
}

impl Default for Config {
    /// `replab bench`'s full run: 61 rounds of 0.5 ms batches (about 15 s on an idle machine).
    fn default() -> Self {
        Self {
            quick: false,
            rounds: Budget::FULL.reps,
            batch: Budget::FULL.batch,
            command: "replab bench".to_owned(),
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
            command: "replab bench --quick".to_owned(),
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

/// Everything `results.json` holds and the page shows: `{"meta": …, "summary": …}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// How the report was made.
    pub meta: Meta,
    /// Every figure of the run.
    pub summary: MicrobenchSummary,
}

/// Runs every micro-benchmark with `config`'s budget, checking each detector against the
/// oracle on each scenario first, and summarises them. Reports one stage to `progress`.
///
/// # Errors
/// If a detector disagrees with the oracle on a scenario.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    let meta = Meta::collect(&config.command);
    let measured = measure_all(config.budget(), progress);
    progress.finish();
    Ok(Results {
        meta,
        summary: summarise(&measured?, config.quick),
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
    page.write(dir, "index.html")?;
    Ok(())
}

#[cfg(test)]
mod tests;
