//! `replab study`: the Axon experiment as a study (`replab_cost::study`).

use replab_cost::study::Study;

experiment_command! {
    /// The Axon experiment as a study: sensitivity grid, endgame suite and verdict.
    Study with quick {
        grid_depth: u32 ["N"],
        repeat: u32 ["K"],
        endgame_depth: u32 ["N"],
        endgames: usize ["N"],
        wac_depth: u32 ["N"],
        wac_records: usize ["N"],
        /// Seed of the endgame generator.
        seed: u64 ["S"],
        threads: usize ["T"],
    }
}
