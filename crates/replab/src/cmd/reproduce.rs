//! `replab reproduce <experiment>`: reruns a paper's experiment (`replab_lab::reproduce`).

use std::path::PathBuf;

use anyhow::Context;
use replab_lab::reproduce::axon;
use replab_report::ReportDir;

use crate::bars::Bars;

/// Arguments of `replab reproduce`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    experiment: Experiment,
}

#[derive(clap::Subcommand)]
enum Experiment {
    /// Vučković & Vidanović §5: WAC.018 searched to depths 1–12 with detection off and with
    /// every detector; writes DIR/results.json and DIR/index.html.
    Axon(AxonArgs),
}

/// Arguments of `replab reproduce axon`.
#[derive(clap::Args)]
struct AxonArgs {
    /// Deepest iteration in plies (1 to 20); the paper went to 12.
    #[arg(long, value_name = "N", default_value_t = axon::Config::default().max_depth,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(axon::MAX_DEPTH)))]
    max_depth: u32,
    /// Report directory; replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR", default_value = "reports/axon")]
    out: PathBuf,
    /// Search each WAC.018 configuration this many times, interleaved; times are the fastest
    /// of the runs (their counters must agree).
    #[arg(long, value_name = "K", default_value_t = axon::Config::default().repeat,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(axon::MAX_REPEAT)))]
    repeat: u32,
}

/// Runs `replab reproduce`: searches, writes the report, prints the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Experiment::Axon(args) = args.experiment;
    // Fail on an unusable --out before searching for minutes.
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;
    let config = axon::Config {
        max_depth: args.max_depth,
        repeat: args.repeat,
        command: replab_lab::util::command_line(),
    };
    let results = axon::run(&config, &mut Bars::new(false))?;
    axon::write(&results, &dir)?;
    let target = dir.commit().context("replacing the report directory")?;
    print!("{}", axon::summary_table(&results));
    println!("\nwrote {}", target.join("index.html").display());
    Ok(())
}
