//! `replab key-width`: key width and false draws (`replab_lab::key_width`): the detectors'
//! Zobrist keys truncated to 16 … 64 bits, judged against exact identity on the audit's games
//! and in search, against the birthday bound.

use std::path::PathBuf;

use replab_lab::key_width::{self, KeyWidth};

use super::{List, base, count, given, report};

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
    #[arg(long = "bits", value_name = "LIST", value_parser = key_width::parse_widths)]
    widths: Option<List<u32>>,
    /// Search depth (1 to 20; default 5).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(key_width::MAX_DEPTH)))]
    depth: Option<u32>,
    /// Records of datasets/repetition.epd searched (the first N; default all 79).
    #[arg(long = "repetition", value_name = "N", value_parser = count(0, 1000))]
    repetition_records: Option<usize>,
    /// Records of datasets/wac.epd searched (the first N; default 20).
    #[arg(long = "wac", value_name = "N", value_parser = count(0, 300))]
    wac_records: Option<usize>,
    /// Worker threads (1 to 256); the counts do not depend on it.
    #[arg(long, value_name = "T", value_parser = count(1, 256))]
    threads: Option<usize>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Report directory; replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR", default_value = key_width::DEFAULT_OUT)]
    out: PathBuf,
}

/// Runs `replab key-width`: audits and searches, writes the report, prints the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut config: key_width::Config = base(args.quick);
    given!(config, args: games, seed, max_plies, widths, depth, repetition_records,
        wac_records, threads);
    report::<KeyWidth>(config, &args.out, args.quiet)
}
