//! The micro-benchmark scenarios: real, legal games built deterministically from [`BASE_FEN`],
//! the cycle a detector is timed on, and the detector lists, shared by `replab bench` (through
//! the micro-benchmarks' timing loop in `replab-cost` and the [`crate::callgrind`] counts) and
//! the criterion target `benches/detectors.rs`.
//!
//! Every scenario game is built from a fixed seed with `rand_xoshiro`'s xoshiro256++:
//!
//! 1. **game history**: `history` plies of piece moves, broken every [`BLOCK`] plies by a single
//!    pawn push (so most of the history lies behind an irreversible move, as in a real game),
//! 2. a pawn push, the irreversible move that starts the run,
//! 3. the **reversible run**: `run` plies of quiet piece moves in which neither side's
//!    placement ever repeats one it had earlier in the run. No position of the run repeats and
//!    no side can reach an earlier one with one move, so every backward scan runs the full
//!    length and the cuckoo scan finds no candidate. The run of length `n` is the first `n`
//!    plies of the run of length 100 (the same game), and the run of length 0 is the pawn
//!    push itself.
//!
//! The last move of the run leads from the *parent* to the *child*. Everything up to the parent
//! is loaded with [`load_history`] (the parent is the search root); the timed [`cycle`] then
//! pushes the child, probes, enters, calls `upcoming`, leaves and pops it, as the searcher does
//! at every node. In the *hit* variant (`run >= 4`) the last four plies of the run are a shuffle
//! (one piece of each side out and back), so the child repeats the position 4 plies back; on a
//! hit the cycle is push + probe + pop, since the searcher scores the draw without entering.
//!
//! The oracle's answer for the child comes from replaying the whole game with the truth kit
//! ([`replab_truth::kit::replay_probes`]), independently of the cycle being timed.

use std::{collections::HashSet, hint::black_box};

use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};
use replab_board::{Color, Move, Position, Role, zobrist};
use replab_detect::{Detector, Line, Repetition, load_history};
use replab_registry::{DETECTORS, DetectorId, TruthDetector, UpcomingRule, info, with_detector};
use replab_truth::kit;

/// The start of every scenario game: a closed middlegame with rooks, minor pieces and six free
/// pawns a side, no castling rights and no en-passant chances (pawns only ever push one square).
pub const BASE_FEN: &str = "r1b1r1k1/ppp2ppp/2n2n2/3pp3/3PP3/2N2N2/PPP2PPP/R1B1R1K1 w - - 0 1";

/// Reversible run lengths (plies behind the probed position).
pub const RUN_LENGTHS: [usize; 8] = [0, 2, 4, 8, 16, 32, 64, 100];

/// The longest run; shorter runs are its prefixes.
pub const MAX_RUN: usize = 100;

/// Game-history lengths (plies before the run).
pub const HISTORY_LENGTHS: [usize; 3] = [0, 100, 1000];

/// The game history behind the run-length scenarios.
pub const RUN_HISTORY: usize = 100;

/// The run in front of the history-length scenarios.
pub const HISTORY_RUN: usize = 16;

/// A pawn push every this many plies of game history.
pub const BLOCK: usize = 45;

/// The baseline: detection switched off ([`replab_detect::Off`], which `with_detector!` builds
/// under this name). Its cycle is the harness floor: the line's push and pop only.
pub const OFF: &str = "off";

/// Number of [`CYCLE_DETECTORS`]: the baseline and every listed row of the registry's table.
const CYCLE_LEN: usize = {
    let (mut i, mut n) = (0, 1);
    while i < DETECTORS.len() {
        if DETECTORS[i].caps.listed {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The detectors timed per cycle, derived from the registry's table: [`DetectorId::Off`] first,
/// then every listed row of [`DETECTORS`] in table order — each technique, the searcher's
/// composition `linear+cuckoo` and the oracle `truth`. `cuckoo`'s probe, enter and leave are
/// empty, so its row times its `upcoming` call.
pub const CYCLE_IDS: [DetectorId; CYCLE_LEN] = {
    let mut out = [DetectorId::Off; CYCLE_LEN];
    let (mut i, mut n) = (0, 1);
    while i < DETECTORS.len() {
        if DETECTORS[i].caps.listed {
            out[n] = DETECTORS[i].id;
            n += 1;
        }
        i += 1;
    }
    out
};

/// [`CYCLE_IDS`] by contract name ([`OFF`] first), as `with_detector!` and the criterion
/// target take them.
pub const CYCLE_DETECTORS: [&str; CYCLE_LEN] = {
    let mut out = [OFF; CYCLE_LEN];
    let mut i = 0;
    while i < CYCLE_LEN {
        out[i] = CYCLE_IDS[i].name();
        i += 1;
    }
    out
};

/// Receives each detector of the table-size runs, concretely typed (so each gets its own
/// compiled loop): see [`table_size_runs`].
pub trait SizedVisitor {
    /// One configuration: the detector `name` with a table of `entries` entries (slots,
    /// counters).
    fn visit<D: Detector + 'static>(&mut self, name: &'static str, entries: usize, detector: D);
}

/// Hands every table-size configuration to `visitor`, in report order: every registry row whose
/// table size is configurable, in table order, at each size of its
/// [`size_sweep`](replab_registry::DetectorInfo::size_sweep) (largest first).
pub fn table_size_runs(visitor: &mut impl SizedVisitor) {
    for row in DETECTORS {
        let Some(sizing) = row.caps.sizing else {
            continue;
        };
        for &value in row.size_sweep {
            let size = sizing.size(value).expect("a sweep size fits its kind");
            let entries = usize::try_from(size.entries()).expect("a sweep size fits memory");
            with_detector!(row.name, size = size, |d| visitor
                .visit(row.name, entries, d))
            .expect("a sizable row builds at its sweep sizes");
        }
    }
}

/// The cuckoo detectors' rule for earlier positions (Stockfish's, the default).
pub const ROOT_RULE: UpcomingRule = UpcomingRule::Stockfish;

/// Room for search plies beyond the loaded history.
pub(super) const SEARCH_CAPACITY: usize = 64;
/// The seed of every scenario game.
pub(super) const SEED: u64 = 0x5EED_0005_D37E_C7ED;

/// Whether the detector `id` reports repetitions from its probe: the registry's `probes`
/// capability (the baseline [`OFF`] and `cuckoo` never do).
pub fn reports_repetitions(id: DetectorId) -> bool {
    id.caps().probes
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/// The seeded generator of every random choice of the scenarios and the walk.
pub type Rng = Xoshiro256PlusPlus;

/// The generator for `seed` (the same sequence on every machine).
pub fn rng(seed: u64) -> Rng {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// A number in `0..n` (`n > 0`), without modulo bias worth speaking of (Lemire's multiply).
pub fn below(rng: &mut Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// Shuffles `items` (Fisher–Yates).
pub fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(rng, i + 1));
    }
}

// ---------------------------------------------------------------------------------------------
// Games

/// A legal game: `moves[i]` leads from `positions[i]` to `positions[i + 1]`.
#[derive(Clone, Debug)]
pub struct Game {
    /// Every position, the first one first.
    pub positions: Vec<Position>,
    /// The moves between them.
    pub moves: Vec<Move>,
}

impl Game {
    /// A game that starts (and so far ends) at `start`.
    pub fn new(start: Position) -> Self {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The last position.
    pub fn last(&self) -> &Position {
        self.positions.last().expect("a game has a first position")
    }

    /// Plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    fn play(&mut self, m: Move) {
        let next = self.last().play(m);
        self.moves.push(m);
        self.positions.push(next);
    }

    fn undo(&mut self) -> Position {
        self.moves.pop();
        self.positions.pop().expect("never undo the first position")
    }

    fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
        self.positions.truncate(plies + 1);
    }
}

/// A hash of the pieces of `color` on their squares.
fn placement(pos: &Position, color: Color) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3 ^ color.index() as u64;
    for sq in pos.by_color(color) {
        if let Some(p) = pos.piece_at(sq) {
            h ^= zobrist::piece_key(p, sq);
        }
    }
    h
}

/// A quiet, reversible move of a piece (no pawn move, capture, castling or lost right).
fn is_quiet_piece_move(pos: &Position, m: Move) -> bool {
    !m.is_capture()
        && !m.is_castle()
        && m.promotion().is_none()
        && pos.piece_at(m.from()).is_some_and(|p| p.role != Role::Pawn)
        && !pos.is_irreversible(m)
}

/// A one-square pawn push without promotion (never a double push: no en-passant rights arise).
fn is_single_push(pos: &Position, m: Move) -> bool {
    !m.is_capture()
        && m.promotion().is_none()
        && pos.piece_at(m.from()).is_some_and(|p| p.role == Role::Pawn)
        && m.from().rank().abs_diff(m.to().rank()) == 1
}

fn quiet_piece_moves(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| is_quiet_piece_move(pos, m))
        .collect()
}

/// Plays a random single pawn push; false if the side to move has none.
fn push_pawn(game: &mut Game, rng: &mut Rng) -> bool {
    let pos = *game.last();
    let pushes: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| is_single_push(&pos, m))
        .collect();
    if pushes.is_empty() {
        return false;
    }
    game.play(pushes[below(rng, pushes.len())]);
    true
}

/// Extends `game` by `plies` quiet piece moves such that neither side's placement repeats one
/// it had since the last pawn move or capture. Depth-first with backtracking; false (with the
/// game as it was) if no such walk is found within a step budget.
fn reversible_walk(game: &mut Game, plies: usize, rng: &mut Rng) -> bool {
    let base = game.plies();
    let since = game.last().halfmove_clock() as usize;
    let mut seen = [HashSet::new(), HashSet::new()];
    for pos in &game.positions[game.positions.len() - 1 - since.min(base)..] {
        for color in Color::ALL {
            seen[color.index()].insert(placement(pos, color));
        }
    }
    // Candidate moves (shuffled) and the next one to try, per ply of the walk.
    let mut stack: Vec<(Vec<Move>, usize)> = Vec::new();
    let mut steps = 0usize;
    while game.plies() - base < plies {
        steps += 1;
        if steps > 200_000 {
            game.truncate(base);
            return false;
        }
        let depth = game.plies() - base;
        if stack.len() == depth {
            let mut candidates = quiet_piece_moves(game.last());
            shuffle(rng, &mut candidates);
            stack.push((candidates, 0));
        }
        let pos = *game.last();
        let mover = pos.side_to_move();
        let (candidates, next) = stack.last_mut().expect("pushed above");
        let mut advanced = false;
        while *next < candidates.len() {
            let m = candidates[*next];
            *next += 1;
            let after = pos.play(m);
            if seen[mover.index()].insert(placement(&after, mover)) {
                game.play(m);
                advanced = true;
                break;
            }
        }
        if !advanced {
            stack.pop();
            if game.plies() == base {
                return false;
            }
            let undone = game.undo();
            let moved = game.last().side_to_move();
            seen[moved.index()].remove(&placement(&undone, moved));
        }
    }
    true
}

/// `history` plies from [`BASE_FEN`]: reversible walks with a pawn push every [`BLOCK`] plies;
/// `None` if the walk gets stuck (the pawns can run out of pushes in a long history).
fn history_game(history: usize, rng: &mut Rng) -> Option<Game> {
    let start = Position::from_fen(BASE_FEN).expect("BASE_FEN is valid");
    let mut game = Game::new(start);
    let mut remaining = history;
    while remaining > 0 {
        let before = game.plies();
        let done = if remaining > BLOCK {
            (0..64).any(|_| {
                game.truncate(before);
                reversible_walk(&mut game, BLOCK - 1, rng) && push_pawn(&mut game, rng)
            })
        } else {
            reversible_walk(&mut game, remaining, rng)
        };
        if !done {
            return None;
        }
        remaining -= game.plies() - before;
    }
    Some(game)
}

/// Seeds tried, in order, for the game of one history length.
const ATTEMPTS: u64 = 64;

/// `history` plies of game history, the pawn push that starts the run, then the reversible run
/// of [`MAX_RUN`] plies: the game every scenario of this history length is cut from. The game is
/// built from the first of a fixed sequence of seeds that yields one, so it is the same on every
/// machine.
///
/// # Panics
/// If no seed yields a game (never for the lengths used here; the tests build every one).
pub fn master_game(history: usize) -> Game {
    (0..ATTEMPTS)
        .find_map(|attempt| {
            let seed = SEED ^ (history as u64).wrapping_mul(0x9E37_79B9) ^ (attempt << 48);
            let mut rng = rng(seed);
            let mut game = history_game(history, &mut rng)?;
            let before = game.plies();
            (0..64)
                .any(|_| {
                    game.truncate(before);
                    push_pawn(&mut game, &mut rng) && reversible_walk(&mut game, MAX_RUN, &mut rng)
                })
                .then_some(game)
        })
        .unwrap_or_else(|| panic!("no scenario game with {history} plies of history"))
}

// ---------------------------------------------------------------------------------------------
// Scenarios

/// One probed position: a game whose last move leads from the parent to the child, the child
/// standing at the end of a reversible run of `run` plies behind `history` plies of game.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Plies of game history before the run's first (irreversible) move.
    pub history: usize,
    /// Reversible plies behind the child (its halfmove clock).
    pub run: usize,
    /// Whether the child repeats the position 4 plies back.
    pub hit: bool,
    /// The whole game, ending with the child.
    pub game: Game,
    /// The exact oracle's answer for the child.
    oracle: Option<Repetition>,
}

impl Scenario {
    /// The scenario with `history` plies of game history and a reversible run of `run` plies
    /// (`run <= MAX_RUN`; `run >= 4` when `hit`).
    ///
    /// # Panics
    /// On lengths out of range, or if no shuffle fits (never with [`BASE_FEN`]).
    pub fn new(history: usize, run: usize, hit: bool) -> Self {
        Self::from_master(&master_game(history), history, run, hit)
    }

    /// [`Scenario::new`] cut from an already built [`master_game`] of `history`.
    pub fn from_master(master: &Game, history: usize, run: usize, hit: bool) -> Self {
        assert!(run <= MAX_RUN, "runs are at most {MAX_RUN} plies");
        assert!(
            !hit || run >= 4,
            "a repetition needs a run of at least 4 plies"
        );
        let mut game = master.clone();
        // history plies, the pawn push, then `run` reversible plies (the push is ply 0 of it).
        let child_ply = history + 1 + run;
        if !hit {
            game.truncate(child_ply);
        } else {
            game.truncate(child_ply - 4);
            assert!(
                append_shuffle(&mut game),
                "no shuffle at the end of a run of {run}"
            );
        }
        let oracle = oracle(&game);
        Scenario {
            history,
            run,
            hit,
            game,
            oracle,
        }
    }

    /// A short label, e.g. `h100/r16/miss`.
    pub fn label(&self) -> String {
        let kind = if self.hit { "hit" } else { "miss" };
        format!("h{}/r{}/{kind}", self.history, self.run)
    }

    /// The position the child is reached from (the search root).
    pub fn parent(&self) -> &Position {
        &self.game.positions[self.game.positions.len() - 2]
    }

    /// The move from the parent to the child.
    pub fn child_move(&self) -> Move {
        *self.game.moves.last().expect("a scenario has a last move")
    }

    /// The probed position.
    pub fn child(&self) -> &Position {
        self.game.last()
    }

    /// Clears `detector` and `line` and loads the game up to the parent (the root).
    pub fn load<D: Detector + ?Sized>(&self, detector: &mut D, line: &mut Line) {
        let n = self.game.positions.len() - 1;
        load_history(
            detector,
            line,
            &self.game.positions[..n],
            &self.game.moves[..n - 1],
            SEARCH_CAPACITY,
        );
    }

    /// The exact oracle's answer for the child: does it repeat an earlier position of the game?
    pub fn truth(&self) -> Option<Repetition> {
        self.oracle
    }

    /// What the detector `name` should answer for the child, by its capabilities in the
    /// registry's table: nothing if it does not [report repetitions](reports_repetitions);
    /// nothing either if it leaves out the game-history positions that occurred once
    /// (`drops_single_history`, Gerbil's rule) and the child's only earlier occurrence is one
    /// (every earlier position of a scenario lies in its game history); else the oracle's
    /// answer.
    pub fn expected(&self, name: &str) -> Option<Repetition> {
        let caps = info(name)?.caps;
        let truth = self.oracle?;
        let unseen = caps.drops_single_history && truth.earlier == 1;
        (caps.probes && !unseen).then_some(truth)
    }

    /// Loads the scenario into `detector` and runs one cycle, checking the probe against
    /// [`Scenario::expected`] (the distance only) and that the line is restored.
    pub fn check<D: Detector + ?Sized>(&self, name: &str, detector: &mut D) -> Result<(), String> {
        let mut line = Line::default();
        self.load(detector, &mut line);
        let len = line.len();
        let got = cycle(
            detector,
            &mut line,
            self.parent(),
            self.child_move(),
            self.child(),
        );
        let want = self.expected(name);
        if line.len() != len {
            return Err(format!("{name} on {}: line not restored", self.label()));
        }
        let same = match (got, want) {
            (None, None) => true,
            (Some(g), Some(w)) => g.distance == w.distance,
            _ => false,
        };
        if same {
            Ok(())
        } else {
            Err(format!(
                "{name} on {}: probe {got:?}, expected {want:?}",
                self.label()
            ))
        }
    }
}

/// The truth kit's replay of `game` from its first position: the oracle's answer at its last
/// position.
fn oracle(game: &Game) -> Option<Repetition> {
    let sans: Vec<String> = game
        .positions
        .iter()
        .zip(&game.moves)
        .map(|(pos, &m)| pos.san(m))
        .collect();
    let probes = kit::replay_probes(&mut TruthDetector::new(), &game.positions[0].fen(), &sans)
        .unwrap_or_else(|e| panic!("a scenario game does not replay: {e}"));
    probes.last().copied().flatten()
}

/// Appends a 4-ply shuffle (a piece of the side to move out, a piece of the other side out, both
/// back) whose first three positions are new, so the last repeats the position 4 plies back.
fn append_shuffle(game: &mut Game) -> bool {
    let base = game.plies();
    let start = *game.last();
    let keys: HashSet<u64> = game.positions.iter().map(Position::key).collect();
    let back = |pos: &Position, m: Move| {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|r| r.from() == m.to() && r.to() == m.from() && is_quiet_piece_move(pos, *r))
    };
    for a in quiet_piece_moves(&start) {
        let p1 = start.play(a);
        if keys.contains(&p1.key()) {
            continue;
        }
        for b in quiet_piece_moves(&p1) {
            let p2 = p1.play(b);
            if keys.contains(&p2.key()) {
                continue;
            }
            let Some(a_back) = back(&p2, a) else { continue };
            let p3 = p2.play(a_back);
            if keys.contains(&p3.key()) || p3.key() == p1.key() || p3.key() == p2.key() {
                continue;
            }
            let Some(b_back) = back(&p3, b) else { continue };
            if p3.play(b_back).key() != start.key() {
                continue;
            }
            for m in [a, b, a_back, b_back] {
                game.play(m);
            }
            return true;
        }
    }
    game.truncate(base);
    false
}

/// The run-length scenarios (history [`RUN_HISTORY`]): every run length, misses, then hits for
/// the run lengths of at least 4.
pub fn run_scenarios() -> Vec<Scenario> {
    let master = master_game(RUN_HISTORY);
    let misses = RUN_LENGTHS
        .iter()
        .map(|&r| Scenario::from_master(&master, RUN_HISTORY, r, false));
    let hits = RUN_LENGTHS
        .iter()
        .filter(|&&r| r >= 4)
        .map(|&r| Scenario::from_master(&master, RUN_HISTORY, r, true));
    misses.chain(hits).collect()
}

/// The history-length scenarios (run [`HISTORY_RUN`], no repetition).
pub fn history_scenarios() -> Vec<Scenario> {
    HISTORY_LENGTHS
        .iter()
        .map(|&h| Scenario::new(h, HISTORY_RUN, false))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The cycle

/// One node as the searcher drives it: push the child, probe; unless it is a repetition, enter,
/// ask `upcoming`, leave; pop. Returns the probe's answer.
#[inline(always)]
pub fn cycle<D: Detector + ?Sized>(
    detector: &mut D,
    line: &mut Line,
    parent: &Position,
    mv: Move,
    child: &Position,
) -> Option<Repetition> {
    line.push(parent, mv, child);
    let found = detector.probe(line, child);
    if found.is_none() {
        detector.enter(line, child);
        black_box(detector.upcoming(line, child));
        detector.leave(line, child);
    }
    line.pop();
    found
}

/// Runs `iters` cycles of the scenario's child on a loaded detector and line.
#[inline(never)]
pub fn cycles<D: Detector + ?Sized>(detector: &mut D, line: &mut Line, sc: &Scenario, iters: u64) {
    let (parent, mv, child) = (sc.parent(), sc.child_move(), sc.child());
    for _ in 0..iters {
        black_box(cycle(
            detector,
            line,
            black_box(parent),
            black_box(mv),
            black_box(child),
        ));
    }
}

/// Runs `iters` copy-make pairs of the quiet move `m` from `pos`.
#[inline(never)]
pub fn makes(pos: &Position, m: Move, iters: u64) {
    for _ in 0..iters {
        black_box(black_box(pos).play(black_box(m)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use replab_registry::{DETECTOR_NAMES, SEARCH_DETECTORS, with_detector};

    #[test]
    fn cycle_detectors_are_the_baseline_and_every_listed_row() {
        assert_eq!(CYCLE_DETECTORS[0], OFF);
        assert_eq!(replab_detect::Off.name(), OFF);
        let listed: Vec<&str> = DETECTORS
            .iter()
            .filter(|d| d.caps.listed)
            .map(|d| d.name)
            .collect();
        assert_eq!(CYCLE_DETECTORS[1..], listed[..]);
        assert!(
            CYCLE_IDS
                .iter()
                .zip(CYCLE_DETECTORS)
                .all(|(id, n)| id.name() == n)
        );
        assert!(DETECTOR_NAMES.iter().all(|n| CYCLE_DETECTORS.contains(n)));
        assert!(SEARCH_DETECTORS.iter().all(|n| CYCLE_DETECTORS.contains(n)));
        assert!(!reports_repetitions(DetectorId::Off));
        for row in DETECTORS.iter().filter(|d| d.caps.listed) {
            assert_eq!(
                reports_repetitions(row.id),
                !row.caps.upcoming_only(),
                "{}",
                row.name
            );
        }
    }

    #[test]
    fn table_size_runs_cover_every_sizable_detector() {
        let sizable: Vec<&str> = DETECTORS
            .iter()
            .filter(|d| d.caps.table_size)
            .map(|d| d.name)
            .collect();
        struct Names(Vec<&'static str>);
        impl SizedVisitor for Names {
            fn visit<D: Detector + 'static>(&mut self, name: &'static str, _: usize, d: D) {
                assert_eq!(d.name(), name);
                if !self.0.contains(&name) {
                    self.0.push(name);
                }
            }
        }
        let mut visited = Names(Vec::new());
        table_size_runs(&mut visited);
        assert_eq!(visited.0, sizable, "in table order");
    }

    #[test]
    fn the_generator_is_seeded() {
        let draw = |seed| {
            let mut r = rng(seed);
            let mut v: Vec<usize> = (0..20).collect();
            shuffle(&mut r, &mut v);
            (v, below(&mut r, 7))
        };
        assert_eq!(draw(1), draw(1));
        assert_ne!(draw(1), draw(2));
        let mut r = rng(3);
        assert!((0..1000).all(|_| below(&mut r, 5) < 5));
    }

    #[test]
    fn runs_have_exactly_the_requested_reversible_length() {
        let master = master_game(RUN_HISTORY);
        for hit in [false, true] {
            for &run in RUN_LENGTHS.iter().filter(|&&r| !hit || r >= 4) {
                let sc = Scenario::from_master(&master, RUN_HISTORY, run, hit);
                let child = sc.child();
                assert_eq!(child.halfmove_clock() as usize, run, "{}", sc.label());
                assert_eq!(sc.game.plies(), RUN_HISTORY + 1 + run, "{}", sc.label());
                // The line's view: span == run, and the move that started the run is zeroing.
                let mut line = Line::default();
                let mut off = replab_detect::Off;
                sc.load(&mut off, &mut line);
                line.push(sc.parent(), sc.child_move(), child);
                assert_eq!(line.last().span() as usize, run, "{}", sc.label());
                let entries = line.entries();
                let cur = entries.len() - 1;
                assert!(entries[cur - run].zeroing, "{}", sc.label());
                assert!(entries[cur + 1 - run..].iter().all(|e| !e.irreversible));
                let truth = sc.truth();
                if hit {
                    let rep = truth.expect("hit scenarios repeat");
                    assert_eq!((rep.distance, rep.earlier), (4, 1), "{}", sc.label());
                } else {
                    assert_eq!(truth, None, "{}", sc.label());
                }
            }
        }
    }

    #[test]
    fn the_kit_replay_agrees_with_truth_in_the_cycle() {
        // The oracle comes from a game replay; the same answer from a search-style cycle.
        for sc in run_scenarios() {
            let mut truth = TruthDetector::new();
            let mut line = Line::default();
            sc.load(&mut truth, &mut line);
            let got = cycle(
                &mut truth,
                &mut line,
                sc.parent(),
                sc.child_move(),
                sc.child(),
            );
            assert_eq!(got, sc.truth(), "{}", sc.label());
        }
    }

    #[test]
    fn prefixes_of_one_game() {
        let a = Scenario::new(RUN_HISTORY, 8, false);
        let b = Scenario::new(RUN_HISTORY, 100, false);
        assert_eq!(a.game.moves[..], b.game.moves[..a.game.moves.len()]);
    }

    #[test]
    fn every_detector_agrees_with_truth_on_every_scenario() {
        let all = run_scenarios().into_iter().chain(history_scenarios());
        for sc in all {
            for name in CYCLE_DETECTORS {
                with_detector!(name, ROOT_RULE, |d| sc.check(name, &mut d))
                    .unwrap()
                    .unwrap();
            }
        }
    }

    #[test]
    fn history_lengths_are_exact_and_mostly_behind_zeroing_moves() {
        for sc in history_scenarios() {
            assert_eq!(sc.game.plies(), sc.history + 1 + HISTORY_RUN);
            assert_eq!(sc.child().halfmove_clock() as usize, HISTORY_RUN);
            for pos in &sc.game.positions {
                assert!(pos.halfmove_clock() as usize <= BLOCK.max(HISTORY_RUN));
                assert!(pos.ep_square().is_none());
            }
        }
    }
}
