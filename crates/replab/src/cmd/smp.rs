//! `replab smp`: parallel search (Lazy SMP) and shared repetition structures
//! (`replab_lab::smp`): false repetitions from shared open flags, root changes against one
//! thread, nodes per second with real threads.

use std::path::PathBuf;

use anyhow::Context;
use replab_lab::smp;
use replab_report::ReportDir;

use crate::bars::Bars;

/// Arguments of `replab smp`.
#[derive(clap::Args)]
pub struct Args {
    /// The short run of `bench --quick` (depth 4, 30 repetition and 4 WAC records, real
    /// threads on 3 positions to depth 5, 3 rounds); the options below override it.
    #[arg(long)]
    quick: bool,
    /// The main thread's depth in deterministic mode (1 to 12).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(smp::MAX_DEPTH)))]
    depth: Option<u32>,
    /// Thread counts, comma-separated (each 1 to 64; 1 is always added: the reference).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=smp::MAX_THREADS as i64))]
    threads: Option<Vec<u32>>,
    /// Records of datasets/repetition.epd searched (the first N, 0 to 79).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1000))]
    repetition_records: Option<u32>,
    /// Records of datasets/wac.epd searched (the first N, 0 to 300).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1000))]
    wac_records: Option<u32>,
    /// Seed of the deterministic scheduler.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Mean node entries per turn of the deterministic scheduler (1: the baton changes hands
    /// at every node).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    quantum: Option<u64>,
    /// Positions searched again by the shared variants with a quantum of 1 (0: no check).
    #[arg(long, value_name = "N")]
    quantum_check: Option<usize>,
    /// Index bits of the shared transposition table (10 to 26).
    #[arg(long, value_name = "BITS", value_parser = clap::value_parser!(u32).range(10..=26))]
    tt_bits: Option<u32>,
    /// Real threads: the main thread's depth (1 to 12).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(smp::MAX_DEPTH)))]
    real_depth: Option<u32>,
    /// Real threads: positions timed (the first N of the set; 0: no real-thread runs).
    #[arg(long, value_name = "N")]
    real_positions: Option<usize>,
    /// Real threads: interleaved timed rounds (1 to 100).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=100))]
    repeats: Option<u32>,
    /// Worker threads running deterministic groups side by side (1 to 256); the counts do not
    /// depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=256))]
    workers: Option<u32>,
    /// Report directory; replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR", default_value = "reports/smp")]
    out: PathBuf,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
}

/// Runs `replab smp`: measures, writes the report, prints the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let base = if args.quick {
        smp::Config::quick()
    } else {
        smp::Config::default()
    };
    let config = smp::Config {
        depth: args.depth.unwrap_or(base.depth),
        threads: args.threads.map_or(base.threads, |t| {
            t.into_iter().map(|n| n as usize).collect()
        }),
        repetition_records: args
            .repetition_records
            .map_or(base.repetition_records, |n| n as usize),
        wac_records: args.wac_records.map_or(base.wac_records, |n| n as usize),
        seed: args.seed.unwrap_or(base.seed),
        quantum: args.quantum.unwrap_or(base.quantum),
        quantum_check_positions: args.quantum_check.unwrap_or(base.quantum_check_positions),
        tt_bits: args.tt_bits.unwrap_or(base.tt_bits),
        real_depth: args.real_depth.unwrap_or(base.real_depth),
        real_positions: args.real_positions.unwrap_or(base.real_positions),
        repeats: args.repeats.map_or(base.repeats, |n| n as usize),
        workers: args.workers.map_or(base.workers, |n| n as usize),
        command: replab_lab::util::command_line(),
        ..base
    };
    config.check()?;
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;
    let results = smp::run(&config, &mut Bars::new(args.quiet))?;
    smp::write(&results, &dir)?;
    let target = dir.commit().context("replacing the report directory")?;
    print!("{}", smp::summary_table(&results));
    println!("\nwrote {}", target.join("index.html").display());
    Ok(())
}
