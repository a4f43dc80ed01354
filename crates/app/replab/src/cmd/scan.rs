//! `replab scan`: the JSON Lines of [`scan::Config`]'s games go to stdout.

use anyhow::{Result, bail};
use replab_correctness::{Silent, scan};

/// Replay the games of a PGN file and print JSON Lines, one object per position.
#[derive(clap::Args)]
pub struct Args {
    /// The options, declared on the library's configuration.
    #[command(flatten)]
    config: scan::Config,
}

impl super::Plain for Args {
    const NAME: &'static str = "scan";

    /// Runs `replab scan`. No progress is drawn: stdout carries the output, often to a terminal.
    /// A closed pipe ends it quietly; skipped games are listed on stderr and fail it (exit 2).
    fn run(self) -> Result<()> {
        let config = self.config;
        let summary = scan::run(&config, &mut std::io::stdout().lock(), &mut Silent)?;
        if summary.output_closed || summary.skipped.is_empty() {
            return Ok(());
        }
        for bad in &summary.skipped {
            eprintln!("replab: {bad}");
        }
        let (n, pgn) = (summary.skipped.len(), config.pgn.display());
        bail!("{n} game(s) skipped in {pgn}")
    }
}
