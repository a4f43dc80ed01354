#![doc = include_str!("../README.md")]

pub mod client;
mod engine;
mod options;
mod parse;
pub mod time;
pub mod transcript;

use std::{
    borrow::Cow,
    io::{BufRead, ErrorKind, Write},
    sync::{Arc, Mutex, atomic::Ordering, mpsc},
    thread,
    time::Instant,
};

use engine::{Flags, Job, Search, TableJobs};
use replab_search::SearchConfig;

pub use engine::{CURRMOVE_AFTER, INFO_EVERY};
pub use options::{
    Action, DEFAULT_DETECTOR, DEFAULT_POLICY, Effective, MULTIPV_MAX, Options, THREADS_MAX,
};
pub use parse::{Go, Setup, parse_go, parse_position};

/// The engine's name as `id name` gives it: `replab <version>`.
pub const ENGINE_NAME: &str = concat!("replab ", env!("CARGO_PKG_VERSION"));

/// The deepest iteration a search without `depth` runs to.
pub const MAX_DEPTH: u32 = 64;

/// The commands the engine knows (a line's words before the first of them are skipped, as
/// the UCI protocol asks).
const COMMANDS: [&str; 12] = [
    "uci",
    "isready",
    "debug",
    "register",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
];

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

/// Everything the command loop keeps between commands.
struct Engine {
    out: Out,
    jobs: mpsc::Sender<Job>,
    options: Options,
    /// The last `position` command's setup, or why it failed (then `go` is refused).
    setup: Result<Setup, String>,
    /// The flags of the last accepted `go` (stopping a finished search is harmless).
    flags: Flags,
    /// The last accepted `go` if it was `go ponder`, with when it was read, its side to move
    /// and overhead (for `ponderhit`).
    pondering: Option<(Go, replab_board::Color)>,
    /// The table size (MB) last sent to the search thread, and the searchers it has built
    /// (detector, configuration at depth 64 without node limit, threads) as far as known.
    hash_mb: u32,
    built: Option<(String, SearchConfig, usize)>,
    /// Table jobs sent, and done by the search thread.
    sent: u64,
    done: Arc<TableJobs>,
    /// The threads that print `readyok` once the table jobs before their `isready` are done.
    ready: Vec<thread::JoinHandle<()>>,
    /// `debug on`.
    debug: bool,
}

/// Runs the UCI protocol: commands from `input`, one per line, answers to `output`, until
/// `quit` or the end of the input (both stop a running search, which still answers its
/// `bestmove`). Input is read as bytes and decoded lossily; nothing in it ends the engine or
/// makes it panic: bad commands are answered with `info string …` (docs/contracts.md, UCI).
pub fn run(mut input: impl BufRead, output: impl Write + Send + 'static) {
    let out = Out(Arc::new(Mutex::new(Box::new(output))));
    let (tx, rx) = mpsc::channel::<Job>();
    let done = Arc::new(TableJobs::default());
    let worker = {
        let (out, done) = (out.clone(), done.clone());
        thread::spawn(move || engine::search_thread(rx, out, done))
    };
    let mut engine = Engine {
        out,
        jobs: tx,
        options: Options::default(),
        setup: Ok(Setup::startpos()),
        flags: Flags::default(),
        pondering: None,
        hash_mb: 0,
        built: None,
        sent: 0,
        done,
        ready: Vec::new(),
        debug: false,
    };
    // The default table, allocated before the first `readyok`.
    engine.table_job(false, false);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                engine
                    .out
                    .line(&format!("info string cannot read input: {e}"));
                break;
            }
        }
        let line = String::from_utf8_lossy(&bytes);
        if let Cow::Owned(_) = line {
            engine
                .out
                .line("info string input is not valid UTF-8: read with U+FFFD for the bad bytes");
        }
        if !engine.command(&line) {
            break;
        }
    }
    engine.flags.stop();
    drop(engine.jobs);
    let _ = worker.join();
    // The search thread did every table job (or ended early): every `readyok` goes out.
    engine.done.all_done();
    for h in engine.ready {
        let _ = h.join();
    }
}

impl Engine {
    /// Carries out one input line; false for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().position(|w| COMMANDS.contains(w)) else {
            if let Some(first) = words.first() {
                self.info(&format!("unknown command {first}"));
            }
            return true;
        };
        if at > 0 {
            self.info(&format!("skipped unknown words before {}", words[at]));
        }
        let rest = &words[at + 1..];
        match words[at] {
            "uci" => self.identify(),
            "isready" => {
                // The options as they stand, judged together (as `go` will judge them).
                for note in self.options.effective().notes {
                    self.info(&format!("options: {note}"));
                }
                self.table_job(false, true);
                // After every table job sent before it, without holding up the commands
                // after it (`stop` must get through while a search runs ahead of a table job).
                let sent = self.sent;
                if self.done.reached(sent) {
                    self.out.line("readyok");
                } else {
                    let (out, done) = (self.out.clone(), self.done.clone());
                    self.ready.retain(|h| !h.is_finished());
                    self.ready.push(thread::spawn(move || {
                        done.wait_for(sent);
                        out.line("readyok");
                    }));
                }
            }
            "debug" => match rest.first().copied() {
                Some("on") => self.debug = true,
                Some("off") => self.debug = false,
                _ => self.info("debug needs on or off"),
            },
            "register" => {}
            "ucinewgame" => self.table_job(true, false),
            "setoption" => match self.options.set(rest) {
                Ok(Action::None) => self.table_job(false, false),
                Ok(Action::ClearHash) => self.table_job(true, false),
                Err(note) => self.info(&note),
            },
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => self.flags.stop(),
            "ponderhit" => self.ponderhit(),
            "d" => match &self.setup {
                Ok(s) => self.info(&format!("position fen {}", s.root().fen())),
                Err(e) => self.info(&format!("no position: {e}")),
            },
            _ => return false, // quit
        }
        true
    }

    /// Sends the search thread a table job when the table size in effect changed (allocated
    /// and cleared there), `clear` asks for a cleared table, or (`searchers`, at `isready`)
    /// the searchers in effect are not built yet; `isready` answers after it, so `go` finds
    /// everything ready.
    fn table_job(&mut self, clear: bool, searchers: bool) {
        let e = self.options.effective();
        let key = (
            e.detector,
            SearchConfig {
                max_depth: MAX_DEPTH,
                ..e.config
            },
            e.threads,
        );
        if e.hash_mb != self.hash_mb || clear {
            // A new or cleared table: the search thread drops the searchers.
            self.built = None;
        }
        let build = searchers && self.built.as_ref() != Some(&key);
        if e.hash_mb == self.hash_mb && !clear && !build {
            return;
        }
        self.hash_mb = e.hash_mb;
        if build {
            self.built = Some(key.clone());
        }
        self.sent += 1;
        let _ = self.jobs.send(Job::Table {
            hash_mb: e.hash_mb,
            clear,
            searchers: build.then_some(key),
            debug: self.debug,
        });
    }

    /// `ponderhit`: the ponder search goes on as a normal search of the same `go`, its time
    /// budget counted from now; an `infinite` one still waits for `stop`.
    fn ponderhit(&mut self) {
        let Some((go, side)) = self.pondering.take() else {
            return;
        };
        if go.infinite {
            return;
        }
        let normal = Go {
            ponder: false,
            ..go
        };
        if let Some(budget) = time::budget(&normal, side, self.options.move_overhead) {
            let stop = self.flags.search.clone();
            thread::spawn(move || {
                thread::sleep(budget);
                stop.store(true, Ordering::SeqCst);
            });
        }
        self.flags.user.store(true, Ordering::SeqCst);
    }

    fn info(&self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }

    /// The answer to `uci`.
    fn identify(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line("id author the replab authors");
        for o in options::declarations() {
            self.out.line(&o);
        }
        self.out.line("uciok");
    }

    /// `position`: the new setup, or no position (until the next valid `position`).
    fn position(&mut self, words: &[&str]) {
        self.setup = parse_position(words);
        match &self.setup {
            Ok(Setup { cut: None, .. }) => {}
            Ok(s @ Setup { cut: Some(why), .. }) => self.info(&format!(
                "position: {why}; kept the position after {} moves: fen {}",
                s.moves.len(),
                s.root().fen()
            )),
            Err(e) => self.info(&format!(
                "position refused: {e}; no position until the next valid position command"
            )),
        }
    }

    /// `go`: stops the running search (it answers first), then queues this one's answer.
    fn go(&mut self, words: &[&str]) {
        let received = Instant::now();
        self.flags.stop();
        self.flags = Flags::default();
        self.pondering = None;
        let job = match self.search(words, received) {
            Ok(search) => Job::Search(Box::new(search)),
            Err(reason) => Job::Refuse(format!("go refused: {reason}")),
        };
        let _ = self.jobs.send(job);
    }

    /// The search of an accepted `go`, or why it is refused.
    fn search(&mut self, words: &[&str], received: Instant) -> Result<Search, String> {
        let setup = self
            .setup
            .as_ref()
            .map_err(|e| format!("no position ({e})"))?;
        let root = setup.root();
        let go = parse_go(words, root)?;
        let effective = self.options.effective();
        let mut config: SearchConfig = effective.config;
        let mate_depth = go.mate.map(|n| (2 * n).saturating_sub(1).max(1));
        config.max_depth = [go.depth, mate_depth]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(MAX_DEPTH)
            .min(MAX_DEPTH);
        config.node_limit = go.nodes;
        let budget = time::budget(&go, root.side_to_move(), self.options.move_overhead);
        if go.ponder {
            self.pondering = Some((go.clone(), root.side_to_move()));
        }
        // This search builds its searchers if they are not built: `isready` need not.
        self.built = Some((
            effective.detector.clone(),
            SearchConfig {
                max_depth: MAX_DEPTH,
                node_limit: None,
                ..config
            },
            effective.threads,
        ));
        Ok(Search {
            positions: setup.positions.clone(),
            moves: setup.moves.clone(),
            detector: effective.detector,
            config,
            deadline: budget.map(|b| received + b),
            root_moves: go.searchmoves,
            mate: go.mate,
            wait_for_stop: go.infinite || go.ponder,
            flags: self.flags.clone(),
            threads: effective.threads,
            multipv: self.options.multipv as usize,
            notes: effective.notes,
            debug: self.debug,
        })
    }
}

/// Whether the searcher accepts `detector` with `config` (the registry's policy check and the
/// searcher's setup check), or the reason it does not.
pub fn check(detector: &str, config: &SearchConfig) -> Result<(), String> {
    replab_registry::check_policy(detector, config.policy).map_err(|e| e.to_string())?;
    let setup = replab_registry::with_detector!(detector, config.policy, |d| {
        replab_search::check_setup(&d, config).map_err(|e| e.to_string())
    });
    setup.map_err(|e| e.to_string())?
}
