//! `replab conformance`: its arguments, turned into a [`conformance::Config`].
//!
//! Exit status: 0 when every engine passes; 1 when an `--engine` engine (or, without
//! `--engine`, replab's exact detector under a policy the scenario holds it to) fails a
//! scenario; 2 when an engine cannot be started (unless `--skip-missing`) or the input is bad.

use std::{path::PathBuf, time::Duration};

use anyhow::{Context, Result};
use replab_rules::conformance::{self, Conformance};

use super::{Output, given};

/// Check UCI engines (replab's, once per detector, and --engine ones) against the draw rules.
#[derive(clap::Args)]
pub struct Args {
    /// An external UCI engine's command line (repeatable), e.g. `--engine stockfish`.
    #[arg(long = "engine")]
    pub engines: Vec<String>,
    /// List an `--engine` that cannot be started as skipped instead of exiting with status 2.
    #[arg(long)]
    pub skip_missing: bool,
    /// Also run replab's own configurations when `--engine` is given (they always run
    /// without it).
    #[arg(long)]
    pub with_replab: bool,
    /// The scenario file (default datasets/conformance.json).
    #[arg(long)]
    pub scenarios: Option<PathBuf>,
    /// Seconds allowed per scenario before the engine counts as hung (default 30).
    #[arg(long)]
    pub timeout: Option<u64>,
    #[command(flatten)]
    output: Output,
}

/// Runs `replab conformance`: prints the summary, writes the report, and exits 1 when a
/// scenario fails (see the module's exit statuses).
pub fn run(args: Args) -> Result<()> {
    let exe = std::env::current_exe().context("cannot find the replab binary")?;
    let mut config = conformance::Config::default().with_engines(
        &exe,
        &args.engines,
        args.with_replab,
    );
    config.skip_missing = args.skip_missing;
    given!(config, args: scenarios);
    if let Some(seconds) = args.timeout {
        config.timeout = Duration::from_secs(seconds.max(1));
    }
    args.output.report::<Conformance>(config)
}
