//! `replab merge`: combines the shards of one match into the whole match's results
//! (`replab_gauntlet::matches`).

use std::path::PathBuf;

use replab_gauntlet::matches::{Merge, MergeConfig};
use replab_harness::{Bars, experiment::run_and_report};

/// Merge the shards of one match into the whole match's results (results.json, games.pgn).
#[derive(clap::Args)]
pub struct Args {
    /// The shards, declared on the library's configuration.
    #[command(flatten)]
    config: MergeConfig,
    /// Output directory of the merged results.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

impl super::Plain for Args {
    const NAME: &'static str = "merge";

    /// Runs `replab merge`.
    fn run(self) -> anyhow::Result<()> {
        let typed = super::command_line(std::env::args().skip(1));
        run_and_report::<Merge>(self.config, typed, Some(self.out), &mut Bars::new(true))
    }
}
