//! The arbiter: decides after every move whether the game is over, by the FIDE Laws (exact
//! position identity from `replab-truth`, never a player's detector), then by score
//! adjudication and the ply cap.
//!
//! Order of the checks after a move (the first that applies ends the game): checkmate (Laws
//! 5.1.1); stalemate (5.2.1); insufficient material, the dead positions python-chess
//! recognises (5.2.2); fivefold repetition (9.6.1); seventy-five moves (9.6.2); threefold
//! repetition, claimed at once by the player to move (9.2); fifty moves, claimed at once
//! (9.3); resign adjudication; draw adjudication; the ply cap. Either adjudication can be
//! switched off or set ([`Adjudication`]); by default both are fishtest's.

use replab_board::{Color, Position};
use replab_truth::Identity;
use serde::{Deserialize, Serialize};

/// Resign adjudication: both players' scores beyond this many centipawns for the same side…
pub const RESIGN_SCORE: i32 = 600;
/// …for this many consecutive moves of each player (fishtest: `movecount=3 score=600`).
pub const RESIGN_MOVES: usize = 3;
/// Draw adjudication: from this full move on…
pub const DRAW_MOVE_NUMBER: u16 = 34;
/// …both players' scores within ±this many centipawns…
pub const DRAW_SCORE: i32 = 20;
/// …for this many consecutive moves of each player (fishtest: `movenumber=34 movecount=8
/// score=20`).
pub const DRAW_MOVES: usize = 8;
/// The game is adjudicated a draw after this many plies (opening included).
pub const PLY_CAP: usize = 600;

/// Resign adjudication: the game ends when both players' last `moves` scores are all beyond
/// `score` centipawns for the same side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignAdjudication {
    /// Centipawns beyond which a score counts.
    pub score: i32,
    /// Consecutive moves of each player.
    pub moves: usize,
}

/// Draw adjudication: from full move `from_move`, the game is drawn when both players' last
/// `moves` scores are all within ±`score` centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawAdjudication {
    /// Centipawns within which a score counts.
    pub score: i32,
    /// Consecutive moves of each player.
    pub moves: usize,
    /// The first full move at which it applies.
    pub from_move: u16,
}

/// Which score adjudications the arbiter applies after the rules (`None`: off, the game goes
/// on until a rule or the ply cap ends it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication.
    pub resign: Option<ResignAdjudication>,
}

impl Default for Adjudication {
    /// fishtest's: both on ([`Adjudication::fishtest`]).
    fn default() -> Self {
        Self::fishtest()
    }
}

impl Adjudication {
    /// fishtest's settings: resign at 600 cp for 3 moves, draw within ±20 cp for 8 moves
    /// from move 34.
    pub fn fishtest() -> Self {
        Self {
            draw: Some(DrawAdjudication {
                score: DRAW_SCORE,
                moves: DRAW_MOVES,
                from_move: DRAW_MOVE_NUMBER,
            }),
            resign: Some(ResignAdjudication {
                score: RESIGN_SCORE,
                moves: RESIGN_MOVES,
            }),
        }
    }

    /// No draw adjudication (the draws are left to the rules), fishtest's resign adjudication.
    pub fn rules_draw() -> Self {
        Self {
            draw: None,
            ..Self::fishtest()
        }
    }

    /// These settings with the changes of `text`: comma-separated `draw=off`,
    /// `draw=SCORE/MOVES/FROM_MOVE`, `resign=off`, `resign=SCORE/MOVES` (each at most once);
    /// an error says what is wrong.
    pub fn with(self, text: &str) -> anyhow::Result<Self> {
        let mut out = self;
        let mut seen = Vec::new();
        for part in text.split(',').map(str::trim) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| anyhow::anyhow!("{part:?}: expected draw=… or resign=…"))?;
            anyhow::ensure!(!seen.contains(&key), "{key} given twice");
            seen.push(key);
            match key {
                "draw" => out.draw = parse_off(value, parse_draw)?,
                "resign" => out.resign = parse_off(value, parse_resign)?,
                _ => anyhow::bail!("{key:?}: expected draw or resign"),
            }
        }
        Ok(out)
    }
}

/// `off`, or what `parse` reads.
fn parse_off<T>(value: &str, parse: fn(&str) -> Option<T>) -> anyhow::Result<Option<T>> {
    if value == "off" {
        return Ok(None);
    }
    parse(value).map(Some).ok_or_else(|| {
        anyhow::anyhow!(
            "{value:?}: expected off, SCORE/MOVES/FROM_MOVE (draw, e.g. 20/8/34) or SCORE/MOVES \
             (resign, e.g. 600/3), each a positive whole number"
        )
    })
}

/// Positive whole numbers separated by `/`.
fn numbers(value: &str) -> Option<Vec<u32>> {
    value
        .split('/')
        .map(|x| {
            x.parse::<u32>()
                .ok()
                .filter(|&n| (1..=100_000).contains(&n))
        })
        .collect()
}

/// `SCORE/MOVES/FROM_MOVE`.
fn parse_draw(value: &str) -> Option<DrawAdjudication> {
    match numbers(value)?[..] {
        [score, moves, from_move] => Some(DrawAdjudication {
            score: score as i32,
            moves: moves as usize,
            from_move: u16::try_from(from_move).ok()?,
        }),
        _ => None,
    }
}

/// `SCORE/MOVES`.
fn parse_resign(value: &str) -> Option<ResignAdjudication> {
    match numbers(value)?[..] {
        [score, moves] => Some(ResignAdjudication {
            score: score as i32,
            moves: moves as usize,
        }),
        _ => None,
    }
}

impl std::fmt::Display for Adjudication {
    /// `draw=SCORE/MOVES/FROM_MOVE|off,resign=SCORE/MOVES|off`: the text [`Adjudication::with`]
    /// reads.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.draw {
            Some(d) => write!(f, "draw={}/{}/{}", d.score, d.moves, d.from_move)?,
            None => write!(f, "draw=off")?,
        }
        match self.resign {
            Some(r) => write!(f, ",resign={}/{}", r.score, r.moves),
            None => write!(f, ",resign=off"),
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can checkmate (dead position).
    InsufficientMaterial,
    /// The same position for the fifth time (automatic).
    Fivefold,
    /// 75 moves by each side without a capture or pawn move (automatic).
    SeventyFiveMoves,
    /// The same position for the third time, claimed.
    Threefold,
    /// 50 moves by each side without a capture or pawn move, claimed.
    FiftyMoves,
    /// Both players' scores agreed that one side is lost.
    ResignAdjudication,
    /// Both players' scores stayed near zero late in the game.
    DrawAdjudication,
    /// The ply cap was reached.
    PlyCap,
    /// A player ran out of time (time controls only).
    TimeForfeit,
}

impl Termination {
    /// Every termination, in the order of the checks.
    pub const ALL: [Termination; 11] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::Fivefold,
        Termination::SeventyFiveMoves,
        Termination::Threefold,
        Termination::FiftyMoves,
        Termination::ResignAdjudication,
        Termination::DrawAdjudication,
        Termination::PlyCap,
        Termination::TimeForfeit,
    ];

    /// The name used in JSON and in the PGN's `ReplabTermination` tag.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::Fivefold => "fivefold",
            Termination::SeventyFiveMoves => "seventy-five-moves",
            Termination::Threefold => "threefold",
            Termination::FiftyMoves => "fifty-moves",
            Termination::ResignAdjudication => "resign-adjudication",
            Termination::DrawAdjudication => "draw-adjudication",
            Termination::PlyCap => "ply-cap",
            Termination::TimeForfeit => "time-forfeit",
        }
    }

    /// The PGN standard `Termination` tag value.
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::ResignAdjudication
            | Termination::DrawAdjudication
            | Termination::PlyCap => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            _ => "normal",
        }
    }
}

/// A game's result, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PGN result (`1-0`, `0-1`, `1/2-1/2`).
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The win of `side`.
    pub fn win_for(side: Color) -> Outcome {
        match side {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }
}

/// The arbiter's memory of one game: the identities of the positions since the last capture
/// or pawn move, and the scores the players reported (from White's side); and its
/// adjudication settings.
#[derive(Debug, Default)]
pub struct Arbiter {
    since_zeroing: Vec<Identity>,
    scores: Vec<Option<i32>>,
    adjudication: Adjudication,
}

impl Arbiter {
    /// An arbiter that adjudicates as `adjudication` says.
    pub fn new(adjudication: Adjudication) -> Self {
        Self {
            adjudication,
            ..Self::default()
        }
    }

    /// Starts a game at `start`.
    pub fn start(&mut self, start: &Position) {
        self.since_zeroing.clear();
        self.scores.clear();
        self.since_zeroing.push(Identity::of(start));
    }

    /// Records the move that reached `pos` (with the mover's score from White's side, `None`
    /// for book moves) and says whether and how the game ends. `plies` counts the game's
    /// moves so far.
    pub fn after_move(
        &mut self,
        pos: &Position,
        white_score: Option<i32>,
        plies: usize,
    ) -> Option<(Outcome, Termination)> {
        if pos.halfmove_clock() == 0 {
            self.since_zeroing.clear();
        }
        let id = Identity::of(pos);
        let occurrences = 1 + self.since_zeroing.iter().filter(|e| **e == id).count();
        self.since_zeroing.push(id);
        self.scores.push(white_score);
        if let Some(end) = Self::by_rule(pos, occurrences) {
            return Some(end);
        }
        self.by_adjudication(pos, plies)
    }

    /// The FIDE rules, in order.
    fn by_rule(pos: &Position, occurrences: usize) -> Option<(Outcome, Termination)> {
        let draw = |t| Some((Outcome::Draw, t));
        if !pos.has_legal_move() {
            return if pos.is_check() {
                Some((
                    Outcome::win_for(pos.side_to_move().flip()),
                    Termination::Checkmate,
                ))
            } else {
                draw(Termination::Stalemate)
            };
        }
        if insufficient_material(pos) {
            return draw(Termination::InsufficientMaterial);
        }
        if occurrences >= 5 {
            return draw(Termination::Fivefold);
        }
        if pos.halfmove_clock() >= 150 {
            return draw(Termination::SeventyFiveMoves);
        }
        if occurrences >= 3 {
            return draw(Termination::Threefold);
        }
        if pos.halfmove_clock() >= 100 {
            return draw(Termination::FiftyMoves);
        }
        None
    }

    /// Score adjudication and the ply cap.
    fn by_adjudication(&self, pos: &Position, plies: usize) -> Option<(Outcome, Termination)> {
        let resign = self.adjudication.resign;
        if let Some((r, last)) = resign.and_then(|r| Some((r, self.last_scores(r.moves)?))) {
            if last.iter().all(|s| s.is_some_and(|s| s >= r.score)) {
                return Some((Outcome::WhiteWins, Termination::ResignAdjudication));
            }
            if last.iter().all(|s| s.is_some_and(|s| s <= -r.score)) {
                return Some((Outcome::BlackWins, Termination::ResignAdjudication));
            }
        }
        if let Some(d) = self.adjudication.draw {
            let last = self
                .last_scores(d.moves)
                .filter(|_| pos.fullmove_number() >= d.from_move);
            if last.is_some_and(|l| l.iter().all(|s| s.is_some_and(|s| s.abs() <= d.score))) {
                return Some((Outcome::Draw, Termination::DrawAdjudication));
            }
        }
        (plies >= PLY_CAP).then_some((Outcome::Draw, Termination::PlyCap))
    }

    /// The last `moves` scores of each player (2 × `moves` plies), if there are that many.
    fn last_scores(&self, moves: usize) -> Option<&[Option<i32>]> {
        let plies = 2 * moves;
        (self.scores.len() >= plies).then(|| &self.scores[self.scores.len() - plies..])
    }
}

/// Whether `side` cannot checkmate whatever the other side does, as python-chess's
/// `has_insufficient_material` decides ([`Position::has_insufficient_material`], the one
/// definition, which the searcher also uses).
pub fn side_cannot_mate(pos: &Position, side: Color) -> bool {
    pos.has_insufficient_material(side)
}

/// Whether neither side can checkmate ([`Position::is_insufficient_material`]).
pub fn insufficient_material(pos: &Position) -> bool {
    pos.is_insufficient_material()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(fen: &str) -> Option<(Outcome, Termination)> {
        let pos = Position::from_fen(fen).unwrap();
        let mut a = Arbiter::default();
        a.start(&pos);
        Arbiter::by_rule(&pos, 1)
    }

    #[test]
    fn each_fide_rule_ends_the_game() {
        let mate = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1";
        assert_eq!(
            ends(mate),
            Some((Outcome::WhiteWins, Termination::Checkmate))
        );
        let stale = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
        assert_eq!(ends(stale), Some((Outcome::Draw, Termination::Stalemate)));
        let kk = "8/8/4k3/8/8/2K5/8/8 w - - 0 1";
        assert_eq!(
            ends(kk),
            Some((Outcome::Draw, Termination::InsufficientMaterial))
        );
        let fifty = "8/8/4k3/8/8/2K5/8/6QR w - - 100 80";
        assert_eq!(ends(fifty), Some((Outcome::Draw, Termination::FiftyMoves)));
        let seventy = "8/8/4k3/8/8/2K5/8/6QR w - - 150 80";
        assert_eq!(
            ends(seventy),
            Some((Outcome::Draw, Termination::SeventyFiveMoves))
        );
        // Mate on the hundredth half-move is mate, not a fifty-move draw.
        let mate50 = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 90";
        assert_eq!(ends(mate50).unwrap().1, Termination::Checkmate);
        assert_eq!(ends("8/8/4k3/8/8/2K5/8/6QR w - - 99 80"), None);
    }

    #[test]
    fn insufficient_material_follows_python_chess() {
        for (fen, dead) in [
            ("8/8/4k3/8/8/2K2N2/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/2K2B2/8/8 w - - 0 1", true),
            ("8/8/4kb2/8/8/2K2B2/8/8 w - - 0 1", false), // opposite colours (f6 dark, f3 light)
            ("8/8/4k1b1/8/8/2K2B2/8/8 w - - 0 1", true), // g6 and f3 both light
            ("8/8/4kn2/8/8/2K2N2/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/2K1NN2/8/8 w - - 0 1", false),
            ("8/8/4kq2/8/8/2K2N2/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/2K2P2/8/8 w - - 0 1", false),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(insufficient_material(&pos), dead, "{fen}");
        }
    }

    #[test]
    fn repetitions_are_counted_by_identity() {
        let start = Position::startpos();
        let mut a = Arbiter::default();
        a.start(&start);
        let mut pos = start;
        let mut end = None;
        for (i, mv) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
            .iter()
            .enumerate()
        {
            pos = pos.play(pos.parse_san(mv).unwrap());
            end = a.after_move(&pos, None, i + 1);
            if end.is_some() {
                assert_eq!(i, 7, "ends at the third occurrence of the start");
            }
        }
        assert_eq!(end, Some((Outcome::Draw, Termination::Threefold)));
    }

    #[test]
    fn adjudication_needs_both_players_for_enough_moves() {
        let pos = Position::startpos();
        let mut a = Arbiter::default();
        a.start(&pos);
        for i in 0..5 {
            assert_eq!(a.by_adjudication(&pos, i), None);
            a.scores.push(Some(700));
        }
        assert_eq!(a.by_adjudication(&pos, 5), None);
        a.scores.push(Some(700));
        assert_eq!(
            a.by_adjudication(&pos, 6).unwrap().1,
            Termination::ResignAdjudication
        );
        a.scores.push(Some(10));
        assert_eq!(a.by_adjudication(&pos, 7), None);
        // Draw adjudication only from move 34.
        let late = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40").unwrap();
        a.scores = vec![Some(0); 15];
        assert_eq!(a.by_adjudication(&late, 15), None);
        a.scores.push(Some(-20));
        assert_eq!(
            a.by_adjudication(&late, 16).unwrap().1,
            Termination::DrawAdjudication
        );
        assert_eq!(a.by_adjudication(&pos, 16), None, "move 1 is too early");
        a.scores.push(Some(21));
        assert_eq!(a.by_adjudication(&late, 17), None);
        assert_eq!(
            a.by_adjudication(&late, PLY_CAP).unwrap().1,
            Termination::PlyCap
        );
    }

    #[test]
    fn adjudication_switched_off_or_set_decides_accordingly() {
        let late = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40").unwrap();
        let quiet = |adjudication: Adjudication| {
            let mut a = Arbiter::new(adjudication);
            a.scores = vec![Some(0); 16];
            a.by_adjudication(&late, 16).map(|e| e.1)
        };
        assert_eq!(
            quiet(Adjudication::fishtest()),
            Some(Termination::DrawAdjudication)
        );
        assert_eq!(quiet(Adjudication::rules_draw()), None);
        let later = Adjudication::fishtest().with("draw=20/8/41").unwrap();
        assert_eq!(quiet(later), None);
        let winning = |adjudication: Adjudication| {
            let mut a = Arbiter::new(adjudication);
            a.scores = vec![Some(700); 6];
            a.by_adjudication(&late, 6).map(|e| e.1)
        };
        assert_eq!(
            winning(Adjudication::rules_draw()),
            Some(Termination::ResignAdjudication)
        );
        let off = Adjudication::fishtest().with("resign=off").unwrap();
        assert_eq!(winning(off), None);
        let higher = Adjudication::fishtest().with("resign=800/3").unwrap();
        assert_eq!(winning(higher), None);
    }

    #[test]
    fn adjudication_text_reads_back_and_refuses_what_it_cannot_read() {
        for a in [Adjudication::fishtest(), Adjudication::rules_draw()] {
            assert_eq!(Adjudication::fishtest().with(&a.to_string()).unwrap(), a);
        }
        assert_eq!(
            Adjudication::fishtest().to_string(),
            "draw=20/8/34,resign=600/3"
        );
        let both_off = Adjudication::fishtest()
            .with("draw=off, resign=off")
            .unwrap();
        assert_eq!((both_off.draw, both_off.resign), (None, None));
        for (bad, says) in [
            ("draw", "expected draw="),
            ("tie=off", "expected draw or resign"),
            ("draw=20/8", "SCORE/MOVES/FROM_MOVE"),
            ("resign=600", "SCORE/MOVES"),
            ("resign=0/3", "positive"),
            ("draw=off,draw=off", "twice"),
        ] {
            let e = Adjudication::fishtest().with(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
