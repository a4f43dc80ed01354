//! `replab reproduce <experiment>`: reruns a paper's experiment (`replab_lab::reproduce`).

use std::path::PathBuf;

use replab_lab::reproduce::axon::{self, Axon};

use super::{given, Output};

/// Rerun a paper's experiment on replab's searcher and write a report.
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
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(axon::MAX_DEPTH)))]
    max_depth: Option<u32>,
    /// Report directory; replaced as a whole only when the run completes (default reports/axon).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Search each WAC.018 configuration this many times in interleaved rounds; times are the
    /// median with a 95% interval (the runs' counters must agree).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=i64::from(axon::MAX_REPEAT)))]
    repeat: Option<u32>,
    /// Measure linear's overhead (NPS off / NPS linear) to this half-width, a fraction (0.01 =
    /// ±1 percentage point), adding paired rounds after the fixed ones; 0 turns this off.
    #[arg(long, value_name = "F", value_parser = axon::parse_overhead_target, allow_negative_numbers = true)]
    overhead_target: Option<f64>,
    /// Cap on the paired rounds behind linear's overhead (fixed rounds included).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    overhead_max_rounds: Option<u32>,
    /// Cap on the wall time of the added rounds, seconds.
    #[arg(long, value_name = "S", value_parser = axon::parse_seconds, allow_negative_numbers = true)]
    overhead_max_seconds: Option<f64>,
    /// Searcher profile: `default` (replab's searcher) or `axon-like` (set up as closely as the
    /// paper describes Axon; every choice it leaves open is listed on the page).
    #[arg(long, value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(axon::PROFILES))]
    profile: Option<String>,
}

/// Runs `replab reproduce`: searches, writes the report, prints the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Experiment::Axon(args) = args.experiment;
    let mut config = axon::Config {
        exe: Some(std::env::current_exe()?),
        ..axon::Config::default()
    };
    given!(config, args: max_depth, repeat, overhead_max_rounds, overhead_max_seconds, profile);
    if let Some(target) = args.overhead_target {
        config.overhead_target = (target > 0.0).then_some(target);
    }
    Output::to(args.out, false).report::<Axon>(config)
}
