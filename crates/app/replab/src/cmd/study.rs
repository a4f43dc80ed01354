//! `replab study`: the Axon experiment as a study (`replab_cost::study`).

experiment_command! {
    /// The Axon experiment as a study: sensitivity grid, endgame suite and verdict.
    replab_cost::study::Study with quick {
        grid_depth: Option<u32> ["N"],
        repeat: Option<u32> ["K"],
        endgame_depth: Option<u32> ["N"],
        endgames: Option<usize> ["N"],
        wac_depth: Option<u32> ["N"],
        wac_records: Option<usize> ["N"],
        /// Seed of the endgame generator.
        seed: Option<u64> ["S"],
        threads: Option<usize> ["T"],
    }
}
