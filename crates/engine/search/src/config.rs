//! How the searcher searches: [`SearchConfig`] with its profiles, the table and extension
//! modes, the time and stop [`Limits`] of a UCI search, and whether a detector can run with a
//! configuration ([`check_setup`]).

use std::{
    sync::{Arc, atomic::AtomicBool},
    time::{Duration, Instant},
};

use replab_board::Move;
use replab_detect::{Detector, DrawPolicy};

#[cfg(doc)]
use crate::{Searcher, TableStats};
use crate::{eval::Eval, score::MAX_PLY};

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
    /// `Some(20)` (16 MiB). The paper profile clears the table at the start of every search
    /// and keeps it across its iterations; the engine profile keeps it across searches too
    /// (see [`Profile::Engine`]). Table scores are path dependent where repetition draws are involved: a
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
    /// How the searcher searches: [`Profile::Paper`] (the fixed-depth search every tree-count
    /// experiment uses, the default) or [`Profile::Engine`] (a modern engine's selective
    /// search and a table kept across the moves of a game). Missing from older JSON: `Paper`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub profile: Profile,
}

/// The two ways the one searcher searches ([`SearchConfig::profile`]).
///
/// With the `serde` feature it serialises by its [name](Profile::name) (`"paper"`,
/// `"engine"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum Profile {
    /// The paper's searcher: iterative deepening, PVS alpha-beta, null move, check extension,
    /// quiescence, a table cleared before every search. Every reproduction, study, suite and
    /// tree-count experiment uses it; its counters are a contract. The default.
    #[default]
    Paper,
    /// A modern alpha-beta engine (see the crate README, *Engine profile*): aspiration
    /// windows, late-move reductions and pruning, adaptive null move, reverse futility and
    /// futility pruning, SEE, history and counter-move ordering, and a transposition table with
    /// aging that persists across the searches of one game (cleared by
    /// [`crate::Searcher::clear_hash`]). Repetitions go through the detector and the draw
    /// policy exactly as in the paper profile.
    Engine,
}

impl Profile {
    /// Both profiles, in declaration order.
    pub const ALL: [Profile; 2] = [Profile::Paper, Profile::Engine];

    /// The kebab-case name, as serialised: `paper`, `engine`.
    pub const fn name(self) -> &'static str {
        match self {
            Profile::Paper => "paper",
            Profile::Engine => "engine",
        }
    }

    /// The profile of a [name](Profile::name).
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }
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
    pub(crate) fn ply_limit(self, depth: u32) -> usize {
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
            profile: Profile::Paper,
        }
    }
}

impl SearchConfig {
    /// The engine profile ([`Profile::Engine`]) as `replab uci`, `replab match` and
    /// `replab elo` play it: depth up to [`MAX_PLY`] − 8 (a node or time limit ends the search
    /// first), policy [`DrawPolicy::Twofold`] and contempt 0 (the UCI options change them),
    /// null move on, a 2^20-entry table ([`TtMode::On`]), check extensions to the twice-depth
    /// limit, no quiet checks in quiescence, evaluation [`Eval::Tapered`].
    pub fn engine() -> SearchConfig {
        SearchConfig {
            max_depth: (MAX_PLY - 8) as u32,
            eval: Eval::Tapered,
            profile: Profile::Engine,
            ..SearchConfig::default()
        }
    }

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
            profile: Profile::Paper,
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
    /// Search only these moves at the root (UCI `go searchmoves`); empty, or no legal move
    /// among them: every legal move. Unlike the other limits it does not make the search
    /// depend on timing.
    pub root_moves: Vec<Move>,
    /// Never search these moves at the root (UCI `MultiPV`: the lines after the first are
    /// searched again without the better lines' first moves); when they would leave no move,
    /// every move stays. Like `root_moves` it does not make the search depend on timing. A
    /// root that either field takes a move from stores nothing for the root in the table (its
    /// score holds for the moves searched only).
    pub excluded_root_moves: Vec<Move>,
    /// Called during the search with its [`Progress`]: at the start of every root move, and at
    /// every look at the limits (every [`POLL_NODES`] nodes from the second iteration on). UCI
    /// `info currmove` and the `info` lines during a long iteration. It sees the search; it
    /// changes nothing in it (the counters, moves and scores are those of the same search
    /// without it).
    pub observer: Option<Observer>,
}

/// A search in progress, as [`Limits::observer`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The iteration being searched.
    pub depth: u32,
    /// The deepest ply entered so far in this iteration (quiescence included; the root is 0).
    pub seldepth: u32,
    /// Nodes entered so far in the whole search (every iteration).
    pub nodes: u64,
    /// At the start of a root move: the move and its number in the root's search order (from
    /// 1); `None` at the periodic calls.
    pub root_move: Option<(Move, u32)>,
    /// The search's table generation (engine profile; 0 in the paper profile), for
    /// [`crate::SharedTable::hashfull`].
    pub generation: u8,
}

/// The callback of [`Limits::observer`].
#[derive(Clone)]
pub struct Observer(pub Arc<dyn Fn(&Progress) + Send + Sync>);

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}

impl Limits {
    /// The effective deadline of a search started at `start`.
    pub(crate) fn deadline_from(&self, start: Instant) -> Option<Instant> {
        let by_movetime = self.movetime.map(|t| start + t);
        match (by_movetime, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether no limit is set.
    pub(crate) fn is_empty(&self) -> bool {
        self.stop.is_none()
            && self.movetime.is_none()
            && self.deadline.is_none()
            && self.observer.is_none()
    }
}

/// How often, in nodes, the searcher looks at the [`Limits`] (stop flag and clock).
pub const POLL_NODES: u64 = 1024;

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
