//! `replab elo`: the self-play gauntlet (`replab_rules::elo`).

use replab_rules::elo::Elo;

use super::experiment_command;

experiment_command! {
    /// Self-play gauntlet: what each repetition choice is worth in Elo.
    Elo {
        /// Nodes per move of the fixed-node matches.
        #[arg(long, value_name = "N")]
        nodes: Option<u64>,
        /// Games per fixed-node match (even).
        #[arg(long, value_name = "N")]
        games: Option<u64>,
        /// Time control of the timed matches, BASE+INC seconds.
        #[arg(long, value_name = "T")]
        tc: Option<String>,
        /// Games per timed match (even; 0: none).
        #[arg(long, value_name = "N")]
        tc_games: Option<u64>,
        /// Seed of the opening order.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Worker threads.
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
    }
}
