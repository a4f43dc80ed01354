//! `replab reproduce <experiment>`: reruns a paper's experiment (`replab_cost::reproduce`).

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
    Axon(axon::Args),
}

/// `--help` with the defaults of every experiment's `Config::default()`.
pub fn defaults(cmd: clap::Command) -> clap::Command {
    cmd.mut_subcommand("axon", axon::defaults)
}

/// Runs `replab reproduce`: searches, writes the report, prints the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Experiment::Axon(args) = args.experiment;
    axon::run(args)
}

/// `replab reproduce axon` (`replab_cost::reproduce::axon`).
mod axon {
    use replab_cost::reproduce::axon::{self, Axon};

    use crate::cmd::{Maybe, experiment_command};

    experiment_command! {
        /// The Axon experiment of Vučković & Vidanović on replab's searcher.
        Axon {
            #[arg(long, value_name = "N")]
            max_depth: Option<u32>,
            #[arg(long, value_name = "K")]
            repeat: Option<u32>,
            /// Measure linear's overhead (NPS off / NPS linear) to this half-width, a fraction
            /// (0.01 = ±1 percentage point), adding paired rounds after the fixed ones; 0 turns
            /// this off.
            #[arg(long, value_name = "F", value_parser = axon::parse_overhead_target, allow_negative_numbers = true)]
            overhead_target: Option<Maybe<f64>>,
            #[arg(long, value_name = "N")]
            overhead_max_rounds: Option<u32>,
            /// Cap on the wall time of the added rounds, seconds.
            #[arg(long, value_name = "S", value_parser = axon::parse_seconds, allow_negative_numbers = true)]
            overhead_max_seconds: Option<f64>,
            /// Searcher profile: `default` (replab's searcher) or `axon-like` (set up as closely as
            /// the paper describes Axon; every choice it leaves open is listed on the page).
            #[arg(long, value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(axon::PROFILES))]
            profile: Option<String>,
        }
        |config| {
            config.exe = Some(std::env::current_exe()?);
        }
    }
}
