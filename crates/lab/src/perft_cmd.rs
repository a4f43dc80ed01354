//! `replab perft --fen FEN --depth N [--divide]`.

use std::io::Write;

use anyhow::{Context, Result, bail};
use clap::Args;
use replab_board::{Position, perft, perft_divide};

/// Arguments of `replab perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Position as FEN (six fields, or four as in EPD).
    #[arg(long, default_value = Position::START_FEN)]
    fen: String,
    /// Depth in plies (0 to 15).
    #[arg(long)]
    depth: u32,
    /// First print one line per root move: `<uci> <count>`.
    #[arg(long)]
    divide: bool,
}

/// Runs perft and prints the count as the last line.
pub fn run(args: &PerftArgs) -> Result<()> {
    let pos =
        Position::from_fen(&args.fen).with_context(|| format!("invalid --fen {:?}", args.fen))?;
    if args.depth > 15 {
        bail!("--depth {} is out of range (0 to 15)", args.depth);
    }
    let mut out = std::io::stdout().lock();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (m, n) in perft_divide(&pos, args.depth) {
            writeln!(out, "{} {n}", m.uci())?;
            total += n;
        }
        total
    } else {
        perft(&pos, args.depth)
    };
    writeln!(out, "{total}")?;
    Ok(())
}
