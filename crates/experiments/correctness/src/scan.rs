//! The PGN scan (`replab scan`): replays every game of a PGN file along its main line and
//! streams one JSON object per position (docs/contracts.md, `replab scan`).
//!
//! Unlike the report experiments, a scan's product *is* its output stream: [`run`] takes
//! the writer the JSON Lines go to (stdout for the command line) instead of returning results
//! for a report directory, so a scan of any length runs in constant memory and a reader
//! (`| head`) sees positions as they are replayed. What it returns, [`ScanSummary`], is only
//! the tally: games, positions, and the games skipped with `keep_going`.

use std::{
    collections::HashMap,
    fs::File,
    io::{self, BufReader, BufWriter, Write},
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, anyhow, bail};
use replab_board::{Position, Role};
use replab_detect::{Detector, Line};
use replab_pgn::{PgnGame, PgnReader};
use replab_registry::{AnyDetector, DETECTOR_NAMES, RootRule, by_name, parse_list};
use replab_settings::Settings;
use replab_truth::Identity;
use serde::{Serialize, Serializer, ser::SerializeMap};

use crate::{DetectorNames, Progress};

/// One output line.
#[derive(Serialize)]
struct Record<'a> {
    game: usize,
    ply: usize,
    fen: String,
    occurrence: u32,
    threefold_claimable: bool,
    fivefold: bool,
    fifty_claimable: bool,
    seventyfive: bool,
    detectors: DetectorFlags<'a>,
}

/// Detector name → flag, serialised as a JSON object in the requested order.
struct DetectorFlags<'a>(&'a [(&'static str, bool)]);

impl Serialize for DetectorFlags<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A game that could not be replayed to its end.
pub struct BadGame {
    /// What went wrong, with file:line.
    pub message: String,
}

/// The fifty-move claim (docs/contracts.md): clock ≥ 100 with a legal move, or clock ≥ 99 and a
/// legal move that is neither a capture nor a pawn move leads to a position with a legal move.
pub fn fifty_claimable(pos: &Position) -> bool {
    let h = pos.halfmove_clock();
    if h >= 100 && pos.has_legal_move() {
        return true;
    }
    h >= 99
        && pos.legal_moves().iter().any(|&m| {
            !m.is_capture()
                && pos.piece_at(m.from()).map(|p| p.role) != Some(Role::Pawn)
                && pos.play(m).has_legal_move()
        })
}

/// Per-game replay state: positions counted by identity since the last irreversible move.
struct Counter {
    seen: HashMap<Identity, u32>,
    max: u32,
}

impl Counter {
    fn reset(&mut self) {
        self.seen.clear();
        self.max = 0;
    }

    fn add(&mut self, pos: &Position) -> u32 {
        let n = self.seen.entry(Identity::of(pos)).or_insert(0);
        *n += 1;
        self.max = self.max.max(*n);
        *n
    }

    /// Whether some legal move makes a position occur for the third time.
    fn about_to_appear_third_time(&self, pos: &Position) -> bool {
        self.max >= 2
            && pos.legal_moves().iter().any(|&m| {
                self.seen
                    .get(&Identity::of(&pos.play(m)))
                    .copied()
                    .unwrap_or(0)
                    >= 2
            })
    }
}

fn move_label(pos: &Position, san: &str) -> String {
    let dots = match pos.side_to_move() {
        replab_board::Color::White => ".",
        replab_board::Color::Black => "...",
    };
    format!("{}{dots} {san}", pos.fullmove_number())
}

/// Replays one game, writing a record per position and counting them in `positions`. Returns
/// an error for the first bad move.
fn scan_game(
    path: &Path,
    game: &PgnGame,
    detectors: &mut [AnyDetector],
    flags: &mut Vec<(&'static str, bool)>,
    counter: &mut Counter,
    out: &mut impl Write,
    positions: &mut u64,
) -> Result<Result<(), BadGame>> {
    let place = |line: usize| format!("{}:{line}", path.display());
    let start = match game.tag("FEN") {
        Some(fen) => match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                return Ok(Err(BadGame {
                    message: format!(
                        "{}: game {}: invalid FEN tag {fen:?}: {e}",
                        place(game.line),
                        game.index
                    ),
                }));
            }
        },
        None => Position::startpos(),
    };
    let capacity = game.moves.len() + 1;
    let mut line = Line::new(&start, capacity);
    for d in detectors.iter_mut() {
        d.clear(capacity);
    }
    counter.reset();
    let mut pos = start;
    for ply in 0..=game.moves.len() {
        if ply > 0 {
            let token = &game.moves[ply - 1];
            let m = match pos.parse_san(&token.text) {
                Ok(m) => m,
                Err(e) => {
                    return Ok(Err(BadGame {
                        message: format!(
                            "{}: game {}, move {}: {e}",
                            place(token.line),
                            game.index,
                            move_label(&pos, &token.text)
                        ),
                    }));
                }
            };
            let next = pos.play(m);
            if pos.is_irreversible(m) {
                counter.reset();
            }
            line.push(&pos, m, &next);
            line.set_root();
            pos = next;
        }
        let occurrence = counter.add(&pos);
        flags.clear();
        for d in detectors.iter_mut() {
            let hit = d.probe(&line, &pos).is_some();
            d.enter(&line, &pos);
            let upcoming_only =
                replab_registry::info(d.name()).is_some_and(|i| i.caps.upcoming_only());
            let flag = if upcoming_only {
                d.upcoming(&line, &pos)
            } else {
                hit
            };
            flags.push((d.name(), flag));
        }
        let record = Record {
            game: game.index,
            ply,
            fen: pos.fen(),
            occurrence,
            threefold_claimable: occurrence >= 3 || counter.about_to_appear_third_time(&pos),
            fivefold: occurrence >= 5,
            fifty_claimable: fifty_claimable(&pos),
            seventyfive: pos.halfmove_clock() >= 150 && pos.has_legal_move(),
            detectors: DetectorFlags(flags),
        };
        serde_json::to_writer(&mut *out, &record)?;
        out.write_all(b"\n")?;
        *positions += 1;
    }
    Ok(Ok(()))
}

/// The settings of a scan, each declared on its field: `replab scan`'s options, the doc
/// comment its help. `Default` gives the command line's defaults (but no PGN file).
#[derive(Clone, Debug, PartialEq, Eq, clap::Args, Settings)]
pub struct Config {
    /// PGN file to replay (main lines only).
    #[arg(long)]
    pub pgn: PathBuf,
    /// Comma-separated detector names, or `all`.
    #[arg(long, default_value = "all", value_parser = parse_detectors)]
    pub detectors: DetectorNames,
    /// Continue with the next game after a bad one; report how many were skipped (exit 2 if
    /// any).
    #[arg(long)]
    pub keep_going: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            pgn: PathBuf::new(),
            detectors: parse_detectors("all").expect("`all` is a valid detector list"),
            keep_going: false,
        }
    }
}

/// Parses the scanned detectors: a comma-separated list or `all` (every technique, `truth`
/// included); `off` is refused.
pub fn parse_detectors(text: &str) -> Result<DetectorNames> {
    let names = parse_list(text, &DETECTOR_NAMES)?;
    if names.iter().any(|n| n == "off") {
        bail!("`off` is not a detector");
    }
    Ok(DetectorNames(names))
}

/// The tally of a scan; the positions themselves went to the output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanSummary {
    /// Games read (skipped ones included).
    pub games: usize,
    /// Positions written, one JSON line each.
    pub positions: u64,
    /// With `keep_going`: the bad games, each message naming `file:line`, the game index, and
    /// for a bad move its number and SAN.
    pub skipped: Vec<String>,
    /// The output was closed by its reader (a broken pipe, as with `| head`): the scan stopped
    /// there, which is not an error.
    pub output_closed: bool,
}

/// Replays every game of `config.pgn` and writes one JSON line per position to `out`
/// (buffered here; pass stdout as it is). One progress unit per game, in a stage of unknown
/// length.
///
/// Without `keep_going` the first bad game ends the scan with an error naming `file:line`, the
/// game index, the move number and the SAN; the positions before it have been written and
/// flushed. With `keep_going` bad games are listed in [`ScanSummary::skipped`]. A broken pipe
/// on `out` ends the scan quietly ([`ScanSummary::output_closed`]).
pub fn run(
    config: &Config,
    out: &mut dyn Write,
    progress: &mut dyn Progress,
) -> Result<ScanSummary> {
    let mut detectors: Vec<AnyDetector> = config
        .detectors
        .iter()
        .map(|n| by_name(n, RootRule::AnyEarlier))
        .collect::<Result<_, _>>()?;
    let file = File::open(&config.pgn)
        .with_context(|| format!("cannot open {} {}", Config::PGN, config.pgn.display()))?;
    let mut reader = PgnReader::new(BufReader::with_capacity(1 << 16, file));
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let mut flags = Vec::with_capacity(detectors.len());
    let mut counter = Counter {
        seen: HashMap::new(),
        max: 0,
    };
    let mut summary = ScanSummary::default();
    progress.stage("scan", 0);
    loop {
        let game = match reader.next_game() {
            Ok(Some(g)) => g,
            Ok(None) => break,
            Err(e) => {
                summary.games += 1;
                progress.advance(1);
                summary
                    .skipped
                    .push(format!("{}: {e}", config.pgn.display()));
                if config.keep_going {
                    continue;
                }
                break;
            }
        };
        summary.games += 1;
        let res = scan_game(
            &config.pgn,
            &game,
            &mut detectors,
            &mut flags,
            &mut counter,
            &mut out,
            &mut summary.positions,
        );
        progress.advance(1);
        match res {
            Ok(Ok(())) => {}
            Ok(Err(b)) => {
                summary.skipped.push(b.message);
                if !config.keep_going {
                    break;
                }
            }
            Err(e) if is_broken_pipe(&e) => {
                summary.output_closed = true;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    progress.finish();
    if !summary.output_closed {
        match out.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => summary.output_closed = true,
            r => r?,
        }
    }
    if !config.keep_going
        && !summary.output_closed
        && let Some(first) = summary.skipped.first()
    {
        return Err(anyhow!("{first}"));
    }
    Ok(summary)
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>()
                .and_then(|e| e.io_error_kind())
                .is_some_and(|k| k == io::ErrorKind::BrokenPipe)
    })
}
