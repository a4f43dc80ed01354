#![doc = include_str!("../README.md")]

mod options;
mod parse;

use std::{
    io::{BufRead, Write},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
    thread,
    time::{Duration, Instant},
};

use replab_board::{Move, Position};
use replab_registry::with_detector;
use replab_search::{Iteration, Limits, SearchConfig, SearchResult, Searcher};

pub use options::{DEFAULT_DETECTOR, Options};
pub use parse::{Go, parse_go, parse_position};

/// The engine's name as `id name` gives it: `replab <version>`.
pub const ENGINE_NAME: &str = concat!("replab ", env!("CARGO_PKG_VERSION"));

/// The deepest iteration a search without `depth` runs to.
pub const MAX_DEPTH: u32 = 64;

/// The output, shared by the command loop and the search thread; every line is flushed.
#[derive(Clone)]
struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed output (the GUI went away) is not an error worth crashing for.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

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

/// Whether the searcher accepts `detector` with `config` (the registry's policy check and the
/// searcher's setup check), or the reason it does not.
pub fn check(detector: &str, config: &SearchConfig) -> Result<(), String> {
    replab_registry::check_policy(detector, config.policy).map_err(|e| e.to_string())?;
    let setup = with_detector!(detector, config.policy, |d| {
        replab_search::check_setup(&d, config).map_err(|e| e.to_string())
    });
    setup.map_err(|e| e.to_string())?
}

/// One search for the search thread.
struct Job {
    positions: Vec<Position>,
    moves: Vec<Move>,
    detector: String,
    config: SearchConfig,
    limits: Limits,
    /// `go infinite`: `bestmove` waits for `stop` even if the search ends first.
    infinite: bool,
    clear_hash: bool,
}

/// The search thread: keeps one searcher, rebuilt when the detector or policy changes.
fn search_thread(jobs: mpsc::Receiver<Job>, out: Out, busy: Arc<AtomicBool>) {
    let mut current: Option<(String, SearchConfig, Box<dyn DynSearcher>)> = None;
    for job in jobs {
        let reuse = matches!(&current, Some((d, c, _)) if *d == job.detector && c.policy == job.config.policy);
        if !reuse {
            current = None; // free the old table first
            match build(&job.detector, job.config) {
                Ok(s) => current = Some((job.detector.clone(), job.config, s)),
                Err(e) => {
                    out.line(&format!("info string cannot search: {e}"));
                    finish(&out, &job, None, &busy);
                    continue;
                }
            }
        }
        let Some((_, config, searcher)) = current.as_mut() else {
            continue;
        };
        if *config != job.config {
            if let Err(e) = searcher.set_config(job.config) {
                out.line(&format!("info string cannot search: {e}"));
                finish(&out, &job, None, &busy);
                continue;
            }
            *config = job.config;
        }
        if job.clear_hash {
            searcher.clear_hash();
        }
        let start = Instant::now();
        let mut nodes = 0u64;
        let result = searcher.search(&job.positions, &job.moves, &job.limits, &mut |it| {
            nodes += it.counters.nodes;
            out.line(&info_line(it, nodes, start.elapsed()));
        });
        finish(&out, &job, result.best_move(), &busy);
    }
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

/// Prints `bestmove` (after `stop` for `go infinite`): the search's move, else the first legal
/// move (a node limit that cut the first iteration), else `0000`.
fn finish(out: &Out, job: &Job, best: Option<Move>, busy: &AtomicBool) {
    if job.infinite
        && let Some(stop) = &job.limits.stop
    {
        while !stop.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(2));
        }
    }
    let root = job.positions.last().expect("a root position");
    let best = best.or_else(|| root.legal_moves().iter().next().copied());
    busy.store(false, Ordering::SeqCst);
    match best {
        Some(m) => out.line(&format!("bestmove {}", m.uci())),
        None => out.line("bestmove 0000"),
    }
}

/// Runs the UCI protocol: commands from `input`, one per line, answers to `output`, until
/// `quit` or the end of the input (which also stops a running search and waits for its
/// `bestmove`). Never panics on bad input: unknown or malformed commands are ignored or
/// answered with `info string …`.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) {
    let out = Out(Arc::new(Mutex::new(Box::new(output))));
    let busy = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Job>();
    let worker = {
        let out = out.clone();
        let busy = busy.clone();
        thread::spawn(move || search_thread(rx, out, busy))
    };
    let mut options = Options::default();
    let mut positions = vec![Position::startpos()];
    let mut moves: Vec<Move> = Vec::new();
    let mut stop = Arc::new(AtomicBool::new(false));
    let mut clear_hash = false;
    for line in input.lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            continue;
        };
        let rest = &words[1..];
        match command {
            "uci" => {
                out.line(&format!("id name {ENGINE_NAME}"));
                out.line("id author the replab authors");
                for o in options::declarations() {
                    out.line(&o);
                }
                out.line("uciok");
            }
            "isready" => out.line("readyok"),
            "debug" | "register" | "ponderhit" => {}
            "ucinewgame" => clear_hash = true,
            "setoption" => match options.set(rest) {
                Ok(None) => {}
                Ok(Some(note)) => out.line(&format!("info string {note}")),
                Err(e) => out.line(&format!("info string {e}")),
            },
            "position" => match parse_position(rest) {
                Ok((p, m)) => {
                    positions = p;
                    moves = m;
                }
                Err(e) => out.line(&format!("info string {e}")),
            },
            "go" => {
                if busy.load(Ordering::SeqCst) {
                    out.line("info string already searching; go ignored");
                    continue;
                }
                let go = match parse_go(rest) {
                    Ok(go) => go,
                    Err(e) => {
                        out.line(&format!("info string {e}"));
                        continue;
                    }
                };
                stop = Arc::new(AtomicBool::new(false));
                let side = positions.last().expect("root").side_to_move();
                let mut config = options.config();
                config.max_depth = go.depth.unwrap_or(MAX_DEPTH);
                config.node_limit = go.nodes;
                let limits = Limits {
                    stop: Some(stop.clone()),
                    movetime: go.budget(side),
                    deadline: None,
                };
                busy.store(true, Ordering::SeqCst);
                let job = Job {
                    positions: positions.clone(),
                    moves: moves.clone(),
                    detector: options.detector.clone(),
                    config,
                    limits,
                    infinite: go.infinite,
                    clear_hash: std::mem::take(&mut clear_hash),
                };
                if tx.send(job).is_err() {
                    break;
                }
            }
            "stop" => stop.store(true, Ordering::SeqCst),
            "quit" => break,
            other => out.line(&format!("info string unknown command {other}")),
        }
    }
    stop.store(true, Ordering::SeqCst);
    drop(tx);
    let _ = worker.join();
}
