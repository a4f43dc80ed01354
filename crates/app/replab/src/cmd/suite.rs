//! `replab suite`: its arguments, turned into a [`suite::Config`].

use std::path::PathBuf;

use anyhow::Result;
use replab_cost::suite::{self, Suite};

use super::{ALL, Output, declared_help, given, show, show_field, show_out};

/// Search every record of an EPD suite with every detector and write a report.
#[derive(clap::Args)]
pub struct Args {
    /// EPD file (one record per line; `hfen`/`hmoves` operations give a game history).
    #[arg(long)]
    pub epd: PathBuf,
    #[arg(long)]
    pub depth: Option<u32>,
    /// Node budget per search (the deepest completed iteration counts); none by default.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Comma-separated detectors, or `all` (every searcher detector); `off` is always
    /// added.
    #[arg(long)]
    pub detectors: Option<String>,
    /// Draw policy: twofold, stanback, moreland, stockfish or threefold, or an engine preset
    /// (crafty, weiss, koivisto, viridithas, lc0), an alias of one of them.
    #[arg(long)]
    pub policy: Option<String>,
    /// Skip bad records (reported; exit status 2 at the end) instead of stopping at the first.
    #[arg(long)]
    pub keep_going: bool,
    /// Only the first N records.
    #[arg(long)]
    pub limit: Option<usize>,
    #[arg(long)]
    pub repeats: Option<usize>,
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    output: Output,
}

/// `--help` with the declared help ([`suite::SETTINGS`]), the defaults of
/// [`suite::Config::default`] and the report directory.
pub fn defaults(cmd: clap::Command) -> clap::Command {
    let config = suite::Config::default();
    let declared = |a, field| declared_help(a, suite::SETTINGS, field);
    cmd.mut_arg("depth", |a| show_field(declared(a, "depth"), "depth", &config.depth))
        .mut_arg("policy", |a| show_field(a, "policy", &config.policy))
        .mut_arg("detectors", |a| show(a, ALL))
        .mut_arg("repeats", |a| show_field(declared(a, "repeats"), "repeats", &config.repeats))
        .mut_arg("threads", |a| show_field(declared(a, "threads"), "threads", &config.threads))
        .mut_arg("out", show_out::<Suite>)
}

/// Runs `replab suite`: prints the per-detector table, writes the report, and fails (exit 2)
/// after writing it when records were skipped.
pub fn run(args: Args) -> Result<()> {
    let mut config = suite::Config {
        epd: args.epd,
        nodes: args.nodes,
        keep_going: args.keep_going,
        limit: args.limit,
        ..suite::Config::default()
    };
    given!(config, args: depth, repeats, threads);
    config.choose(args.policy.as_deref(), args.detectors.as_deref())?;
    args.output.report::<Suite>(config)
}
