//! `replab study`: the Axon experiment as a study (`replab_cost::study`).

use replab_cost::study::{self, Study};

use super::{count, experiment_command};

experiment_command! {
    /// The Axon experiment as a study: sensitivity grid, endgame suite and verdict.
    Study {
        /// Deepest iteration of the WAC.018 grid (1 to 20; the paper's 12).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(study::MAX_DEPTH)))]
        grid_depth: Option<u32>,
        /// Interleaved repeats of every grid configuration (1 to 100); times are their medians.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=100))]
        repeat: Option<u32>,
        /// Depth of the endgame searches (1 to 20).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(study::MAX_DEPTH)))]
        endgame_depth: Option<u32>,
        /// Endgames generated and searched (1 to 10,000).
        #[arg(long, value_name = "N", value_parser = count(1, 10_000))]
        endgames: Option<usize>,
        /// Depth of the WAC searches (1 to 20).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(study::MAX_DEPTH)))]
        wac_depth: Option<u32>,
        /// WAC records searched for contrast (the first N of datasets/wac.epd; 0 for none).
        #[arg(long, value_name = "N", value_parser = count(0, 300))]
        wac_records: Option<usize>,
        /// Seed of the endgame generator.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Worker threads (1 to 256); the counters do not depend on it.
        #[arg(long, value_name = "T", value_parser = count(1, 256))]
        threads: Option<usize>,
    }
}
