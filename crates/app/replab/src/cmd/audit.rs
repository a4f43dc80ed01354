//! `replab audit`: every detector against the exact oracle (`replab_correctness::audit`).

use replab_correctness::audit::{self, Audit};

use super::{List, experiment_command};

experiment_command! {
    /// Audit every detector against the exact oracle on seeded random games.
    Audit {
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        games: Option<u64>,
        /// Seed of the game generator.
        #[arg(long, value_name = "S", allow_negative_numbers = true)]
        seed: Option<u64>,
        /// Detectors to audit: a comma-separated list of names, or `all` (every detector but
        /// `truth`, which is the reference).
        #[arg(long, value_name = "LIST", value_parser = audit::parse_detectors)]
        detectors: Option<List<String>>,
        #[arg(long, value_name = "P", allow_negative_numbers = true)]
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
        #[arg(long, value_name = "T", allow_negative_numbers = true)]
        threads: Option<usize>,
    }
}
