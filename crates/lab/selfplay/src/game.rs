//! One game between two players, and its PGN.

use std::{
    fmt::Write as _,
    time::{Duration, Instant},
};

use anyhow::{Result, bail};
use replab_board::{Color, Move, Position};
use replab_search::{DynSearch, Limits};
use serde::{Deserialize, Serialize};

use crate::{
    arbiter::{Adjudication, Arbiter, Outcome, Termination, side_cannot_mate},
    book::Opening,
    spec::PlayerSpec,
    usage::{ClockUse, DepthCounts, thread_cpu},
};

/// How long a player may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Control {
    /// A fixed number of nodes per move: deterministic.
    Nodes(u64),
    /// A clock: base time and increment per move, in milliseconds. Not deterministic.
    Clock {
        /// Time on each clock at the start.
        base_ms: u64,
        /// Added after each move.
        increment_ms: u64,
    },
}

impl Control {
    /// Parses a time control `BASE+INC` in seconds (`8+0.08`, `60+0.6`, `10`).
    pub fn parse_tc(text: &str) -> Result<Control> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| -> Option<f64> {
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v <= 86_400.0)
        };
        match (secs(base), secs(inc)) {
            (Some(b), Some(i)) if b > 0.0 => Ok(Control::Clock {
                base_ms: (b * 1000.0).round() as u64,
                increment_ms: (i * 1000.0).round() as u64,
            }),
            _ => bail!(
                "malformed time control {text:?} (expected BASE+INCREMENT in seconds, base \
                 above 0, e.g. 8+0.08)"
            ),
        }
    }

    /// Whether games under this control are reproducible.
    pub fn deterministic(&self) -> bool {
        matches!(self, Control::Nodes(_))
    }

    /// The PGN `TimeControl` value (`-` for fixed nodes).
    pub fn pgn(&self) -> String {
        match self {
            Control::Nodes(_) => "-".into(),
            Control::Clock {
                base_ms,
                increment_ms,
            } => format!(
                "{}+{}",
                *base_ms as f64 / 1000.0,
                *increment_ms as f64 / 1000.0
            ),
        }
    }

    /// The node limit of fixed-node searches.
    pub fn nodes(&self) -> Option<u64> {
        match self {
            Control::Nodes(n) => Some(*n),
            Control::Clock { .. } => None,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Whether player A had White.
    pub a_white: bool,
    /// The start position.
    pub start: Position,
    /// Whether the start came from a FEN (PGN `SetUp`).
    pub from_fen: bool,
    /// Every move, the opening's first.
    pub moves: Vec<Move>,
    /// How many of `moves` came from the book.
    pub book_plies: usize,
    /// The result.
    pub outcome: Outcome,
    /// Why the game ended.
    pub termination: Termination,
    /// Time spent inside the players' searches.
    pub search_time: Duration,
    /// Moves played without a completed search behind them (the first legal move, should a
    /// search ever return none): zero, since the first iteration always completes; counted so
    /// that a test can prove it.
    pub unsearched: u32,
    /// Searched moves by last completed depth, of A and of B.
    pub depths: [DepthCounts; 2],
    /// Under a clock, each player's CPU time and search wall time (`None` at fixed nodes,
    /// where the games do not depend on time).
    pub clock_use: Option<ClockUse>,
}

impl GameRecord {
    /// Player A's score: 1, ½ or 0.
    pub fn score_a(&self) -> f64 {
        match (self.outcome, self.a_white) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => 1.0,
            _ => 0.0,
        }
    }
}

/// The players of one worker: their searchers and scratch space, reused game after game.
pub struct Table {
    a: Box<dyn DynSearch>,
    b: Box<dyn DynSearch>,
    positions: Vec<Position>,
    moves: Vec<Move>,
    arbiter: Arbiter,
    /// Unsearched moves of the game being played ([`GameRecord::unsearched`]).
    unsearched: u32,
    /// Depths of the game being played ([`GameRecord::depths`]).
    depths: [DepthCounts; 2],
    /// CPU and wall time of the game being played ([`GameRecord::clock_use`]).
    clock_use: ClockUse,
}

impl Table {
    /// Sets up the two players and an arbiter that adjudicates as `adjudication` says.
    pub fn new(
        a: &PlayerSpec,
        b: &PlayerSpec,
        control: Control,
        adjudication: Adjudication,
    ) -> Result<Table> {
        Ok(Table {
            a: a.build(a.nodes.or(control.nodes()))?,
            b: b.build(b.nodes.or(control.nodes()))?,
            positions: Vec::with_capacity(1024),
            moves: Vec::with_capacity(1024),
            arbiter: Arbiter::new(adjudication),
            unsearched: 0,
            depths: Default::default(),
            clock_use: ClockUse::default(),
        })
    }

    /// Plays `opening` to its end, then lets the players move until the arbiter ends the game.
    pub fn play(&mut self, opening: &Opening, a_white: bool, control: Control) -> GameRecord {
        self.positions.clear();
        self.moves.clear();
        self.unsearched = 0;
        self.depths = Default::default();
        self.clock_use = ClockUse::default();
        // A new game: neither player keeps anything from the last one (the engine profile's
        // table, history and counter moves persist from move to move within a game only).
        self.a.clear_hash();
        self.b.clear_hash();
        self.positions.push(opening.start);
        self.arbiter.start(&opening.start);
        let mut end = None;
        for &m in &opening.moves {
            let next = self.positions[self.positions.len() - 1].play(m);
            self.positions.push(next);
            self.moves.push(m);
            end = self.arbiter.after_move(&next, None, self.moves.len());
            if end.is_some() {
                break;
            }
        }
        let book_plies = self.moves.len();
        let mut clocks = [0i64; 2];
        if let Control::Clock { base_ms, .. } = control {
            clocks = [base_ms as i64 * 1000; 2];
        }
        let mut search_time = Duration::ZERO;
        while end.is_none() {
            let (t, e) = self.one_move(a_white, control, &mut clocks);
            search_time += t;
            end = e;
        }
        let (outcome, termination) = end.expect("the loop ends with an end");
        GameRecord {
            a_white,
            start: opening.start,
            from_fen: opening.from_fen,
            moves: self.moves.clone(),
            book_plies,
            outcome,
            termination,
            search_time,
            unsearched: self.unsearched,
            depths: std::mem::take(&mut self.depths),
            clock_use: (!control.deterministic()).then_some(self.clock_use),
        }
    }

    /// One search and move; the clocks are in microseconds.
    fn one_move(
        &mut self,
        a_white: bool,
        control: Control,
        clocks: &mut [i64; 2],
    ) -> (Duration, Option<(Outcome, Termination)>) {
        let pos = self.positions[self.positions.len() - 1];
        let side = pos.side_to_move();
        let player = usize::from((side == Color::White) != a_white);
        let engine = if player == 0 {
            &mut self.a
        } else {
            &mut self.b
        };
        let limits = move_limits(control, clocks[side as usize]);
        let timed = !control.deterministic();
        let cpu_before = if timed { thread_cpu() } else { None };
        let start = Instant::now();
        let result = engine.search_game_limited(&self.positions, &self.moves, &limits, &mut |_| {});
        let spent = start.elapsed();
        if let Some(before) = cpu_before {
            let cpu = thread_cpu().map_or(Duration::ZERO, |now| now.saturating_sub(before));
            self.clock_use.add(player, cpu, spent);
        }
        self.depths[player].add(result.last().map_or(0, |it| it.depth));
        if let Control::Clock { increment_ms, .. } = control {
            let clock = &mut clocks[side as usize];
            *clock -= spent.as_micros() as i64;
            if *clock < 0 {
                let outcome = if side_cannot_mate(&pos, side.flip()) {
                    Outcome::Draw
                } else {
                    Outcome::win_for(side.flip())
                };
                return (spent, Some((outcome, Termination::TimeForfeit)));
            }
            *clock += increment_ms as i64 * 1000;
        }
        // The searcher's first iteration always completes, so it returns a legal move whenever
        // there is one; should it ever not, the first legal move keeps the game going and is
        // counted (`unsearched`).
        let m = match result.best_move().filter(|m| pos.is_legal(*m)) {
            Some(m) => m,
            None => {
                self.unsearched += 1;
                pos.legal_moves().iter().copied().next().expect("a move")
            }
        };
        let score = result.score().map(|s| {
            if side == Color::White {
                s.value()
            } else {
                -s.value()
            }
        });
        let next = pos.play(m);
        self.positions.push(next);
        self.moves.push(m);
        let end = self.arbiter.after_move(&next, score, self.moves.len());
        (spent, end)
    }
}

/// The limits of one move: none at fixed nodes (the node limit is in the configuration);
/// under a clock a deadline of a 20th of the time left plus three quarters of the increment,
/// never more than the time left minus a 10 ms margin (at least 1 ms).
fn move_limits(control: Control, clock_us: i64) -> Limits {
    match control {
        Control::Nodes(_) => Limits::default(),
        Control::Clock { increment_ms, .. } => {
            let left = clock_us.max(0) as u64;
            let want = left / 20 + increment_ms * 750;
            let cap = left.saturating_sub(10_000).max(1_000);
            Limits {
                movetime: Some(Duration::from_micros(want.min(cap))),
                ..Limits::default()
            }
        }
    }
}

/// The PGN tags and movetext of one game. `round` is `PAIR.GAME` (1-based), `a`/`b` the
/// canonical player specifications, `book_line` where the opening stands in the book.
pub struct PgnGame<'a> {
    /// The game.
    pub record: &'a GameRecord,
    /// `PAIR.GAME`.
    pub round: String,
    /// Player A's specification.
    pub a: &'a str,
    /// Player B's specification.
    pub b: &'a str,
    /// `book:line` of the opening.
    pub opening: String,
    /// The time control.
    pub control: Control,
}

impl PgnGame<'_> {
    /// Appends the game's PGN (tags, a blank line, the movetext, a blank line) to `out`.
    pub fn write(&self, out: &mut String) {
        let r = self.record;
        let (white, black) = if r.a_white {
            (self.a, self.b)
        } else {
            (self.b, self.a)
        };
        let tags = [
            ("Event", "replab match".to_string()),
            ("Site", "replab".to_string()),
            ("Date", "????.??.??".to_string()),
            ("Round", self.round.clone()),
            ("White", white.to_string()),
            ("Black", black.to_string()),
            ("Result", r.outcome.pgn().to_string()),
            ("Termination", r.termination.pgn_tag().to_string()),
            ("ReplabTermination", r.termination.name().to_string()),
            ("Opening", self.opening.clone()),
            ("BookPlies", r.book_plies.to_string()),
            ("PlyCount", r.moves.len().to_string()),
            ("TimeControl", self.control.pgn()),
        ];
        for (name, value) in tags {
            let _ = writeln!(out, "[{name} \"{}\"]", value.replace('"', "'"));
        }
        if let Control::Nodes(n) = self.control {
            let _ = writeln!(out, "[NodesPerMove \"{n}\"]");
        }
        if r.from_fen {
            let _ = writeln!(out, "[SetUp \"1\"]\n[FEN \"{}\"]", r.start.fen());
        }
        out.push('\n');
        let mut pos = r.start;
        let mut line_len = 0;
        for (i, &m) in r.moves.iter().enumerate() {
            let mut token = String::new();
            if pos.side_to_move() == Color::White {
                let _ = write!(token, "{}. ", pos.fullmove_number());
            } else if i == 0 {
                let _ = write!(token, "{}... ", pos.fullmove_number());
            }
            token.push_str(&pos.san(m));
            push_wrapped(out, &token, &mut line_len);
            pos = pos.play(m);
        }
        push_wrapped(out, r.outcome.pgn(), &mut line_len);
        out.push_str("\n\n");
    }
}

/// Appends a token, breaking lines before 80 columns.
fn push_wrapped(out: &mut String, token: &str, line_len: &mut usize) {
    if *line_len > 0 && *line_len + 1 + token.len() > 79 {
        out.push('\n');
        *line_len = 0;
    } else if *line_len > 0 {
        out.push(' ');
        *line_len += 1;
    }
    out.push_str(token);
    *line_len += token.len();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_or_are_refused() {
        assert_eq!(
            Control::parse_tc("8+0.08").unwrap(),
            Control::Clock {
                base_ms: 8000,
                increment_ms: 80
            }
        );
        assert_eq!(
            Control::parse_tc("10").unwrap(),
            Control::Clock {
                base_ms: 10000,
                increment_ms: 0
            }
        );
        for bad in ["", "+1", "0+1", "8+", "a+b", "8+0.08+1", "-1+0", "inf+0"] {
            assert!(Control::parse_tc(bad).is_err(), "{bad}");
        }
    }
}
