//! `replab reproduce <experiment>`: reruns a paper's experiment (`replab_cost::reproduce`).

use anyhow::{Result, bail};
use clap::{ArgMatches, Command};

use super::{NoOptions, Report, Settings, Subcommand, report_command, run_report};

/// `replab reproduce`, whose subcommands are the papers' experiments.
pub fn subcommand() -> Subcommand {
    Subcommand {
        name: "reproduce",
        command: || {
            Command::new("reproduce")
                .about("Rerun a paper's experiment on replab's searcher and write a report")
                .subcommand_required(true)
                .subcommand(report_command::<Axon>())
        },
        run,
    }
}

/// Runs the experiment named.
fn run(matches: &ArgMatches) -> Result<()> {
    match matches.subcommand() {
        Some(("axon", matches)) => run_report::<Axon>(matches),
        _ => bail!("reproduce needs an experiment (axon)"),
    }
}

/// `replab reproduce axon`.
pub struct Axon;

impl Report for Axon {
    type Experiment = replab_cost::reproduce::axon::Axon;
    type Own = NoOptions;
    const ABOUT: &'static str = "Vučković & Vidanović §5: WAC.018 searched to depths 1–12 with \
        detection off and with every detector; writes DIR/results.json and DIR/index.html";
    const QUICK: bool = true;

    /// The instruction counts run this binary under valgrind.
    fn complete(config: &mut Settings<Self>, _: NoOptions) -> Result<bool> {
        config.exe = Some(std::env::current_exe()?);
        Ok(true)
    }
}
