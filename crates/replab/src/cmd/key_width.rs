//! `replab key-width`: key width and false draws (`replab_lab::key_width`): the detectors'
//! Zobrist keys truncated to 16 … 64 bits, judged against exact identity on the audit's games
//! and in search, against the birthday bound.

use std::path::PathBuf;

use anyhow::Context;
use replab_lab::key_width;
use replab_report::ReportDir;

use crate::bars::Bars;

/// Arguments of `replab key-width`.
#[derive(clap::Args)]
pub struct Args {
    /// The short run of `bench --quick` (500 games, depth 4, 35 positions); the options below
    /// override it.
    #[arg(long)]
    quick: bool,
    /// Audit games played (1 to 10,000,000; default 3,000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=key_width::MAX_GAMES))]
    games: Option<u64>,
    /// Seed of the audit's game generator.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Longest game in plies (1 to 100,000; default 200).
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=i64::from(replab_lab::audit::MAX_PLIES)))]
    max_plies: Option<u32>,
    /// Key widths in bits, comma-separated (1 to 64, 64 included: the reference); default
    /// 16,24,32,40,48,64.
    #[arg(long, value_name = "LIST")]
    bits: Option<String>,
    /// Search depth (1 to 20; default 5).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(key_width::MAX_DEPTH)))]
    depth: Option<u32>,
    /// Records of datasets/repetition.epd searched (the first N; default all 79).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1000))]
    repetition: Option<u32>,
    /// Records of datasets/wac.epd searched (the first N; default 20).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=300))]
    wac: Option<u32>,
    /// Worker threads (1 to 256); the counts do not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Report directory; replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR", default_value = key_width::DEFAULT_OUT)]
    out: PathBuf,
}

/// Runs `replab key-width`: audits and searches, writes the report, prints the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let base = if args.quick {
        key_width::Config::quick()
    } else {
        key_width::Config::default()
    };
    let config = key_width::Config {
        games: args.games.unwrap_or(base.games),
        seed: args.seed.unwrap_or(base.seed),
        max_plies: args.max_plies.unwrap_or(base.max_plies),
        widths: match &args.bits {
            Some(text) => key_width::parse_widths(text)
                .map_err(|e| anyhow::anyhow!("invalid --bits {text:?}: {e}"))?,
            None => base.widths,
        },
        depth: args.depth.unwrap_or(base.depth),
        repetition_records: args
            .repetition
            .map_or(base.repetition_records, |n| n as usize),
        wac_records: args.wac.map_or(base.wac_records, |n| n as usize),
        threads: args.threads.map_or(base.threads, |n| n as usize),
        command: replab_lab::util::command_line(),
    };
    config.check()?;
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;
    let results = key_width::run(&config, &mut Bars::new(args.quiet))?;
    key_width::write(&results, &dir)?;
    let target = dir.commit().context("replacing the report directory")?;
    print!("{}", key_width::summary_table(&results));
    println!("\nwrote {}", target.join("index.html").display());
    Ok(())
}
