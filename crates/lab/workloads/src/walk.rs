//! The search-like walk of the micro-benchmarks: a seeded, search-shaped tree of a few thousand
//! nodes below a scenario game, in which the exact oracle decides where repetitions stop the
//! line, so a detector's missed and false repetitions can be counted while it is timed per node
//! (every detector at its default size, and the table detectors at every size).

use std::hint::black_box;

use replab_board::{Move, Position};
use replab_detect::{Detector, Line, load_history};
use replab_registry::TruthDetector;

use super::scenarios::{Game, Rng, SEARCH_CAPACITY, SEED, Scenario, master_game, rng, shuffle};

/// Game history behind the walk (plies).
pub const WALK_HISTORY: usize = 200;
/// Reversible run between that history and the walk's root.
pub const WALK_RUN: usize = 32;
/// Depth of the walk below its root.
pub const WALK_DEPTH: usize = 7;
/// Children per walk node (at most).
pub const WALK_BRANCHING: usize = 3;

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
        let mut rng = rng(seed);
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
        rng: &mut Rng,
    ) {
        if depth == 0 {
            return;
        }
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        shuffle(rng, &mut moves);
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_walk_is_the_same_every_time() {
        let (a, b) = (Walk::standard(), Walk::standard());
        assert_eq!(a.steps, b.steps);
        assert!(a.nodes.iter().zip(&b.nodes).all(|(x, y)| x.mv == y.mv));
    }
}
