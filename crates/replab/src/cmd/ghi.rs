//! `replab ghi`: graph-history interaction, path-dependent draws reused from the
//! transposition table (`replab_lab::ghi`).

use std::path::PathBuf;

use replab_detect::DrawPolicy;
use replab_lab::ghi::{self, Ghi};

use super::{base, given, report};

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
    #[arg(long, value_name = "P", value_parser = policy)]
    policy: Option<DrawPolicy>,
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

/// `--policy`: a draw policy or an engine preset.
fn policy(text: &str) -> Result<DrawPolicy, String> {
    text.parse().map_err(|e| format!("{e}"))
}

/// Runs `replab ghi`: searches, writes the report, prints the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut config: ghi::Config = base(args.quick);
    given!(config, args: depth, policy, game_positions, long_positions, seed, threads);
    report::<Ghi>(config, &args.out, args.quiet)
}
