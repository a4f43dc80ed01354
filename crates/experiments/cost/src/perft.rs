//! Perft (`replab perft`): the leaf count of the legal move tree, optionally divided by root
//! move. Like `scan` its product is its output (a few lines of text), so [`run`] writes
//! to the writer it is given and returns the count; there is no report.

use std::io::Write;

use anyhow::{Context, Result};
use replab_board::{Position, perft, perft_divide};

/// The deepest perft the command line accepts.
pub const MAX_DEPTH: u32 = 15;

/// The depth, declared once: its range and help.
pub const DEPTH: replab_settings::Declared =
    replab_settings::Declared::new("depth", 0, MAX_DEPTH as u64, "Depth in plies.");

/// The settings of a perft run. `Default` is the start position at depth 1, undivided.
#[derive(Clone, Debug)]
pub struct Config {
    /// The root position.
    pub position: Position,
    /// Depth in plies, 0 to [`MAX_DEPTH`].
    pub depth: u32,
    /// First write one line per root move: `<uci> <count>`.
    pub divide: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            position: Position::startpos(),
            depth: 1,
            divide: false,
        }
    }
}

/// Parses `--fen` (six fields, or the four of an EPD record).
pub fn parse_fen(fen: &str) -> Result<Position> {
    Position::from_fen(fen).with_context(|| {
        format!(
            "invalid {set_fen} {fen:?}",
            set_fen = replab_settings::Setting::new("fen")
        )
    })
}

/// Counts the leaves to `config.depth` and writes the count to `out` as the last line, after
/// the per-move lines when dividing. Returns the count.
pub fn run(config: &Config, out: &mut dyn Write) -> Result<u64> {
    DEPTH.check(config.depth)?;
    let total = if config.divide && config.depth > 0 {
        let mut total = 0;
        for (m, n) in perft_divide(&config.position, config.depth) {
            writeln!(out, "{} {n}", m.uci())?;
            total += n;
        }
        total
    } else {
        perft(&config.position, config.depth)
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
        assert!(run(&deep, &mut Vec::new()).is_err());
        assert!(parse_fen("bad").is_err());
    }
}
