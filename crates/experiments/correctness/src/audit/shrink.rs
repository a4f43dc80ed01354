//! Counterexamples: shrinking an erroneous game to a minimal move sequence, naming the cause,
//! and writing it as PGN.

use std::fmt::Write as _;

use replab_board::{Move, MoveList, Position};
use replab_registry::{AnyDetector, Detector, Line, Repetition, Stats, TruthDetector};
use replab_truth::kit::replay_probes;

use super::{
    cause::{ErrorCtx, cause},
    judge::{KeySet, Witness, exact_upcoming},
    spec::{Cause, Check, Kind, Spec},
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
    /// The case written as a FEN start and UCI moves, if they read back (they do when written
    /// from a case).
    pub fn from_uci(fen: &str, uci: &[String]) -> Option<Case> {
        let start = Position::from_fen(fen).ok()?;
        let mut pos = start;
        let mut moves = Vec::with_capacity(uci.len());
        for u in uci {
            let m = pos.parse_uci(u).ok()?;
            pos = pos.play(m);
            moves.push(m);
        }
        Some(Case { start, moves })
    }

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
    pub cause: Cause,
}

impl ErrorAt {
    /// The earlier ply the error is about: the occurrence the detector reported (a false
    /// positive) or the one truth found (a false negative), for probe checks.
    pub fn earlier(&self, kind: Kind) -> Option<usize> {
        let rep = match kind {
            Kind::FalsePositive => self.detected,
            Kind::FalseNegative => self.truth,
        }?;
        self.ply.checked_sub(rep.distance as usize)
    }
}

/// What the audited detector and the oracle said at one ply of a replay.
#[derive(Clone, Copy, Debug, Default)]
struct Observation {
    /// The detector's counters before the probe.
    before: Stats,
    /// The detector's counters after the probe and enter.
    after: Stats,
    /// The detector's upcoming-cycle answer after the enter (upcoming checks, not at the
    /// start).
    upcoming: bool,
    /// The oracle's probe answer.
    truth: Option<Repetition>,
    /// The oracle's exact upcoming-cycle answer after the enter (upcoming checks, not at the
    /// start).
    exact: bool,
}

/// The audited detector and the oracle in lockstep, as one detector for the truth kit's game
/// replay: the kit drives it (clear, then push, probe and enter at every ply), it forwards
/// every call to both and records each ply's position and [`Observation`]. So the kit's
/// replay is the audit's replay, done once for the pair.
struct Pair<'a> {
    check: Check,
    det: &'a mut AnyDetector,
    truth: &'a mut TruthDetector,
    keys: &'a mut KeySet,
    legal: &'a mut MoveList,
    positions: &'a mut Vec<Position>,
    plies: &'a mut Vec<Observation>,
}

impl Detector for Pair<'_> {
    fn name(&self) -> &'static str {
        self.det.name()
    }
    fn clear(&mut self, capacity: usize) {
        self.det.clear(capacity);
        self.truth.clear(capacity);
        self.keys.reset(capacity);
        self.positions.clear();
        self.plies.clear();
    }
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        let before = self.det.stats();
        let truth = self.truth.probe(line, pos);
        self.positions.push(*pos);
        self.plies.push(Observation {
            before,
            truth,
            ..Observation::default()
        });
        self.det.probe(line, pos)
    }
    fn enter(&mut self, line: &Line, pos: &Position) {
        self.truth.enter(line, pos);
        self.det.enter(line, pos);
        // As in the judge: asked after `enter`, never at the start position.
        let mut asked = false;
        if self.check == Check::Upcoming {
            self.keys.insert(pos.key());
            asked = line.current_index() > 0;
        }
        let upcoming = asked && self.det.upcoming(line, pos);
        let exact = asked && exact_upcoming(self.truth, line, pos, self.keys, self.legal);
        let after = self.det.stats();
        if let Some(o) = self.plies.last_mut() {
            o.after = after;
            o.upcoming = upcoming;
            o.exact = exact;
        }
    }
    fn leave(&mut self, line: &Line, pos: &Position) {
        self.det.leave(line, pos);
        self.truth.leave(line, pos);
    }
    fn stats(&self) -> Stats {
        self.det.stats()
    }
    fn memory_bytes(&self) -> usize {
        self.det.memory_bytes()
    }
}

/// Replays cases with one detector and the oracle, reusing them (`clear` between replays).
///
/// Both are driven by the truth test kit's game replay ([`replay_probes`]) over the case's FEN
/// and SAN moves — the protocol the judge follows too — in lockstep ([`Pair`]), and their
/// answers compared ply by ply.
pub struct Replayer<'a> {
    spec: &'a Spec,
    det: AnyDetector,
    truth: TruthDetector,
    keys: KeySet,
    legal: MoveList,
    positions: Vec<Position>,
    plies: Vec<Observation>,
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
            positions: Vec::new(),
            plies: Vec::new(),
        }
    }
}

/// Replays `case` with a fresh detector of `spec` and the oracle, driven as in the audit, and
/// returns the first ply where the detector errs with `kind` (and, if `want` is given, for
/// that cause).
pub fn first_error(spec: &Spec, case: &Case, kind: Kind, want: Option<Cause>) -> Option<ErrorAt> {
    Replayer::new(spec).first_error(case, kind, want)
}

/// The cause of the error of `kind` at the last ply of `case`.
pub fn classify(spec: &Spec, case: &Case, kind: Kind) -> Cause {
    first_error(spec, case, kind, None).map_or(Cause::NotReproduced, |at| at.cause)
}

impl Replayer<'_> {
    /// [`first_error`] with this replayer's detector.
    pub fn first_error(&mut self, case: &Case, kind: Kind, want: Option<Cause>) -> Option<ErrorAt> {
        let spec = self.spec;
        let check = spec.check();
        let detected = replay_probes(
            &mut Pair {
                check,
                det: &mut self.det,
                truth: &mut self.truth,
                keys: &mut self.keys,
                legal: &mut self.legal,
                positions: &mut self.positions,
                plies: &mut self.plies,
            },
            &case.start.fen(),
            &sans(case),
        )
        .ok()?;
        for ply in 1..self.positions.len() {
            let seen = self.plies[ply];
            let (detected, said, truth_says) = match check {
                Check::Probe => (detected[ply], detected[ply].is_some(), seen.truth.is_some()),
                Check::Upcoming => (None, seen.upcoming, seen.exact),
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
                positions: &self.positions[..=ply],
                moves: &case.moves[..ply],
                detected,
                truth: seen.truth,
                before: seen.before,
                after: seen.after,
            });
            if want.is_none_or(|w| w == why) {
                return Some(ErrorAt {
                    ply,
                    detected,
                    truth: seen.truth,
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
fn cut(r: &mut Replayer<'_>, mut case: Case, kind: Kind, want: Option<Cause>) -> Option<Case> {
    let at = r.first_error(&case, kind, want)?;
    case.moves.truncate(at.ply);
    Some(case)
}

/// Shrinks the erroneous game of `w`: drops the game's prefix (starting from a later position
/// of the game, clocks reset, as a FEN start), deletes blocks of an even number of plies (so
/// the turn order is kept; halves, quarters … of the sequence, then 8, 6, 4 and 2 plies) and
/// single plies while the sequence stays legal and the detector still errs with `kind` at its
/// last ply, and repeats until no step shrinks it. With `want`, the error must keep that cause.
pub fn shrink(spec: &Spec, w: &Witness, kind: Kind, want: Option<Cause>) -> Case {
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
pub fn describe(spec: &Spec, case: &Case, kind: Kind, want: Option<Cause>) -> String {
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
pub fn pgn(label: &str, kind: Kind, case: &Case, cause: Cause, detail: &str) -> String {
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
    use replab_registry::DETECTORS;

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
        let spec = Spec::named("axon").unwrap();
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
        assert_eq!(cause, Cause::OddLength);
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
        let spec = Spec::named("axon").unwrap();
        assert_eq!(
            first_error(&spec, &c, Kind::FalsePositive, None).map(|e| e.ply),
            Some(4)
        );
        assert_eq!(classify(&spec, &c, Kind::FalsePositive), Cause::Castling);
        let exact = DETECTORS.iter().filter(|d| d.caps.exact && d.caps.probes);
        for exact in exact.map(|d| d.name) {
            let spec = Spec::named(exact).unwrap();
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
        let spec = Spec::named("axon").unwrap();
        let at = first_error(&spec, &c, Kind::FalseNegative, None).expect("axon misses the swap");
        assert_eq!(at.ply, 8);
        assert_eq!(classify(&spec, &c, Kind::FalseNegative), Cause::Swapped);
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
