//! `replab elo`: the self-play gauntlet (`replab_lab::elo`).

use std::path::PathBuf;

use anyhow::Context;
use replab_lab::elo;
use replab_report::ReportDir;

use crate::bars::Bars;

/// Arguments of `replab elo`.
#[derive(clap::Args)]
pub struct Args {
    /// The short run of `bench --quick`; the options below override it.
    #[arg(long)]
    quick: bool,
    /// Nodes per move of the fixed-node matches.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Games per fixed-node match (even).
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// Time control of the timed matches, BASE+INC seconds.
    #[arg(long, value_name = "T")]
    tc: Option<String>,
    /// Games per timed match (even; 0: none).
    #[arg(long, value_name = "N")]
    tc_games: Option<u64>,
    /// Seed of the opening order.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Worker threads.
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Report directory; replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR", default_value = "reports/elo")]
    out: PathBuf,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `replab elo`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let base = if args.quick {
        elo::Config::quick()
    } else {
        elo::Config::default()
    };
    let config = elo::Config {
        nodes: args.nodes.unwrap_or(base.nodes),
        games: args.games.unwrap_or(base.games),
        tc: args.tc.unwrap_or(base.tc),
        tc_games: args.tc_games.unwrap_or(base.tc_games),
        seed: args.seed.unwrap_or(base.seed),
        threads: args.threads.unwrap_or(base.threads),
        command: replab_lab::util::command_line(),
    };
    config.check()?;
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;
    let results = elo::run(&config, &mut Bars::new(args.quiet))?;
    elo::write(&results, &dir)?;
    let target = dir.commit().context("replacing the report directory")?;
    print!("{}", elo::summary_table(&results));
    eprintln!("wrote {}", target.join("index.html").display());
    Ok(())
}
