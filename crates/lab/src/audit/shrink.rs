//! Counterexamples: shrinking an erroneous game to a minimal move sequence, naming the cause,
//! and writing it as PGN.

use std::fmt::Write as _;

use replab_board::{Move, MoveList, Position};
use replab_registry::{AnyDetector, Detector, Line, Repetition, TruthDetector};

use super::{
    cause::{ErrorCtx, cause},
    judge::{Check, KeySet, Kind, Spec, Witness, exact_upcoming},
};

/// A start position and legal moves from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The start position.
    pub start: Position,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
}

impl Case {
    /// The positions, start first.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(self.start);
        for (i, &m) in self.moves.iter().enumerate() {
            out.push(out[i].play(m));
        }
        out
    }
}

/// What a replay found at the first erroneous ply.
#[derive(Clone, Debug)]
pub struct ErrorAt {
    /// The erroneous ply.
    pub ply: usize,
    /// The detector's probe answer (probe checks only).
    pub detected: Option<Repetition>,
    /// The oracle's probe answer.
    pub truth: Option<Repetition>,
    /// Why, as [`cause`] names it.
    pub cause: &'static str,
}

/// Replays cases with one detector and the oracle, reusing them (`clear` between replays).
pub struct Replayer<'a> {
    spec: &'a Spec,
    det: AnyDetector,
    truth: TruthDetector,
    keys: KeySet,
    legal: MoveList,
}

impl<'a> Replayer<'a> {
    /// A replayer of `spec`'s detector.
    pub fn new(spec: &'a Spec) -> Self {
        Replayer {
            spec,
            det: spec.build(),
            truth: TruthDetector::new(),
            keys: KeySet::default(),
            legal: MoveList::new(),
        }
    }
}

/// Replays `case` with a fresh detector of `spec` and the oracle, driven as in the audit, and
/// returns the first ply where the detector errs with `kind` (and, if `want` is given, for
/// that cause).
pub fn first_error(spec: &Spec, case: &Case, kind: Kind, want: Option<&str>) -> Option<ErrorAt> {
    Replayer::new(spec).first_error(case, kind, want)
}

/// The cause of the error of `kind` at the last ply of `case`.
pub fn classify(spec: &Spec, case: &Case, kind: Kind) -> &'static str {
    first_error(spec, case, kind, None).map_or("not reproduced", |at| at.cause)
}

impl Replayer<'_> {
    /// [`first_error`] with this replayer's detector.
    pub fn first_error(&mut self, case: &Case, kind: Kind, want: Option<&str>) -> Option<ErrorAt> {
        let spec = self.spec;
        let (det, truth, keys, legal) = (
            &mut self.det,
            &mut self.truth,
            &mut self.keys,
            &mut self.legal,
        );
        let positions = case.positions();
        let capacity = positions.len();
        let mut line = Line::new(&case.start, capacity);
        keys.reset(capacity);
        keys.insert(case.start.key());
        det.clear(capacity);
        truth.clear(capacity);
        det.enter(&line, &case.start);
        truth.enter(&line, &case.start);
        for ply in 1..positions.len() {
            let pos = &positions[ply];
            line.push(&positions[ply - 1], case.moves[ply - 1], pos);
            line.set_root();
            keys.insert(pos.key());
            let before = det.stats();
            let t = truth.probe(&line, pos);
            truth.enter(&line, pos);
            let (detected, said, truth_says) = match spec.check() {
                Check::Probe => {
                    let r = det.probe(&line, pos);
                    det.enter(&line, pos);
                    (r, r.is_some(), t.is_some())
                }
                Check::Upcoming => {
                    let _ = det.probe(&line, pos);
                    det.enter(&line, pos);
                    let u = det.upcoming(&line, pos);
                    let e = exact_upcoming(truth, &line, pos, keys, legal);
                    (None, u, e)
                }
            };
            let err = match kind {
                Kind::FalsePositive => said && !truth_says,
                Kind::FalseNegative => !said && truth_says,
            };
            if !err {
                continue;
            }
            let why = cause(&ErrorCtx {
                spec,
                kind,
                positions: &positions[..=ply],
                moves: &case.moves[..ply],
                detected,
                truth: t,
                before,
                after: det.stats(),
            });
            if want.is_none_or(|w| w == why) {
                return Some(ErrorAt {
                    ply,
                    detected,
                    truth: t,
                    cause: why,
                });
            }
        }
        None
    }
}

/// The legal move of `pos` with the same origin, destination and promotion as `m`.
fn rematch(pos: &Position, m: Move) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|l| l.from() == m.from() && l.to() == m.to() && l.promotion() == m.promotion())
}

/// `moves` replayed from `start` with each move re-matched, or `None` if one is illegal.
fn relegalise(start: &Position, moves: &[Move]) -> Option<Vec<Move>> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let l = rematch(&pos, m)?;
        pos = pos.play(l);
        out.push(l);
    }
    Some(out)
}

/// `pos` with its clocks reset (halfmove 0, fullmove 1), as a fresh FEN start.
fn fresh_start(pos: &Position) -> Position {
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let fresh = format!("{} 0 1", fields[..4].join(" "));
    Position::from_fen(&fresh).unwrap_or(*pos)
}

/// `case` cut at its first error of `kind` (with cause `want`, if given), if it has one.
fn cut(r: &mut Replayer<'_>, mut case: Case, kind: Kind, want: Option<&str>) -> Option<Case> {
    let at = r.first_error(&case, kind, want)?;
    case.moves.truncate(at.ply);
    Some(case)
}

/// Shrinks the erroneous game of `w`: drops the game's prefix (starting from a later position
/// of the game, clocks reset, as a FEN start), deletes blocks of an even number of plies (so
/// the turn order is kept; halves, quarters … of the sequence, then 8, 6, 4 and 2 plies) and
/// single plies while the sequence stays legal and the detector still errs with `kind` at its
/// last ply, and repeats until no step shrinks it. With `want`, the error must keep that cause.
pub fn shrink(spec: &Spec, w: &Witness, kind: Kind, want: Option<&str>) -> Case {
    let mut r = Replayer::new(spec);
    let original = Case {
        start: w.start,
        moves: w.moves.clone(),
    };
    let mut best = cut(&mut r, original.clone(), kind, want).unwrap_or(original);
    'outer: loop {
        let n = best.moves.len();
        let positions = best.positions();
        // Start later in the game: the latest start that still errs removes the most plies.
        for k in (1..n).rev() {
            for start in [fresh_start(&positions[k]), positions[k]] {
                let candidate = Case {
                    start,
                    moves: best.moves[k..].to_vec(),
                };
                if let Some(c) = cut(&mut r, candidate, kind, want) {
                    best = c;
                    continue 'outer;
                }
            }
        }
        for width in block_widths(n) {
            for i in 0..=n - width {
                let mut moves = best.moves.clone();
                moves.drain(i..i + width);
                if moves.is_empty() {
                    continue;
                }
                let Some(moves) = relegalise(&best.start, &moves) else {
                    continue;
                };
                let candidate = Case {
                    start: best.start,
                    moves,
                };
                if let Some(c) = cut(&mut r, candidate, kind, want) {
                    best = c;
                    continue 'outer;
                }
            }
        }
        return best;
    }
}

/// Block sizes to try deleting from a sequence of `n` plies, largest first: even halvings of
/// `n`, then 8, 6, 4, 2, then 1.
fn block_widths(n: usize) -> Vec<usize> {
    let mut widths = Vec::new();
    let mut w = n / 2;
    while w > 8 {
        widths.push(w & !1);
        w /= 2;
    }
    widths.extend([8, 6, 4, 2, 1]);
    widths.retain(|&w| w >= 1 && w < n);
    widths.dedup();
    widths
}

/// What the detector and truth say at the last ply of `case`, in words.
pub fn describe(spec: &Spec, case: &Case, kind: Kind, want: Option<&str>) -> String {
    let label = spec.label();
    let Some(at) = first_error(spec, case, kind, want) else {
        return format!("{label}: not reproduced");
    };
    let ply = at.ply;
    let earlier = |r: Repetition| {
        format!(
            "ply {} ({} plies back)",
            ply - r.distance as usize,
            r.distance
        )
    };
    match (spec.check(), kind) {
        (Check::Probe, Kind::FalsePositive) => format!(
            "{label} reports a repetition of {}; truth: no earlier occurrence",
            at.detected
                .map_or_else(|| "an earlier position".to_owned(), earlier)
        ),
        (Check::Probe, Kind::FalseNegative) => format!(
            "truth: repeats {}; {label} reports none",
            at.truth
                .map_or_else(|| "an earlier position".to_owned(), earlier)
        ),
        (Check::Upcoming, Kind::FalsePositive) => format!(
            "{label} reports that a legal move reaches an earlier position; truth: none does"
        ),
        (Check::Upcoming, Kind::FalseNegative) => {
            format!("truth: a legal move reaches an earlier position; {label} reports none")
        }
    }
}

/// The SAN of each move of `case`.
pub fn sans(case: &Case) -> Vec<String> {
    let mut pos = case.start;
    case.moves
        .iter()
        .map(|&m| {
            let san = pos.san(m);
            pos = pos.play(m);
            san
        })
        .collect()
}

/// Movetext tokens with move numbers: `1. Kd1 Kd8 2. Kd2`, or `1... Kd8` when black starts.
pub fn numbered(start: &Position, sans: &[String]) -> Vec<String> {
    let mut number = start.fullmove_number();
    let mut white = start.side_to_move() == replab_board::Color::White;
    let mut out = Vec::with_capacity(sans.len() * 3 / 2 + 1);
    for (i, san) in sans.iter().enumerate() {
        if white {
            out.push(format!("{number}."));
        } else if i == 0 {
            out.push(format!("{number}..."));
        }
        out.push(san.clone());
        if !white {
            number += 1;
        }
        white = !white;
    }
    out
}

/// Escapes a PGN tag value.
fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// PGN comments cannot contain `}`.
fn comment(s: &str) -> String {
    format!("{{{}}}", s.replace('}', ")"))
}

/// The counterexample as a PGN game: `SetUp`/`FEN` tags, a comment naming the detector, the
/// error kind, the erroneous ply and the cause, the numbered SAN moves, and a comment after
/// the erroneous move. Movetext lines are wrapped at 79 characters.
pub fn pgn(label: &str, kind: Kind, case: &Case, cause: &str, detail: &str) -> String {
    let sans = sans(case);
    let ply = case.moves.len();
    let mut out = String::new();
    let tags = [
        ("Event", format!("replab audit: {label} {}", kind.words())),
        ("Site", "replab".to_owned()),
        ("Date", "????.??.??".to_owned()),
        ("Round", "-".to_owned()),
        ("White", "?".to_owned()),
        ("Black", "?".to_owned()),
        ("Result", "*".to_owned()),
        ("SetUp", "1".to_owned()),
        ("FEN", case.start.fen()),
    ];
    for (name, value) in tags {
        let _ = writeln!(out, "[{name} \"{}\"]", tag_value(&value));
    }
    out.push('\n');
    let mut tokens = vec![comment(&format!(
        "{label}: {} at ply {ply}; cause: {cause}",
        kind.words()
    ))];
    tokens.extend(numbered(&case.start, &sans));
    tokens.push(comment(detail));
    tokens.push("*".to_owned());
    let mut width = 0;
    for token in tokens.iter().flat_map(|t| t.split(' ')) {
        if width > 0 && width + 1 + token.len() > 79 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(token);
        width += token.len();
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(fen: &str, ucis: &[&str]) -> Case {
        let start = Position::from_fen(fen).unwrap();
        let mut pos = start;
        let moves = ucis
            .iter()
            .map(|u| {
                let m = pos.parse_uci(u).unwrap();
                pos = pos.play(m);
                m
            })
            .collect();
        Case { start, moves }
    }

    #[test]
    fn axon_triangulation_is_found_shrunk_and_named() {
        // Techniques §7: W Ke1-d1, B Ke8-d8, W Kd1-d2, B Kd8-e8, W Kd2-e1, after a detour.
        let c = case(
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            &[
                "e1f1", "e8f8", "f1e1", "f8e8", "e1d1", "e8d8", "d1d2", "d8e8", "d2e1",
            ],
        );
        let spec = Spec::Named("axon".into());
        let w = Witness {
            plies: c.moves.len(),
            game: 0,
            start: c.start,
            moves: c.moves.clone(),
        };
        let shrunk = shrink(&spec, &w, Kind::FalsePositive, None);
        assert!(shrunk.moves.len() <= 5, "{:?}", sans(&shrunk));
        assert_eq!(shrunk.moves.len() % 2, 1);
        let cause = classify(&spec, &shrunk, Kind::FalsePositive);
        assert!(cause.contains("triangulation"), "{cause}");
        let text = pgn("axon", Kind::FalsePositive, &shrunk, cause, "d");
        assert!(
            text.contains("[SetUp \"1\"]") && text.contains("[FEN \""),
            "{text}"
        );
        assert!(text.contains("1. K"), "{text}");
    }

    #[test]
    fn axon_castling_right_loss() {
        let c = case(
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            &["e1f1", "e8d8", "f1e1", "d8e8"],
        );
        let spec = Spec::Named("axon".into());
        assert_eq!(
            first_error(&spec, &c, Kind::FalsePositive, None).map(|e| e.ply),
            Some(4)
        );
        assert_eq!(
            classify(&spec, &c, Kind::FalsePositive),
            "castling right lost between identical arrangements"
        );
        for exact in ["linear", "matrix", "truth"] {
            let spec = Spec::Named(exact.into());
            assert!(
                first_error(&spec, &c, Kind::FalsePositive, None).is_none(),
                "{exact}"
            );
        }
    }

    #[test]
    fn axon_same_kind_swap() {
        // Techniques §7: Ra1-b1, Ra8-a1, Rb1-b8, Rb8-a8 plus a black out-and-back.
        let c = case(
            "R7/8/8/8/8/8/7k/R3K3 w - - 0 1",
            &[
                "a1b1", "h2h3", "a8a1", "h3h2", "b1b8", "h2h3", "b8a8", "h3h2",
            ],
        );
        let spec = Spec::Named("axon".into());
        let at = first_error(&spec, &c, Kind::FalseNegative, None).expect("axon misses the swap");
        assert_eq!(at.ply, 8);
        assert_eq!(
            classify(&spec, &c, Kind::FalseNegative),
            "same-kind pieces swapped squares"
        );
    }

    #[test]
    fn numbering_when_black_starts() {
        let start = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 7").unwrap();
        let s: Vec<String> = ["Kd8", "Kd1", "Ke8"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(numbered(&start, &s).join(" "), "7... Kd8 8. Kd1 Ke8");
    }
}
