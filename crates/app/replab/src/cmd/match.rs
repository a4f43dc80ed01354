//! `replab match`: one self-play match between two player specifications
//! (`replab_gauntlet::matches`); `results.json` and `games.pgn` in `--out`.

use anyhow::Result;

use super::{NoOptions, Report, Settings};

/// `replab match`.
pub struct Match;

impl Report for Match {
    type Experiment = replab_gauntlet::matches::Match;
    type Own = NoOptions;
    const ABOUT: &'static str = "One self-play match between two player specifications";
    const QUICK: bool = false;

    /// Equal cost counts instructions with this binary under valgrind.
    fn complete(config: &mut Settings<Self>, _: NoOptions) -> Result<bool> {
        config.exe = Some(std::env::current_exe()?);
        Ok(true)
    }
}
