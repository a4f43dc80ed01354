//! `replab reproduce <experiment>`: reruns a paper's experiment (`replab_lab::reproduce`).

use std::path::PathBuf;

use replab_lab::reproduce::axon::{self, Axon};

use super::report;

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
    /// Search each WAC.018 configuration this many times in interleaved rounds; times are the
    /// median with a 95% interval (the runs' counters must agree).
    #[arg(long, value_name = "K", default_value_t = axon::Config::default().repeat,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(axon::MAX_REPEAT)))]
    repeat: u32,
    /// Measure linear's overhead (NPS off / NPS linear) to this half-width, a fraction (0.01 =
    /// ±1 percentage point), adding paired rounds after the fixed ones; 0 turns this off.
    #[arg(long, value_name = "F", default_value_t = axon::Config::default().overhead_target.unwrap_or(0.0),
          value_parser = overhead_target, allow_negative_numbers = true)]
    overhead_target: f64,
    /// Cap on the paired rounds behind linear's overhead (fixed rounds included).
    #[arg(long, value_name = "N", default_value_t = axon::Config::default().overhead_max_rounds,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    overhead_max_rounds: u32,
    /// Cap on the wall time of the added rounds, seconds.
    #[arg(long, value_name = "S", default_value_t = axon::Config::default().overhead_max_seconds,
          value_parser = overhead_seconds, allow_negative_numbers = true)]
    overhead_max_seconds: f64,
    /// Searcher profile: `default` (replab's searcher) or `axon-like` (set up as closely as the
    /// paper describes Axon; every choice it leaves open is listed on the page).
    #[arg(long, value_name = "NAME", default_value = "default",
          value_parser = clap::builder::PossibleValuesParser::new(axon::PROFILES))]
    profile: String,
}

/// `--overhead-target`: a fraction from 0 (off) to below 1.
fn overhead_target(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "{text} is not a fraction from 0 to below 1 (0.01 = 1 percentage point)"
        )),
    }
}

/// `--overhead-max-seconds`: a non-negative number of seconds.
fn overhead_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("{text} is not a number of seconds")),
    }
}

/// Runs `replab reproduce`: searches, writes the report, prints the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Experiment::Axon(args) = args.experiment;
    let config = axon::Config {
        max_depth: args.max_depth,
        repeat: args.repeat,
        overhead_target: (args.overhead_target > 0.0).then_some(args.overhead_target),
        overhead_max_rounds: args.overhead_max_rounds,
        overhead_max_seconds: args.overhead_max_seconds,
        profile: args.profile,
        command: String::new(),
        exe: Some(std::env::current_exe()?),
    };
    report::<Axon>(config, &args.out, false)
}
