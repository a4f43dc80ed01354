//! Perft (`replab perft`): the leaf count of the legal move tree, optionally divided by root
//! move. Like `scan` its product is its output (a few lines of text), so [`run`] writes
//! to the writer it is given and returns the count; there is no report.

use std::io::Write;

use anyhow::{Context, Result};
use replab_board::{Position, perft, perft_divide};
use replab_settings::Settings;

/// The deepest perft the command line accepts.
pub const MAX_DEPTH: u32 = 15;

/// Count the leaf nodes of the legal move tree (last line of stdout: the count).
// The settings of a perft run: the subcommand's options, each declared on its field (its doc
// comment is its help, as the struct's is the subcommand's). `Default` is the start position
// at depth 1, undivided.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args, Settings)]
pub struct Config {
    /// Position as FEN (six fields, or four as in EPD).
    #[arg(long, default_value = Position::START_FEN)]
    pub fen: String,
    /// Depth in plies.
    #[arg(long)]
    #[setting(range = 0..=MAX_DEPTH)]
    pub depth: u32,
    /// First print one line per root move: `<uci> <count>`.
    #[arg(long)]
    pub divide: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            fen: Position::START_FEN.to_owned(),
            depth: 1,
            divide: false,
        }
    }
}

impl Config {
    /// The root position: [`Config::fen`] parsed (six fields, or the four of an EPD record).
    pub fn position(&self) -> Result<Position> {
        Position::from_fen(&self.fen)
            .with_context(|| format!("invalid {} {:?}", Config::FEN, self.fen))
    }
}

/// Counts the leaves to `config.depth` and writes the count to `out` as the last line, after
/// the per-move lines when dividing. Returns the count.
pub fn run(config: &Config, out: &mut dyn Write) -> Result<u64> {
    config.check_ranges()?;
    let position = config.position()?;
    let total = if config.divide && config.depth > 0 {
        let mut total = 0;
        for (m, n) in perft_divide(&position, config.depth) {
            writeln!(out, "{} {n}", m.uci())?;
            total += n;
        }
        total
    } else {
        perft(&position, config.depth)
    };
    writeln!(out, "{total}")?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_divides() {
        let mut out = Vec::new();
        let config = Config {
            depth: 2,
            divide: true,
            ..Config::default()
        };
        assert_eq!(run(&config, &mut out).unwrap(), 400);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 21);
        assert_eq!(text.lines().last(), Some("400"));
        let deep = Config {
            depth: 16,
            ..Config::default()
        };
        let refused = run(&deep, &mut Vec::new()).unwrap_err().to_string();
        assert_eq!(refused, "--depth 16 is out of range (0 to 15)");
        let bad = Config {
            fen: "bad".into(),
            ..Config::default()
        };
        let refused = run(&bad, &mut Vec::new()).unwrap_err().to_string();
        assert_eq!(refused, "invalid --fen \"bad\"");
    }
}
