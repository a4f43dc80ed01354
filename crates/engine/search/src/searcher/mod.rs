//! The searcher: iterative deepening, PVS alpha-beta, quiescence, and the detector protocol.
//! This file holds the [`Searcher`] (its state, construction, settings and the small helpers
//! every part uses); its parts, each an `impl` of it:
//!
//! - `driver`: the public entry points, iterative deepening and the root;
//! - `node`: the main search at a node (`search_node`) and its move loop;
//! - `pruning`: null move, the engine profile's pruning and late-move reductions;
//! - `quiesce`: quiescence search;
//! - `protocol`: the detector protocol (entering a child, probe, enter, leave, upcoming cycles);
//! - `table`: the transposition table at a node (probe, cut-off, store);
//! - `move_order`: ordering keys, killers, history and counter moves;
//! - `limits`: the UCI limits (root moves, stop flag, deadline, observer).

use std::{
    sync::{Arc, atomic::AtomicBool},
    time::Instant,
};

use replab_board::{Color, Move, Position};
use replab_detect::{Detector, Line};

use crate::{
    config::{Observer, Profile, SearchConfig, SetupError, check_setup},
    ordering::History,
    results::{Counters, TableStats},
    score::MAX_PLY,
    selective::{CounterMoves, Reductions},
    tt::{LocalTable, SharedTable, Table},
};

mod driver;
mod limits;
mod move_order;
mod node;
mod protocol;
mod pruning;
mod quiesce;
mod table;

/// An iterative-deepening alpha-beta searcher, generic over the repetition detector so that
/// [`replab_detect::Off`] costs nothing, and over its transposition table: its own
/// ([`LocalTable`], the default) or one shared with searchers on other threads
/// ([`SharedTable`], built by [`Searcher::with_shared_table`]: Lazy SMP).
///
/// Every structure is sized in [`Searcher::new`] (and, for the line and the detector, once per
/// search by [`load_history`](replab_detect::load_history)); a search allocates only its
/// result (one vector, one principal variation per iteration), never per node.
pub struct Searcher<D: Detector, T: Table = LocalTable> {
    config: SearchConfig,
    detector: D,
    line: Line,
    tt: Option<T>,
    killers: Box<[[Move; 2]; MAX_PLY + 1]>,
    history: Box<History>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    counters: Counters,
    root_side: Color,
    extension_limit: usize,
    stopped: bool,
    /// `visit` calls [`Searcher::poll`] once the node count exceeds this: the node limit, or
    /// sooner when [`Limits`](crate::Limits) are being watched.
    check_at: u64,
    /// The stop flag and deadline of the current search, watched from its second iteration on.
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    /// The root moves of the current search ([`crate::Limits::root_moves`]; empty: all).
    root_moves: Vec<Move>,
    /// The root moves the current search leaves out ([`crate::Limits::excluded_root_moves`]).
    excluded_root_moves: Vec<Move>,
    /// The observer of the current search ([`Limits::observer`](crate::Limits::observer)).
    observer: Option<Observer>,
    /// The iteration being searched.
    depth_now: u32,
    /// Path-dependent draws scored so far in the search (see [`TtMode`](crate::TtMode)).
    path_draws: u64,
    /// Results stored without their score.
    withheld: u64,
    /// The depth of the first iteration (1 unless set by [`Searcher::set_first_depth`]).
    first_depth: u32,
    /// Repetition-draw taint events so far: repetition draws and upcoming-cycle raises scored,
    /// plus cut-offs from repetition-tainted entries (a node's result is tainted when this
    /// moved while it was searched).
    rep_taint: u64,
    /// Fifty-move taint events so far (fifty-move draws, cut-offs from fifty-tainted entries).
    fifty_taint: u64,
    /// Table cut-offs taken, and those from tainted entries ([`TableStats`]).
    cutoffs: u64,
    rep_tainted_cutoffs: u64,
    fifty_tainted_cutoffs: u64,
    /// Draw scores moved by ±1 with the node count ([`Searcher::set_draw_jitter`]).
    draw_jitter: bool,
    /// Engine profile: late-move reductions by depth and move number.
    reductions: Box<Reductions>,
    /// Engine profile: the quiet move that last refuted each move (by piece and square).
    counter_moves: Box<CounterMoves>,
    /// Engine profile: the static evaluation at each ply of the current line (for
    /// "improving": better than two plies earlier).
    evals: [i32; MAX_PLY + 1],
    /// Engine profile: the search generation (counts searches since the table was cleared,
    /// modulo 16), stored with every entry so that old entries give way first.
    generation: u8,
    /// The deepest ply the current iteration reached (quiescence included).
    seldepth: usize,
}

impl<D: Detector> Searcher<D> {
    /// A searcher using `detector` with `config`. Allocates the transposition table.
    ///
    /// # Panics
    /// If the detector needs the searcher's transposition table and `config` has none
    /// ([`check_setup`]; [`Searcher::try_new`] returns the error instead).
    pub fn new(detector: D, config: SearchConfig) -> Self {
        match Self::try_new(detector, config) {
            Ok(searcher) => searcher,
            Err(e) => panic!("{e}"),
        }
    }

    /// A searcher using `detector` with `config`, or the reason it cannot run ([`check_setup`]).
    pub fn try_new(detector: D, config: SearchConfig) -> Result<Self, SetupError> {
        check_setup(&detector, &config)?;
        Ok(Searcher::build(
            detector,
            config,
            config.table_bits().map(LocalTable::new),
        ))
    }

    /// Replaces the configuration for the next searches (UCI `setoption`, `go depth`), or
    /// returns why the detector cannot run with it ([`check_setup`]; the searcher is then
    /// unchanged). The table is reallocated only when its size changes or it is switched on
    /// or off.
    pub fn set_config(&mut self, config: SearchConfig) -> Result<(), SetupError> {
        check_setup(&self.detector, &config)?;
        if config.table_bits() != self.config.table_bits() {
            self.tt = None; // free the old table before allocating the new one
            self.tt = config.table_bits().map(LocalTable::new);
        }
        self.config = config;
        Ok(())
    }
}

impl<D: Detector> Searcher<D, SharedTable> {
    /// A searcher using `detector` with `config` and the transposition table `table`, shared
    /// with the other searchers built with its clones (one per thread: Lazy SMP). The table is
    /// used when `config` has one ([`SearchConfig::table_bits`] is `Some`; its size is the
    /// shared table's, whatever `tt_bits` says) and is never cleared by a search: clear it with
    /// [`SharedTable::clear`] between searches. Everything else (line, detector, killers,
    /// history, counters) is the searcher's own. Returns the reason the detector cannot run
    /// with `config` ([`check_setup`]).
    ///
    /// With one searcher on one thread it searches exactly as [`Searcher::new`]'s (the same
    /// counters, moves and scores, given a cleared table of the same size).
    pub fn with_shared_table(
        detector: D,
        config: SearchConfig,
        table: SharedTable,
    ) -> Result<Self, SetupError> {
        check_setup(&detector, &config)?;
        let tt = config.table_bits().map(|_| table);
        Ok(Searcher::build(detector, config, tt))
    }
}

impl<D: Detector, T: Table> Searcher<D, T> {
    /// The searcher with its table.
    fn build(detector: D, config: SearchConfig, tt: Option<T>) -> Self {
        Searcher {
            config,
            detector,
            line: Line::default(),
            tt,
            killers: Box::new([[Move::NULL; 2]; MAX_PLY + 1]),
            history: Box::new([[0; 64]; 12]),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            counters: Counters::default(),
            root_side: Color::White,
            extension_limit: 0,
            stopped: false,
            check_at: u64::MAX,
            stop: None,
            deadline: None,
            root_moves: Vec::new(),
            excluded_root_moves: Vec::new(),
            observer: None,
            depth_now: 0,
            path_draws: 0,
            withheld: 0,
            first_depth: 1,
            rep_taint: 0,
            fifty_taint: 0,
            cutoffs: 0,
            rep_tainted_cutoffs: 0,
            fifty_tainted_cutoffs: 0,
            draw_jitter: false,
            reductions: Reductions::new(),
            counter_moves: Box::new([[Move::NULL; 64]; 12]),
            evals: [0; MAX_PLY + 1],
            generation: 0,
            seldepth: 0,
        }
    }

    /// Stockfish's draw-score randomisation (PR #1770, `VALUE_DRAW - 1 + (nodes & 2)`): every
    /// draw scores one centipawn below or above its value, by bit 1 of the node count, so the
    /// search avoids blind repetition lines. Default off; deterministic (no randomness).
    pub fn set_draw_jitter(&mut self, on: bool) {
        self.draw_jitter = on;
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Makes iterative deepening start at `depth` instead of 1 (default 1; 0 counts as 1): the
    /// next searches run iterations `depth`, `depth + 1`, …, `max_depth`. This is how a Lazy
    /// SMP helper thread is set one ply ahead of the main thread (Cheng: every other helper
    /// searches each iteration one ply deeper). With a start above 1 the first iteration may be
    /// cut short by the [`Limits`](crate::Limits) like any other.
    pub fn set_first_depth(&mut self, depth: u32) {
        self.first_depth = depth.max(1);
    }

    /// Sets the deepest iteration and the node limit of the next searches (UCI `go depth`,
    /// `go nodes`), the rest of the configuration unchanged: what a searcher on a
    /// [`SharedTable`] changes between searches.
    pub fn set_depth_and_nodes(&mut self, max_depth: u32, node_limit: Option<u64>) {
        self.config.max_depth = max_depth;
        self.config.node_limit = node_limit;
    }

    /// Forgets everything learnt from earlier searches: the transposition table (scores, moves
    /// and detector marks; a shared table for every searcher sharing it), killers, history and
    /// counter moves (UCI `ucinewgame`, the start of a match game). In the paper profile every
    /// search already starts this way (that is what makes its searches reproducible one by
    /// one); in the engine profile the table, history and counter moves are kept from one
    /// search to the next, so a game is reproducible from its first move when each player's
    /// searcher is cleared at the game's start.
    pub fn clear_hash(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        *self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        *self.history = [[0; 64]; 12];
        *self.counter_moves = [[Move::NULL; 64]; 12];
        self.generation = 0;
    }

    /// Per mille of the transposition table holding entries of the current search (sampled
    /// over its first 1,000 slots, as UCI's `hashfull`); 0 without a table.
    pub fn hashfull(&self) -> u32 {
        self.tt.as_ref().map_or(0, |t| t.hashfull(self.generation))
    }

    /// The deepest ply the last iteration reached, quiescence included (UCI `seldepth`).
    pub fn seldepth(&self) -> usize {
        self.seldepth
    }

    /// Whether the engine profile is on.
    #[inline(always)]
    fn engine(&self) -> bool {
        self.config.profile == Profile::Engine
    }

    /// Transposition-table bookkeeping of the last search ([`TableStats`]).
    pub fn table_stats(&self) -> TableStats {
        TableStats {
            withheld: self.withheld,
            path_draws: self.path_draws,
            cutoffs: self.cutoffs,
            repetition_tainted_cutoffs: self.rep_tainted_cutoffs,
            fifty_tainted_cutoffs: self.fifty_tainted_cutoffs,
        }
    }

    /// The detector (its statistics cover the last search).
    pub fn detector(&self) -> &D {
        &self.detector
    }

    /// Bytes used by the transposition table (a shared table's whole size).
    pub fn tt_bytes(&self) -> usize {
        self.tt.as_ref().map_or(0, |t| t.memory_bytes())
    }

    /// The draw score from the point of view of `side` (see [`SearchConfig::contempt`]).
    #[inline(always)]
    fn draw_score(&self, side: Color) -> i32 {
        let jitter = if self.draw_jitter {
            (self.counters.nodes & 2) as i32 - 1
        } else {
            0
        };
        if side == self.root_side {
            jitter - self.config.contempt
        } else {
            jitter + self.config.contempt
        }
    }

    /// The draws by rule at a node below the root, before anything else: the fifty-move rule
    /// (mate on the hundredth half-move wins; a path-dependent draw, tainting the nodes above)
    /// and a dead position (neither side has mating material: a draw whatever follows, which
    /// depends on the position alone and taints nothing). Returns the draw score when one
    /// applies.
    #[inline(always)]
    fn rule_draw(&mut self, pos: &Position, in_check: bool, draw: i32) -> Option<i32> {
        if pos.halfmove_clock() >= 100 && (!in_check || pos.has_legal_move()) {
            self.path_draws += 1;
            self.fifty_taint += 1;
            return Some(draw);
        }
        if pos.is_insufficient_material() {
            return Some(draw);
        }
        None
    }

    /// A static evaluation at a leaf.
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.counters.terminal_nodes += 1;
        self.config.eval.evaluate(pos)
    }

    /// Copies the child's principal variation behind `mv` at `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}
