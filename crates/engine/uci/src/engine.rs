//! The search thread: table jobs and `go` jobs, answered in order, each `go` with exactly one
//! `bestmove`.

use std::{
    sync::{
        Arc, Condvar, Mutex,
        atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering},
        mpsc,
    },
    thread,
    time::{Duration, Instant},
};

use replab_board::{Move, Position};
use replab_registry::with_detector;
use replab_search::{DynSearch, Iteration, Limits, Observer, Progress, SearchConfig, SharedTable};

use crate::{Out, options::tt_bits};

/// `info currmove` lines start once a search has run this long (Stockfish waits 3 s).
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);
/// The longest time between two `info` lines of a search (from its second iteration on).
pub const INFO_EVERY: Duration = Duration::from_secs(1);

/// A searcher for the detector `name` (upcoming-cycle rule from the config's policy) on
/// `table`.
fn build(
    name: &str,
    config: SearchConfig,
    table: &SharedTable,
) -> Result<Box<dyn DynSearch>, String> {
    let built = with_detector!(name, config.policy, |d| {
        replab_search::boxed_shared(d, config, table.clone()).map_err(|e| e.to_string())
    });
    built.map_err(|e| e.to_string())?
}

/// The two stop flags of one `go`.
#[derive(Clone, Default)]
pub(crate) struct Flags {
    /// Set by `stop`, `ponderhit` (of a ponder search that is not `infinite`), a later `go`,
    /// `quit` and the end of the input: `bestmove` of an `infinite` or `ponder` search waits
    /// for it.
    pub user: Arc<AtomicBool>,
    /// The search's stop flag ([`Limits::stop`]): set with `user` by `stop`, a later `go`,
    /// `quit`, the end of the input; at the time budget after `ponderhit`; when `go mate N` has
    /// found its mate.
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
    /// `Threads`: searching threads (the main one reports).
    pub threads: usize,
    /// `MultiPV`: lines to report.
    pub multipv: usize,
    /// Settings replaced because the options do not go together: one `info string` each.
    pub notes: Vec<String>,
    /// `debug on`: `info string` lines on what the engine does.
    pub debug: bool,
}

/// What the search thread does, in the order the commands came.
pub(crate) enum Job {
    /// Makes the table `hash_mb` MB (0: none), allocated and cleared, or clears it (`clear`):
    /// `setoption name Hash`, `Clear Hash`, `ucinewgame`; then (at `isready`) builds the
    /// searchers for `searchers` (detector, configuration, threads) unless they are built.
    /// Counted in [`TableJobs`] when done.
    Table {
        hash_mb: u32,
        clear: bool,
        searchers: Option<(String, SearchConfig, usize)>,
        debug: bool,
    },
    /// Search and answer `bestmove`.
    Search(Box<Search>),
    /// A `go` refused: `info string <reason>` and `bestmove 0000`, in turn with the others.
    Refuse(String),
}

/// The search thread's state.
struct Worker {
    out: Out,
    /// The engine's table (one slot, unused, for `Hash 0`) and its size in MB.
    table: SharedTable,
    hash_mb: u32,
    /// The searchers (the main one first) and what they were built for: the detector, the
    /// configuration without depth and node limit, the thread count.
    searchers: Vec<Box<dyn DynSearch>>,
    built_for: Option<(String, SearchConfig, usize)>,
    /// Table jobs done.
    done: Arc<TableJobs>,
}

/// How many table jobs the search thread has done: `readyok` waits for those sent before
/// `isready`.
#[derive(Default)]
pub(crate) struct TableJobs {
    done: Mutex<u64>,
    changed: Condvar,
}

impl TableJobs {
    /// Counts one more job done.
    fn one_done(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.changed.notify_all();
    }

    /// Whether `n` jobs are done.
    pub fn reached(&self, n: u64) -> bool {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) >= n
    }

    /// Counts every job as done (the search thread has ended): no `readyok` waits forever.
    pub fn all_done(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = u64::MAX;
        self.changed.notify_all();
    }

    /// Waits until `n` jobs are done.
    pub fn wait_for(&self, n: u64) {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        while *done < n {
            done = self.changed.wait(done).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// The search thread: answers every job in order, then ends when the channel closes.
pub(crate) fn search_thread(jobs: mpsc::Receiver<Job>, out: Out, done: Arc<TableJobs>) {
    let mut w = Worker {
        out,
        table: SharedTable::new(0),
        hash_mb: 0,
        searchers: Vec::new(),
        built_for: None,
        done,
    };
    for job in jobs {
        match job {
            Job::Table {
                hash_mb,
                clear,
                searchers,
                debug,
            } => {
                w.table_job(hash_mb, clear, debug);
                // A failure is reported at `go`, which tries again.
                if let Some((detector, config, threads)) = searchers {
                    let _ = w.searchers_for(&detector, config, threads, debug);
                }
                w.done.one_done();
            }
            Job::Refuse(reason) => {
                w.out.line(&format!("info string {reason}"));
                w.out.line("bestmove 0000");
            }
            Job::Search(job) => {
                for note in &job.notes {
                    w.out.line(&format!("info string {note}"));
                }
                let best = match w.searchers_for(&job.detector, job.config, job.threads, job.debug)
                {
                    Ok(()) => w.run(&job),
                    Err(e) => {
                        w.out.line(&format!("info string cannot search: {e}"));
                        None
                    }
                };
                finish(&w.out, &job, best);
                // The table is kept for the next search, unless what it holds would be wrong
                // there: a detector that keeps its marks in the table left the game's marks,
                // and with contempt the draw scores are from this root side's view. Cleared
                // now, before the next job, rather than at the next `go`.
                if job.config.tt_bits.is_some()
                    && (job.config.contempt != 0
                        || w.searchers.first().is_some_and(|s| s.in_search_table()))
                {
                    w.table.clear();
                    if job.debug {
                        w.out.line("info string table cleared after the search");
                    }
                }
            }
        }
    }
}

impl Worker {
    /// A table job: the new table (the old one freed first), or the table cleared.
    fn table_job(&mut self, hash_mb: u32, clear: bool, debug: bool) {
        if hash_mb != self.hash_mb {
            // Free the old table (and the searchers holding it) before allocating the new.
            self.searchers.clear();
            self.built_for = None;
            self.table = SharedTable::new(0);
            self.table = SharedTable::new(tt_bits(hash_mb).unwrap_or(0));
            self.hash_mb = hash_mb;
            if debug {
                self.out.line(&format!(
                    "info string Hash {hash_mb} MB: table of {} bytes allocated and cleared",
                    self.table.memory_bytes()
                ));
            }
        } else if clear {
            // A new game: the searchers' history, counter moves and table generation go too
            // (built again at the next `isready` or `go`).
            self.searchers.clear();
            self.built_for = None;
            self.table.clear();
            if debug {
                self.out
                    .line(&format!("info string Hash {hash_mb} MB: table cleared"));
            }
        }
    }

    /// Builds `threads` searchers for `detector` with `config` on the table, unless the
    /// current ones are those (depth and node limit aside).
    fn searchers_for(
        &mut self,
        detector: &str,
        config: SearchConfig,
        threads: usize,
        debug: bool,
    ) -> Result<(), String> {
        let base = SearchConfig {
            max_depth: 0,
            node_limit: None,
            ..config
        };
        let key = (detector.to_string(), base, threads);
        if self.built_for.as_ref() != Some(&key) {
            self.searchers.clear();
            self.built_for = None;
            for _ in 0..threads {
                self.searchers.push(build(detector, config, &self.table)?);
            }
            self.built_for = Some(key);
            if debug {
                self.out.line(&format!(
                    "info string searchers built: {threads} for {detector}"
                ));
            }
        }
        Ok(())
    }

    /// Runs the search of `job` on every thread, the main thread printing `info`; returns the
    /// best move and the principal variation it starts.
    fn run(&mut self, job: &Search) -> Option<(Move, Vec<Move>)> {
        let start = Instant::now();
        let helper_nodes: Arc<[AtomicU64]> = (1..job.threads).map(|_| AtomicU64::new(0)).collect();
        let report = Report {
            out: self.out.clone(),
            start,
            last_info: Arc::new(Mutex::new(start)),
            table: (job.config.tt_bits.is_some()).then(|| self.table.clone()),
            helper_nodes: helper_nodes.clone(),
            main_nodes: Arc::new(AtomicU64::new(0)),
            search_base: Arc::new(AtomicU64::new(0)),
            generation: Arc::new(AtomicU8::new(0)),
        };
        let limits = Limits {
            stop: Some(job.flags.search.clone()),
            deadline: job.deadline,
            root_moves: job.root_moves.clone(),
            observer: Some(report.observer()),
            ..Limits::default()
        };
        let helper_stop = Arc::new(AtomicBool::new(false));
        let (main, helpers) = self.searchers.split_first_mut()?;
        let best = thread::scope(|s| {
            for (i, h) in helpers.iter_mut().enumerate() {
                let nodes = helper_nodes.clone();
                let limits = Limits {
                    stop: Some(helper_stop.clone()),
                    deadline: job.deadline,
                    root_moves: job.root_moves.clone(),
                    observer: Some(Observer(Arc::new(move |p: &Progress| {
                        nodes[i].fetch_max(p.nodes, Ordering::Relaxed);
                    }))),
                    ..Limits::default()
                };
                let nodes = helper_nodes.clone();
                s.spawn(move || {
                    // Every other helper one ply ahead (Cheng's Lazy SMP).
                    h.set_first_depth(1 + (i as u32 + 1) % 2);
                    h.set_depth_and_nodes(job.config.max_depth, None);
                    let r = h.search_game_limited(&job.positions, &job.moves, &limits, &mut |_| {});
                    nodes[i].fetch_max(r.totals().nodes, Ordering::Relaxed);
                });
            }
            main.set_first_depth(1);
            main.set_depth_and_nodes(job.config.max_depth, job.config.node_limit);
            let best = if job.multipv > 1 {
                multi_pv(main.as_mut(), job, &limits, &report)
            } else {
                single_pv(main.as_mut(), job, &limits, &report)
            };
            helper_stop.store(true, Ordering::SeqCst);
            best
        });
        if job.debug {
            let mut s = format!(
                "info string threads {}: nodes {}",
                job.threads,
                report.main_nodes.load(Ordering::Relaxed)
            );
            for n in helper_nodes.iter() {
                s.push_str(&format!(" {}", n.load(Ordering::Relaxed)));
            }
            self.out.line(&s);
        }
        best
    }
}

/// What the main thread prints while it searches.
struct Report {
    out: Out,
    start: Instant,
    /// When the last `info` line with a node count was printed.
    last_info: Arc<Mutex<Instant>>,
    /// The table, for `hashfull` (`None`: no table).
    table: Option<SharedTable>,
    /// The helper threads' nodes so far.
    helper_nodes: Arc<[AtomicU64]>,
    /// The main thread's nodes in completed searches (several with `MultiPV`) and iterations.
    main_nodes: Arc<AtomicU64>,
    /// `main_nodes` when the main thread's current search started (its [`Progress::nodes`]
    /// count from there).
    search_base: Arc<AtomicU64>,
    /// The table generation of the main thread's search ([`Progress::generation`]).
    generation: Arc<AtomicU8>,
}

impl Report {
    /// Marks the start of a search of the main thread.
    fn search_starts(&self) {
        self.search_base
            .store(self.main_nodes.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    /// Nodes of every thread: the main thread's completed iterations, or (`running`) its
    /// current search's nodes so far, and the helpers'.
    fn nodes(&self, running: Option<u64>) -> u64 {
        let main = match running {
            Some(n) => self.search_base.load(Ordering::Relaxed) + n,
            None => self.main_nodes.load(Ordering::Relaxed),
        };
        main + self
            .helper_nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum::<u64>()
    }

    /// `nodes N nps R [hashfull H] time T` for `nodes` nodes now.
    fn counts(&self, nodes: u64) -> String {
        let ms = self.start.elapsed().as_millis() as u64;
        let nps = (nodes * 1000).checked_div(ms).unwrap_or(0);
        let mut s = format!("nodes {nodes} nps {nps}");
        if let Some(t) = &self.table {
            let generation = self.generation.load(Ordering::Relaxed);
            s.push_str(&format!(" hashfull {}", t.hashfull(generation)));
        }
        s.push_str(&format!(" time {ms}"));
        s
    }

    /// The main thread's observer: `info currmove` after [`CURRMOVE_AFTER`], and an `info`
    /// line with the counts when none came for [`INFO_EVERY`].
    fn observer(&self) -> Observer {
        let me = Report {
            out: self.out.clone(),
            start: self.start,
            last_info: self.last_info.clone(),
            table: self.table.clone(),
            helper_nodes: self.helper_nodes.clone(),
            main_nodes: self.main_nodes.clone(),
            search_base: self.search_base.clone(),
            generation: self.generation.clone(),
        };
        Observer(Arc::new(move |p: &Progress| {
            me.generation.store(p.generation, Ordering::Relaxed);
            if let Some((m, n)) = p.root_move {
                if me.start.elapsed() >= CURRMOVE_AFTER {
                    me.out.line(&format!(
                        "info depth {} currmove {} currmovenumber {n}",
                        p.depth,
                        m.uci()
                    ));
                }
                return;
            }
            let mut last = me.last_info.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= INFO_EVERY {
                *last = Instant::now();
                me.out.line(&format!(
                    "info depth {} seldepth {} {}",
                    p.depth,
                    p.seldepth,
                    me.counts(me.nodes(Some(p.nodes)))
                ));
            }
        }))
    }

    /// `info depth … seldepth … [multipv i] score … nodes … nps … [hashfull …] time … pv …` for
    /// a completed iteration (its nodes already counted in `main_nodes`).
    fn iteration(&self, it: &Iteration, multipv: Option<usize>) {
        *self.last_info.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        let mut s = format!("info depth {} seldepth {}", it.depth, it.seldepth);
        if let Some(i) = multipv {
            s.push_str(&format!(" multipv {i}"));
        }
        s.push_str(&format!(
            " score {} {}",
            it.score,
            self.counts(self.nodes(None))
        ));
        if !it.pv.is_empty() {
            s.push_str(" pv");
            for m in &it.pv {
                s.push(' ');
                s.push_str(&m.uci().to_string());
            }
        }
        self.out.line(&s);
    }
}

/// Whether `it` ends a `go mate N` search (a mate in at most `N` moves).
fn mate_found(job: &Search, it: &Iteration) -> bool {
    matches!((job.mate, it.score.mate_in()), (Some(n), Some(m)) if (1..=n as i32).contains(&m))
}

/// One line: the searcher's iterative deepening, `info` per iteration.
fn single_pv(
    searcher: &mut dyn DynSearch,
    job: &Search,
    limits: &Limits,
    report: &Report,
) -> Option<(Move, Vec<Move>)> {
    let mut on_iteration = |it: &Iteration| {
        report
            .main_nodes
            .fetch_add(it.counters.nodes, Ordering::Relaxed);
        report.iteration(it, None);
        if mate_found(job, it) {
            job.flags.search.store(true, Ordering::SeqCst);
        }
    };
    report.search_starts();
    let result =
        searcher.search_game_limited(&job.positions, &job.moves, limits, &mut on_iteration);
    if let Some(it) = result.last() {
        return it.best_move.map(|m| (m, it.pv.clone()));
    }
    // The node limit cut the first iteration: complete depth 1 without it (time and stop
    // never cut the first iteration).
    searcher.set_depth_and_nodes(1, None);
    let depth_one = Limits {
        root_moves: job.root_moves.clone(),
        ..Limits::default()
    };
    report.search_starts();
    let result =
        searcher.search_game_limited(&job.positions, &job.moves, &depth_one, &mut on_iteration);
    let it = result.last()?;
    it.best_move.map(|m| (m, it.pv.clone()))
}

/// `MultiPV` lines: at each depth, one search of that depth for the best line, then one more
/// for each further line with the earlier lines' first moves excluded at the root; the lines
/// of the deepest depth completed for every line are printed (best first) and the first one's
/// move is played.
fn multi_pv(
    searcher: &mut dyn DynSearch,
    job: &Search,
    limits: &Limits,
    report: &Report,
) -> Option<(Move, Vec<Move>)> {
    let root = job.positions.last().expect("a root");
    let allowed = root
        .legal_moves()
        .iter()
        .filter(|m| job.root_moves.is_empty() || job.root_moves.contains(m))
        .count();
    let lines_wanted = job.multipv.min(allowed.max(1));
    let mut best: Vec<Iteration> = Vec::new();
    let mut limits = limits.clone();
    'deepening: for depth in 1..=job.config.max_depth {
        let mut lines: Vec<Iteration> = Vec::with_capacity(lines_wanted);
        limits.excluded_root_moves.clear();
        for _ in 0..lines_wanted {
            let used = report.main_nodes.load(Ordering::Relaxed);
            // Depth 1 always completes; deeper searches share what is left of `go nodes`.
            let node_limit = match job.config.node_limit {
                Some(n) if depth > 1 => match n.checked_sub(used).filter(|&r| r > 0) {
                    Some(left) => Some(left),
                    None => break 'deepening,
                },
                _ => None,
            };
            searcher.set_first_depth(depth);
            searcher.set_depth_and_nodes(depth, node_limit);
            report.search_starts();
            let result =
                searcher.search_game_limited(&job.positions, &job.moves, &limits, &mut |it| {
                    report
                        .main_nodes
                        .fetch_add(it.counters.nodes, Ordering::Relaxed);
                });
            match result.last() {
                Some(it) if it.depth == depth && it.best_move.is_some() => {
                    limits.excluded_root_moves.extend(it.best_move);
                    lines.push(it.clone());
                }
                // Stopped: the lines of the depth before.
                _ => break 'deepening,
            }
        }
        lines.sort_by_key(|it| std::cmp::Reverse(it.score));
        for (i, it) in lines.iter().enumerate() {
            report.iteration(it, Some(i + 1));
        }
        let done = mate_found(job, &lines[0]);
        best = lines;
        if done {
            job.flags.search.store(true, Ordering::SeqCst);
            break;
        }
        if job.flags.search.load(Ordering::SeqCst)
            || job.deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
    }
    searcher.set_first_depth(1);
    let first = best.first()?;
    first.best_move.map(|m| (m, first.pv.clone()))
}

/// Prints `bestmove` (after `stop` for `infinite` and `ponder`): the search's move if it is
/// legal and allowed by `searchmoves`, else the first allowed legal move, else `0000` (no
/// legal move: checkmate or stalemate); with `ponder` and the principal variation's second
/// move when the search's move was played and that move is legal after it.
fn finish(out: &Out, job: &Search, best: Option<(Move, Vec<Move>)>) {
    if job.wait_for_stop {
        while !job.flags.user.load(Ordering::SeqCst) {
            thread::sleep(Duration::from_millis(1));
        }
    }
    let root = job.positions.last().expect("a root position");
    let allowed =
        |m: &Move| root.is_legal(*m) && (job.root_moves.is_empty() || job.root_moves.contains(m));
    let (searched, pv) = best.unzip();
    let legal = root.legal_moves();
    let chosen = searched
        .filter(allowed)
        .or_else(|| legal.iter().copied().find(allowed))
        .or_else(|| legal.iter().next().copied());
    match chosen {
        Some(m) => {
            let ponder = pv
                .filter(|pv| searched == Some(m) && pv.first() == Some(&m))
                .and_then(|pv| pv.get(1).copied())
                .filter(|&p| root.play(m).is_legal(p));
            match ponder {
                Some(p) => out.line(&format!("bestmove {} ponder {}", m.uci(), p.uci())),
                None => out.line(&format!("bestmove {}", m.uci())),
            }
        }
        None => {
            out.line("info string no legal move: bestmove 0000");
            out.line("bestmove 0000");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A `Write` into a shared buffer.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buffer {
        fn lines(&self) -> Vec<String> {
            let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
            text.lines().map(str::to_string).collect()
        }
    }

    /// A report whose search started `ago` and whose last `info` line came `ago` too.
    fn started(ago: Duration) -> (Report, Buffer) {
        let buffer = Buffer::default();
        let then = Instant::now().checked_sub(ago).unwrap();
        let report = Report {
            out: Out(Arc::new(Mutex::new(Box::new(buffer.clone())))),
            start: then,
            last_info: Arc::new(Mutex::new(then)),
            table: Some(SharedTable::new(4)),
            helper_nodes: Arc::from([AtomicU64::new(5)]),
            main_nodes: Arc::new(AtomicU64::new(100)),
            search_base: Arc::new(AtomicU64::new(100)),
            generation: Arc::new(AtomicU8::new(0)),
        };
        (report, buffer)
    }

    fn progress(root_move: Option<(Move, u32)>) -> Progress {
        Progress {
            depth: 7,
            seldepth: 12,
            nodes: 50,
            root_move,
            generation: 0,
        }
    }

    #[test]
    fn an_info_line_at_least_once_a_second_during_an_iteration() {
        let (report, buffer) = started(Duration::from_secs(2));
        let observe = report.observer();
        // A second without an info line: one now, with every thread's nodes so far.
        (observe.0)(&progress(None));
        let lines = buffer.lines();
        assert_eq!(lines.len(), 1);
        assert!(
            lines[0].starts_with("info depth 7 seldepth 12 nodes 155 nps ")
                && lines[0].contains(" hashfull 0 time "),
            "{lines:?}"
        );
        // Not again before the next second.
        (observe.0)(&progress(None));
        assert_eq!(buffer.lines().len(), 1);
        // An iteration's line counts as one too.
        let (report, buffer) = started(Duration::from_secs(2));
        let observe = report.observer();
        let it = Iteration {
            depth: 6,
            best_move: None,
            score: replab_search::Score(0),
            pv: Vec::new(),
            counters: Default::default(),
            seldepth: 9,
            time_ms: 0.0,
        };
        report.iteration(&it, None);
        (observe.0)(&progress(None));
        assert_eq!(buffer.lines().len(), 1, "{:?}", buffer.lines());
    }

    #[test]
    fn currmove_after_a_second_of_search() {
        let e2e4 = replab_board::Position::startpos()
            .parse_uci("e2e4")
            .unwrap();
        let (report, buffer) = started(Duration::from_millis(0));
        (report.observer().0)(&progress(Some((e2e4, 3))));
        assert!(buffer.lines().is_empty());
        let (report, buffer) = started(Duration::from_secs(2));
        (report.observer().0)(&progress(Some((e2e4, 3))));
        assert_eq!(
            buffer.lines(),
            ["info depth 7 currmove e2e4 currmovenumber 3"]
        );
    }
}
