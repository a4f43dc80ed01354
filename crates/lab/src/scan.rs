//! `replab scan --pgn FILE [--detectors LIST] [--keep-going]`: replays every game of a PGN
//! file and prints one JSON object per position (contracts.md, `replab scan`).

use std::{
    collections::HashMap,
    fs::File,
    io::{self, BufReader, BufWriter, Write},
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};
use clap::Args;
use replab_board::{Position, Role};
use replab_detect::{Detector, Line};
use replab_registry::{AnyDetector, DETECTOR_NAMES, RootRule, by_name, parse_list};
use replab_truth::Identity;
use serde::{Serialize, Serializer, ser::SerializeMap};

use replab_pgn::{PgnGame, PgnReader};

/// Arguments of `replab scan`.
#[derive(Args)]
pub struct ScanArgs {
    /// PGN file to replay (main lines only).
    #[arg(long)]
    pgn: PathBuf,
    /// Comma-separated detector names, or `all`.
    #[arg(long, default_value = "all")]
    detectors: String,
    /// Continue with the next game after a bad one; report how many were skipped (exit 2 if any).
    #[arg(long)]
    keep_going: bool,
}

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

/// The fifty-move claim (contracts.md): clock ≥ 100 with a legal move, or clock ≥ 99 and a
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

/// Replays one game, writing a record per position. Returns an error for the first bad move.
fn scan_game(
    path: &Path,
    game: &PgnGame,
    detectors: &mut [AnyDetector],
    flags: &mut Vec<(&'static str, bool)>,
    counter: &mut Counter,
    out: &mut impl Write,
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
            let flag = if d.name() == "cuckoo" {
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
    }
    Ok(Ok(()))
}

/// Runs `replab scan`.
pub fn run(args: &ScanArgs) -> Result<()> {
    let names = parse_list(&args.detectors, &DETECTOR_NAMES)
        .with_context(|| format!("invalid --detectors {:?}", args.detectors))?;
    if names.iter().any(|n| n == "off") {
        bail!(
            "invalid --detectors {:?}: `off` is not a detector",
            args.detectors
        );
    }
    let mut detectors: Vec<AnyDetector> = names
        .iter()
        .map(|n| by_name(n, RootRule::AnyEarlier))
        .collect::<Result<_, _>>()?;
    let file = File::open(&args.pgn)
        .with_context(|| format!("cannot open --pgn {}", args.pgn.display()))?;
    let mut reader = PgnReader::new(BufReader::with_capacity(1 << 16, file));
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut flags = Vec::with_capacity(detectors.len());
    let mut counter = Counter {
        seen: HashMap::new(),
        max: 0,
    };
    let mut bad: Vec<String> = Vec::new();
    loop {
        let game = match reader.next_game() {
            Ok(Some(g)) => g,
            Ok(None) => break,
            Err(e) => {
                bad.push(format!("{}: {e}", args.pgn.display()));
                if args.keep_going {
                    continue;
                }
                break;
            }
        };
        let res = scan_game(
            &args.pgn,
            &game,
            &mut detectors,
            &mut flags,
            &mut counter,
            &mut out,
        );
        match res {
            Ok(Ok(())) => {}
            Ok(Err(b)) => {
                bad.push(b.message);
                if !args.keep_going {
                    break;
                }
            }
            Err(e) if is_broken_pipe(&e) => return Ok(()),
            Err(e) => return Err(e),
        }
    }
    match out.flush() {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        r => r?,
    }
    drop(out);
    match bad.len() {
        0 => Ok(()),
        1 if !args.keep_going => bail!("{}", bad[0]),
        n => {
            for b in &bad {
                eprintln!("replab: {b}");
            }
            bail!("{n} game(s) skipped in {}", args.pgn.display())
        }
    }
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
