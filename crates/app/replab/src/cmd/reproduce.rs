//! `replab reproduce <experiment>`: reruns a paper's experiment (`replab_cost::reproduce`).

/// Rerun a paper's experiment on replab's searcher and write a report.
#[derive(clap::Subcommand)]
pub enum Args {
    /// Vučković & Vidanović §5: WAC.018 searched to depths 1–12 with detection off and with
    /// every detector; writes DIR/results.json and DIR/index.html.
    Axon(axon::Args),
}

/// Runs `replab reproduce`: searches, writes the report, prints the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args::Axon(args) = args;
    axon::run(args)
}

/// `replab reproduce axon` (`replab_cost::reproduce::axon`).
mod axon {
    use replab_cost::reproduce::axon::{self, Axon};

    experiment_command! {
        /// The Axon experiment of Vučković & Vidanović on replab's searcher.
        Axon with quick {
            max_depth: Option<u32> ["N"],
            repeat: Option<u32> ["K"],
            /// Measure linear's overhead (NPS off / NPS linear) to this half-width, a fraction
            /// (0.01 = ±1 percentage point), adding paired rounds after the fixed ones; 0 turns
            /// this off.
            overhead_target: Option<crate::cmd::Maybe<f64>>
                ["F", value_parser = axon::parse_overhead_target, allow_negative_numbers = true],
            overhead_max_rounds: Option<u32> ["N"],
            /// Cap on the wall time of the added rounds, seconds.
            overhead_max_seconds: Option<f64>
                ["S", value_parser = axon::parse_seconds, allow_negative_numbers = true],
            /// Searcher profile: `default` (replab's searcher) or `axon-like` (set up as closely as
            /// the paper describes Axon; every choice it leaves open is listed on the page).
            profile: Option<String>
                ["NAME", value_parser = clap::builder::PossibleValuesParser::new(axon::PROFILES)],
        }
        |config| {
            config.exe = Some(std::env::current_exe()?);
        }
    }
}
