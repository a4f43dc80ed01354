//! `replab key-width`: key width and false draws (`replab_correctness::key_width`).

use replab_correctness::key_width::{self, KeyWidth};

use super::List;

experiment_command! {
    /// Key width and false draws: detectors with truncated Zobrist keys against exact identity.
    KeyWidth with quick {
        games: Option<u64> ["N"],
        /// Seed of the audit's game generator.
        seed: Option<u64> ["S"],
        max_plies: Option<u32> ["P"],
        widths: Option<List<u32>> ["LIST", long = "bits", value_parser = key_width::parse_widths],
        depth: Option<u32> ["N"],
        repetition_records: Option<usize> ["N", long = "repetition"],
        wac_records: Option<usize> ["N", long = "wac"],
        threads: Option<usize> ["T"],
    }
}
