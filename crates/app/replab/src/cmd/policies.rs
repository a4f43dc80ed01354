//! `replab policies`: engines' draw policies as presets (`replab_correctness::policies`):
//! each option's help and range come from the experiment's declarations (`policies::SETTINGS`).

use replab_correctness::policies::Policies;

use super::experiment_command;

experiment_command! {
    /// Engines' draw policies as presets: scripted cases and their effect on search.
    Policies {
        #[arg(long, value_name = "N")]
        repetition_depth: Option<u32>,
        #[arg(long, value_name = "N")]
        wac_depth: Option<u32>,
        #[arg(long, value_name = "N")]
        wac_records: Option<usize>,
        #[arg(long, value_name = "K")]
        repeats: Option<usize>,
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
    }
}
