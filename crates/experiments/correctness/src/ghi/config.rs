//! The settings of `replab ghi`, each declared on its field.

use replab_detect::DrawPolicy;
use replab_settings::Settings;
use serde::{Deserialize, Serialize};

use crate::engine::default_threads;
use crate::experiment::Configuration;

/// Deepest depth accepted.
pub const MAX_DEPTH: u32 = 12;

/// The settings of `replab ghi`, each declared on its field: the doc comment is its help (in
/// `results.json` under `config`, beside what the run derives from them: [`Setup`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// Search depth.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub depth: u32,
    /// Draw policy (a policy or an engine preset).
    #[arg(long, value_name = "P", value_parser = replab_registry::policy)]
    pub policy: DrawPolicy,
    /// Positions chosen from datasets/games/*.pgn.
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=500)]
    pub game_positions: usize,
    /// Seeded endgames with long reversible histories.
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=500)]
    pub long_positions: usize,
    /// Seed of the choices and walks.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Worker threads ({range}); the counts do not depend on it.
    #[arg(long, value_name = "T")]
    #[setting(range = 1..=256)]
    pub threads: usize,
    /// The command line that regenerates the report (in `meta`, recorded as typed).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
}

impl Default for Config {
    /// The command line's defaults (the full run).
    fn default() -> Self {
        Self {
            depth: 6,
            policy: DrawPolicy::Stockfish,
            game_positions: 60,
            long_positions: 300,
            seed: 1,
            threads: default_threads(),
            command: String::new(),
        }
    }
}

impl Configuration for Config {
    /// The short run of `bench --quick`.
    fn quick() -> Self {
        Self {
            depth: 5,
            game_positions: 20,
            long_positions: 30,
            ..Self::default()
        }
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }
}
