//! `replab ghi`: graph-history interaction (`replab_correctness::ghi`).

use replab_detect::DrawPolicy;
use replab_correctness::ghi::Ghi;

use super::experiment_command;

experiment_command! {
    /// Graph-history interaction: path-dependent draws reused from the transposition table.
    Ghi {
        /// Search depth (1 to 12).
        #[arg(long, value_name = "N")]
        depth: Option<u32>,
        /// Draw policy (a policy or an engine preset).
        #[arg(long, value_name = "P", value_parser = replab_registry::policy)]
        policy: Option<DrawPolicy>,
        /// Positions chosen from datasets/games/*.pgn (0 to 500).
        #[arg(long, value_name = "N")]
        game_positions: Option<usize>,
        /// Seeded endgames with long reversible histories (0 to 500).
        #[arg(long, value_name = "N")]
        long_positions: Option<usize>,
        /// Seed of the choices and walks.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Worker threads (1 to 256); the counts do not depend on it.
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
    }
}
