//! `replab ghi`: graph-history interaction (`replab_correctness::ghi`).

experiment_command! {
    /// Graph-history interaction: path-dependent draws reused from the transposition table.
    replab_correctness::ghi::Ghi with quick {
        depth: Option<u32> ["N"],
        /// Draw policy (a policy or an engine preset).
        policy: Option<replab_detect::DrawPolicy> ["P", value_parser = replab_registry::policy],
        game_positions: Option<usize> ["N"],
        long_positions: Option<usize> ["N"],
        /// Seed of the choices and walks.
        seed: Option<u64> ["S"],
        threads: Option<usize> ["T"],
    }
}
