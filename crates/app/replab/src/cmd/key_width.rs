//! `replab key-width`: key width and false draws (`replab_correctness::key_width`).

use replab_correctness::key_width::{self, KeyWidth};

use super::{List, experiment_command};

experiment_command! {
    /// Key width and false draws: detectors with truncated Zobrist keys against exact identity.
    KeyWidth {
        #[arg(long, value_name = "N")]
        games: Option<u64>,
        /// Seed of the audit's game generator.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        #[arg(long, value_name = "P")]
        max_plies: Option<u32>,
        /// Key widths in bits, comma-separated (1 to 64, 64 included: the reference).
        #[arg(long = "bits", value_name = "LIST", value_parser = key_width::parse_widths)]
        widths: Option<List<u32>>,
        #[arg(long, value_name = "N")]
        depth: Option<u32>,
        #[arg(long = "repetition", value_name = "N")]
        repetition_records: Option<usize>,
        #[arg(long = "wac", value_name = "N")]
        wac_records: Option<usize>,
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
    }
}
