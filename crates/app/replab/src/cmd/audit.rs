//! `replab audit`: every detector against the exact oracle (`replab_correctness::audit`).

use replab_correctness::audit::{self, Audit};

use super::{ALL, List};

experiment_command! {
    /// Audit every detector against the exact oracle on seeded random games.
    Audit with quick {
        games: Option<u64> ["N", allow_negative_numbers = true],
        /// Seed of the game generator.
        seed: Option<u64> ["S", allow_negative_numbers = true],
        /// Detectors to audit: a comma-separated list of names, or `all` (every detector but
        /// `truth`, which is the reference).
        detectors: Option<List<String>> ["LIST", value_parser = audit::parse_detectors],
        max_plies: Option<u32> ["P", allow_negative_numbers = true],
        tt_bits: Option<List<u64>> ["LIST", value_parser = audit::parse_sizes],
        filo_slots: Option<List<u64>> ["LIST", value_parser = audit::parse_sizes],
        rookie_bits: Option<List<u64>> ["LIST", value_parser = audit::parse_sizes],
        threads: Option<usize> ["T", allow_negative_numbers = true],
    }
    defaults { detectors: ALL }
}
