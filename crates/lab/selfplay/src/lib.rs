#![doc = include_str!("../README.md")]

pub mod arbiter;
pub mod book;
pub mod cost;
pub mod game;
pub mod merge;
pub mod options;
pub mod run;
pub mod spec;
pub mod stats;
pub mod usage;

pub use arbiter::{Adjudication, Outcome, Termination};
pub use book::{Book, Opening};
pub use cost::CostScaling;
pub use game::{Control, GameRecord};
pub use merge::{merge, read_dir};
pub use options::{MatchOptions, summary};
pub use run::{
    MatchConfig, MatchIdentity, MatchResults, PairRecord, check_distinct_openings,
    check_even_games, check_one_game_per_core, play,
};
pub use spec::PlayerSpec;
pub use usage::{ClockUse, DepthCounts};
