//! `replab ghi`: graph-history interaction, path-dependent draws reused from the
//! transposition table (`replab_lab::ghi`).

use std::path::PathBuf;

use anyhow::Context;
use replab_lab::ghi;
use replab_report::ReportDir;

use crate::bars::Bars;

/// Arguments of `replab ghi`.
#[derive(clap::Args)]
pub struct Args {
    /// The short run of `bench --quick` (depth 5, 20 game positions, 30 long histories); the
    /// options below override it.
    #[arg(long)]
    quick: bool,
    /// Search depth (1 to 12).
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// Draw policy (a policy or an engine preset; default stockfish).
    #[arg(long, value_name = "P")]
    policy: Option<String>,
    /// Positions chosen from datasets/games/*.pgn (0 to 500).
    #[arg(long, value_name = "N")]
    game_positions: Option<usize>,
    /// Seeded endgames with long reversible histories (0 to 500).
    #[arg(long, value_name = "N")]
    long_positions: Option<usize>,
    /// Seed of the choices and walks.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Worker threads (1 to 256); the counts do not depend on it.
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Report directory; replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR", default_value = "reports/ghi")]
    out: PathBuf,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `replab ghi`: checks the options, searches, writes the report, prints the table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let base = if args.quick {
        ghi::Config::quick()
    } else {
        ghi::Config::default()
    };
    let policy = match &args.policy {
        Some(p) => p
            .parse()
            .with_context(|| format!("invalid --policy {p:?}"))?,
        None => base.policy,
    };
    let config = ghi::Config {
        depth: args.depth.unwrap_or(base.depth),
        policy,
        game_positions: args.game_positions.unwrap_or(base.game_positions),
        long_positions: args.long_positions.unwrap_or(base.long_positions),
        seed: args.seed.unwrap_or(base.seed),
        threads: args.threads.unwrap_or(base.threads),
        command: replab_lab::util::command_line(),
    };
    config.check()?;
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;
    let results = ghi::run(&config, &mut Bars::new(args.quiet))?;
    ghi::write(&results, &dir)?;
    let target = dir.commit().context("replacing the report directory")?;
    print!("{}", ghi::summary_table(&results));
    eprintln!("wrote {}", target.join("index.html").display());
    Ok(())
}
