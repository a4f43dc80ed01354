//! `replab elo`: the self-play gauntlet (`replab_gauntlet`).

use anyhow::Result;

use super::{NoOptions, Report, Settings};

/// `replab elo`.
pub struct Elo;

impl Report for Elo {
    type Experiment = replab_gauntlet::Elo;
    type Own = NoOptions;
    const ABOUT: &'static str = "Self-play gauntlet: what each repetition choice is worth in Elo";
    const QUICK: bool = true;

    /// The equal-cost rows count instructions with this binary under valgrind.
    fn complete(config: &mut Settings<Self>, _: NoOptions) -> Result<bool> {
        config.exe = Some(std::env::current_exe()?);
        Ok(true)
    }
}
