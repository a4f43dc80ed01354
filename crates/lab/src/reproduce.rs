//! `replab reproduce <experiment>`: reruns a paper's experiment on replab's searcher and writes
//! a report (contracts.md, `replab reproduce axon`).

mod axon;
mod page;

use anyhow::Result;
use clap::{Args, Subcommand};

/// Arguments of `replab reproduce`.
#[derive(Args)]
pub struct ReproduceArgs {
    #[command(subcommand)]
    experiment: Experiment,
}

#[derive(Subcommand)]
enum Experiment {
    /// Vučković & Vidanović §5: WAC.018 searched to depths 1–12 with detection off and with
    /// every detector; writes DIR/results.json and DIR/index.html.
    Axon(axon::AxonArgs),
}

/// Runs the chosen experiment.
pub fn run(args: &ReproduceArgs) -> Result<()> {
    match &args.experiment {
        Experiment::Axon(a) => axon::run(a),
    }
}
