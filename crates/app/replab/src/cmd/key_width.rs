//! `replab key-width`: key width and false draws (`replab_correctness::key_width`).

use replab_correctness::key_width::{self, KeyWidth};

use super::{List, count, experiment_command};

experiment_command! {
    /// Key width and false draws: detectors with truncated Zobrist keys against exact identity.
    KeyWidth {
        /// Audit games played (1 to 10,000,000).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=key_width::MAX_GAMES))]
        games: Option<u64>,
        /// Seed of the audit's game generator.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Longest game in plies (1 to 100,000).
        #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=i64::from(replab_correctness::audit::MAX_PLIES)))]
        max_plies: Option<u32>,
        /// Key widths in bits, comma-separated (1 to 64, 64 included: the reference).
        #[arg(long = "bits", value_name = "LIST", value_parser = key_width::parse_widths)]
        widths: Option<List<u32>>,
        /// Search depth (1 to 20).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(key_width::MAX_DEPTH)))]
        depth: Option<u32>,
        /// Records of datasets/repetition.epd searched (the first N).
        #[arg(long = "repetition", value_name = "N", value_parser = count(0, 1000))]
        repetition_records: Option<usize>,
        /// Records of datasets/wac.epd searched (the first N).
        #[arg(long = "wac", value_name = "N", value_parser = count(0, 300))]
        wac_records: Option<usize>,
        /// Worker threads (1 to 256); the counts do not depend on it.
        #[arg(long, value_name = "T", value_parser = count(1, 256))]
        threads: Option<usize>,
    }
}
