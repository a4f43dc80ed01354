//! The search thread: one job per `go`, answered in order, each with exactly one `bestmove`.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
    thread,
    time::{Duration, Instant},
};

use replab_board::{Move, Position};
use replab_registry::with_detector;
use replab_search::{Iteration, Limits, SearchConfig, SearchResult, Searcher};

use crate::Out;

/// A searcher for some detector, behind one object-safe interface so the engine can switch
/// detectors at run time while each detector keeps its own compiled search.
trait DynSearcher: Send {
    fn search(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult;
    fn set_config(&mut self, config: SearchConfig) -> Result<(), String>;
    fn clear_hash(&mut self);
}

impl<D: replab_registry::Detector + Send> DynSearcher for Searcher<D> {
    fn search(
        &mut self,
        positions: &[Position],
        moves: &[Move],
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.search_game_limited(positions, moves, limits, on_iteration)
    }
    fn set_config(&mut self, config: SearchConfig) -> Result<(), String> {
        Searcher::set_config(self, config).map_err(|e| e.to_string())
    }
    fn clear_hash(&mut self) {
        Searcher::clear_hash(self)
    }
}

/// A searcher for the detector `name` (upcoming-cycle rule from the config's policy).
fn build(name: &str, config: SearchConfig) -> Result<Box<dyn DynSearcher>, String> {
    let built = with_detector!(name, config.policy, |d| {
        Searcher::try_new(d, config)
            .map(|s| Box::new(s) as Box<dyn DynSearcher>)
            .map_err(|e| e.to_string())
    });
    built.map_err(|e| e.to_string())?
}

/// The two stop flags of one `go`.
#[derive(Clone, Default)]
pub(crate) struct Flags {
    /// Set by `stop`, `ponderhit` (of a ponder search), a later `go`, `quit` and the end of
    /// the input: `bestmove` of an `infinite` or `ponder` search waits for it.
    pub user: Arc<AtomicBool>,
    /// The search's stop flag ([`Limits::stop`]): set with `user`, and also when `go mate N`
    /// has found its mate.
    pub search: Arc<AtomicBool>,
}

impl Flags {
    /// Stops the search and releases its `bestmove`.
    pub fn stop(&self) {
        self.search.store(true, Ordering::SeqCst);
        self.user.store(true, Ordering::SeqCst);
    }
}

/// One accepted `go`.
pub(crate) struct Search {
    pub positions: Vec<Position>,
    pub moves: Vec<Move>,
    pub detector: String,
    pub config: SearchConfig,
    /// The search's deadline (from the time manager), counted from when `go` was read.
    pub deadline: Option<Instant>,
    /// `searchmoves` (empty: all).
    pub root_moves: Vec<Move>,
    /// `go mate N`: stop after an iteration that finds a mate in at most `N` moves.
    pub mate: Option<u32>,
    /// `infinite` or `ponder`: `bestmove` waits for [`Flags::user`].
    pub wait_for_stop: bool,
    pub flags: Flags,
    /// `ucinewgame` came before this search.
    pub clear_hash: bool,
}

/// What the search thread does, in the order the `go` commands came.
pub(crate) enum Job {
    /// Search and answer `bestmove`.
    Search(Box<Search>),
    /// A `go` refused: `info string <reason>` and `bestmove 0000`, in turn with the others.
    Refuse(String),
}

/// The search thread's searcher, rebuilt when the detector or policy changes.
type Current = Option<(String, SearchConfig, Box<dyn DynSearcher>)>;

/// The search thread: answers every job in order, then ends when the channel closes.
pub(crate) fn search_thread(jobs: mpsc::Receiver<Job>, out: Out) {
    let mut current: Current = None;
    for job in jobs {
        match job {
            Job::Refuse(reason) => {
                out.line(&format!("info string {reason}"));
                out.line("bestmove 0000");
            }
            Job::Search(job) => {
                let best = match searcher_for(&mut current, &job) {
                    Ok(searcher) => run(searcher, &job, &out),
                    Err(e) => {
                        out.line(&format!("info string cannot search: {e}"));
                        None
                    }
                };
                finish(&out, &job, best);
            }
        }
    }
}

/// The searcher for `job`: the current one (with the job's config), or a new one.
fn searcher_for<'a>(
    current: &'a mut Current,
    job: &Search,
) -> Result<&'a mut dyn DynSearcher, String> {
    let reuse =
        matches!(current, Some((d, c, _)) if *d == job.detector && c.policy == job.config.policy);
    if !reuse {
        *current = None; // free the old table first
        *current = Some((
            job.detector.clone(),
            job.config,
            build(&job.detector, job.config)?,
        ));
    }
    let (_, config, searcher) = current.as_mut().expect("just built");
    if *config != job.config {
        searcher.set_config(job.config)?;
        *config = job.config;
    }
    if job.clear_hash {
        searcher.clear_hash();
    }
    Ok(searcher.as_mut())
}

/// Runs the search of `job`, printing `info` per iteration; returns the best move.
fn run(searcher: &mut dyn DynSearcher, job: &Search, out: &Out) -> Option<Move> {
    let start = Instant::now();
    let mut nodes = 0u64;
    let limits = Limits {
        stop: Some(job.flags.search.clone()),
        deadline: job.deadline,
        root_moves: job.root_moves.clone(),
        ..Limits::default()
    };
    let mut on_iteration = |it: &Iteration| {
        nodes += it.counters.nodes;
        out.line(&info_line(it, nodes, start.elapsed()));
        if let (Some(n), Some(m)) = (job.mate, it.score.mate_in())
            && (1..=n as i32).contains(&m)
        {
            job.flags.search.store(true, Ordering::SeqCst);
        }
    };
    let result = searcher.search(&job.positions, &job.moves, &limits, &mut on_iteration);
    if !result.iterations.is_empty() {
        return result.best_move();
    }
    // The node limit cut the first iteration: complete depth 1 without it (time and stop
    // never cut the first iteration).
    let config = SearchConfig {
        max_depth: 1,
        node_limit: None,
        ..job.config
    };
    if searcher.set_config(config).is_err() {
        return None;
    }
    let depth_one = Limits {
        root_moves: job.root_moves.clone(),
        ..Limits::default()
    };
    let result = searcher.search(&job.positions, &job.moves, &depth_one, &mut on_iteration);
    let _ = searcher.set_config(job.config);
    result.best_move()
}

/// `info depth … score … nodes … nps … time … pv …` for a completed iteration; `nodes` is the
/// search's total so far.
fn info_line(it: &Iteration, nodes: u64, elapsed: Duration) -> String {
    let ms = elapsed.as_millis() as u64;
    let nps = (nodes * 1000).checked_div(ms).unwrap_or(0);
    let mut s = format!(
        "info depth {} score {} nodes {nodes} nps {nps} time {ms}",
        it.depth, it.score
    );
    if !it.pv.is_empty() {
        s.push_str(" pv");
        for m in &it.pv {
            s.push(' ');
            s.push_str(&m.uci().to_string());
        }
    }
    s
}

/// Prints `bestmove` (after `stop` for `infinite` and `ponder`): the search's move if it is
/// legal and allowed by `searchmoves`, else the first allowed legal move, else `0000` (no
/// legal move: checkmate or stalemate).
fn finish(out: &Out, job: &Search, best: Option<Move>) {
    if job.wait_for_stop {
        while !job.flags.user.load(Ordering::SeqCst) {
            thread::sleep(Duration::from_millis(1));
        }
    }
    let root = job.positions.last().expect("a root position");
    let allowed =
        |m: &Move| root.is_legal(*m) && (job.root_moves.is_empty() || job.root_moves.contains(m));
    let legal = root.legal_moves();
    let best = best
        .filter(allowed)
        .or_else(|| legal.iter().copied().find(allowed))
        .or_else(|| legal.iter().next().copied());
    match best {
        Some(m) => out.line(&format!("bestmove {}", m.uci())),
        None => {
            out.line("info string no legal move: bestmove 0000");
            out.line("bestmove 0000");
        }
    }
}
