//! `replab conformance`: its arguments, turned into a [`conformance::Config`].

use std::{path::PathBuf, time::Duration};

use anyhow::{Context, Result};
use replab_lab::conformance::{self, Conformance, Launch};

use super::{Output, given};

/// Check UCI engines (replab's, once per detector, and --engine ones) against the draw rules.
#[derive(clap::Args)]
pub struct Args {
    /// An external UCI engine's command line (repeatable), e.g. `--engine stockfish`.
    #[arg(long = "engine")]
    pub engines: Vec<String>,
    /// The scenario file (default datasets/conformance.json).
    #[arg(long)]
    pub scenarios: Option<PathBuf>,
    /// Seconds allowed per scenario before the engine counts as hung (default 30).
    #[arg(long)]
    pub timeout: Option<u64>,
    #[command(flatten)]
    output: Output,
}

/// Runs `replab conformance`: prints the engine × scenario table and writes the report.
pub fn run(args: Args) -> Result<()> {
    let exe = std::env::current_exe().context("cannot find the replab binary")?;
    let mut config = conformance::Config {
        replab: Launch::Command(vec![exe.display().to_string(), "uci".into()]),
        engines: args
            .engines
            .iter()
            .map(|e| e.split_whitespace().map(String::from).collect())
            .collect(),
        ..conformance::Config::default()
    };
    given!(config, args: scenarios);
    if let Some(seconds) = args.timeout {
        config.timeout = Duration::from_secs(seconds.max(1));
    }
    args.output.report::<Conformance>(config)
}
