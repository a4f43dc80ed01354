//! Detector micro-benchmark scenarios (issue 5, item 3), shared by the criterion target
//! `benches/detectors.rs` and by `replab bench` (through [`measure_all`]).
//!
//! # Scenarios
//! Every scenario is a real, legal game built deterministically from [`BASE_FEN`] with a fixed
//! seed:
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
//! The table-size experiment and the per-node walk replay a [`Walk`]: a seeded, search-shaped
//! tree of a few thousand nodes below a game with history, in which the exact oracle decides
//! where repetitions stop the line, so a detector's missed and false repetitions can be counted.
//!
//! # Timing
//! [`time_round_robin`] is the simple deterministic-input timing loop of `replab bench`: each
//! job's iteration count is calibrated to a batch time, then in every round the copy-make of one
//! quiet move (the yardstick), each job once, and the yardstick again are timed; a job's figure
//! is its median over rounds, and its ratio the median of its per-round ratios to the yardstick,
//! so every cost can also be given as a ratio to one make/unmake pair measured alongside it.
//! [`median_ns_per_iter`] times a single job the same way.

use std::{
    collections::HashSet,
    hint::black_box,
    time::{Duration, Instant},
};

use replab_board::{Color, Move, Position, Role, zobrist};
use replab_detect::{Detector, Line, Repetition, Stats, load_history};
use replab_registry::{
    FiloDetector, RookieDetector, RootRule, TruthDetector, TtOpenDetector, with_detector,
};

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

/// The detectors timed per cycle: `off` (the harness floor: line push and pop only), every
/// detector of the contract and the searcher's `linear+cuckoo`. `cuckoo`'s probe, enter and leave
/// are empty, so its row times its `upcoming` call.
pub const CYCLE_DETECTORS: [&str; 11] = [
    "off",
    "linear",
    "tt-open",
    "filo",
    "rookie",
    "axon",
    "matrix",
    "matrix-checksum",
    "cuckoo",
    "linear+cuckoo",
    "truth",
];

/// `tt-open` table sizes (log2 of the entry count), 16 MiB down to 4 KiB.
pub const TT_OPEN_BITS: [u32; 7] = [20, 18, 16, 14, 12, 10, 8];

/// `filo` table sizes (slots).
pub const FILO_SLOTS: [usize; 7] = [1024, 512, 256, 128, 64, 32, 16];

/// `rookie` table sizes (log2 of the counter count), 16 KiB down to 64 bytes.
pub const ROOKIE_BITS: [u32; 9] = [14, 13, 12, 11, 10, 9, 8, 7, 6];

/// The cuckoo detectors' rule for earlier positions (Stockfish's, the default).
pub const ROOT_RULE: RootRule = RootRule::Stockfish;

/// Game history behind the walk of the table-size experiment.
pub const WALK_HISTORY: usize = 200;
/// Reversible run between that history and the walk's root.
pub const WALK_RUN: usize = 32;
/// Depth of the walk below its root.
pub const WALK_DEPTH: usize = 7;
/// Children per walk node (at most).
pub const WALK_BRANCHING: usize = 3;

/// Room for search plies beyond the loaded history.
const SEARCH_CAPACITY: usize = 64;
/// The seed of every scenario game.
const SEED: u64 = 0x5EED_0005_D37E_C7ED;

/// Whether the detector `name` reports repetitions from its probe (`off` and `cuckoo` never do).
pub fn reports_repetitions(name: &str) -> bool {
    !matches!(name, "off" | "cuckoo")
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/// SplitMix64: a tiny, fixed pseudo-random sequence (no dependency, same on every machine).
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// The sequence for `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles `items` (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
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
fn push_pawn(game: &mut Game, rng: &mut SplitMix) -> bool {
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
    game.play(pushes[rng.below(pushes.len())]);
    true
}

/// Extends `game` by `plies` quiet piece moves such that neither side's placement repeats one
/// it had since the last pawn move or capture. Depth-first with backtracking; false (with the
/// game as it was) if no such walk is found within a step budget.
fn reversible_walk(game: &mut Game, plies: usize, rng: &mut SplitMix) -> bool {
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
            rng.shuffle(&mut candidates);
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

/// `history` plies from [`BASE_FEN`]: reversible walks with a pawn push every [`BLOCK`] plies.
fn history_game(history: usize, rng: &mut SplitMix) -> Game {
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
        assert!(done, "no scenario history of {history} plies from BASE_FEN");
        remaining -= game.plies() - before;
    }
    game
}

/// `history` plies of game history, the pawn push that starts the run, then the reversible run
/// of [`MAX_RUN`] plies: the game every scenario of this history length is cut from.
pub fn master_game(history: usize) -> Game {
    let mut rng = SplitMix::new(SEED ^ (history as u64).wrapping_mul(0x9E37_79B9));
    let mut game = history_game(history, &mut rng);
    let before = game.plies();
    let done = (0..64).any(|_| {
        game.truncate(before);
        push_pawn(&mut game, &mut rng) && reversible_walk(&mut game, MAX_RUN, &mut rng)
    });
    assert!(done, "no reversible run after {history} plies of history");
    game
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
                shuffle(&mut game),
                "no shuffle at the end of a run of {run}"
            );
        }
        Scenario {
            history,
            run,
            hit,
            game,
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

    /// The exact oracle's answer for the child.
    pub fn truth(&self) -> Option<Repetition> {
        let mut d = TruthDetector::new();
        let mut line = Line::default();
        self.load(&mut d, &mut line);
        cycle(
            &mut d,
            &mut line,
            self.parent(),
            self.child_move(),
            self.child(),
        )
    }

    /// Loads the scenario into `detector` and runs one cycle, checking the probe against the
    /// oracle (`off` and `cuckoo` must report nothing) and that the line is restored.
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
        let want = if reports_repetitions(name) {
            self.truth()
        } else {
            None
        };
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
                "{name} on {}: probe {got:?}, truth {want:?}",
                self.label()
            ))
        }
    }
}

/// Appends a 4-ply shuffle (a piece of the side to move out, a piece of the other side out, both
/// back) whose first three positions are new, so the last repeats the position 4 plies back.
fn shuffle(game: &mut Game) -> bool {
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

// ---------------------------------------------------------------------------------------------
// The walk

/// A node of a [`Walk`].
#[derive(Clone, Debug)]
pub struct WalkNode {
    /// The parent node, or `None` for a child of the root.
    pub parent: Option<u32>,
    /// The move from the parent.
    pub mv: Move,
    /// The position.
    pub pos: Position,
    /// The oracle finds a repetition here: the line stops (no enter, no children).
    pub repetition: bool,
}

/// A step of the replay: descend into a node, or leave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Push the node, probe it, and (unless it is a repetition) enter it.
    Down(u32),
    /// Leave the node and pop it.
    Up(u32),
}

/// A seeded, search-shaped tree below a game with history, replayed identically for every
/// detector: at each node up to [`WALK_BRANCHING`] legal moves (the move undoing the mover's
/// previous move first, when legal, so shuffles occur), to [`WALK_DEPTH`] plies; where
/// the exact oracle finds a repetition the line stops.
#[derive(Clone, Debug)]
pub struct Walk {
    /// The game loaded before the walk; its last position is the root.
    pub game: Game,
    /// Nodes in depth-first order.
    pub nodes: Vec<WalkNode>,
    /// The replay.
    pub steps: Vec<Step>,
}

/// What a replay of a [`Walk`] found, against the oracle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkTally {
    /// Nodes probed.
    pub nodes: u64,
    /// Nodes entered.
    pub enters: u64,
    /// Nodes where the oracle finds a repetition.
    pub repetitions: u64,
    /// Repetitions the detector reported too.
    pub found: u64,
    /// Repetitions the detector did not report.
    pub missed: u64,
    /// Reports where the oracle finds no repetition.
    pub false_reports: u64,
}

impl Walk {
    /// The walk of the table-size experiment: [`WALK_HISTORY`] plies of history and a run of
    /// [`WALK_RUN`] plies, then [`WALK_DEPTH`] plies of tree.
    pub fn standard() -> Self {
        let master = master_game(WALK_HISTORY);
        let sc = Scenario::from_master(&master, WALK_HISTORY, WALK_RUN, false);
        Self::build(sc.game, WALK_DEPTH, WALK_BRANCHING, SEED ^ 0x3A1C)
    }

    /// The walk of `depth` plies and `branching` children per node below the end of `game`.
    pub fn build(game: Game, depth: usize, branching: usize, seed: u64) -> Self {
        let mut walk = Walk {
            game,
            nodes: Vec::new(),
            steps: Vec::new(),
        };
        let mut truth = TruthDetector::new();
        let mut line = Line::default();
        let n = walk.game.positions.len();
        load_history(
            &mut truth,
            &mut line,
            &walk.game.positions,
            &walk.game.moves[..n - 1],
            depth + 1,
        );
        let mut rng = SplitMix::new(seed);
        let root = *walk.game.last();
        let last_move = walk.game.moves.last().copied();
        let before = walk
            .game
            .moves
            .len()
            .checked_sub(2)
            .map(|i| walk.game.moves[i]);
        walk.grow(
            &mut truth,
            &mut line,
            None,
            &root,
            [before, last_move],
            depth,
            branching,
            &mut rng,
        );
        walk
    }

    #[allow(clippy::too_many_arguments)]
    fn grow(
        &mut self,
        truth: &mut TruthDetector,
        line: &mut Line,
        parent: Option<u32>,
        pos: &Position,
        recent: [Option<Move>; 2],
        depth: usize,
        branching: usize,
        rng: &mut SplitMix,
    ) {
        if depth == 0 {
            return;
        }
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        rng.shuffle(&mut moves);
        // The move undoing the side to move's previous move, if legal: a shuffle.
        if let Some(prev) = recent[0]
            && let Some(i) = moves
                .iter()
                .position(|m| m.from() == prev.to() && m.to() == prev.from())
        {
            moves.swap(0, i);
        }
        moves.truncate(branching);
        for m in moves {
            let child = pos.play(m);
            let index = u32::try_from(self.nodes.len()).expect("walks are small");
            line.push(pos, m, &child);
            let repetition = truth.probe(line, &child).is_some();
            self.nodes.push(WalkNode {
                parent,
                mv: m,
                pos: child,
                repetition,
            });
            self.steps.push(Step::Down(index));
            if !repetition {
                truth.enter(line, &child);
                self.grow(
                    truth,
                    line,
                    Some(index),
                    &child,
                    [recent[1], Some(m)],
                    depth - 1,
                    branching,
                    rng,
                );
                truth.leave(line, &child);
                self.steps.push(Step::Up(index));
            }
            line.pop();
        }
    }

    /// Clears `detector` and `line` and loads the game (the walk's root is its last position).
    pub fn load<D: Detector + ?Sized>(&self, detector: &mut D, line: &mut Line) {
        let n = self.game.positions.len();
        load_history(
            detector,
            line,
            &self.game.positions,
            &self.game.moves[..n - 1],
            SEARCH_CAPACITY,
        );
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the walk has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Replays the walk on a loaded detector and line and tallies its answers.
    #[inline(never)]
    pub fn replay<D: Detector + ?Sized>(&self, detector: &mut D, line: &mut Line) -> WalkTally {
        let mut tally = WalkTally::default();
        let root = self.game.last();
        for &step in &self.steps {
            match step {
                Step::Down(i) => {
                    let node = &self.nodes[i as usize];
                    let parent = match node.parent {
                        Some(p) => &self.nodes[p as usize].pos,
                        None => root,
                    };
                    line.push(parent, node.mv, &node.pos);
                    let found = detector.probe(line, &node.pos).is_some();
                    tally.nodes += 1;
                    match (node.repetition, found) {
                        (true, true) => tally.found += 1,
                        (true, false) => tally.missed += 1,
                        (false, true) => tally.false_reports += 1,
                        (false, false) => {}
                    }
                    tally.repetitions += u64::from(node.repetition);
                    if node.repetition {
                        line.pop();
                    } else {
                        tally.enters += 1;
                        detector.enter(line, &node.pos);
                        black_box(detector.upcoming(line, &node.pos));
                    }
                }
                Step::Up(i) => {
                    detector.leave(line, &self.nodes[i as usize].pos);
                    line.pop();
                }
            }
        }
        tally
    }
}

// ---------------------------------------------------------------------------------------------
// Timing

/// How long the timing loop measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Batches timed; the median is reported.
    pub reps: usize,
    /// Target duration of one batch.
    pub batch: Duration,
}

impl Budget {
    /// `replab bench --quick`: 21 rounds of 0.2 ms batches (about 3 s in all).
    pub const QUICK: Budget = Budget {
        reps: 21,
        batch: Duration::from_micros(200),
    };
    /// `replab bench`: 61 rounds of 0.5 ms batches (about 15 s in all).
    pub const FULL: Budget = Budget {
        reps: 61,
        batch: Duration::from_micros(500),
    };
}

/// Calls `batch(n)` with an `n` calibrated so one call takes about `budget.batch`, then times
/// `budget.reps` calls and returns the median time per iteration in nanoseconds.
pub fn median_ns_per_iter(budget: Budget, mut batch: impl FnMut(u64)) -> f64 {
    let target = budget.batch.as_secs_f64().max(1e-6);
    let mut iters = 1u64;
    loop {
        let t = Instant::now();
        batch(iters);
        let took = t.elapsed().as_secs_f64();
        if took >= target / 4.0 || iters >= 1 << 40 {
            iters = ((iters as f64) * target / took.max(1e-9)).ceil().max(1.0) as u64;
            break;
        }
        iters = iters.saturating_mul(if took < target / 100.0 { 16 } else { 4 });
    }
    let mut samples: Vec<f64> = (0..budget.reps.max(1))
        .map(|_| {
            let t = Instant::now();
            batch(iters);
            t.elapsed().as_nanos() as f64 / iters as f64
        })
        .collect();
    median(&mut samples)
}

/// The median of `values` (the mean of the middle two for an even count; NaN if empty).
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Nanoseconds per cycle of `detector` (fresh, it is loaded here) on `sc`.
pub fn time_cycle<D: Detector + ?Sized>(detector: &mut D, sc: &Scenario, budget: Budget) -> f64 {
    let mut line = Line::default();
    sc.load(detector, &mut line);
    median_ns_per_iter(budget, |n| cycles(detector, &mut line, sc, n))
}

/// Nanoseconds per copy-make of the quiet move leading to `sc`'s child.
pub fn time_make(sc: &Scenario, budget: Budget) -> f64 {
    let (pos, m) = (*sc.parent(), sc.child_move());
    median_ns_per_iter(budget, |n| makes(&pos, m, n))
}

/// Something to time: runs `n` iterations.
pub type Job<'a> = Box<dyn FnMut(u64) + 'a>;

/// The copy-make of the quiet move leading to `sc`'s child, as a [`Job`].
pub fn make_job(sc: &Scenario) -> Job<'static> {
    let (pos, m) = (*sc.parent(), sc.child_move());
    Box::new(move |n| makes(&pos, m, n))
}

/// `detector` loaded with `sc`, cycling its child, as a [`Job`].
pub fn cycle_job<'a, D: Detector + 'a>(mut detector: D, sc: &'a Scenario) -> Job<'a> {
    let mut line = Line::default();
    sc.load(&mut detector, &mut line);
    Box::new(move |n| cycles(&mut detector, &mut line, sc, n))
}

/// `detector` loaded with the walk's game and replayed once: the tally, the counters of that
/// replay (history loading excluded), the memory it uses, and a [`Job`] replaying it again.
pub fn walk_job<'a, D: Detector + 'a>(
    mut detector: D,
    walk: &'a Walk,
) -> (WalkTally, Stats, usize, Job<'a>) {
    let mut line = Line::default();
    walk.load(&mut detector, &mut line);
    let before = detector.stats();
    let tally = walk.replay(&mut detector, &mut line);
    let stats = stats_delta(detector.stats(), before);
    let memory = detector.memory_bytes();
    let job = Box::new(move |n| {
        for _ in 0..n {
            black_box(walk.replay(&mut detector, &mut line));
        }
    });
    (tally, stats, memory, job)
}

/// Counters gained between `before` and `after`.
pub fn stats_delta(after: Stats, before: Stats) -> Stats {
    Stats {
        probes: after.probes - before.probes,
        hits: after.hits - before.hits,
        verified: after.verified - before.verified,
        futile: after.futile - before.futile,
        misses: after.misses - before.misses,
        collisions: after.collisions - before.collisions,
        overflows: after.overflows - before.overflows,
        comparisons: after.comparisons - before.comparisons,
    }
}

/// Iterations of `job` that take about `batch`.
fn calibrate(job: &mut Job<'_>, batch: Duration) -> u64 {
    let target = batch.as_secs_f64().max(1e-6);
    let mut iters = 1u64;
    loop {
        let t = Instant::now();
        job(iters);
        let took = t.elapsed().as_secs_f64();
        if took >= target / 4.0 || iters >= 1 << 40 {
            return ((iters as f64) * target / took.max(1e-9)).ceil().max(1.0) as u64;
        }
        iters = iters.saturating_mul(if took < target / 100.0 { 16 } else { 4 });
    }
}

fn time_batch(job: &mut Job<'_>, iters: u64) -> f64 {
    let t = Instant::now();
    job(iters);
    t.elapsed().as_nanos() as f64 / iters as f64
}

/// A job's time: median nanoseconds per iteration, and the median over rounds of its ratio to
/// the yardstick timed in the same round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timed {
    /// Median nanoseconds per iteration.
    pub ns: f64,
    /// Median of (this round's time ÷ this round's yardstick time).
    pub ratio: f64,
}

/// Times `jobs` round-robin: after one untimed round, each of `budget.reps` rounds times the yardstick, every job once
/// (a batch of about `budget.batch`), then the yardstick again, so a burst of load from other
/// processes hits a round rather than one job, and each ratio compares times taken
/// milliseconds apart. Returns the yardstick's median nanoseconds and each job's [`Timed`].
pub fn time_round_robin(
    budget: Budget,
    yardstick: &mut Job<'_>,
    jobs: &mut [Job<'_>],
) -> (f64, Vec<Timed>) {
    let make_iters = calibrate(yardstick, budget.batch);
    let iters: Vec<u64> = jobs
        .iter_mut()
        .map(|j| calibrate(j, budget.batch))
        .collect();
    // One untimed round: first touches of memory and the clock ramping up stay out.
    time_batch(yardstick, make_iters);
    for (j, &n) in jobs.iter_mut().zip(&iters) {
        time_batch(j, n);
    }
    let reps = budget.reps.max(1);
    let mut make_samples = Vec::with_capacity(2 * reps);
    let mut ns = vec![Vec::with_capacity(reps); jobs.len()];
    let mut ratios = vec![Vec::with_capacity(reps); jobs.len()];
    for _ in 0..reps {
        let before = time_batch(yardstick, make_iters);
        let times: Vec<f64> = jobs
            .iter_mut()
            .zip(&iters)
            .map(|(j, &n)| time_batch(j, n))
            .collect();
        let after = time_batch(yardstick, make_iters);
        let make = (before + after) / 2.0;
        make_samples.extend([before, after]);
        for (i, t) in times.into_iter().enumerate() {
            ns[i].push(t);
            ratios[i].push(t / make);
        }
    }
    let timed = ns
        .iter_mut()
        .zip(ratios.iter_mut())
        .map(|(n, r)| Timed {
            ns: median(n),
            ratio: median(r),
        })
        .collect();
    (median(&mut make_samples), timed)
}

// ---------------------------------------------------------------------------------------------
// Everything, for `replab bench`

/// One timed cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct CycleResult {
    /// Detector name ([`CYCLE_DETECTORS`]).
    pub detector: &'static str,
    /// Game-history plies.
    pub history: usize,
    /// Reversible run plies.
    pub run: usize,
    /// The child is a repetition.
    pub hit: bool,
    /// Median nanoseconds per cycle.
    pub ns: f64,
    /// Median ratio to one copy-make timed in the same round.
    pub ratio: f64,
}

/// One detector replaying the walk, possibly at a non-default table size.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkResult {
    /// Detector name.
    pub detector: &'static str,
    /// Table entries (slots, counters), for the table detectors; 0 otherwise.
    pub entries: usize,
    /// Bytes of the detector's structures.
    pub memory_bytes: usize,
    /// Median nanoseconds per walk node.
    pub ns_per_node: f64,
    /// Median ratio of the cost per node to one copy-make timed in the same round.
    pub ratio: f64,
    /// The replay against the oracle.
    pub tally: WalkTally,
    /// The detector's counters over one replay.
    pub stats: Stats,
}

/// Every figure of one `replab bench` micro-benchmark run.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurements {
    /// The budget used.
    pub budget: Budget,
    /// Median nanoseconds per copy-make of a quiet move over the whole run.
    pub make_ns: f64,
    /// The copy-make median of each group of jobs timed together, in order.
    pub make_samples: Vec<f64>,
    /// Run-length scenarios (history [`RUN_HISTORY`]), misses and hits.
    pub runs: Vec<CycleResult>,
    /// History-length scenarios (run [`HISTORY_RUN`]).
    pub histories: Vec<CycleResult>,
    /// Every detector of [`CYCLE_DETECTORS`] on the walk at its default size.
    pub walk: Vec<WalkResult>,
    /// The table detectors on the walk at every size.
    pub tables: Vec<WalkResult>,
    /// Nodes of the walk.
    pub walk_nodes: usize,
    /// Wall time of the whole measurement, seconds.
    pub seconds: f64,
}

/// Number of progress steps [`measure_all`] reports: one per scenario, one for the walk and
/// one for the table sizes.
pub fn total_steps() -> usize {
    let runs = RUN_LENGTHS.len() + RUN_LENGTHS.iter().filter(|&&r| r >= 4).count();
    runs + HISTORY_LENGTHS.len() + 2
}

/// Panics unless `detector` answers `sc` as the oracle does.
fn assert_checked<D: Detector + ?Sized>(name: &str, sc: &Scenario, detector: &mut D) {
    if let Err(e) = sc.check(name, detector) {
        panic!("benchmark scenario is wrong: {e}");
    }
}

/// Times every detector of [`CYCLE_DETECTORS`] on each scenario (round-robin per scenario).
fn time_scenarios(
    budget: Budget,
    scenarios: &[Scenario],
    yardstick: &mut Job<'_>,
    make_samples: &mut Vec<f64>,
    progress: &mut dyn FnMut(&str),
) -> Vec<CycleResult> {
    let mut out = Vec::new();
    for sc in scenarios {
        let mut jobs: Vec<Job<'_>> = CYCLE_DETECTORS
            .iter()
            .map(|&name| {
                with_detector!(name, ROOT_RULE, |d| {
                    assert_checked(name, sc, &mut d);
                    cycle_job(d, sc)
                })
                .expect("CYCLE_DETECTORS are registered")
            })
            .collect();
        let (make, timed) = time_round_robin(budget, yardstick, &mut jobs);
        make_samples.push(make);
        out.extend(
            CYCLE_DETECTORS
                .iter()
                .zip(timed)
                .map(|(&name, t)| CycleResult {
                    detector: name,
                    history: sc.history,
                    run: sc.run,
                    hit: sc.hit,
                    ns: t.ns,
                    ratio: t.ratio,
                }),
        );
        progress(&sc.label());
    }
    out
}

/// A detector prepared by [`walk_job`], with its name and table size.
type WalkEntry<'a> = (&'static str, usize, (WalkTally, Stats, usize, Job<'a>));

/// Times the prepared walk replays round-robin.
fn time_walks(
    budget: Budget,
    walk: &Walk,
    entries: Vec<WalkEntry<'_>>,
    yardstick: &mut Job<'_>,
    make_samples: &mut Vec<f64>,
) -> Vec<WalkResult> {
    let mut info = Vec::new();
    let mut jobs = Vec::new();
    for (name, size, (tally, stats, memory, job)) in entries {
        info.push((name, size, tally, stats, memory));
        jobs.push(job);
    }
    let (make, timed) = time_round_robin(budget, yardstick, &mut jobs);
    make_samples.push(make);
    let nodes = walk.len().max(1) as f64;
    info.into_iter()
        .zip(timed)
        .map(
            |((detector, entries, tally, stats, memory_bytes), t)| WalkResult {
                detector,
                entries,
                memory_bytes,
                ns_per_node: t.ns / nodes,
                ratio: t.ratio / nodes,
                tally,
                stats,
            },
        )
        .collect()
}

/// Times every scenario, the walk and the table sizes with `budget`, checking each detector's
/// answer against the oracle first. `progress` is called once per step ([`total_steps`]) with
/// a label of what was just measured.
///
/// Each scenario's detectors are timed round-robin together with the copy-make yardstick
/// ([`time_round_robin`]); the walk's detectors likewise, and the table sizes likewise.
///
/// # Panics
/// If a detector's probe disagrees with the oracle on a scenario (a bug in this module or in
/// the detector).
pub fn measure_all(budget: Budget, progress: &mut dyn FnMut(&str)) -> Measurements {
    let start = Instant::now();
    let runs_sc = run_scenarios();
    let make_sc = runs_sc
        .iter()
        .find(|s| s.run == HISTORY_RUN && !s.hit)
        .expect("the run of HISTORY_RUN is measured");
    let mut yardstick = make_job(make_sc);
    let mut make_samples = Vec::new();
    let runs = time_scenarios(
        budget,
        &runs_sc,
        &mut yardstick,
        &mut make_samples,
        progress,
    );
    let histories = time_scenarios(
        budget,
        &history_scenarios(),
        &mut yardstick,
        &mut make_samples,
        progress,
    );

    let walk = Walk::standard();
    let all: Vec<WalkEntry<'_>> = CYCLE_DETECTORS
        .iter()
        .map(|&name| {
            let prepared = with_detector!(name, ROOT_RULE, |d| walk_job(d, &walk))
                .expect("CYCLE_DETECTORS are registered");
            (name, 0, prepared)
        })
        .collect();
    let walk_results = time_walks(budget, &walk, all, &mut yardstick, &mut make_samples);
    progress("walk");

    let mut sized: Vec<WalkEntry<'_>> = Vec::new();
    for bits in TT_OPEN_BITS {
        let d = TtOpenDetector::with_bits(bits);
        sized.push(("tt-open", 1 << bits, walk_job(d, &walk)));
    }
    for slots in FILO_SLOTS {
        sized.push((
            "filo",
            slots,
            walk_job(FiloDetector::with_slots(slots), &walk),
        ));
    }
    for bits in ROOKIE_BITS {
        let d = RookieDetector::with_bits(bits);
        sized.push(("rookie", 1 << bits, walk_job(d, &walk)));
    }
    let tables = time_walks(budget, &walk, sized, &mut yardstick, &mut make_samples);
    progress("table sizes");

    let make_ns = median(&mut make_samples.clone());
    Measurements {
        budget,
        make_ns,
        make_samples,
        runs,
        histories,
        walk: walk_results,
        tables,
        walk_nodes: walk.len(),
        seconds: start.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use replab_registry::DETECTOR_NAMES;

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
        assert!(DETECTOR_NAMES.iter().all(|n| CYCLE_DETECTORS.contains(n)));
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

    #[test]
    fn walk_has_thousands_of_nodes_and_repetitions() {
        let walk = Walk::standard();
        assert!((1000..10_000).contains(&walk.len()), "{}", walk.len());
        let mut truth = TruthDetector::new();
        let mut line = Line::default();
        walk.load(&mut truth, &mut line);
        let before = line.len();
        let tally = walk.replay(&mut truth, &mut line);
        assert_eq!(line.len(), before);
        assert_eq!(tally.nodes as usize, walk.len());
        assert!(tally.repetitions >= 20, "{tally:?}");
        assert_eq!((tally.missed, tally.false_reports), (0, 0));
        // linear is exact too.
        let mut linear = replab_registry::LinearDetector::new();
        walk.load(&mut linear, &mut line);
        let t = walk.replay(&mut linear, &mut line);
        assert_eq!((t.missed, t.false_reports), (0, 0), "{t:?}");
    }

    #[test]
    fn timing_loop_is_positive() {
        let sc = Scenario::new(0, 8, false);
        let budget = Budget {
            reps: 3,
            batch: Duration::from_micros(200),
        };
        let mut d = replab_registry::LinearDetector::new();
        assert!(time_cycle(&mut d, &sc, budget) > 0.0);
        assert!(time_make(&sc, budget) > 0.0);
    }

    #[test]
    fn measure_all_times_everything_once() {
        let budget = Budget {
            reps: 1,
            batch: Duration::from_micros(20),
        };
        let mut steps = 0;
        let m = measure_all(budget, &mut |_| steps += 1);
        assert_eq!(steps, total_steps());
        let n = CYCLE_DETECTORS.len();
        assert_eq!(m.runs.len(), 14 * n);
        assert_eq!(m.histories.len(), HISTORY_LENGTHS.len() * n);
        assert_eq!(m.walk.len(), n);
        assert_eq!(
            m.tables.len(),
            TT_OPEN_BITS.len() + FILO_SLOTS.len() + ROOKIE_BITS.len()
        );
        let cycles = m.runs.iter().chain(&m.histories);
        assert!(cycles.clone().all(|c| c.ns > 0.0 && c.ratio > 0.0));
        assert!(m.walk.iter().chain(&m.tables).all(|w| w.ns_per_node > 0.0));
        // The smallest tables lose positions or back-trace in vain; the default ones barely.
        let smallest = |name| m.tables.iter().rfind(|t| t.detector == name).unwrap();
        assert!(smallest("tt-open").stats.misses > 0);
        assert!(smallest("filo").tally.missed > 0);
        assert!(smallest("rookie").stats.futile > 0);
        assert!(
            m.walk
                .iter()
                .all(|w| w.tally.false_reports == 0 || w.detector == "axon")
        );
    }
}
