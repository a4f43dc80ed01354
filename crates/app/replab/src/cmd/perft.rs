//! `replab perft`: the options of [`perft::Config`]; the counts go to stdout.

use clap::Command;
use replab_cost::perft;

use super::with_ranges;

/// Count the leaf nodes of the legal move tree (last line of stdout: the count).
#[derive(clap::Args)]
pub struct Args {
    /// The options, declared on the library's configuration.
    #[command(flatten)]
    config: perft::Config,
}

impl super::Plain for Args {
    const NAME: &'static str = "perft";

    fn described(command: Command) -> Command {
        with_ranges::<perft::Config>(command)
    }

    /// Runs `replab perft`: the last line of stdout is the leaf count.
    fn run(self) -> anyhow::Result<()> {
        perft::run(&self.config, &mut std::io::stdout().lock()).map(drop)
    }
}
