//! The files of `datasets/` the experiments embed, one constant each, so no experiment depends
//! on the working directory and no path is spelt twice; and reading them (EPD records named
//! `path:line` when bad, WAC positions).

use anyhow::{Result, anyhow};
use replab_board::{Epd, Position};

use crate::records::{Record, parse_record};

/// One embedded file: its path in the repository (for messages) and its text.
#[derive(Clone, Copy, Debug)]
pub struct Dataset {
    /// The path from the repository root (`datasets/wac.epd`).
    pub path: &'static str,
    /// The file's text.
    pub text: &'static str,
}

/// Embeds `datasets/<file>` as a [`Dataset`].
macro_rules! embed {
    ($file:literal) => {
        Dataset {
            path: concat!("datasets/", $file),
            text: include_str!(concat!("../../../../datasets/", $file)),
        }
    };
}

/// Win At Chess: 300 tactical positions.
pub const WAC: Dataset = embed!("wac.epd");
/// The Bratko–Kopec test.
pub const BK: Dataset = embed!("bk.epd");
/// The repetition-rich suite: perpetual checks, composed draws, game positions with history.
pub const REPETITION: Dataset = embed!("repetition.epd");
/// The Axon paper's Tables 2 and 3, typed.
pub const AXON_TABLES: Dataset = embed!("paper/axon-tables.json");
/// The Diep–Axon game the paper discusses.
pub const DIEP_AXON: Dataset = embed!("games/diep-axon.pgn");
/// Every game file, in file-name order.
pub const GAMES: [Dataset; 6] = [
    embed!("games/capablanca-lasker-1921.pgn"),
    DIEP_AXON,
    embed!("games/fischer-petrosian-1971.pgn"),
    embed!("games/kasparov-deep-blue-1997.pgn"),
    embed!("games/mixed.pgn"),
    embed!("games/portisch-korchnoi-1970.pgn"),
];
/// WAC.018, the Axon paper's Figure 3 (White to move; Rh8 wins).
pub const WAC018: &str = "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1";
/// The UCI conformance scenarios, read at run time (`--scenarios` may name another file).
pub const CONFORMANCE: &str = "datasets/conformance.json";

impl Dataset {
    /// The file name (`wac.epd`).
    pub fn name(&self) -> &'static str {
        self.path.rsplit('/').next().unwrap_or(self.path)
    }

    /// The non-empty, non-comment lines with their 1-based line numbers.
    fn lines(&self) -> impl Iterator<Item = (usize, &'static str)> {
        self.text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
    }

    /// The first `limit` (all when `None`) EPD records with their game history; a bad record
    /// fails naming `path:line`.
    pub fn records(&self, limit: Option<usize>) -> Result<Vec<Record>> {
        self.lines()
            .take(limit.unwrap_or(usize::MAX))
            .map(|(n, l)| parse_record(l, n).map_err(|e| anyhow!("{}:{n}: {e}", self.path)))
            .collect()
    }

    /// The first `n` EPD positions with their ids (`line N` without one), no history.
    pub fn positions(&self, n: usize) -> Result<Vec<(String, Position)>> {
        self.lines()
            .take(n)
            .map(|(n, l)| {
                let epd = Epd::parse(l).map_err(|e| anyhow!("{}:{n}: {e}", self.path))?;
                let id = epd.id().map_or_else(|| format!("line {n}"), str::to_string);
                Ok((id, epd.position))
            })
            .collect()
    }
}
