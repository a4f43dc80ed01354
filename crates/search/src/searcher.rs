//! The searcher: iterative deepening, PVS alpha-beta, quiescence, and the detector protocol.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use replab_board::{
    Bitboard, Color, MAX_MOVES, Move, MoveKind, MoveList, PieceMoves, Position, Role,
};
use replab_detect::{Detector, DrawPolicy, Line, Repetition, load_history};

use crate::{
    eval::{Eval, MATERIAL},
    score::{INFINITE, MATE, MATE_BOUND, MAX_PLY, Score},
    tt::{Bound, LocalTable, SharedTable, TAINT_FIFTY, TAINT_REPETITION, Table},
};

/// The first and last ranks, where pawns promote.
const PROMOTION_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

/// History scores stay within ±`HISTORY_MAX` (each bonus is damped by the current value).
const HISTORY_MAX: i32 = 16_384;

/// Move-ordering keys: hash move, then captures and queen promotions (MVV-LVA), killers,
/// quiet moves by history, under-promotions last.
const ORDER_HASH: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 24;
const ORDER_KILLER: i32 = ORDER_CAPTURE - 2;
const ORDER_UNDERPROMOTION: i32 = -(1 << 20);

/// How the searcher searches. Two searches with equal configurations, equal input and the same
/// detector produce identical counters, moves and scores on every run and machine: nothing
/// depends on time, addresses, hash-map order or randomness.
///
/// With the `serde` feature it serialises with its field names (the policy by its lowercase
/// name, [`TtMode`], [`ExtensionLimit`] and [`Eval`] by theirs); the fields added after the first
/// release (`tt_mode`, `extension_limit`, `eval`, `tt_cutoff_halfmove`, `tt_halfmove_bucket`)
/// take their defaults when missing, so older JSON still parses, and their defaults are the
/// behaviour from before they existed (identical trees).
///
/// Time and another thread's stop request are deliberately not here: see [`Limits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SearchConfig {
    /// Deepest iteration, in plies (iterative deepening runs 1, 2, …, `max_depth`). Default 12.
    pub max_depth: u32,
    /// When a repetition the detector reports is scored as a draw. Default
    /// [`DrawPolicy::Twofold`] (Axon's behaviour: any repetition is a draw).
    pub policy: DrawPolicy,
    /// How much the side to move at the root dislikes a draw, in centipawns. A draw scores
    /// `−contempt` for the root side and `+contempt` for its opponent (from the side to move's
    /// point of view at the node where it is scored). Default 0: draws score 0 for both.
    pub contempt: i32,
    /// Null-move pruning (not at the root, not in check, not at PV nodes, not twice in a row,
    /// not when the side to move has only pawns and king, not near mate scores). Default on,
    /// as in the paper's Axon, which ran "with a null move generator".
    pub null_move: bool,
    /// Depth reduction R of the null-move search (the null child is searched to
    /// `depth − 1 − R`). Default 2.
    pub null_reduction: u32,
    /// Transposition table of 2^bits entries of 16 bytes, `None` for no table. Default
    /// `Some(20)` (16 MiB). The table is cleared at the start of every search and kept across
    /// its iterations. Table scores are path dependent where repetition draws are involved: a
    /// score stored below a draw by repetition may be reused where that repetition cannot occur
    /// (the usual engine compromise; see the crate docs, and [`SearchConfig::tt_mode`] for the
    /// mitigations). `None` is the same as [`TtMode::Off`]: the table exists only when
    /// `tt_bits` is `Some` and `tt_mode` is not `Off` ([`SearchConfig::table_bits`]).
    pub tt_bits: Option<u32>,
    /// Extend by one ply the moves that give check, while the parent is nearer the root than
    /// [`SearchConfig::extension_limit`] allows. Default on.
    pub check_extension: bool,
    /// Also try quiet checking moves at the first quiescence ply. Default off (quiescence
    /// searches captures and queen promotions, and every evasion when in check).
    pub qsearch_checks: bool,
    /// Stop once a search has entered this many positions; the unfinished iteration is
    /// discarded. Default `None` (no limit).
    pub node_limit: Option<u64>,
    /// How the transposition table is used (when [`SearchConfig::tt_bits`] gives it a size).
    /// Default [`TtMode::On`], the behaviour before the option existed. Missing from older
    /// JSON: the default.
    #[cfg_attr(feature = "serde", serde(default))]
    pub tt_mode: TtMode,
    /// How far from the root check extensions may happen. Default
    /// [`ExtensionLimit::TwiceDepth`], the behaviour before the option existed. Missing from
    /// older JSON: the default.
    #[cfg_attr(feature = "serde", serde(default))]
    pub extension_limit: ExtensionLimit,
    /// The static evaluation at the leaves. Default [`Eval::Full`] (material plus piece-square
    /// tables). Missing from older JSON: the default.
    #[cfg_attr(feature = "serde", serde(default))]
    pub eval: Eval,
    /// No transposition-table cut-offs at nodes whose halfmove clock is at least this
    /// (Stockfish's partial remedy for the graph-history interaction near the fifty-move rule
    /// uses 90); the table's move is still tried first and results are still stored. Default
    /// `None` (cut-offs whatever the clock). Missing from older JSON: `None`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub tt_cutoff_halfmove: Option<u16>,
    /// Mixes the halfmove clock, in buckets of this many half-moves (`clock / width`; 0 counts
    /// as 1), into the key the searcher's table is indexed and checked with: `key ^ c(bucket)`
    /// with a fixed 64-bit constant per bucket (0 for the first bucket, clocks below the width),
    /// so positions whose clocks fall in different buckets never share table scores (or moves). The detector's own keys and the marks of a
    /// detector that keeps them in the table are not affected. Default `None` (the position key
    /// alone). Missing from older JSON: `None`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub tt_halfmove_bucket: Option<u16>,
}

/// How the searcher uses its transposition table ([`SearchConfig::tt_mode`]).
///
/// Every mode but `Off` keeps the table for move ordering (the stored move is tried first); the
/// modes differ in which scores may be stored and reused for cut-offs. A score is
/// *draw-affected* when a path-dependent draw was scored anywhere in the subtree searched to
/// produce it: a repetition the draw policy scored as a draw, a fifty-move draw, or alpha raised
/// to the draw score by an upcoming cycle (cuckoo detectors). This is tracked conservatively
/// with one counter of such draws: a node's result is draw-affected if the counter moved while
/// its subtree (null-move search included) was searched, whether or not that draw could change
/// the result (propagate-if-any-child-was-affected). Table cut-offs in the subtree do not make a
/// result draw-affected: under [`TtMode::NoPathScores`] every stored score is draw-free.
///
/// With the `serde` feature it serialises by its [name](TtMode::name) (`"off"`, `"on"`,
/// `"no-path-scores"`, `"no-draw-scores"`, `"moves-only"`, `"no-repetition-scores"`,
/// `"no-fifty-scores"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum TtMode {
    /// No table (the same as [`SearchConfig::tt_bits`] `None`).
    Off,
    /// Every result is stored and any stored score may cut off at non-PV nodes. The default:
    /// the searcher's behaviour before the option existed.
    #[default]
    On,
    /// On, but a draw-affected score (see above) is never stored: its entry keeps the move only,
    /// with a draft no search can use, so it never cuts off. Every score reused from the table
    /// was searched without meeting a path-dependent draw. This is the remedy for scores that
    /// *carry* a draw from one path to another; it does not cover the converse, a draw-free
    /// score reused on a path where a repetition inside its subtree would have been possible
    /// (only [`TtMode::MovesOnly`] is free of both).
    NoPathScores,
    /// On, but a score equal to the draw score (of the side to move at the node) is never
    /// stored (move only, as for `NoPathScores`): the simple engine remedy, which also withholds
    /// genuine draws (stalemates, dead-level material) and misses scores merely bounded by a
    /// repetition.
    NoDrawScores,
    /// On, but a score affected by a repetition draw is never stored (move only): the scores a
    /// table cut-off reuses may carry fifty-move draws but no repetition draw. Affected means
    /// *tainted*: a repetition draw was scored in the subtree, or a cut-off in the subtree
    /// reused a score so tainted ([`TableStats`]). An ablation for the graph-history
    /// experiment: which kind of reused draw changes a result.
    NoRepetitionScores,
    /// On, but a score affected (tainted, as for `NoRepetitionScores`) by a fifty-move draw is
    /// never stored: reused scores may carry repetition draws but no fifty-move draw.
    NoFiftyScores,
    /// The table orders moves but no score is ever stored or reused: the path-safe reference,
    /// whose scores never cross from one path to another (killers and history still do, but
    /// they only order moves).
    MovesOnly,
}

impl TtMode {
    /// Every mode, in declaration order.
    pub const ALL: [TtMode; 7] = [
        TtMode::Off,
        TtMode::On,
        TtMode::NoPathScores,
        TtMode::NoDrawScores,
        TtMode::MovesOnly,
        TtMode::NoRepetitionScores,
        TtMode::NoFiftyScores,
    ];

    /// The kebab-case name, as serialised: `off`, `on`, `no-path-scores`, `no-draw-scores`,
    /// `moves-only`, `no-repetition-scores`, `no-fifty-scores`.
    pub const fn name(self) -> &'static str {
        match self {
            TtMode::Off => "off",
            TtMode::On => "on",
            TtMode::NoPathScores => "no-path-scores",
            TtMode::NoDrawScores => "no-draw-scores",
            TtMode::MovesOnly => "moves-only",
            TtMode::NoRepetitionScores => "no-repetition-scores",
            TtMode::NoFiftyScores => "no-fifty-scores",
        }
    }

    /// The mode of a [name](TtMode::name).
    pub fn from_name(name: &str) -> Option<TtMode> {
        TtMode::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// How far from the root the check extension may apply ([`SearchConfig::extension_limit`]).
///
/// With the `serde` feature it serialises by its [name](ExtensionLimit::name)
/// (`"twice-depth"`, `"max-ply"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum ExtensionLimit {
    /// Extend while the parent is less than twice the iteration depth from the root. The
    /// default: the searcher's behaviour before the option existed.
    #[default]
    TwiceDepth,
    /// Extend at any ply: only the ply limit [`MAX_PLY`] bounds the search (Axon's "adaptive
    /// depth control", as far as the paper describes it). A sequence of checks keeps the
    /// remaining depth, so trees grow where long checking sequences exist.
    MaxPly,
}

impl ExtensionLimit {
    /// Both limits, in declaration order.
    pub const ALL: [ExtensionLimit; 2] = [ExtensionLimit::TwiceDepth, ExtensionLimit::MaxPly];

    /// The kebab-case name, as serialised: `twice-depth`, `max-ply`.
    pub const fn name(self) -> &'static str {
        match self {
            ExtensionLimit::TwiceDepth => "twice-depth",
            ExtensionLimit::MaxPly => "max-ply",
        }
    }

    /// The limit of a [name](ExtensionLimit::name).
    pub fn from_name(name: &str) -> Option<ExtensionLimit> {
        ExtensionLimit::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The first ply whose moves are no longer extended, in an iteration of `depth` plies.
    #[inline]
    fn ply_limit(self, depth: u32) -> usize {
        match self {
            ExtensionLimit::TwiceDepth => 2 * depth as usize,
            ExtensionLimit::MaxPly => MAX_PLY,
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            max_depth: 12,
            policy: DrawPolicy::Twofold,
            contempt: 0,
            null_move: true,
            null_reduction: 2,
            tt_bits: Some(20),
            check_extension: true,
            qsearch_checks: false,
            node_limit: None,
            tt_mode: TtMode::On,
            extension_limit: ExtensionLimit::TwiceDepth,
            eval: Eval::Full,
            tt_cutoff_halfmove: None,
            tt_halfmove_bucket: None,
        }
    }
}

impl SearchConfig {
    /// The names of the named profiles, in [`SearchConfig::profiles`] order.
    pub const PROFILE_NAMES: [&'static str; 2] = ["default", "axon-like"];

    /// The named profiles, for reports: `("default", SearchConfig::default())` and
    /// `("axon-like", SearchConfig::axon_like())`.
    pub fn profiles() -> [(&'static str, SearchConfig); 2] {
        [
            ("default", SearchConfig::default()),
            ("axon-like", SearchConfig::axon_like()),
        ]
    }

    /// The profile of a name in [`SearchConfig::PROFILE_NAMES`].
    pub fn profile(name: &str) -> Option<SearchConfig> {
        SearchConfig::profiles()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| c)
    }

    /// The searcher set up as closely as the Axon paper (Vučković and Vidanović 2004, §5
    /// *Experimental data*) describes the Axon that produced its WAC.018 tables.
    ///
    /// What the paper states, and how it maps here:
    /// - "null move" on: [`SearchConfig::null_move`] on;
    /// - "some other pruning techniques": unnamed; this searcher has no pruning beyond alpha-beta
    ///   (PVS), mate-distance pruning and null move, so nothing more is switched on;
    /// - "adaptive depth control" (extensions): the check extension without the twice-depth cap,
    ///   bounded only by the ply limit ([`ExtensionLimit::MaxPly`]);
    /// - endgame heuristics and endgame tablebases off: this searcher has neither (its only
    ///   phase-dependent term is the king's piece-square table, kept);
    /// - iterative deepening from ply 1 to 12: [`SearchConfig::max_depth`] 12;
    /// - any repetition is a draw: policy [`DrawPolicy::Twofold`], contempt 0.
    ///
    /// Assumptions where the paper is silent:
    /// - quiescence: it does not describe Axon's; quiet checks at the first quiescence ply are
    ///   switched on ([`SearchConfig::qsearch_checks`]), as the profile asks, on top of captures,
    ///   queen promotions and evasions;
    /// - transposition table: not described; kept on at the default size, 2^20 entries,
    ///   [`TtMode::On`] (a 2004 engine with null move almost surely had one);
    /// - null-move reduction: not given; R = 2, the common choice of the time;
    /// - move ordering: not described; this searcher's (hash move, MVV-LVA, killers, history);
    /// - evaluation: Axon's is not described; [`Eval::Full`] (material plus piece-square
    ///   tables);
    /// - no node limit.
    pub fn axon_like() -> SearchConfig {
        SearchConfig {
            max_depth: 12,
            policy: DrawPolicy::Twofold,
            contempt: 0,
            null_move: true,
            null_reduction: 2,
            tt_bits: Some(20),
            check_extension: true,
            qsearch_checks: true,
            node_limit: None,
            tt_mode: TtMode::On,
            extension_limit: ExtensionLimit::MaxPly,
            eval: Eval::Full,
            tt_cutoff_halfmove: None,
            tt_halfmove_bucket: None,
        }
    }

    /// The table's size in bits if the searcher has a table: `tt_bits` unless `tt_mode` is
    /// [`TtMode::Off`].
    pub fn table_bits(&self) -> Option<u32> {
        match self.tt_mode {
            TtMode::Off => None,
            _ => self.tt_bits,
        }
    }

    /// The table mode in effect: [`TtMode::Off`] when there is no table (`tt_bits` `None`),
    /// else `tt_mode`.
    pub fn effective_tt_mode(&self) -> TtMode {
        match self.tt_bits {
            None => TtMode::Off,
            Some(_) => self.tt_mode,
        }
    }
}

/// Limits of one search that depend on time or on another thread, for a UCI engine
/// ([`Searcher::search_game_limited`]). They are not part of [`SearchConfig`] on purpose: a
/// search stopped by them depends on timing, so its node counts, scores and moves are **not**
/// reproducible; the experiments never use them (their limits are depth and
/// [`SearchConfig::node_limit`]).
///
/// The searcher looks at them every [`POLL_NODES`] nodes (one comparison per node, as for the
/// node limit), from the second iteration on: the first iteration always completes, so a
/// stopped search always has a move (unless the root has none, or the node limit cut the first
/// iteration). When a limit is reached, the current iteration is abandoned and the result holds
/// the completed ones (`completed` false), as after the node limit; they are also checked
/// between iterations.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stops the search when set (`true`), from any thread (UCI `stop`). The searcher never
    /// clears it.
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop after this much wall time from the start of the search (UCI `movetime`).
    pub movetime: Option<Duration>,
    /// Stop at this instant (the earlier of the two when `movetime` is also given).
    pub deadline: Option<Instant>,
}

impl Limits {
    /// The effective deadline of a search started at `start`.
    fn deadline_from(&self, start: Instant) -> Option<Instant> {
        let by_movetime = self.movetime.map(|t| start + t);
        match (by_movetime, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether no limit is set.
    fn is_empty(&self) -> bool {
        self.stop.is_none() && self.movetime.is_none() && self.deadline.is_none()
    }
}

/// How often, in nodes, the searcher looks at the [`Limits`] (stop flag and clock).
pub const POLL_NODES: u64 = 1024;

/// Transposition-table bookkeeping of the last search ([`Searcher::table_stats`]): not part of
/// [`Counters`] (not in results JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Results stored without their score (move only) because the [`TtMode`] withholds them:
    /// draw-affected ([`TtMode::NoPathScores`]), equal to the draw score
    /// ([`TtMode::NoDrawScores`]), or every result ([`TtMode::MovesOnly`]). Always 0 under
    /// [`TtMode::On`].
    pub withheld: u64,
    /// Path-dependent draws scored (repetition draws, fifty-move draws, alpha raised by an
    /// upcoming cycle): the events that make results draw-affected.
    pub path_draws: u64,
    /// Table cut-offs taken (a stored score returned instead of searching).
    pub cutoffs: u64,
    /// Cut-offs whose entry's score was affected by a repetition draw: scored in the subtree it
    /// was searched from, or itself reused from such an entry (taint propagates through
    /// cut-offs). Scores carried from one path to another.
    pub repetition_tainted_cutoffs: u64,
    /// Cut-offs whose entry's score was affected by a fifty-move draw (same propagation).
    pub fifty_tainted_cutoffs: u64,
}

/// The counters of one iteration (or of a whole search, summed). With the `serde` feature they
/// serialise with their field names (`nodes`, `terminal_nodes`, `generated`, `repetitions`,
/// `probes`, `hits`: a JSON contract).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Counters {
    /// Positions entered, quiescence included: every position pushed on the line, the root once
    /// per iteration, positions cut off as repetition draws included.
    pub nodes: u64,
    /// Static evaluations at leaves (quiescence stand-pat, and the ply limit).
    pub terminal_nodes: u64,
    /// Moves generated: the sum over nodes of the moves the generator produced there (all legal
    /// moves in the main search and in check; captures and queen promotions in quiescence).
    pub generated: u64,
    /// Repetitions the detector reported that the draw policy scored as a draw.
    pub repetitions: u64,
    /// Detector probes ([`replab_detect::Stats::probes`]).
    pub probes: u64,
    /// Probes that reported a repetition ([`replab_detect::Stats::hits`]).
    pub hits: u64,
}

impl std::ops::AddAssign for Counters {
    fn add_assign(&mut self, o: Counters) {
        self.nodes += o.nodes;
        self.terminal_nodes += o.terminal_nodes;
        self.generated += o.generated;
        self.repetitions += o.repetitions;
        self.probes += o.probes;
        self.hits += o.hits;
    }
}

/// What one iteration of iterative deepening found.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// First move of the principal variation (`None` if the root has no legal move).
    pub best_move: Option<Move>,
    /// Score from the point of view of the side to move at the root.
    pub score: Score,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// The iteration's counters (not cumulative).
    pub counters: Counters,
    /// Wall time of the iteration in milliseconds (measured, never used for decisions).
    pub time_ms: f64,
}

impl Iteration {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        if self.time_ms > 0.0 {
            self.counters.nodes as f64 * 1000.0 / self.time_ms
        } else {
            0.0
        }
    }
}

/// The result of a search: one [`Iteration`] per completed depth.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The side to move at the root (scores are from its point of view).
    pub root_side: Color,
    /// Completed iterations, depth 1 first.
    pub iterations: Vec<Iteration>,
    /// Whether every iteration up to the maximum depth completed (false after a node limit).
    pub completed: bool,
}

impl SearchResult {
    /// The deepest completed iteration.
    pub fn last(&self) -> Option<&Iteration> {
        self.iterations.last()
    }

    /// The best move of the deepest completed iteration.
    pub fn best_move(&self) -> Option<Move> {
        self.last().and_then(|it| it.best_move)
    }

    /// The score of the deepest completed iteration (root side's view).
    pub fn score(&self) -> Option<Score> {
        self.last().map(|it| it.score)
    }

    /// The counters summed over the completed iterations.
    pub fn totals(&self) -> Counters {
        let mut t = Counters::default();
        for it in &self.iterations {
            t += it.counters;
        }
        t
    }

    /// Wall time summed over the completed iterations, in milliseconds.
    pub fn time_ms(&self) -> f64 {
        self.iterations.iter().map(|it| it.time_ms).sum()
    }

    /// Everything the search decided, per iteration, without the wall time: equal signatures
    /// mean the same tree was searched to the same result (how tests compare detectors).
    pub fn signature(&self) -> Vec<IterationSignature> {
        self.iterations
            .iter()
            .map(|it| {
                (
                    it.depth,
                    it.best_move,
                    it.score.value(),
                    it.pv.clone(),
                    it.counters,
                )
            })
            .collect()
    }
}

/// One iteration without its wall time: depth, best move, score, principal variation and
/// counters ([`SearchResult::signature`]).
pub type IterationSignature = (u32, Option<Move>, i32, Vec<Move>, Counters);

/// Why a searcher cannot be built for a detector and a configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The detector keeps its marks in the searcher's transposition table
    /// ([`Detector::in_search_table`], `tt-thompson`) and the configuration has no table
    /// ([`SearchConfig::tt_bits`] is `None` or [`SearchConfig::tt_mode`] is [`TtMode::Off`]).
    NeedsTable {
        /// The detector's name.
        detector: &'static str,
    },
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::NeedsTable { detector } => write!(
                f,
                "detector {detector} keeps its open flags in the searcher's transposition table \
                 and cannot search without it (the table is off)"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// Whether the searcher can run `detector` with `config` (see [`SetupError`]).
pub fn check_setup<D: Detector>(detector: &D, config: &SearchConfig) -> Result<(), SetupError> {
    if detector.in_search_table() && config.table_bits().is_none() {
        return Err(SetupError::NeedsTable {
            detector: detector.name(),
        });
    }
    Ok(())
}

/// An iterative-deepening alpha-beta searcher, generic over the repetition detector so that
/// [`replab_detect::Off`] costs nothing, and over its transposition table: its own
/// ([`LocalTable`], the default) or one shared with searchers on other threads
/// ([`SharedTable`], built by [`Searcher::with_shared_table`]: Lazy SMP).
///
/// Every structure is sized in [`Searcher::new`] (and, for the line and the detector, once per
/// search by [`load_history`]); a search allocates only its result (one vector, one principal
/// variation per iteration), never per node.
pub struct Searcher<D: Detector, T: Table = LocalTable> {
    config: SearchConfig,
    detector: D,
    line: Line,
    tt: Option<T>,
    killers: Box<[[Move; 2]; MAX_PLY + 1]>,
    history: Box<[[i32; 64]; 12]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    counters: Counters,
    root_side: Color,
    extension_limit: usize,
    stopped: bool,
    /// `visit` calls [`Searcher::poll`] once the node count exceeds this: the node limit, or
    /// sooner when [`Limits`] are being watched.
    check_at: u64,
    /// The stop flag and deadline of the current search, watched from `poll_from` nodes on.
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    /// Path-dependent draws scored so far in the search (see [`TtMode`]).
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
            path_draws: 0,
            withheld: 0,
            first_depth: 1,
            rep_taint: 0,
            fifty_taint: 0,
            cutoffs: 0,
            rep_tainted_cutoffs: 0,
            fifty_tainted_cutoffs: 0,
            draw_jitter: false,
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
    /// cut short by the [`Limits`] like any other.
    pub fn set_first_depth(&mut self, depth: u32) {
        self.first_depth = depth.max(1);
    }

    /// Forgets everything learnt from earlier searches: the transposition table (scores, moves
    /// and detector marks; a shared table for every searcher sharing it), killers and history
    /// (UCI `ucinewgame`). Every search already starts
    /// this way (that is what makes searches reproducible), so this only matters to a caller
    /// that wants the memory touched now rather than at the next search.
    pub fn clear_hash(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        *self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        *self.history = [[0; 64]; 12];
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

    /// The search itself (`limits` `None` or empty: deterministic).
    fn run(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        limits: Option<&Limits>,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let search_start = Instant::now();
        let limits = limits.filter(|l| !l.is_empty());
        self.stop = limits.and_then(|l| l.stop.clone());
        self.deadline = limits.and_then(|l| l.deadline_from(search_start));
        let root = *positions.last().expect("at least the root position");
        if !self.load_game(positions, moves, MAX_PLY + 1)
            && let Some(tt) = &mut self.tt
        {
            tt.clear_for_search();
        }
        *self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        *self.history = [[0; 64]; 12];
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
        let node_limit = self.config.node_limit.unwrap_or(u64::MAX);

        let mut result = SearchResult {
            root_side: self.root_side,
            iterations: Vec::with_capacity(self.config.max_depth as usize),
            completed: true,
        };
        for depth in self.first_depth..=self.config.max_depth {
            let before = self.counters;
            let stats_before = self.detector.stats();
            let start = Instant::now();
            self.extension_limit = self.config.extension_limit.ply_limit(depth);
            // External limits are watched from the second iteration on (the first always
            // completes): poll at the first node, then every `POLL_NODES`.
            self.check_at = if limits.is_some() && depth >= 2 {
                self.counters.nodes.min(node_limit)
            } else {
                node_limit
            };
            self.counters.nodes += 1; // the root
            let score = self.search_node(&root, depth as i32, -INFINITE, INFINITE, 0);
            let time_ms = start.elapsed().as_secs_f64() * 1000.0;
            debug_assert_eq!(self.line.len(), positions.len());
            if self.stopped {
                result.completed = false;
                break;
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
            let iteration = Iteration {
                depth,
                best_move: pv.first().copied(),
                score: Score(score),
                pv,
                counters,
                time_ms,
            };
            on_iteration(&iteration);
            result.iterations.push(iteration);
            if depth < self.config.max_depth && limits.is_some() && self.external_stop() {
                result.completed = false;
                break;
            }
        }
        self.stop = None;
        result
    }

    /// Whether the stop flag is set or the deadline has passed.
    fn external_stop(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Called by `visit` once the node count exceeds `check_at`: stops at the node limit or on
    /// the external limits, else sets the next check.
    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> bool {
        let nodes = self.counters.nodes;
        let node_limit = self.config.node_limit.unwrap_or(u64::MAX);
        if nodes > node_limit || self.external_stop() {
            self.stopped = true;
            return true;
        }
        // Only reached while external limits are watched (without them `check_at` is the node
        // limit).
        self.check_at = nodes.saturating_add(POLL_NODES).min(node_limit);
        false
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

    /// A static evaluation at a leaf.
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.counters.terminal_nodes += 1;
        self.config.eval.evaluate(pos)
    }

    /// The key the table is indexed and checked with: the position key, with the halfmove
    /// clock's bucket mixed in under [`SearchConfig::tt_halfmove_bucket`].
    #[inline(always)]
    fn tt_key(&self, pos: &Position) -> u64 {
        match self.config.tt_halfmove_bucket {
            None => pos.key(),
            Some(width) => pos.key() ^ halfmove_bucket_key(pos.halfmove_clock() / width.max(1)),
        }
    }

    /// Enters `child` (reached from `parent` by `mv`, or by a null move when `mv` is null) at
    /// `ply`: pushes it on the line, probes the detector, and unless the repetition is a draw,
    /// enters it, searches it (quiescence when `depth <= 0`) and leaves it. Returns the score
    /// from the child's side to move's point of view.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn visit(
        &mut self,
        parent: &Position,
        mv: Move,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if mv.is_null() {
            self.line.push_null(child);
        } else {
            self.line.push(parent, mv, child);
        }
        self.counters.nodes += 1;
        self.pv_len[ply] = ply;
        if self.counters.nodes > self.check_at && self.poll() {
            self.line.pop();
            return 0;
        }
        if self.repetition_draw(child) {
            self.counters.repetitions += 1;
            self.path_draws += 1;
            self.rep_taint += 1;
            self.line.pop();
            return self.draw_score(child.side_to_move());
        }
        self.enter(child);
        let score = if depth > 0 {
            self.search_node(child, depth, alpha, beta, ply)
        } else {
            self.quiesce(child, depth, alpha, beta, ply)
        };
        self.leave(child);
        self.line.pop();
        score
    }

    /// Bookkeeping of a table cut-off from an entry with taint bits `taint`: counted, and the
    /// taint carried on to the nodes above (the reused score is as path dependent as the one
    /// stored).
    #[inline(always)]
    fn cutoff_taken(&mut self, taint: u8) {
        self.cutoffs += 1;
        if taint & TAINT_REPETITION != 0 {
            self.rep_taint += 1;
            self.rep_tainted_cutoffs += 1;
        }
        if taint & TAINT_FIFTY != 0 {
            self.fifty_taint += 1;
            self.fifty_tainted_cutoffs += 1;
        }
    }

    /// Whether the line's last position, `child`, is a repetition the draw policy scores as a
    /// draw: the detector's probe, then [`DrawPolicy::is_draw`] at the line's distance from the
    /// root (the one place the searcher applies its policy).
    #[inline(always)]
    fn repetition_draw(&mut self, child: &Position) -> bool {
        self.probe(child)
            .is_some_and(|rep| self.config.policy.is_draw(rep, self.line.plies_from_root()))
    }

    /// Loads the game (`positions`, `moves`) into the line and the detector, with room for
    /// `capacity` more plies. A detector that keeps its marks in the searcher's table gets the
    /// table cleared for the search first (a shared table is cleared by its owner) and the
    /// history opened in it; returns whether that happened.
    fn load_game(&mut self, positions: &[Position], moves: &[Move], capacity: usize) -> bool {
        if self.detector.in_search_table()
            && let Some(tt) = &mut self.tt
        {
            tt.clear_for_search();
            load_history_marked(
                &mut self.detector,
                tt,
                &mut self.line,
                positions,
                moves,
                capacity,
            );
            true
        } else {
            load_history(
                &mut self.detector,
                &mut self.line,
                positions,
                moves,
                capacity,
            );
            false
        }
    }

    /// Follows `line` (moves below the root) from the last of `positions` (the game before it
    /// as history, as in [`Searcher::search_game`]) the way the search would enter it, and
    /// returns the first ply (1 = the root's child) whose position the searcher scores as a
    /// repetition draw, with this searcher's detector and policy; `None` if it enters the
    /// whole line. No search is done and no counter changes; the table changes only for a
    /// detector that keeps its marks in it (cleared, as before a search). This shows what the
    /// policy decides on a scripted line (the policy cases test it).
    ///
    /// # Panics
    /// If `positions` is empty, `moves.len() + 1 != positions.len()`, or a move of `line` is
    /// not legal where it is played.
    pub fn first_draw_ply(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        line: &[Move],
    ) -> Option<usize> {
        self.load_game(positions, moves, line.len() + 1);
        let mut pos = *positions.last().expect("at least the root position");
        let mut entered = Vec::with_capacity(line.len());
        let mut draw = None;
        for (i, &m) in line.iter().enumerate() {
            assert!(pos.is_legal(m), "line move {} is not legal", i + 1);
            let child = pos.play(m);
            self.line.push(&pos, m, &child);
            if self.repetition_draw(&child) {
                self.line.pop();
                draw = Some(i + 1);
                break;
            }
            self.enter(&child);
            entered.push(child);
            pos = child;
        }
        for child in entered.iter().rev() {
            self.leave(child);
            self.line.pop();
        }
        draw
    }

    /// Probes the detector for the line's last position, `pos` (through the position's table
    /// mark for a detector that keeps its marks in the table: a constant `false` test, folded
    /// away, for every other detector).
    #[inline(always)]
    fn probe(&mut self, pos: &Position) -> Option<Repetition> {
        if self.detector.in_search_table()
            && let Some(tt) = &self.tt
        {
            self.detector
                .probe_marked(&self.line, pos, tt.mark(pos.key()))
        } else {
            self.detector.probe(&self.line, pos)
        }
    }

    /// Enters the line's last position, `pos`, in the detector.
    #[inline(always)]
    fn enter(&mut self, pos: &Position) {
        if self.detector.in_search_table()
            && let Some(tt) = &mut self.tt
        {
            tt.update_mark(pos.key(), |mark| {
                self.detector.enter_marked(&self.line, pos, mark)
            });
        } else {
            self.detector.enter(&self.line, pos);
        }
    }

    /// Leaves the line's last position, `pos`, in the detector.
    #[inline(always)]
    fn leave(&mut self, pos: &Position) {
        if self.detector.in_search_table()
            && let Some(tt) = &mut self.tt
        {
            tt.update_mark(pos.key(), |mark| {
                self.detector.leave_marked(&self.line, pos, mark)
            });
        } else {
            self.detector.leave(&self.line, pos);
        }
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

    /// The main search at a node already entered (`ply` 0 is the root).
    fn search_node(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let pv_node = beta - alpha > 1;
        let us = pos.side_to_move();
        let draw = self.draw_score(us);
        let in_check = pos.is_check();
        let draws_before = self.path_draws;
        let taint_before = (self.rep_taint, self.fifty_taint);

        if ply > 0 {
            // The fifty-move rule (mate on the hundredth half-move wins).
            if pos.halfmove_clock() >= 100 && (!in_check || pos.has_legal_move()) {
                self.path_draws += 1;
                self.fifty_taint += 1;
                return draw;
            }
            // Mate-distance pruning: no score beats a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            // Upcoming cycles: the side to move can force a repetition (cuckoo detectors).
            if alpha < draw && self.detector.upcoming(&self.line, pos) {
                self.path_draws += 1;
                self.rep_taint += 1;
                alpha = draw;
                if alpha >= beta {
                    return alpha;
                }
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate(pos);
            }
        }

        let key = self.tt_key(pos);
        let mut tt_move = Move::NULL;
        if let Some(tt) = &self.tt
            && let Some(entry) = tt.probe(key)
        {
            tt_move = entry.mv();
            // Withheld scores are stored with a draft below any depth: they never cut off.
            if !pv_node
                && entry.depth() >= depth
                && self
                    .config
                    .tt_cutoff_halfmove
                    .is_none_or(|n| pos.halfmove_clock() < n)
            {
                let s = entry.score(ply);
                let cut = match entry.bound() {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    self.cutoff_taken(entry.taint());
                    return s;
                }
            }
        }

        if self.config.null_move
            && !pv_node
            && !in_check
            && ply > 0
            && depth >= 2
            && !self.line.last().null
            && beta.abs() < MATE_BOUND
            && has_pieces(pos, us)
        {
            let mut child = *pos;
            child.play_null();
            let d = (depth - 1 - self.config.null_reduction as i32).max(0);
            let v = -self.visit(pos, Move::NULL, &child, d, -beta, -beta + 1, ply + 1);
            if self.stopped {
                return 0;
            }
            if v >= beta {
                return if v >= MATE_BOUND { beta } else { v };
            }
        }

        let mut list = MoveList::new();
        pos.legal_moves_into(&mut list);
        self.counters.generated += list.len() as u64;
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { draw };
        }
        let mut keys = [0i32; MAX_MOVES];
        self.order_keys(pos, &list, &mut keys, tt_move, ply);

        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let moves = list.as_mut_slice();
        for i in 0..moves.len() {
            pick_next(moves, &mut keys, i);
            let m = moves[i];
            let child = pos.play(m);
            let extend =
                self.config.check_extension && child.is_check() && ply < self.extension_limit;
            let d = depth - 1 + i32::from(extend);
            let mut v;
            if i == 0 {
                v = -self.visit(pos, m, &child, d, -beta, -alpha, ply + 1);
            } else {
                v = -self.visit(pos, m, &child, d, -alpha - 1, -alpha, ply + 1);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.visit(pos, m, &child, d, -beta, -alpha, ply + 1);
                }
            }
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = m;
                    self.update_pv(ply, m);
                    if v >= beta {
                        if !m.is_capture() && m.promotion().is_none() {
                            self.reward_quiet(pos, m, depth, ply);
                        }
                        break;
                    }
                }
            }
        }

        if let Some(tt) = &mut self.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let keep_score = match self.config.tt_mode {
                TtMode::On | TtMode::Off => true,
                TtMode::NoPathScores => self.path_draws == draws_before,
                TtMode::NoDrawScores => best != draw,
                TtMode::MovesOnly => false,
                TtMode::NoRepetitionScores => self.rep_taint == taint_before.0,
                TtMode::NoFiftyScores => self.fifty_taint == taint_before.1,
            };
            if keep_score {
                let taint = if self.rep_taint != taint_before.0 {
                    TAINT_REPETITION
                } else {
                    0
                } | if self.fifty_taint != taint_before.1 {
                    TAINT_FIFTY
                } else {
                    0
                };
                tt.store(key, depth, best, bound, best_move, ply, taint);
            } else {
                tt.store_move(key, best_move);
                self.withheld += 1;
            }
        }
        best
    }

    /// Quiescence search at a node already entered: stand pat, then captures and queen
    /// promotions (every evasion when in check; quiet checks too at the first ply with
    /// [`SearchConfig::qsearch_checks`]). `depth` is 0 at the first quiescence ply, then −1, −2 …
    fn quiesce(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let us = pos.side_to_move();
        let draw = self.draw_score(us);
        let in_check = pos.is_check();
        if pos.halfmove_clock() >= 100 && (!in_check || pos.has_legal_move()) {
            self.path_draws += 1;
            self.fifty_taint += 1;
            return draw;
        }
        if alpha < draw && self.detector.upcoming(&self.line, pos) {
            self.path_draws += 1;
            self.rep_taint += 1;
            alpha = draw;
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }

        let mut best = -INFINITE;
        if !in_check {
            let stand = self.evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }

        let mut list = MoveList::new();
        if in_check {
            pos.legal_moves_into(&mut list);
        } else {
            tactical_moves(pos, &mut list);
            if self.config.qsearch_checks && depth == 0 {
                quiet_checks(pos, &mut list);
            }
        }
        self.counters.generated += list.len() as u64;
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { best };
        }
        let mut keys = [0i32; MAX_MOVES];
        self.order_keys(pos, &list, &mut keys, Move::NULL, ply);
        let moves = list.as_mut_slice();
        for i in 0..moves.len() {
            pick_next(moves, &mut keys, i);
            let m = moves[i];
            let child = pos.play(m);
            let v = -self.visit(pos, m, &child, depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Ordering keys of `list`: hash move; captures and queen promotions by MVV-LVA; the two
    /// killers; quiet moves by history; under-promotions last.
    #[inline]
    fn order_keys(
        &self,
        pos: &Position,
        list: &MoveList,
        keys: &mut [i32; MAX_MOVES],
        tt_move: Move,
        ply: usize,
    ) {
        let killers = self.killers[ply];
        for (key, &m) in keys.iter_mut().zip(list.iter()) {
            *key = if m == tt_move {
                ORDER_HASH
            } else if matches!(m.promotion(), Some(r) if r != Role::Queen) {
                ORDER_UNDERPROMOTION
            } else if m.is_capture() || m.promotion().is_some() {
                let victim = if m.is_en_passant() {
                    MATERIAL[Role::Pawn.index()]
                } else {
                    pos.piece_at(m.to()).map_or(0, |p| MATERIAL[p.role.index()])
                };
                let promotion = if m.promotion().is_some() {
                    MATERIAL[Role::Queen.index()]
                } else {
                    0
                };
                let attacker = pos.piece_at(m.from()).map_or(0, |p| p.role.index() as i32);
                ORDER_CAPTURE + (victim + promotion) * 8 - attacker
            } else if m == killers[0] {
                ORDER_KILLER
            } else if m == killers[1] {
                ORDER_KILLER - 1
            } else {
                let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
                self.history[piece][m.to().index()]
            };
        }
    }

    /// A quiet move caused a beta cutoff: make it a killer and raise its history score.
    #[inline]
    fn reward_quiet(&mut self, pos: &Position, m: Move, depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if let Some(piece) = pos.piece_at(m.from()) {
            let bonus = (depth * depth).min(HISTORY_MAX);
            let h = &mut self.history[piece.index()][m.to().index()];
            *h += bonus - *h * bonus / HISTORY_MAX;
        }
    }
}

/// [`load_history`] for a detector that keeps its marks in the searcher's table: the same
/// pushes and root moves, entering every position through its table mark.
fn load_history_marked<D: Detector, T: Table>(
    detector: &mut D,
    tt: &mut T,
    line: &mut Line,
    positions: &[Position],
    moves: &[Move],
    search_capacity: usize,
) {
    assert_eq!(
        moves.len() + 1,
        positions.len(),
        "one move between each two positions"
    );
    let capacity = positions.len() + search_capacity;
    line.reset(&positions[0], capacity);
    detector.clear(capacity);
    tt.update_mark(positions[0].key(), |mark| {
        detector.enter_marked(line, &positions[0], mark)
    });
    for (i, &m) in moves.iter().enumerate() {
        line.push(&positions[i], m, &positions[i + 1]);
        line.set_root();
        let next = &positions[i + 1];
        tt.update_mark(next.key(), |mark| detector.enter_marked(line, next, mark));
    }
}

/// The constant mixed into the table key for halfmove-clock bucket `bucket`
/// ([`SearchConfig::tt_halfmove_bucket`]): 0 for the first bucket (clocks below the width keep
/// their plain key, so a search that never leaves the first bucket is the search without
/// bucketing), SplitMix64's output for `bucket` for the others (distinct and non-zero).
#[inline]
pub(crate) const fn halfmove_bucket_key(bucket: u16) -> u64 {
    if bucket == 0 {
        return 0;
    }
    let mut z = (bucket as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Whether `side` has a piece other than pawns and its king (null-move pruning is unsafe in
/// pawn endings, where zugzwang is common).
#[inline]
fn has_pieces(pos: &Position, side: Color) -> bool {
    (pos.by_color(side) & !(pos.by_role(Role::Pawn) | pos.by_role(Role::King))).is_not_empty()
}

/// Moves `i`'s best remaining move (highest key, the first of equals) to index `i`.
#[inline]
fn pick_next(moves: &mut [Move], keys: &mut [i32; MAX_MOVES], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    if best != i {
        moves.swap(i, best);
        keys.swap(i, best);
    }
}

/// Legal captures (en passant included) and queen promotions of a position not in check.
#[inline]
fn tactical_moves(pos: &Position, list: &mut MoveList) {
    let theirs = pos.by_color(pos.side_to_move().flip());
    let ep = pos.ep_square().map_or(Bitboard::EMPTY, |s| s.bb());
    pos.generate(|pm| {
        if pm.role != Role::Pawn {
            let to = pm.to & theirs;
            if to.is_not_empty() {
                pos.expand(PieceMoves { to, ..pm }, list);
            }
            return false;
        }
        for to in pm.to & (theirs | ep | PROMOTION_RANKS) {
            let capture = theirs.has(to);
            let kind = if PROMOTION_RANKS.has(to) {
                if capture {
                    MoveKind::CapturePromoteQueen
                } else {
                    MoveKind::PromoteQueen
                }
            } else if capture {
                MoveKind::Capture
            } else {
                MoveKind::EnPassant
            };
            list.push(Move::new(pm.from, to, kind));
        }
        false
    });
}

/// Appends the quiet, non-promoting legal moves that give check.
fn quiet_checks(pos: &Position, list: &mut MoveList) {
    let mut all = MoveList::new();
    pos.legal_moves_into(&mut all);
    for &m in all.iter() {
        if !m.is_capture() && m.promotion().is_none() && pos.play(m).is_check() {
            list.push(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halfmove_buckets_have_distinct_constants() {
        assert_eq!(halfmove_bucket_key(0), 0);
        let keys: Vec<u64> = (1..=64).map(halfmove_bucket_key).collect();
        for (i, a) in keys.iter().enumerate() {
            assert_ne!(*a, 0);
            assert!(
                keys[i + 1..].iter().all(|b| b != a),
                "bucket {} repeats",
                i + 1
            );
        }
    }

    #[test]
    fn halfmove_bucketing_changes_table_keys() {
        let low = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 3 40").unwrap();
        let high = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 91 80").unwrap();
        assert_eq!(
            low.key(),
            high.key(),
            "the clock is not part of the position key"
        );
        let plain = Searcher::new(replab_detect::Off, SearchConfig::default());
        assert_eq!(plain.tt_key(&low), plain.tt_key(&high));
        let bucketed = Searcher::new(
            replab_detect::Off,
            SearchConfig {
                tt_halfmove_bucket: Some(8),
                tt_bits: Some(4),
                ..SearchConfig::default()
            },
        );
        assert_eq!(bucketed.tt_key(&low), low.key(), "first bucket: plain key");
        assert_ne!(bucketed.tt_key(&high), high.key());
        assert_eq!(
            bucketed.tt_key(&high),
            high.key() ^ halfmove_bucket_key(91 / 8)
        );
    }
}
