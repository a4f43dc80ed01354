//! `replab merge`: combines the shards of one match into the whole match's results.

use std::path::PathBuf;

use replab_selfplay::{merge, summary, write_dir};

/// Arguments of `replab merge`.
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
    let (mut results, pgn) = merge(&args.dirs)?;
    results
        .meta
        .insert("command".into(), crate::cmd::command_line());
    write_dir(&args.out, &results, &pgn)?;
    print!("{}", summary(&results));
    eprintln!("wrote {}", args.out.join("results.json").display());
    Ok(())
}
