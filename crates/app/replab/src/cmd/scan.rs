//! `replab scan`: its arguments, turned into a [`scan::Config`]; the JSON Lines go to stdout.

use std::{io, path::PathBuf};

use anyhow::{Result, bail};
use replab_correctness::{Silent, scan};

/// Replay the games of a PGN file and print JSON Lines, one object per position.
#[derive(clap::Args)]
pub struct Args {
    /// PGN file to replay (main lines only).
    #[arg(long)]
    pgn: PathBuf,
    /// Comma-separated detector names, or `all`.
    #[arg(long, default_value = "all")]
    detectors: String,
    /// Continue with the next game after a bad one; report how many were skipped (exit 2 if any).
    #[arg(long)]
    keep_going: bool,
}

impl super::Plain for Args {
    const NAME: &'static str = "scan";

    /// Runs `replab scan`. No progress is drawn: stdout carries the output, often to a terminal.
    /// A closed pipe ends it quietly; skipped games are listed on stderr and fail it (exit 2).
    fn run(self) -> anyhow::Result<()> {
        let args = self;
        let config = scan::Config {
            detectors: scan::parse_detectors(&args.detectors)?,
            pgn: args.pgn,
            keep_going: args.keep_going,
        };
        let summary = scan::run(&config, &mut io::stdout().lock(), &mut Silent)?;
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
