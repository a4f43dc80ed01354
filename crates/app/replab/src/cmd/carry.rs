//! `replab carry`: the options of [`carry::Config`]; the table goes to stdout.

use clap::Command;
use replab_gauntlet::carry;

use super::with_ranges;

/// The Elo each detector costs an engine of a given speed and Elo per doubling, from the time
/// and instructions a detector adds to a node (recorded for this build)
#[derive(clap::Args)]
pub struct Args {
    /// The options, declared on the library's configuration.
    #[command(flatten)]
    config: carry::Config,
}

impl super::Plain for Args {
    const NAME: &'static str = carry::COMMAND;

    fn described(command: Command) -> Command {
        with_ranges::<carry::Config>(command)
    }

    /// Runs `replab carry`.
    fn run(self) -> anyhow::Result<()> {
        carry::run(&self.config, &mut std::io::stdout().lock())
    }
}
