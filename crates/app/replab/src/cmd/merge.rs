//! `replab merge`: combines the shards of one match into the whole match's results
//! (`replab_gauntlet::matches`).

use std::path::PathBuf;

use replab_gauntlet::matches::Merge;

/// Merge the shards of one match into the whole match's results (results.json, games.pgn).
#[derive(clap::Args)]
pub struct Args {
    /// The shards' output directories (every shard of the match, once).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Output directory of the merged results.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Runs `replab merge`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let output = super::Output {
        out: Some(args.out),
        quiet: true,
    };
    output.report::<Merge>(args.dirs.into())
}
