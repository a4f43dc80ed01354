//! `replab suite`: its arguments, turned into a [`suite::Config`]; the report is staged before
//! the search, so an interrupted run leaves the previous one in place.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use replab_lab::suite;
use replab_report::ReportDir;

use crate::bars::Bars;

/// Arguments of `replab suite`.
#[derive(clap::Args)]
pub struct Args {
    /// EPD file (one record per line; `hfen`/`hmoves` operations give a game history).
    #[arg(long)]
    pub epd: PathBuf,
    /// Search depth in plies (1 to 30).
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Node budget per search (the deepest completed iteration counts); default none.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Comma-separated detectors, or `all` (every searcher detector); `off` is always added.
    #[arg(long, default_value = "all")]
    pub detectors: String,
    /// Draw policy: twofold, stanback, moreland, stockfish or threefold, or an engine preset
    /// (crafty, weiss, koivisto, viridithas, lc0), an alias of one of them.
    #[arg(long, default_value = "twofold")]
    pub policy: String,
    /// Output directory.
    #[arg(long, default_value = "reports/suite")]
    pub out: PathBuf,
    /// Skip bad records (reported; exit status 2 at the end) instead of stopping at the first.
    #[arg(long)]
    pub keep_going: bool,
    /// Only the first N records.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Timed runs of every search (1 to 100), interleaved across detectors; times are their
    /// median with a 95% interval, and every run's counters must agree.
    #[arg(long, default_value_t = suite::DEFAULT_REPEATS)]
    pub repeats: usize,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `replab suite`: prints the per-detector table, writes the report, and fails (exit 2)
/// after writing it when records were skipped.
pub fn run(args: Args) -> Result<()> {
    let mut config = suite::Config {
        epd: args.epd,
        depth: args.depth,
        nodes: args.nodes,
        keep_going: args.keep_going,
        limit: args.limit,
        repeats: args.repeats,
        command: replab_lab::util::command_line(),
        ..suite::Config::default()
    };
    config.check()?;
    config.policy = suite::parse_policy(&args.policy)?;
    config.detectors = suite::parse_detectors(&args.detectors, config.policy)?;
    // Stage the output first: an unwritable --out fails before the search, and an interrupted
    // run leaves only its staging folder, which the next run removes.
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write --out {}", args.out.display()))?;
    let results = suite::run(&config, &mut Bars::new(args.quiet))?;
    print!("{}", suite::summary_table(&results));
    suite::write(&results, &dir)?;
    dir.commit()?;
    eprintln!("wrote {}", args.out.join("index.html").display());
    if !results.skipped.is_empty() {
        for s in &results.skipped {
            eprintln!("replab: skipped {s}");
        }
        bail!(
            "{} record(s) skipped in {}",
            results.skipped.len(),
            config.epd.display()
        );
    }
    Ok(())
}
