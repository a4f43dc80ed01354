//! `replab conformance`: its arguments, turned into a [`conformance::Config`].
//!
//! Exit status: 0 when every engine passes; 1 when an `--engine` engine (or, without
//! `--engine`, replab's exact detector under a policy the scenario holds it to) fails a
//! scenario; 2 when an engine cannot be started (unless `--skip-missing`) or the input is bad.

use std::{path::PathBuf, time::Duration};

use anyhow::{Context, Result};
use replab_lab::conformance::{self, Launch};
use replab_report::ReportDir;

use crate::bars::Bars;

/// Arguments of `replab conformance`.
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
    /// The scenario file.
    #[arg(long, default_value = "datasets/conformance.json")]
    pub scenarios: PathBuf,
    /// Seconds allowed per scenario before the engine counts as hung.
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
    /// Output directory.
    #[arg(long, default_value = "reports/conformance")]
    pub out: PathBuf,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `replab conformance`: prints the summary, writes the report, and exits 1 when a
/// scenario fails (see the module's exit statuses).
pub fn run(args: Args) -> Result<()> {
    let exe = std::env::current_exe().context("cannot find the replab binary")?;
    let config = conformance::Config {
        scenarios: args.scenarios,
        replab: Launch::Command(vec![exe.display().to_string(), "uci".into()]),
        engines: args
            .engines
            .iter()
            .map(|e| e.split_whitespace().map(String::from).collect())
            .collect(),
        timeout: Duration::from_secs(args.timeout.max(1)),
        command: replab_lab::util::command_line(),
        include_replab: args.engines.is_empty() || args.with_replab,
        all_detectors: true,
        skip_missing: args.skip_missing,
    };
    conformance::load(&config.scenarios)?;
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write --out {}", args.out.display()))?;
    let results = conformance::run(&config, &mut Bars::new(args.quiet))?;
    print!("{}", conformance::terminal_summary(&results));
    conformance::write(&results, &dir)?;
    dir.commit()?;
    eprintln!("wrote {}", args.out.join("index.html").display());
    let failed = conformance::unexpected_failures(&results).len();
    if failed > 0 {
        eprintln!("replab: {failed} scenario failure(s)");
        std::process::exit(1);
    }
    Ok(())
}
