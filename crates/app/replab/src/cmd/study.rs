//! `replab study`: the Axon experiment as a study (`replab_cost::study`); each option's help
//! and range come from the experiment's declarations (`study::SETTINGS`).

use replab_cost::study::Study;

use super::experiment_command;

experiment_command! {
    /// The Axon experiment as a study: sensitivity grid, endgame suite and verdict.
    Study {
        #[arg(long, value_name = "N")]
        grid_depth: Option<u32>,
        #[arg(long, value_name = "K")]
        repeat: Option<u32>,
        #[arg(long, value_name = "N")]
        endgame_depth: Option<u32>,
        #[arg(long, value_name = "N")]
        endgames: Option<usize>,
        #[arg(long, value_name = "N")]
        wac_depth: Option<u32>,
        #[arg(long, value_name = "N")]
        wac_records: Option<usize>,
        /// Seed of the endgame generator.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
    }
}
