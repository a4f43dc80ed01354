//! `replab smp`: parallel search (Lazy SMP) and shared repetition structures (`replab_smp`).

use replab_smp::{self as smp, Smp};

use super::{count, experiment_command};

experiment_command! {
    /// Parallel search (Lazy SMP): shared open flags against per-thread repetition structures.
    Smp {
        /// The main thread's depth in deterministic mode (1 to 12).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(smp::MAX_DEPTH)))]
        depth: Option<u32>,
        /// Thread counts, comma-separated (each 1 to 64; 1 is always added: the reference).
        #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = count(1, smp::MAX_THREADS as u64))]
        threads: Option<Vec<usize>>,
        /// Records of datasets/repetition.epd searched (the first N, 0 to 79).
        #[arg(long, value_name = "N", value_parser = count(0, 1000))]
        repetition_records: Option<usize>,
        /// Records of datasets/wac.epd searched (the first N, 0 to 300).
        #[arg(long, value_name = "N", value_parser = count(0, 1000))]
        wac_records: Option<usize>,
        /// Seed of the deterministic scheduler.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Mean node entries per turn of the deterministic scheduler (1: the baton changes hands
        /// at every node).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        quantum: Option<u64>,
        /// Positions searched again by the shared variants with a quantum of 1 (0: no check).
        #[arg(long = "quantum-check", value_name = "N")]
        quantum_check_positions: Option<usize>,
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
        #[arg(long, value_name = "K", value_parser = count(1, 100))]
        repeats: Option<usize>,
        /// Worker threads running deterministic groups side by side (1 to 256); the counts do not
        /// depend on it.
        #[arg(long, value_name = "T", value_parser = count(1, 256))]
        workers: Option<usize>,
    }
}
