//! `replab match`: one self-play match between two player specifications
//! (`replab_rules::matches`); `results.json` and `games.pgn` in `--out`.

use replab_rules::matches::Match;
use replab_selfplay::MatchOptions;

use super::Output;

/// Arguments of `replab match`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    options: MatchOptions,
    #[command(flatten)]
    output: Output,
}

/// Runs `replab match`.
pub fn run(args: Args) -> anyhow::Result<()> {
    args.output.report::<Match>(args.options.into())
}
