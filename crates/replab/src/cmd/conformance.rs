//! `replab conformance`: its arguments, turned into a [`conformance::Config`].

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

/// Runs `replab conformance`: prints the engine × scenario table and writes the report.
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
    };
    conformance::load(&config.scenarios)?;
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write --out {}", args.out.display()))?;
    let results = conformance::run(&config, &mut Bars::new(args.quiet))?;
    for s in &results.skipped {
        eprintln!("replab: skipped engine {s}");
    }
    print!("{}", conformance::summary_table(&results));
    conformance::write(&results, &dir)?;
    dir.commit()?;
    eprintln!("wrote {}", args.out.join("index.html").display());
    Ok(())
}
