//! `replab match`: one self-play match between two player specifications
//! (`replab_gauntlet::matches`); `results.json` and `games.pgn` in `--out`. The options are
//! declared here, the one place that knows the command line; `replab-selfplay` takes them as
//! plain [`MatchOptions`].

use std::path::PathBuf;

use replab_gauntlet::matches::Match;
use replab_selfplay::{
    Adjudication, MatchOptions,
    book::BUILTIN_NAME,
    options::{DEFAULT_GAMES, DEFAULT_NODES, DEFAULT_SEED},
};

use super::{Output, show, show_out};

/// One self-play match between two player specifications.
#[derive(clap::Args)]
pub struct Args {
    /// Player A: a detector name, optionally followed by `:OPTION=VALUE,…` (docs/elo.md).
    #[arg(long, value_name = "SPEC")]
    a: String,
    /// Player B, as --a.
    #[arg(long, value_name = "SPEC")]
    b: String,
    /// Games of the whole match (even: each opening is played twice, colours swapped).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GAMES)]
    games: u64,
    /// Nodes per move (deterministic; the default unless --tc is given).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Time control BASE+INCREMENT in seconds, e.g. 8+0.08 (not deterministic).
    #[arg(long, value_name = "T")]
    tc: Option<String>,
    /// Opening book (PGN); by default the built-in one, read by its path from anywhere.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Seed of the opening order.
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Stop as soon as the normalized-Elo SPRT with these bounds decides.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    sprt: Option<String>,
    /// Play only shard K of N (the pairs i with i mod N = K-1).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Worker threads (default: every core); the games do not depend on it.
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Equal cost: B searches --nodes, A as many nodes as the same instructions buy (each
    /// player's instructions per node counted by callgrind; the recorded table without valgrind).
    #[arg(long)]
    scale_by_cost: bool,
    /// Score adjudication, changes to fishtest's: draw=off or draw=SCORE/MOVES/FROM_MOVE,
    /// resign=off or resign=SCORE/MOVES, comma-separated.
    #[arg(long, value_name = "SPEC", value_parser = parse_adjudication)]
    adjudicate: Option<Adjudication>,
    #[command(flatten)]
    output: Output,
}

/// `--help` with the defaults `replab-selfplay` applies and the report directory.
pub fn defaults(cmd: clap::Command) -> clap::Command {
    cmd.mut_arg("nodes", |a| show(a, &DEFAULT_NODES.to_string()))
        .mut_arg("book", |a| show(a, BUILTIN_NAME))
        .mut_arg("adjudicate", |a| show(a, &Adjudication::fishtest().to_string()))
        .mut_arg("out", show_out::<Match>)
}

/// Runs `replab match`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let options = MatchOptions {
        a: args.a,
        b: args.b,
        games: args.games,
        nodes: args.nodes,
        tc: args.tc,
        book: args.book,
        seed: args.seed,
        sprt: args.sprt,
        shard: args.shard,
        threads: args.threads,
        adjudication: args.adjudicate.unwrap_or_else(Adjudication::fishtest),
    };
    let mut config = replab_gauntlet::matches::Config::from(options);
    config.scale_by_cost = args.scale_by_cost;
    config.exe = Some(std::env::current_exe()?);
    args.output.report::<Match>(config)
}

/// `--adjudicate`: changes to fishtest's adjudication.
fn parse_adjudication(text: &str) -> Result<Adjudication, String> {
    Adjudication::fishtest()
        .with(text)
        .map_err(|e| e.to_string())
}
