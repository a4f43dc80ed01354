//! `replab policies`: engines' draw policies as presets (`replab_correctness::policies`).

use replab_correctness::policies::Policies;

use super::experiment_command;

experiment_command! {
    /// Engines' draw policies as presets: scripted cases and their effect on search.
    Policies {
        /// Search depth on datasets/repetition.epd (1 to 12).
        #[arg(long, value_name = "N")]
        repetition_depth: Option<u32>,
        /// Search depth on WAC (1 to 12).
        #[arg(long, value_name = "N")]
        wac_depth: Option<u32>,
        /// WAC records searched: the first N of datasets/wac.epd (0 to 300).
        #[arg(long, value_name = "N")]
        wac_records: Option<usize>,
        /// Interleaved timed runs of every search (1 to 20); times are their medians.
        #[arg(long, value_name = "K")]
        repeats: Option<usize>,
        /// Worker threads (1 to 256); the counts do not depend on it.
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
    }
}
