//! The suite as experiments of the table: [`Suite`], one EPD file (`replab suite`), and
//! [`Suites`], the several suites `bench` runs, one report directory each.

use std::path::Path;

use anyhow::{Context, Result, bail};
use replab_report::ReportDir;
use replab_settings::Settings;
use serde::{Deserialize, Serialize};

use super::{Config, SuiteResults, run, summary_table, write};
use crate::{
    Progress,
    contribution::{Column, Contribution, Measured, Unit},
    experiment::{
        Conclusion, Configuration, Experiment, Failure, Link, Site, Steps, write_json, write_report,
    },
};

/// One EPD suite: `replab suite`.
pub struct Suite;

impl Experiment for Suite {
    const NAME: &'static str = "suite";
    const DIR: &'static str = "suite";
    const TITLE: &'static str = "EPD suite";
    type Config = Config;
    type Results = SuiteResults;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<SuiteResults> {
        run(config, progress)
    }

    fn write(results: &SuiteResults, dir: &ReportDir) -> Result<()> {
        write(results, dir)
    }

    fn summary(results: &SuiteResults) -> String {
        summary_table(results)
    }

    /// The table on stdout, where the page went and the skipped records on stderr; skipped
    /// records fail the run (exit 2) once the report is written.
    fn conclude(results: &SuiteResults, index: &Path) -> Result<Conclusion> {
        let mut stderr = format!("wrote {}\n", index.display());
        for s in &results.skipped {
            stderr += &format!("replab: skipped {s}\n");
        }
        Ok(Conclusion {
            stdout: summary_table(results),
            stderr,
            failure: (!results.skipped.is_empty()).then(|| {
                Failure::bad_input(format!(
                    "{} record(s) skipped in {}",
                    results.skipped.len(),
                    results.epd
                ))
            }),
        })
    }
}

/// One suite of `bench`: its report directory, title and settings.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Report directory under the site's root (`suite-wac`).
    pub dir: String,
    /// Page title on the landing page.
    pub title: String,
    /// The suite's settings.
    pub config: Config,
}

/// The suites `bench` runs, in landing-page order. No subcommand exposes them: none is an
/// option.
#[derive(Clone, Debug, Default, clap::Args, Settings)]
pub struct Plans {
    /// One plan per suite.
    #[arg(skip)]
    pub plans: Vec<Plan>,
}

impl Configuration for Plans {
    /// `bench` builds the plans itself ([`Suites`]' `bench_config`); none by default.
    fn quick() -> Self {
        Self::default()
    }

    /// Every suite records the command.
    fn set_command(&mut self, command: String) {
        for plan in &mut self.plans {
            plan.config.set_command(command.clone());
        }
    }

    /// Every suite's settings, checked in turn.
    fn check(&self) -> Result<()> {
        self.plans.iter().try_for_each(|p| p.config.check())
    }
}

/// One suite's results and where its report goes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteReport {
    /// Report directory under the site's root (`suite-wac`).
    pub dir: String,
    /// Page title on the landing page.
    pub title: String,
    /// The suite's results.
    pub results: SuiteResults,
}

/// One suite of a `bench` run: (directory, title, file, depth, limit, repeats).
type SuiteRow = (
    &'static str,
    &'static str,
    &'static str,
    u32,
    Option<usize>,
    usize,
);

/// The EPD suites of `bench`: one step and one report directory each.
pub struct Suites;

impl Suites {
    /// The suites of a run.
    fn table(site: &Site) -> Vec<SuiteRow> {
        // Depths and repeats keep the full run, with every other experiment, within its
        // 15-minute budget: 6 interleaved repeats, the fewest whose median interval reaches 95%
        // (96.9%). The short run times each search once: the same searches and counters, a
        // sixth of the time, and its times are single samples (no interval, no "faster" or
        // "slower": the page and the landing page mark them not measured to 95%).
        // The smoke run searches fewer records a ply shallower.
        const REPETITION: &str = "Repetition-rich suite";
        const WAC: &str = "Win At Chess suite";
        const BK: &str = "Bratko–Kopec suite";
        if site.smoke {
            vec![
                (
                    "suite-repetition",
                    REPETITION,
                    "repetition.epd",
                    4,
                    Some(40),
                    1,
                ),
                ("suite-wac", WAC, "wac.epd", 3, Some(20), 1),
            ]
        } else if site.quick {
            vec![
                ("suite-repetition", REPETITION, "repetition.epd", 5, None, 1),
                ("suite-wac", WAC, "wac.epd", 4, Some(60), 1),
            ]
        } else {
            vec![
                ("suite-repetition", REPETITION, "repetition.epd", 7, None, 6),
                ("suite-wac", WAC, "wac.epd", 5, None, 6),
                ("suite-bk", BK, "bk.epd", 6, None, 6),
            ]
        }
    }
}

impl Experiment for Suites {
    const NAME: &'static str = "suite";
    const DIR: &'static str = "suite";
    const TITLE: &'static str = "EPD suites";
    type Config = Plans;
    type Results = Vec<SuiteReport>;

    fn run(plans: &Plans, progress: &mut dyn Progress) -> Result<Vec<SuiteReport>> {
        plans
            .plans
            .iter()
            .map(|p| {
                Ok(SuiteReport {
                    dir: p.dir.clone(),
                    title: p.title.clone(),
                    results: run(&p.config, progress)?,
                })
            })
            .collect()
    }

    /// All suites' results as one `results.json` (`bench` writes one directory per suite).
    fn write(results: &Vec<SuiteReport>, dir: &ReportDir) -> Result<()> {
        write_json(results, dir)
    }

    fn bench_config(site: &Site) -> Result<Plans> {
        let mut plans = Vec::new();
        for (dir, title, file, depth, limit, repeats) in Self::table(site) {
            let epd = site.datasets.join(file);
            if !epd.exists() {
                bail!(
                    "{} not found: run bench from the repository root",
                    epd.display()
                );
            }
            let config = Config {
                epd,
                depth,
                limit,
                repeats,
                command: site.command.clone(),
                ..Config::default()
            };
            plans.push(Plan {
                dir: dir.into(),
                title: title.into(),
                config,
            });
        }
        Ok(Plans { plans })
    }

    fn steps(plans: &Plans) -> Vec<String> {
        plans
            .plans
            .iter()
            .map(|p| {
                format!(
                    "suite {}",
                    p.config
                        .epd
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                )
            })
            .collect()
    }

    fn run_steps(
        plans: &Plans,
        progress: &mut dyn Progress,
        steps: &mut Steps,
    ) -> Result<Vec<SuiteReport>> {
        let mut reports = Vec::new();
        for p in &plans.plans {
            let label = steps.next(progress);
            let results =
                run(&p.config, progress).with_context(|| format!("step `{label}` failed"))?;
            reports.push(SuiteReport {
                dir: p.dir.clone(),
                title: p.title.clone(),
                results,
            });
        }
        Ok(reports)
    }

    fn pages(results: &Vec<SuiteReport>) -> Vec<Link> {
        results
            .iter()
            .map(|s| Link {
                dir: s.dir.clone(),
                title: s.title.clone(),
            })
            .collect()
    }

    fn write_site(results: &Vec<SuiteReport>, out: &Path) -> Result<()> {
        for s in results {
            write_report(&out.join(&s.dir), |dir| write(&s.results, dir))?;
        }
        Ok(())
    }

    /// Time against `off` per suite and detector, one ranking column per suite, marked
    /// `n.s.` where its interval does not exclude no change.
    fn contributions(results: &Vec<SuiteReport>) -> Vec<Contribution> {
        results
            .iter()
            .flat_map(|s| {
                let column = Column::new(
                    format!("time-{}", s.dir),
                    format!("time, {}", s.dir.trim_start_matches("suite-")),
                    Unit::Change,
                )
                .what(format!("search time against off ({})", s.dir));
                s.results.aggregates.iter().filter_map(move |a| {
                    let change = a.time_vs_off?.value;
                    let value = Measured::value(change);
                    let value = if a.time_differs_from_off().unwrap_or(false) {
                        value
                    } else {
                        value.note("n.s.")
                    };
                    Some(Contribution::new(a.detector, column.clone(), value))
                })
            })
            .collect()
    }
}
