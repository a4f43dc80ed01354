//! The driver: the public entry points of a search, iterative deepening with its per-iteration
//! result, the tables readied before a search, and the search of the root.

use std::time::Instant;

use replab_board::{Move, Position};
use replab_detect::Detector;

use super::Searcher;
use crate::{
    config::Limits,
    results::{Counters, Iteration, SearchResult},
    score::{INFINITE, MAX_PLY, Score},
    selective,
    tt::Table,
};

impl<D: Detector, T: Table> Searcher<D, T> {
    /// Searches `root` with no game history.
    pub fn search(&mut self, root: &Position) -> SearchResult {
        self.search_game(std::slice::from_ref(root), &[])
    }

    /// Searches the last of `positions`, with the earlier ones as game history: `moves[i]`
    /// leads from `positions[i]` to `positions[i + 1]`.
    ///
    /// # Panics
    /// If `positions` is empty or `moves.len() + 1 != positions.len()`.
    pub fn search_game(&mut self, positions: &[Position], moves: &[Move]) -> SearchResult {
        self.search_game_with(positions, moves, |_| {})
    }

    /// Like [`Searcher::search_game`], calling `on_iteration` after each completed iteration.
    pub fn search_game_with(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        mut on_iteration: impl FnMut(&Iteration),
    ) -> SearchResult {
        self.run(positions, moves, None, &mut on_iteration)
    }

    /// Like [`Searcher::search_game_with`], also stopping on the [`Limits`] (a stop flag set
    /// from another thread, a move time, a deadline): the entry point of a UCI engine.
    /// `on_iteration` is called after each completed iteration, in increasing depth, before the
    /// next one starts (UCI `info depth … score … nodes … pv …`: [`Iteration::score`] displays
    /// as `cp N` or `mate N`; its counters are per iteration, so sum them for the search's
    /// node count). With empty limits the search is exactly [`Searcher::search_game_with`]'s.
    /// A search stopped by the limits is not reproducible (see [`Limits`]).
    pub fn search_game_limited(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.run(positions, moves, Some(limits), on_iteration)
    }

    /// The search itself (`limits` `None` or empty: deterministic): iterative deepening from
    /// the first depth to the deepest, until an iteration is stopped or the limits say stop.
    fn run(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        limits: Option<&Limits>,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let watched = self.take_limits(limits);
        let root = *positions.last().expect("at least the root position");
        self.prepare_tables(positions, moves);
        self.reset_search(&root);
        let mut result = SearchResult {
            root_side: self.root_side,
            iterations: Vec::with_capacity(self.config.max_depth as usize),
            completed: true,
        };
        let mut previous = None;
        for depth in self.first_depth..=self.config.max_depth {
            let iteration = self.iterate(&root, depth, &mut previous, watched);
            debug_assert_eq!(self.line.len(), positions.len());
            let Some(iteration) = iteration else {
                result.completed = false;
                break;
            };
            on_iteration(&iteration);
            result.iterations.push(iteration);
            if depth < self.config.max_depth && watched && self.external_stop() {
                result.completed = false;
                break;
            }
        }
        self.stop = None;
        self.observer = None;
        result
    }

    /// Zeroes the counters of a search of `root` (the searcher's and the table bookkeeping's)
    /// and notes the root's side to move (the draw score's point of view).
    fn reset_search(&mut self, root: &Position) {
        self.counters = Counters::default();
        self.root_side = root.side_to_move();
        self.stopped = false;
        self.path_draws = 0;
        self.withheld = 0;
        self.rep_taint = 0;
        self.fifty_taint = 0;
        self.cutoffs = 0;
        self.rep_tainted_cutoffs = 0;
        self.fifty_tainted_cutoffs = 0;
    }

    /// One iteration of iterative deepening, searched to `depth` from the score of the
    /// `previous` one (then set to this one's), the limits `watched` or not. Returns its
    /// result, or `None` when it was stopped.
    fn iterate(
        &mut self,
        root: &Position,
        depth: u32,
        previous: &mut Option<i32>,
        watched: bool,
    ) -> Option<Iteration> {
        let before = self.counters;
        let stats_before = self.detector.stats();
        let start = Instant::now();
        self.start_iteration(depth, watched);
        let score = self.search_root(root, depth, *previous);
        *previous = Some(score);
        let time_ms = start.elapsed().as_secs_f64() * 1000.0;
        if self.stopped {
            return None;
        }
        let stats = self.detector.stats();
        let counters = Counters {
            nodes: self.counters.nodes - before.nodes,
            terminal_nodes: self.counters.terminal_nodes - before.terminal_nodes,
            generated: self.counters.generated - before.generated,
            repetitions: self.counters.repetitions - before.repetitions,
            probes: stats.probes - stats_before.probes,
            hits: stats.hits - stats_before.hits,
        };
        let pv = self.pv[0][..self.pv_len[0]].to_vec();
        Some(Iteration {
            depth,
            best_move: pv.first().copied(),
            score: Score(score),
            pv,
            counters,
            seldepth: self.seldepth as u32,
            time_ms,
        })
    }

    /// Readies the searcher for the iteration to `depth`: its extension limit, and when it
    /// polls. The first iteration always completes: neither the node limit nor the external
    /// limits cut it. External limits (`watched`) are watched from the second iteration on:
    /// poll at the first node, then every [`POLL_NODES`](crate::POLL_NODES).
    fn start_iteration(&mut self, depth: u32, watched: bool) {
        let node_limit = self.config.node_limit.unwrap_or(u64::MAX);
        self.extension_limit = self.config.extension_limit.ply_limit(depth);
        self.depth_now = depth;
        self.seldepth = 0;
        self.check_at = if depth == 1 {
            u64::MAX
        } else if watched {
            self.counters.nodes.min(node_limit)
        } else {
            node_limit
        };
    }

    /// Readies the table, killers and history for a search of the game (`positions`,
    /// `moves`), which it loads into the line and the detector. The paper profile clears them
    /// all (every search is a function of its input alone); the engine profile keeps the
    /// table, history and counter moves of earlier searches (a game's searches build on one
    /// another, as in every engine) and starts a new table generation. A detector that keeps
    /// its marks in the table gets it cleared in both profiles.
    fn prepare_tables(&mut self, positions: &[Position], moves: &[Move]) {
        let marked = self.load_game(positions, moves, MAX_PLY + 1);
        *self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        if self.engine() {
            self.generation = (self.generation + 1) & 0x0f;
            return;
        }
        if !marked && let Some(tt) = &mut self.tt {
            tt.clear_for_search();
        }
        *self.history = [[0; 64]; 12];
    }

    /// One iteration at the root (the root counted as a node): a full window in the paper
    /// profile; in the engine profile from [`selective::ASPIRATION_DEPTH`] on, a window
    /// around the previous iteration's score, widened on each failure until the score falls
    /// inside it.
    fn search_root(&mut self, root: &Position, depth: u32, previous: Option<i32>) -> i32 {
        let d = depth as i32;
        let centre = match previous {
            Some(p) if self.engine() && depth >= selective::ASPIRATION_DEPTH => p,
            _ => {
                self.counters.nodes += 1;
                return self.search_node(root, d, -INFINITE, INFINITE, 0);
            }
        };
        let mut delta = selective::ASPIRATION;
        let (mut alpha, mut beta) = (centre - delta, centre + delta);
        loop {
            alpha = alpha.max(-INFINITE);
            beta = beta.min(INFINITE);
            self.counters.nodes += 1;
            let score = self.search_node(root, d, alpha, beta, 0);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = score - delta;
            } else if score >= beta {
                beta = score + delta;
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > 600 {
                (alpha, beta) = (-INFINITE, INFINITE);
            }
        }
    }
}
