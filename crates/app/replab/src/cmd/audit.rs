//! `replab audit`: every detector against the exact oracle (`replab_correctness::audit`).

use replab_correctness::audit::{self, Audit, MAX_GAMES, MAX_PLIES, MAX_THREADS};

use super::{List, count, experiment_command};

experiment_command! {
    /// Audit every detector against the exact oracle on seeded random games.
    Audit {
        /// Number of random games to play (at least 1).
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
        games: Option<u64>,
        /// Seed of the game generator.
        #[arg(long, value_name = "S", allow_negative_numbers = true)]
        seed: Option<u64>,
        /// Detectors to audit: a comma-separated list of names, or `all` (every detector but
        /// `truth`, which is the reference).
        #[arg(long, value_name = "LIST", value_parser = audit::parse_detectors)]
        detectors: Option<List<String>>,
        /// Longest game in plies (games also end at checkmate or stalemate).
        #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PLIES)))]
        max_plies: Option<u32>,
        /// Table sizes: `tt-open` index bits, comma-separated (1 to 24; empty for none).
        #[arg(long, value_name = "LIST", value_parser = audit::parse_bits)]
        tt_bits: Option<List<u64>>,
        /// Table sizes: `filo` slot counts, comma-separated powers of two (2 to 2^20; empty for none).
        #[arg(long, value_name = "LIST", value_parser = audit::parse_slots)]
        filo_slots: Option<List<u64>>,
        /// Table sizes: `rookie` counter index bits, comma-separated (1 to 24; empty for none).
        #[arg(long, value_name = "LIST", value_parser = audit::parse_bits)]
        rookie_bits: Option<List<u64>>,
        /// Worker threads (the counts do not depend on it).
        #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = count(1, MAX_THREADS as u64))]
        threads: Option<usize>,
    }
}
