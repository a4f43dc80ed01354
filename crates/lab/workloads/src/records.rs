//! EPD records with their game history (`hfen`/`hmoves` operations, see `suite`): parsing one
//! line, reading a file with bad records named by `file:line`.

use std::{fs, path::Path};

use anyhow::{Context, Result, bail};
use replab_board::{Epd, Move, Position};

/// A record ready to search: its game (history positions and moves; the root last).
pub struct Record {
    /// The `id` operation, or `line N`.
    pub id: String,
    /// 1-based line in the file.
    pub line: usize,
    /// History positions, the record's position last.
    pub positions: Vec<Position>,
    /// Moves between the positions.
    pub moves: Vec<Move>,
    /// `bm` moves.
    pub best: Vec<Move>,
    /// `am` moves.
    pub avoid: Vec<Move>,
}

/// Parses one EPD line into a [`Record`].
pub(crate) fn parse_record(text: &str, line: usize) -> Result<Record, String> {
    let epd = Epd::parse(text).map_err(|e| e.to_string())?;
    let best = epd.moves("bm").map_err(|e| e.to_string())?;
    let avoid = epd.moves("am").map_err(|e| e.to_string())?;
    let id = epd
        .id()
        .map(str::to_string)
        .unwrap_or_else(|| format!("line {line}"));
    let operand = |op: &str| {
        epd.operation(op)
            .map(|o| o.operands.join(" "))
            .filter(|s| !s.is_empty())
    };
    let (positions, moves) = match (operand("hfen"), operand("hmoves")) {
        (None, None) => (vec![epd.position], Vec::new()),
        (Some(hfen), hmoves) => {
            let mut pos =
                Position::from_fen(&hfen).map_err(|e| format!("invalid hfen {hfen:?}: {e}"))?;
            let mut positions = vec![pos];
            let mut moves = Vec::new();
            for (i, uci) in hmoves
                .unwrap_or_default()
                .split_ascii_whitespace()
                .enumerate()
            {
                let m = pos
                    .parse_uci(uci)
                    .map_err(|e| format!("hmoves move {} ({uci}): {e}", i + 1))?;
                pos = pos.play(m);
                positions.push(pos);
                moves.push(m);
            }
            if !pos.same_position(&epd.position) {
                return Err(format!(
                    "hmoves from hfen reach {:?}, not the record's position {:?}",
                    pos.epd_fen(),
                    epd.position.epd_fen()
                ));
            }
            // The record's clocks (hmvc/fmvn) win over the replayed ones only if given.
            *positions.last_mut().expect("non-empty") = if epd.operation("hmvc").is_some() {
                epd.position
            } else {
                pos
            };
            (positions, moves)
        }
        (None, Some(_)) => return Err("hmoves without hfen".into()),
    };
    Ok(Record {
        id,
        line,
        positions,
        moves,
        best,
        avoid,
    })
}

/// Reads every record of an EPD file (blank and `#` lines skipped). A bad record is an error
/// naming `file:line`, or with `keep_going` a message in the second list.
pub fn read_records(path: &Path, keep_going: bool) -> Result<(Vec<Record>, Vec<String>)> {
    let text = fs::read_to_string(path)
        .with_context(|| format!("cannot read the EPD file {}", path.display()))?;
    let mut records = Vec::new();
    let mut skipped = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match parse_record(trimmed, i + 1) {
            Ok(r) => records.push(r),
            Err(e) => {
                let msg = format!("{}:{}: {e}", path.display(), i + 1);
                if !keep_going {
                    bail!("{msg}");
                }
                skipped.push(msg);
            }
        }
    }
    Ok((records, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_records_replay_and_are_checked() {
        let r = parse_record(
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - hfen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"; hmoves \"g1f3 g8f6 f3g1 f6g8 g1f3\"; id \"shuffle\";",
            1,
        )
        .unwrap();
        assert_eq!(
            (r.positions.len(), r.moves.len(), r.id.as_str()),
            (6, 5, "shuffle")
        );
        let e = parse_record(
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - hfen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"; hmoves \"g1f3 g8f6\";",
            3,
        )
        .err()
        .unwrap();
        assert!(e.contains("not the record's position"), "{e}");
        let e = parse_record("8/8/8/8/8/8/8/8 w - - hmoves \"e2e4\";", 4)
            .err()
            .unwrap();
        assert!(e.contains("no king"), "{e}");
        let e = parse_record(
            "4k3/8/8/8/8/8/8/4K3 w - - hfen \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"; hmoves \"e1e3\";",
            5,
        )
        .err()
        .unwrap();
        assert!(e.contains("hmoves move 1 (e1e3)"), "{e}");
    }
}
