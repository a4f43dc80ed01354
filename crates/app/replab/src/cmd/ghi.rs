//! `replab ghi`: graph-history interaction (`replab_correctness::ghi`); each
//! numeric option's help and range come from the experiment's declarations (`ghi::SETTINGS`).

use replab_detect::DrawPolicy;
use replab_correctness::ghi::Ghi;

use super::experiment_command;

experiment_command! {
    /// Graph-history interaction: path-dependent draws reused from the transposition table.
    Ghi {
        #[arg(long, value_name = "N")]
        depth: Option<u32>,
        /// Draw policy (a policy or an engine preset).
        #[arg(long, value_name = "P", value_parser = replab_registry::policy)]
        policy: Option<DrawPolicy>,
        #[arg(long, value_name = "N")]
        game_positions: Option<usize>,
        #[arg(long, value_name = "N")]
        long_positions: Option<usize>,
        /// Seed of the choices and walks.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
    }
}
