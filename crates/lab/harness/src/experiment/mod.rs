//! What an experiment is: the [`Experiment`] trait every experiment implements once, its
//! settings ([`Configuration`]), and the [`experiments!`](crate::experiments) table that
//! composes experiments into `replab bench`.
//!
//! An experiment declares its name, report directory and title, its `Config` (a
//! [`Configuration`]: every setting declared on its field, `Default` for its subcommand without
//! options, [`Configuration::quick`] for `bench --quick` and [`Configuration::smoke`] for
//! `bench --smoke`), its typed `Results` (what
//! `results.json` holds), how it runs and how it writes its report, and what it gives the
//! landing page: a [`Headline`] and typed [`Contribution`]s to its tables
//! (`crate::contribution`). The binary runs any experiment through one generic path
//! ([`run_and_report`]); `bench` runs the table. An experiment never imports another
//! experiment's module: one reads another's results only as an input its settings take
//! ([`Takes`], `field: Type = takes(source)` in the table).
//!
//! The module's rooms: [`site`] (what `bench` gives an experiment, and takes for the landing
//! page), [`steps`] (bench's numbered steps), [`conclusion`] (what a subcommand prints and how
//! it fails), [`writing`] (a report staged and swapped in) and [`table`] (the experiment table).

pub mod conclusion;
pub mod site;
pub mod steps;
pub mod table;
pub mod writing;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use replab_report::ReportDir;
pub use replab_settings::{Setting, Settings};
use serde::{Serialize, de::DeserializeOwned};

pub use conclusion::{Conclusion, Failure};
pub use site::{Headline, Link, Site};
pub use steps::Steps;
pub use table::ExperimentSet;
pub use writing::{default_out, run_and_report, write_json, write_report};

use crate::Progress;
use crate::contribution::Contribution;

/// An experiment's configuration: every setting declared once, on its field
/// ([`Settings`], derived beside `clap::Args`: the subcommand's options, their ranges and help),
/// `Default` for the subcommand without options, the short run and the one check.
pub trait Configuration: Settings + Clone + Default {
    /// The short run of `bench --quick` (the subcommand's `--quick`, where it has one).
    fn quick() -> Self;
    /// The smallest run of `bench --smoke`: every step's machinery and pages, on samples too
    /// small to decide anything (its tests' end-to-end run). By default the short run.
    fn smoke() -> Self {
        Self::quick()
    }
    /// Records the command line that regenerates the report (it goes into `meta`): the one
    /// typed (the subcommand's, or `bench`'s).
    fn set_command(&mut self, command: String);
    /// Refuses impossible settings before anything runs, naming the setting at fault: the only
    /// validator of a configuration. By default the declared ranges
    /// ([`Settings::check_ranges`]); a configuration with rules across its settings checks
    /// those after them.
    fn check(&self) -> Result<()> {
        self.check_ranges()
    }
}

/// The options every report subcommand ends with: where the report goes, whether to draw.
#[derive(Clone, Debug, Default, clap::Args, replab_settings::Settings)]
pub struct Output {
    /// Report directory, replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Hide the progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// An experiment: one module of the lab, one line of the bench table, one subcommand.
pub trait Experiment {
    /// Its name: the subcommand (`study`, `reproduce axon`) and bench's step label.
    const NAME: &'static str;
    /// Its report directory under the site's root (`study`).
    const DIR: &'static str;
    /// Its page title (also the landing page's link).
    const TITLE: &'static str;
    /// Its settings.
    type Config: Configuration;
    /// Everything its `results.json` holds.
    type Results: Serialize + DeserializeOwned;

    /// Runs the experiment; nothing is written.
    fn run(config: &Self::Config, progress: &mut dyn Progress) -> Result<Self::Results>;

    /// Writes `results.json`, `index.html` and the charts into the staged `dir`.
    fn write(results: &Self::Results, dir: &ReportDir) -> Result<()>;

    /// The table the subcommand prints on stdout when the report is written.
    fn summary(_results: &Self::Results) -> String {
        String::new()
    }

    /// What the subcommand does once the report is written: print the table and the page's
    /// path, and fail (exit 2) when the run skipped bad input. `index` is the page written.
    fn conclude(results: &Self::Results, index: &Path) -> Result<Conclusion> {
        Ok(Conclusion {
            stdout: format!("{}\nwrote {}\n", Self::summary(results), index.display()),
            stderr: String::new(),
            failure: None,
        })
    }

    /// Its lines among the landing page's headlines.
    fn headlines(_results: &Self::Results) -> Vec<Headline> {
        Vec::new()
    }

    /// Its values for the landing page's tables (the decision table, the ranking, the chart).
    fn contributions(_results: &Self::Results) -> Vec<Contribution> {
        Vec::new()
    }

    /// Sections of its own on the landing page: (heading, HTML).
    fn sections(_results: &Self::Results) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Its settings in `bench` (default: [`Site::settings`]).
    fn bench_config(site: &Site) -> Result<Self::Config> {
        Ok(site.settings::<Self>())
    }

    /// Its steps in `bench` (default: one, named [`Self::NAME`]).
    fn steps(_config: &Self::Config) -> Vec<String> {
        vec![Self::NAME.to_string()]
    }

    /// Runs its steps in `bench`, announcing each (default: one step, [`Self::run`]).
    fn run_steps(
        config: &Self::Config,
        progress: &mut dyn Progress,
        steps: &mut Steps,
    ) -> Result<Self::Results> {
        let label = steps.next(progress);
        Self::run(config, progress).with_context(|| format!("step `{label}` failed"))
    }

    /// Its reports on the site (default: one, [`Self::DIR`] titled [`Self::TITLE`]).
    fn pages(_results: &Self::Results) -> Vec<Link> {
        vec![Link {
            dir: Self::DIR.into(),
            title: Self::TITLE.into(),
        }]
    }

    /// Writes its reports under the site's root `out`, each committed atomically.
    fn write_site(results: &Self::Results, out: &Path) -> Result<()> {
        write_report(&out.join(Self::DIR), |dir| Self::write(results, dir)).map(drop)
    }
}

/// An experiment that takes another experiment's results as an input of its settings: `bench`
/// hands them over before it runs (the table names the source, `axon: Axon = takes(instructions)`,
/// and the source is an earlier line), so no experiment's results are patched after the fact.
pub trait Takes: Experiment {
    /// The results it takes (the source experiment's `Results`).
    type Input;
    /// Puts `input` into the settings about to run.
    fn take(config: &mut Self::Config, input: &Self::Input);
}
