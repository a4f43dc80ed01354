//! The truth test kit: scripted repetition cases, replayed with any detector and compared with
//! the exact oracle.
//!
//! The cases are data, in `cases/scripted.txt` (format described at the top of that file): a
//! start position, moves, the plies where [`TruthDetector`] says "repeats", and each detector's
//! known deviations with their reason. A technique crate checks itself with a few lines in
//! `tests/truth_cases.rs`:
//!
//! ```
//! use replab_truth::{TruthDetector, kit};
//! kit::check_all(&mut TruthDetector::new());
//! ```
//!
//! [`replay`] and [`replay_probes`] are ordinary run-time functions (no test harness needed):
//! they drive a detector as game replay does.

mod alloc;
mod scratch;

pub use alloc::{CountingAllocator, allocations};
pub use scratch::Scratch;

use std::fmt;

use replab_board::{Move, Position};
use replab_detect::{Detector, Line, Repetition};

use crate::TruthDetector;

/// The text of the scripted cases (`cases/scripted.txt`).
pub const SCRIPTED: &str = include_str!("../../cases/scripted.txt");

/// The move token for a null move in a case's move list.
pub const NULL_MOVE: &str = "--";

/// A detector's known deviation from truth on one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// The detector's name ([`Detector::name`]).
    pub detector: String,
    /// The plies where its answer differs from truth's (ascending, at least one).
    pub plies: Vec<usize>,
    /// Why (one line).
    pub reason: String,
}

/// One scripted case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Unique name.
    pub name: String,
    /// Line of the file where the case starts (1-based).
    pub line: usize,
    /// Commentary (`note` lines joined by spaces; may be empty).
    pub note: String,
    /// Start position (`startpos` is replaced by the standard FEN).
    pub fen: String,
    /// Moves in SAN, [`NULL_MOVE`] for a null move.
    pub moves: Vec<String>,
    /// Plies where truth reports a repetition (ascending; ply 0 is the start position).
    pub repeats: Vec<usize>,
    /// Known deviations, at most one per detector.
    pub deviations: Vec<Deviation>,
}

impl Case {
    /// The plies where `detector` (a detector name) is known to differ from truth: empty when
    /// the case lists no deviation for it.
    pub fn deviation(&self, detector: &str) -> &[usize] {
        self.deviations
            .iter()
            .find(|d| d.detector == detector)
            .map_or(&[], |d| &d.plies)
    }

    /// The moves as string slices, as [`replay`] takes them.
    pub fn move_strs(&self) -> Vec<&str> {
        self.moves.iter().map(String::as_str).collect()
    }
}

/// A malformed case file: names the case (if one had started) and the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The case being read, if any.
    pub case: Option<String>,
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.case {
            Some(case) => write!(f, "case {case:?}, line {}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses plies: whitespace-separated numbers, or `-` for none; must be strictly ascending.
fn parse_plies(text: &str) -> Result<Vec<usize>, String> {
    let text = text.trim();
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut out: Vec<usize> = Vec::new();
    for word in text.split_whitespace() {
        let ply: usize = word
            .parse()
            .map_err(|_| format!("{word:?} is not a ply number"))?;
        if out.last().is_some_and(|&last| last >= ply) {
            return Err(format!("plies must be strictly ascending ({text:?})"));
        }
        out.push(ply);
    }
    Ok(out)
}

/// A case being read: every field but the name is optional until the case is complete.
struct Partial {
    name: String,
    line: usize,
    note: Vec<String>,
    fen: Option<String>,
    moves: Option<Vec<String>>,
    repeats: Option<Vec<usize>>,
    deviations: Vec<Deviation>,
}

impl Partial {
    fn finish(self) -> Result<Case, ParseError> {
        let err = |message: String| ParseError {
            case: Some(self.name.clone()),
            line: self.line,
            message,
        };
        let fen = self
            .fen
            .clone()
            .ok_or_else(|| err("no `fen` line".into()))?;
        let moves = self
            .moves
            .clone()
            .ok_or_else(|| err("no `moves` line".into()))?;
        let repeats = self
            .repeats
            .clone()
            .ok_or_else(|| err("no `repeats` line".into()))?;
        let beyond = |plies: &[usize]| plies.last().is_some_and(|&p| p > moves.len());
        if beyond(&repeats) {
            return Err(err(format!(
                "a repeated ply is beyond the {} moves",
                moves.len()
            )));
        }
        if let Some(d) = self.deviations.iter().find(|d| beyond(&d.plies)) {
            return Err(err(format!(
                "a deviation of {} is beyond the {} moves",
                d.detector,
                moves.len()
            )));
        }
        Ok(Case {
            name: self.name,
            line: self.line,
            note: self.note.join(" "),
            fen,
            moves,
            repeats,
            deviations: self.deviations,
        })
    }
}

/// Parses a case file (the format of `cases/scripted.txt`).
pub fn parse(text: &str) -> Result<Vec<Case>, ParseError> {
    let mut cases: Vec<Case> = Vec::new();
    let mut current: Option<Partial> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let err = |case: &Option<String>, message: String| ParseError {
            case: case.clone(),
            line: line_no,
            message,
        };
        if keyword == "case" {
            if let Some(done) = current.take() {
                cases.push(done.finish()?);
            }
            if rest.is_empty() || rest.contains(char::is_whitespace) {
                return Err(err(&None, format!("a case name is one word, not {rest:?}")));
            }
            if cases.iter().any(|c| c.name == rest) {
                return Err(err(&None, format!("case {rest:?} appears twice")));
            }
            current = Some(Partial {
                name: rest.to_string(),
                line: line_no,
                note: Vec::new(),
                fen: None,
                moves: None,
                repeats: None,
                deviations: Vec::new(),
            });
            continue;
        }
        let case_name = current.as_ref().map(|c| c.name.clone());
        let Some(case) = current.as_mut() else {
            return Err(err(&None, format!("{keyword:?} before the first `case`")));
        };
        let twice = |field: &str| format!("a second `{field}` line");
        match keyword {
            "note" => case.note.push(rest.to_string()),
            "fen" => {
                if case.fen.is_some() {
                    return Err(err(&case_name, twice("fen")));
                }
                if rest.is_empty() {
                    return Err(err(&case_name, "empty `fen`".into()));
                }
                case.fen = Some(if rest == "startpos" {
                    Position::START_FEN.to_string()
                } else {
                    rest.to_string()
                });
            }
            "moves" => {
                if case.moves.is_some() {
                    return Err(err(&case_name, twice("moves")));
                }
                case.moves = Some(rest.split_whitespace().map(str::to_string).collect());
            }
            "repeats" => {
                if case.repeats.is_some() {
                    return Err(err(&case_name, twice("repeats")));
                }
                case.repeats = Some(parse_plies(rest).map_err(|m| err(&case_name, m))?);
            }
            "deviation" => {
                let Some((detector, tail)) = rest.split_once(':') else {
                    return Err(err(
                        &case_name,
                        "expected `deviation NAME: PLIES because REASON`".into(),
                    ));
                };
                let Some((plies, reason)) = tail.split_once(" because ") else {
                    return Err(err(&case_name, "a deviation needs `because REASON`".into()));
                };
                let (detector, reason) = (detector.trim(), reason.trim());
                let plies = parse_plies(plies).map_err(|m| err(&case_name, m))?;
                if detector.is_empty() || plies.is_empty() || reason.is_empty() {
                    return Err(err(
                        &case_name,
                        "a deviation names a detector, at least one ply and a reason".into(),
                    ));
                }
                if case.deviations.iter().any(|d| d.detector == detector) {
                    return Err(err(
                        &case_name,
                        format!("a second deviation for {detector}"),
                    ));
                }
                case.deviations.push(Deviation {
                    detector: detector.to_string(),
                    plies,
                    reason: reason.to_string(),
                });
            }
            other => return Err(err(&case_name, format!("unknown keyword {other:?}"))),
        }
    }
    if let Some(done) = current.take() {
        cases.push(done.finish()?);
    }
    Ok(cases)
}

/// The scripted cases of `cases/scripted.txt`.
///
/// # Panics
/// If the embedded file is malformed (the crate's tests parse it, so it is not).
pub fn cases() -> Vec<Case> {
    parse(SCRIPTED).unwrap_or_else(|e| panic!("cases/scripted.txt: {e}"))
}

/// A replay that could not be played: a bad FEN or an illegal or unparsable move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The ply the error is at (0 for the start position, i for the i-th move).
    pub ply: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}: {}", self.ply, self.message)
    }
}

impl std::error::Error for ReplayError {}

/// The game from `start` through the SAN `moves` (no null moves): every position, the start
/// first, and the moves between them — the shape `replab_detect::load_history` and the
/// searcher's `search_game` take.
///
/// # Panics
/// If a move is not legal SAN in its position (test data is wrong).
pub fn game<S: AsRef<str>>(start: Position, moves: &[S]) -> (Vec<Position>, Vec<Move>) {
    let mut positions = vec![start];
    let mut played = Vec::with_capacity(moves.len());
    for san in moves {
        let san = san.as_ref();
        let p = *positions.last().expect("the start position");
        let m = p
            .parse_san(san)
            .unwrap_or_else(|e| panic!("{san} in {}: {e}", p.fen()));
        played.push(m);
        positions.push(p.play(m));
    }
    (positions, played)
}

/// Replays `moves` (SAN, [`NULL_MOVE`] for a null move) from `fen` with `detector` as game
/// replay does — clear, then for every position: push it on the line, make it the root, probe,
/// enter — and returns each probe's answer (index = ply; ply 0 is the start position).
pub fn replay_probes<D: Detector + ?Sized, S: AsRef<str>>(
    detector: &mut D,
    fen: &str,
    moves: &[S],
) -> Result<Vec<Option<Repetition>>, ReplayError> {
    let mut pos = Position::from_fen(fen).map_err(|e| ReplayError {
        ply: 0,
        message: format!("bad FEN {fen:?}: {e}"),
    })?;
    let capacity = moves.len() + 1;
    let mut line = Line::new(&pos, capacity);
    detector.clear(capacity);
    let mut out = Vec::with_capacity(capacity);
    out.push(detector.probe(&line, &pos));
    detector.enter(&line, &pos);
    for (i, mv) in moves.iter().enumerate() {
        let mv = mv.as_ref();
        if mv == NULL_MOVE {
            if pos.is_check() {
                return Err(ReplayError {
                    ply: i + 1,
                    message: "null move while in check".into(),
                });
            }
            pos.play_null();
            line.push_null(&pos);
        } else {
            let m = pos.parse_san(mv).map_err(|e| ReplayError {
                ply: i + 1,
                message: format!("{mv}: {e}"),
            })?;
            let next = pos.play(m);
            line.push(&pos, m, &next);
            pos = next;
        }
        line.set_root();
        out.push(detector.probe(&line, &pos));
        detector.enter(&line, &pos);
    }
    Ok(out)
}

/// [`replay_probes`], reduced to whether each ply's probe reported a repetition.
///
/// ```
/// use replab_board::Position;
/// use replab_truth::{TruthDetector, kit::replay};
/// let answers = replay(&mut TruthDetector::new(), Position::START_FEN,
///                      &["Nc3", "Nc6", "Nb1", "Nb8"]).unwrap();
/// assert_eq!(answers, [false, false, false, false, true]);
/// ```
pub fn replay<D: Detector + ?Sized, S: AsRef<str>>(
    detector: &mut D,
    fen: &str,
    moves: &[S],
) -> Result<Vec<bool>, ReplayError> {
    Ok(replay_probes(detector, fen, moves)?
        .into_iter()
        .map(|r| r.is_some())
        .collect())
}

/// The plies whose flag is set.
pub fn plies(flags: &[bool]) -> Vec<usize> {
    flags
        .iter()
        .enumerate()
        .filter(|(_, f)| **f)
        .map(|(i, _)| i)
        .collect()
}

/// Checks `detector` on `case`: truth's repeated plies must be the file's, and the plies where
/// the detector's answer differs from truth's must be exactly its listed deviation (none if
/// the case lists none for it). The error says what differs.
pub fn check<D: Detector + ?Sized>(detector: &mut D, case: &Case) -> Result<(), String> {
    let moves = case.move_strs();
    let context = |e: ReplayError| format!("case {:?} (line {}): {e}", case.name, case.line);
    let truth = replay(&mut TruthDetector::new(), &case.fen, &moves).map_err(context)?;
    if plies(&truth) != case.repeats {
        return Err(format!(
            "case {:?} (line {}): truth repeats at {:?}, the file says {:?}",
            case.name,
            case.line,
            plies(&truth),
            case.repeats
        ));
    }
    let answers = replay(detector, &case.fen, &moves).map_err(context)?;
    let differs: Vec<usize> = (0..truth.len())
        .filter(|&i| answers[i] != truth[i])
        .collect();
    let name = detector.name();
    let expected = case.deviation(name);
    if differs != expected {
        return Err(format!(
            "case {:?} (line {}): {name} repeats at {:?} and truth at {:?}, so {name} differs at \
             {differs:?}; its listed deviation is {expected:?}",
            case.name,
            case.line,
            plies(&answers),
            case.repeats,
        ));
    }
    Ok(())
}

/// [`check`], panicking with its message on a mismatch.
pub fn assert_matches_truth<D: Detector + ?Sized>(detector: &mut D, case: &Case) {
    if let Err(e) = check(detector, case) {
        panic!("{e}");
    }
}

/// Checks `detector` on every scripted case; panics listing every mismatch.
pub fn check_all<D: Detector + ?Sized>(detector: &mut D) {
    let failures: Vec<String> = cases()
        .iter()
        .filter_map(|case| check(detector, case).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of the scripted cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scripted_file_parses_and_every_case_replays() {
        let cases = parse(SCRIPTED).unwrap();
        assert!(cases.len() >= 10, "{} cases", cases.len());
        for case in &cases {
            assert_eq!(
                replay(&mut TruthDetector::new(), &case.fen, &case.moves)
                    .unwrap()
                    .len(),
                case.moves.len() + 1,
                "{}",
                case.name
            );
        }
    }

    #[test]
    fn parse_errors_name_the_case_and_line() {
        let text = "case a\nfen startpos\nmoves Nf3\nrepeats 1 1\n";
        let e = parse(text).unwrap_err();
        assert_eq!((e.case.as_deref(), e.line), (Some("a"), 4));
        let e = parse("# c\ncase b\nfen startpos\nrepeats -\n").unwrap_err();
        assert_eq!((e.case.as_deref(), e.line), (Some("b"), 2));
        assert!(e.to_string().contains("moves"), "{e}");
        let e = parse("fen startpos\n").unwrap_err();
        assert_eq!((e.case, e.line), (None, 1));
        let e = parse("case c\nfen startpos\nmoves\nrepeats -\ndeviation x: 0\n").unwrap_err();
        assert!(e.to_string().contains("because"), "{e}");
        let e = parse("case d\nfen startpos\nmoves Nf3\nrepeats 2\n").unwrap_err();
        assert!(e.to_string().contains("beyond"), "{e}");
        let twice = "case e\nfen startpos\nmoves\nrepeats -\ncase e\n";
        assert_eq!(parse(twice).unwrap_err().line, 5);
        let unknown = "case f\nfen startpos\nmoves\nrepeats -\nrepeat 1\n";
        assert!(
            parse(unknown)
                .unwrap_err()
                .message
                .contains("unknown keyword")
        );
    }

    #[test]
    fn deviations_parse_with_their_reasons() {
        let text = "case g\nfen startpos\nmoves Nf3 Nf6 Ng1 Ng8\nrepeats 4\n\
                    deviation blind: 4 because it sees nothing\n";
        let cases = parse(text).unwrap();
        assert_eq!(cases[0].deviation("blind"), [4]);
        assert_eq!(cases[0].deviations[0].reason, "it sees nothing");
        assert!(cases[0].deviation("other").is_empty());
    }

    #[test]
    fn replay_rejects_bad_input_at_its_ply() {
        let mut t = TruthDetector::new();
        assert_eq!(replay(&mut t, "nonsense", &["e4"]).unwrap_err().ply, 0);
        let e = replay(&mut t, Position::START_FEN, &["e4", "e4"]).unwrap_err();
        assert_eq!(e.ply, 2);
        let check_fen = "4k3/8/8/8/8/8/8/3RK2r w - - 0 1";
        assert_eq!(replay(&mut t, check_fen, &["--"]).unwrap_err().ply, 1);
    }

    /// A detector that never reports anything: it must fail every case with a repetition,
    /// and pass when the case lists its blind spots.
    struct Blind;

    impl Detector for Blind {
        fn name(&self) -> &'static str {
            "blind"
        }
        fn clear(&mut self, _capacity: usize) {}
        fn probe(&mut self, _line: &Line, _pos: &Position) -> Option<Repetition> {
            None
        }
        fn enter(&mut self, _line: &Line, _pos: &Position) {}
        fn leave(&mut self, _line: &Line, _pos: &Position) {}
        fn stats(&self) -> replab_detect::Stats {
            replab_detect::Stats::default()
        }
        fn memory_bytes(&self) -> usize {
            0
        }
    }

    #[test]
    fn check_catches_a_detector_that_differs_from_truth() {
        let cases = cases();
        let shuffle = cases.iter().find(|c| c.repeats == [4]).unwrap();
        let e = check(&mut Blind, shuffle).unwrap_err();
        assert!(e.contains("differs at [4]"), "{e}");
        let mut listed = shuffle.clone();
        listed.deviations.push(Deviation {
            detector: "blind".into(),
            plies: vec![4],
            reason: "sees nothing".into(),
        });
        check(&mut Blind, &listed).unwrap();
        // A listed deviation that does not happen is an error too.
        assert!(
            check(&mut TruthDetector::new(), &{
                let mut c = listed.clone();
                c.deviations[0].detector = "truth".into();
                c
            })
            .is_err()
        );
        // And truth must agree with the file.
        let mut wrong = shuffle.clone();
        wrong.repeats = vec![3];
        assert!(
            check(&mut TruthDetector::new(), &wrong)
                .unwrap_err()
                .contains("the file says")
        );
    }
}
