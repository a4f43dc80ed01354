//! Deterministic instruction counts under valgrind's callgrind: what a detector costs, in
//! instructions rather than in times that vary ±5–20% from run to run on a shared machine.
//!
//! A *workload* is one deterministic piece of work, run in a child process (`replab measure
//! <workload>`, a hidden subcommand) under `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect=*replab_measured_workload*`: callgrind counts only the instructions executed
//! while [`replab_measured_workload`] is on the stack, so process start, argument parsing,
//! building the scenario, allocating the searcher and printing are all left out. The child then
//! prints one JSON line with what the work did (nodes searched, cycles run), and the parent
//! divides. One child can run several workloads (`replab measure <workload>…`): callgrind
//! dumps its counts as each one returns, one part file per workload, and valgrind's start
//! (most of a cycle workload's time under it) is paid once. [`measure`] runs the cycles so,
//! and each search in a child of its own. The workloads ([`Workload`]):
//!
//! - `search:<detector>:<position>:<depth>`: one whole iterative-deepening search of
//!   [`replab_search::Searcher`] with [`SearchConfig::default`] up to `depth`, on a position named
//!   in [`POSITIONS`] (`wac018`, WAC.018). The unit is the node: instructions per node, and per
//!   node relative to the search without detection (`off`), the detector's in-search overhead.
//!   The count includes what a search does once, the same for every detector: readying the
//!   transposition table, which costs next to nothing on the child's fresh table (a search
//!   forgets only the slots written since the table was last empty, and there are none).
//! - `cycle:<detector>:<run>`: [`CYCLES`] enter+probe+leave cycles of the micro-benchmarks
//!   ([`scenarios::cycles`]) on the scenario whose probed position stands behind a reversible
//!   run of `run` plies and [`scenarios::RUN_HISTORY`] plies of game ([`Scenario::new`], the
//!   miss variant), counted after [`WARM_UP_CYCLES`] uncounted ones (what a detector does once
//!   per search is in the search's count, not the cycle's). The unit is the cycle; `off`'s
//!   cycle is the harness floor (the line's push and pop).
//!
//! The counts depend only on the binary, the C library and the instruction set valgrind
//! reports: the same build gives the same counts on every run, and on every machine whose CPU
//! offers the same features (glibc picks its `memset`/`memcpy` by them). The child runs with
//! [`NO_REP_STRINGS`], so that large `memset`s are not counted byte by byte. Where valgrind is
//! not installed ([`available`] is `None`) nothing is run and the results say so.

use std::{
    collections::BTreeMap,
    hint::black_box,
    path::{Path, PathBuf},
    process::Command,
    sync::atomic::{AtomicU64, Ordering},
    time::Instant,
};

use anyhow::{Context, Result, anyhow, bail, ensure};
use replab_board::Position;
use replab_detect::Line;
use replab_registry::{DetectorId, info, root_rule_for, with_detector};
use replab_report::{Cell, fmt_int, render_fragment, table_html};
use replab_search::{Limits, SearchConfig, Searcher};
use replab_selfplay::PlayerSpec;
use serde::{Deserialize, Serialize};

use crate::{
    Progress,
    engine::parallel,
    scenarios::{self, ROOT_RULE, RUN_HISTORY, Scenario},
};

/// The function callgrind collects inside: its name appears in the (demangled and mangled)
/// symbol of every instance of [`replab_measured_workload`].
pub const WORKLOAD_SYMBOL: &str = "replab_measured_workload";

/// Cycles run by one `cycle:` workload.
pub const CYCLES: u64 = 10_000;

/// Cycles of each `cycle:` workload in `bench --quick`: with the call into the workload (52 to
/// 71 instructions) spread over them, a count per cycle is its whole number to the first
/// decimal, as it is at [`CYCLES`].
pub const QUICK_CYCLES: u64 = 2_000;

/// Cycles a `cycle:` workload runs after loading its scenario and before counting: the first
/// cycle below the root pays what a detector does once per search (filo filters the game
/// history by Gerbil's rule then: about 10,800 instructions, which added 1.1 to its count per
/// cycle over [`CYCLES`] and 10 over a thousand), and the counts are of the cycles after it.
pub const WARM_UP_CYCLES: u64 = 4;

/// The search depth of the default measurement (the reproduction's page and `bench`).
pub const DEFAULT_DEPTH: u32 = 10;

/// The run lengths of the default cycle measurement: every run length of the micro-benchmarks
/// ([`scenarios::RUN_LENGTHS`]), whose ranking these exact counts decide.
pub const DEFAULT_RUNS: [usize; scenarios::RUN_LENGTHS.len()] = scenarios::RUN_LENGTHS;

/// The positions a `search:` workload can name: `(id, label, FEN)`.
pub const POSITIONS: [(&str, &str, &str); 1] =
    [("wac018", "WAC.018", "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1")];

/// Bratko–Kopec positions a `player:` workload searches (the first ones of `bk.epd`).
pub const PLAYER_POSITIONS: usize = 8;

/// Nodes per search of a `player:` workload.
pub const PLAYER_NODES: u64 = 20_000;

/// The baseline detector: detection off.
pub const OFF: &str = "off";

/// Runs `work` with callgrind collecting: the only function whose instructions (its callees
/// included) are counted. Never inlined, and the result passes through [`black_box`] after the
/// call, so the call is never a tail call that callgrind could lose track of.
#[inline(never)]
pub fn replab_measured_workload<R>(work: impl FnOnce() -> R) -> R {
    black_box(work())
}

// ---------------------------------------------------------------------------------------------
// Workloads (the child's side)

/// A workload, as named on the command line of `replab measure`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Workload {
    /// One search of `position` (an id of [`POSITIONS`]) up to `depth` with `detector`.
    Search {
        /// A search detector or `off`.
        detector: String,
        /// The position's id in [`POSITIONS`].
        position: String,
        /// The maximum depth (1 to 30).
        depth: u32,
    },
    /// A self-play player's searches: the player of `spec` (a `replab match` specification)
    /// searching each of the first [`PLAYER_POSITIONS`] Bratko–Kopec positions with
    /// [`PLAYER_NODES`] nodes, as in a game at fixed nodes (its table cleared before each).
    /// The unit is the node; `--scale-by-cost` divides budgets by it.
    Player {
        /// The player's canonical specification.
        spec: String,
    },
    /// A self-play player's searches at another budget: the player of `spec` searching each
    /// of [`BUDGET_POSITIONS`] positions of the real games, with the game's moves as history,
    /// with `nodes` nodes (its table cleared before each). The unit is the node.
    Budget {
        /// The player's canonical specification.
        spec: String,
        /// Nodes per search.
        nodes: u64,
    },
    /// `cycles` cycles of `detector` behind a reversible run of `run` plies.
    Cycle {
        /// Any detector the micro-benchmarks time, or `off`.
        detector: String,
        /// The run length (0 to [`scenarios::MAX_RUN`]).
        run: usize,
        /// Cycles to run ([`CYCLES`] unless the name gives a fourth field).
        cycles: u64,
    },
}

/// The FEN of the position `id` of [`POSITIONS`] (`WAC.018` is accepted for `wac018`).
fn position_fen(id: &str) -> Option<&'static str> {
    POSITIONS
        .iter()
        .find(|(key, label, _)| *key == id || label.eq_ignore_ascii_case(id))
        .map(|&(_, _, fen)| fen)
}

/// Checks that `name` is `off` or a detector of the registry; with `search`, one the searcher
/// runs.
fn check_detector(name: &str, search: bool) -> Result<()> {
    if name == OFF {
        return Ok(());
    }
    let row = info(name).ok_or_else(|| anyhow!("unknown detector {name:?}"))?;
    ensure!(
        !search || row.caps.searchable,
        "{name} is not a search detector"
    );
    Ok(())
}

impl Workload {
    /// Parses `search:<detector>:<position>:<depth>`, `cycle:<detector>:<run>`
    /// (`cycle:<detector>:<run>:<cycles>` runs another number of cycles than [`CYCLES`]) or
    /// `player:<spec>` (the rest of the name is the player's specification).
    pub fn parse(name: &str) -> Result<Self> {
        if let Some(rest) = name.strip_prefix("budget:") {
            let (nodes, spec) = rest
                .split_once(':')
                .with_context(|| format!("workload {name:?}: expected budget:<nodes>:<spec>"))?;
            let nodes: u64 = nodes
                .parse()
                .ok()
                .filter(|n| (1..=100_000_000).contains(n))
                .with_context(|| format!("workload {name:?}: nodes 1 to 100,000,000"))?;
            let spec = PlayerSpec::parse(spec).with_context(|| format!("workload {name:?}"))?;
            ensure!(
                spec.nodes.is_none(),
                "workload {name:?}: the player's own nodes= has no place in a cost workload"
            );
            return Ok(Workload::Budget {
                spec: spec.to_string(),
                nodes,
            });
        }
        if let Some(spec) = name.strip_prefix("player:") {
            let spec = PlayerSpec::parse(spec).with_context(|| format!("workload {name:?}"))?;
            ensure!(
                spec.nodes.is_none(),
                "workload {name:?}: the player's own nodes= has no place in a cost workload"
            );
            return Ok(Workload::Player {
                spec: spec.to_string(),
            });
        }
        let parts: Vec<&str> = name.split(':').collect();
        let bad = || {
            anyhow!(
                "unknown workload {name:?} (expected search:<detector>:<position>:<depth>, \
                 cycle:<detector>:<run>, player:<spec> or budget:<nodes>:<spec>)"
            )
        };
        let workload = match parts[..] {
            ["search", detector, position, depth] => {
                check_detector(detector, true)?;
                ensure!(
                    position_fen(position).is_some(),
                    "unknown position {position:?} in workload {name:?} (known: {})",
                    POSITIONS.map(|p| p.0).join(", ")
                );
                let depth: u32 = depth.parse().map_err(|_| bad())?;
                ensure!(
                    (1..=30).contains(&depth),
                    "depth {depth} is out of range (1 to 30) in workload {name:?}"
                );
                Workload::Search {
                    detector: detector.to_owned(),
                    position: position.to_owned(),
                    depth,
                }
            }
            ["cycle", detector, run] | ["cycle", detector, run, _] => {
                check_detector(detector, false)?;
                let run: usize = run.parse().map_err(|_| bad())?;
                let cycles: u64 = match parts.get(3) {
                    Some(n) => n.parse().map_err(|_| bad())?,
                    None => CYCLES,
                };
                ensure!(cycles > 0, "no cycles to run in workload {name:?}");
                ensure!(
                    run <= scenarios::MAX_RUN,
                    "run {run} is out of range (0 to {}) in workload {name:?}",
                    scenarios::MAX_RUN
                );
                Workload::Cycle {
                    detector: detector.to_owned(),
                    run,
                    cycles,
                }
            }
            _ => return Err(bad()),
        };
        Ok(workload)
    }

    /// The name [`Workload::parse`] reads back.
    pub fn name(&self) -> String {
        match self {
            Workload::Search {
                detector,
                position,
                depth,
            } => format!("search:{detector}:{position}:{depth}"),
            Workload::Player { spec } => format!("player:{spec}"),
            Workload::Budget { spec, nodes } => format!("budget:{nodes}:{spec}"),
            Workload::Cycle {
                detector,
                run,
                cycles,
            } => {
                if *cycles == CYCLES {
                    format!("cycle:{detector}:{run}")
                } else {
                    format!("cycle:{detector}:{run}:{cycles}")
                }
            }
        }
    }

    /// Runs the workload once in this process and returns the JSON line the child prints:
    /// `units` (nodes or cycles) and, for a search, its `counters` and best move.
    pub fn run(&self) -> Result<serde_json::Value> {
        match self {
            Workload::Search {
                detector,
                position,
                depth,
            } => {
                let fen = position_fen(position).expect("checked by parse");
                let pos = Position::from_fen(fen).map_err(|e| anyhow!("{fen}: {e}"))?;
                let config = SearchConfig {
                    max_depth: *depth,
                    ..SearchConfig::default()
                };
                let rule = root_rule_for(config.policy);
                let result = with_detector!(detector.as_str(), rule, |d| {
                    let mut searcher = Searcher::try_new(d, config)?;
                    anyhow::Ok(replab_measured_workload(|| searcher.search(&pos)))
                })??;
                let counters = result.totals();
                Ok(serde_json::json!({
                    "workload": self.name(),
                    "units": counters.nodes,
                    "counters": counters,
                    "completed": result.completed,
                    "best_move": result.best_move().map(|m| m.uci().to_string()),
                }))
            }
            Workload::Player { spec } => run_player(spec),
            Workload::Budget { spec, nodes } => run_budget(spec, *nodes),
            Workload::Cycle {
                detector,
                run,
                cycles,
            } => {
                let sc = Scenario::new(RUN_HISTORY, *run, false);
                with_detector!(detector.as_str(), ROOT_RULE, |d| {
                    sc.check(detector, &mut d).map_err(|e| anyhow!(e))?;
                    let mut line = Line::default();
                    sc.load(&mut d, &mut line);
                    scenarios::cycles(&mut d, &mut line, &sc, WARM_UP_CYCLES);
                    replab_measured_workload(|| scenarios::cycles(&mut d, &mut line, &sc, *cycles));
                    anyhow::Ok(())
                })??;
                Ok(serde_json::json!({
                    "workload": self.name(),
                    "units": cycles,
                    "scenario": sc.label(),
                }))
            }
        }
    }
}

/// The `player:` workload: the player's searches, measured; `units` is the nodes searched and
/// `seconds` the wall time of the searches alone (the table is allocated before the clock
/// starts), which `tools/paired_speed.py` pairs between two players.
fn run_player(text: &str) -> Result<serde_json::Value> {
    let spec = PlayerSpec::parse(text)?;
    let positions: Vec<Position> = crate::datasets::BK
        .positions(PLAYER_POSITIONS)?
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let mut engine = spec.build(Some(PLAYER_NODES))?;
    let started = std::time::Instant::now();
    let nodes = replab_measured_workload(|| {
        positions
            .iter()
            .map(|p| {
                engine.clear_hash();
                engine
                    .search_game_limited(
                        std::slice::from_ref(p),
                        &[],
                        &Limits::default(),
                        &mut |_| {},
                    )
                    .totals()
                    .nodes
            })
            .sum::<u64>()
    });
    let seconds = started.elapsed().as_secs_f64();
    Ok(serde_json::json!({
        "workload": format!("player:{spec}"),
        "units": nodes,
        "seconds": seconds,
    }))
}

/// Positions of the real games a `budget:` workload searches, spread evenly over
/// [`crate::games::positions`].
pub const BUDGET_POSITIONS: usize = 4;

/// The `budget:` workload: the player's searches at `nodes` nodes on [`BUDGET_POSITIONS`]
/// positions of the real games with their history, measured as the `player:` workload is.
fn run_budget(text: &str, nodes: u64) -> Result<serde_json::Value> {
    let spec = PlayerSpec::parse(text)?;
    let all = crate::games::positions(1)?;
    let chosen: Vec<&crate::games::GamePosition> = (0..BUDGET_POSITIONS)
        .map(|i| &all[i * all.len() / BUDGET_POSITIONS])
        .collect();
    let mut engine = spec.build(Some(nodes))?;
    let started = std::time::Instant::now();
    let searched = replab_measured_workload(|| {
        chosen
            .iter()
            .map(|p| {
                engine.clear_hash();
                engine
                    .search_game_limited(&p.positions, &p.moves, &Limits::default(), &mut |_| {})
                    .totals()
                    .nodes
            })
            .sum::<u64>()
    });
    let seconds = started.elapsed().as_secs_f64();
    Ok(serde_json::json!({
        "workload": format!("budget:{nodes}:{spec}"),
        "units": searched,
        "seconds": seconds,
        "positions": chosen.iter().map(|p| p.label.as_str()).collect::<Vec<_>>(),
    }))
}

/// Runs the named workloads once each, in order, in this process, printing one JSON line per
/// workload to stdout (the hidden `replab measure <workload>…`); a bad name is an error. A
/// cycle's count is the same in a process of its own or after others; a search's moves by a
/// few hundred instructions with the process's heap, so the counts run each search alone.
pub fn run_workloads<S: AsRef<str>>(names: &[S]) -> Result<()> {
    for name in names {
        println!("{}", Workload::parse(name.as_ref())?.run()?);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Counting (the parent's side)

/// valgrind's version (`valgrind-3.19.0`) if `valgrind --version` runs, else `None`.
pub fn available() -> Option<String> {
    let out = Command::new("valgrind").arg("--version").output().ok()?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    (out.status.success() && !version.is_empty()).then_some(version)
}

/// One workload's count.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// Instructions executed (callgrind's `Ir`) inside the workload.
    pub instructions: u64,
    /// Units of work done: nodes of a search, cycles of a cycle workload.
    pub units: u64,
    /// `instructions / units`.
    pub per_unit: f64,
}

/// The total `Ir` of a callgrind output file: its `totals:` line, else its `summary:` line
/// (the first number: `Ir` is the first event unless other events were asked for).
pub fn parse_callgrind_totals(text: &str) -> Option<u64> {
    let events: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("events:"))
        .map(|e| e.split_whitespace().collect())
        .unwrap_or_else(|| vec!["Ir"]);
    let ir = events.iter().position(|e| *e == "Ir")?;
    let line = |prefix: &str| text.lines().find_map(|l| l.strip_prefix(prefix));
    let numbers = line("totals:").or_else(|| line("summary:"))?;
    numbers.split_whitespace().nth(ir)?.parse().ok()
}

/// glibc tunables for the child: never `rep stosb` / `rep movsb` in `memset` / `memcpy`.
/// valgrind counts every iteration of a repeated string instruction as one instruction, so a
/// whole 16 MiB transposition-table clear (a search's, when the last one wrote more than one
/// slot in 16; the searcher's every time until its table listed the slots it writes) counted
/// 16.8 million "instructions" with `rep stosb` (10% of a depth-10 search of WAC.018, and only
/// on CPUs where glibc picks it), against about 0.5 million with the vector loop glibc uses
/// otherwise. Unknown tunables are ignored (other C libraries ignore the variable).
pub const NO_REP_STRINGS: &str = "glibc.cpu.x86_rep_stosb_threshold=0xffffffffffffffff:glibc.cpu.x86_rep_movsb_threshold=0xffffffffffffffff";

/// A fresh path for one callgrind output file.
fn out_file() -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("replab-callgrind-{}-{n}.out", std::process::id()))
}

/// The callgrind option that dumps the counts after each workload: the demangled name of
/// [`replab_measured_workload`] (every instance: `replab_workloads::callgrind::…`), spelled from
/// its start. callgrind keeps one setting per function and, where the toggle pattern
/// (`*replab_measured_workload*`) and this one both begin with a wildcard, one of the two is
/// lost (checked with valgrind 3.19: nothing collected).
fn dump_pattern() -> String {
    format!("--dump-after={}::{WORKLOAD_SYMBOL}*", module_path!())
}

/// Runs `exe measure <workloads…>` under callgrind in one child process, collecting inside the
/// workloads only (`toggled`: callgrind dumps its counts after each, one part file per
/// workload) or over the whole process (one workload only). One result per workload, in order.
fn callgrind(exe: &Path, workloads: &[String], toggled: bool) -> Result<Vec<Measured>> {
    ensure!(!workloads.is_empty(), "no workload to count");
    ensure!(
        toggled || workloads.len() == 1,
        "a whole process is counted for one workload only"
    );
    let out = out_file();
    let mut cmd = Command::new("valgrind");
    cmd.arg("--tool=callgrind");
    if toggled {
        cmd.arg("--collect-atstart=no")
            .arg(format!("--toggle-collect=*{WORKLOAD_SYMBOL}*"))
            .arg(dump_pattern());
    }
    let tunables = match std::env::var("GLIBC_TUNABLES") {
        Ok(old) if !old.is_empty() => format!("{old}:{NO_REP_STRINGS}"),
        _ => NO_REP_STRINGS.to_owned(),
    };
    cmd.env("GLIBC_TUNABLES", tunables)
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(exe)
        .arg("measure")
        .args(workloads);
    let output = cmd
        .output()
        .with_context(|| format!("running valgrind on {}", exe.display()));
    let parts: Vec<PathBuf> = if toggled {
        (1..=workloads.len()).map(|k| part_file(&out, k)).collect()
    } else {
        vec![out.clone()]
    };
    let texts: Vec<std::io::Result<String>> = parts.iter().map(std::fs::read_to_string).collect();
    remove_outputs(&out, workloads.len());
    let output = output?;
    let named = workloads.join(" ");
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("==")).collect();
        bail!(
            "{} measure {named} failed under valgrind ({}): {}",
            exe.display(),
            output.status,
            tail.join("\n").trim()
        );
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let reports: Vec<&str> = stdout.lines().filter(|l| l.starts_with('{')).collect();
    ensure!(
        reports.len() == workloads.len(),
        "{named} printed {} JSON lines for {} workloads",
        reports.len(),
        workloads.len()
    );
    workloads
        .iter()
        .zip(texts.into_iter().zip(&parts))
        .zip(reports)
        .map(|((workload, (text, part)), report)| {
            let text =
                text.with_context(|| format!("reading callgrind's output {}", part.display()))?;
            measured(exe, workload, &text, report)
        })
        .collect()
}

/// The file of callgrind's `k`-th dump (from 1) when its output file is `out`.
fn part_file(out: &Path, k: usize) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(format!(".{k}"));
    PathBuf::from(name)
}

/// Removes callgrind's output file and its `parts` dumps (those it wrote).
fn remove_outputs(out: &Path, parts: usize) {
    let _ = std::fs::remove_file(out);
    for k in 1..=parts {
        let _ = std::fs::remove_file(part_file(out, k));
    }
}

/// One workload's count from its callgrind output `text` and its JSON line `report`.
fn measured(exe: &Path, workload: &str, text: &str, report: &str) -> Result<Measured> {
    let instructions = parse_callgrind_totals(text)
        .ok_or_else(|| anyhow!("no totals in callgrind's output for {workload}"))?;
    ensure!(
        instructions > 0,
        "callgrind counted nothing inside {WORKLOAD_SYMBOL} for {workload}: is {} stripped of \
         its symbols?",
        exe.display()
    );
    let report: serde_json::Value =
        serde_json::from_str(report).with_context(|| format!("{workload}'s JSON line"))?;
    let expected = Workload::parse(workload)?.name();
    ensure!(
        report["workload"].as_str() == Some(expected.as_str()),
        "the child reported {} where {expected} was counted",
        report["workload"]
    );
    let units = report["units"]
        .as_u64()
        .ok_or_else(|| anyhow!("{workload} reported no units: {report}"))?;
    ensure!(units > 0, "{workload} did no work");
    Ok(Measured {
        instructions,
        units,
        per_unit: instructions as f64 / units as f64,
    })
}

/// Counts the named workload's instructions ([`count`]) and prints its JSON line to stdout,
/// `{"workload", "instructions", "units", "per_unit"}` (the hidden `replab measure <workload>
/// --count`); an error where valgrind is not installed.
pub fn print_count(exe: &Path, workload: &str) -> Result<()> {
    let measured = count(exe, workload)?
        .ok_or_else(|| anyhow!("valgrind is not installed (apt-get install valgrind)"))?;
    println!(
        "{{\"workload\": {workload:?}, \"instructions\": {}, \"units\": {}, \"per_unit\": {}}}",
        measured.instructions, measured.units, measured.per_unit
    );
    Ok(())
}

/// The instructions of one workload, counted by callgrind in a child process `exe measure
/// <workload>` (`exe` is the replab binary, with its symbols: cargo strips the release
/// profile's debug info only). `None` when valgrind is not installed; an error when the child fails.
pub fn count(exe: &Path, workload: &str) -> Result<Option<Measured>> {
    if available().is_none() {
        return Ok(None);
    }
    Workload::parse(workload)?;
    Ok(Some(one(callgrind(exe, &[workload.to_owned()], true)?)))
}

/// [`count`] for each of `workloads`, each in a child process of its own, two at a time; the
/// results in `workloads`' order. `None` when valgrind is not installed; an error when a child
/// fails.
pub fn count_each(exe: &Path, workloads: &[String]) -> Result<Option<Vec<Measured>>> {
    if available().is_none() {
        return Ok(None);
    }
    for workload in workloads {
        Workload::parse(workload)?;
    }
    let batches: Vec<Vec<String>> = workloads.iter().map(|w| vec![w.clone()]).collect();
    let counted = run_batches(exe, &batches, &mut crate::Silent)?;
    Ok(Some(workloads.iter().map(|w| counted[w]).collect()))
}

/// The same as [`count`] but counting the whole child process (startup, setup and printing
/// included): only to check that [`count`] leaves them out.
pub fn count_whole_process(exe: &Path, workload: &str) -> Result<Option<Measured>> {
    if available().is_none() {
        return Ok(None);
    }
    Workload::parse(workload)?;
    Ok(Some(one(callgrind(exe, &[workload.to_owned()], false)?)))
}

// ---------------------------------------------------------------------------------------------
// Results

/// One search's count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchCost {
    /// The detector (`off` first).
    pub detector: DetectorId,
    /// The position's label (`WAC.018`).
    pub position: String,
    /// The search depth.
    pub depth: u32,
    /// Nodes searched (all iterations).
    pub nodes: u64,
    /// Instructions of the whole search.
    pub instructions: u64,
    /// Instructions per node.
    pub per_node: f64,
    /// `per_node / per_node(off)`: the detector's in-search overhead per node (1.0 for `off`).
    pub relative_to_off: f64,
}

/// One cycle count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CycleCost {
    /// The detector (`off`: the harness floor).
    pub detector: DetectorId,
    /// Reversible plies behind the probed position.
    pub run: usize,
    /// Cycles run.
    pub cycles: u64,
    /// Instructions of all cycles.
    pub instructions: u64,
    /// Instructions per enter+probe+leave cycle (the line's push and pop included).
    pub instructions_per_cycle: f64,
}

/// Instruction counts of the searches and cycles: [`measure`]'s results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InstructionCosts {
    /// valgrind's version; `None` when it is not installed (then nothing was counted).
    pub valgrind: Option<String>,
    /// Searches, `off` first, then in the order asked.
    pub search: Vec<SearchCost>,
    /// Cycles, per detector (`off` first), each run length in the order asked.
    pub cycles: Vec<CycleCost>,
    /// Wall time of the whole measurement, in milliseconds.
    #[serde(default)]
    pub wall_ms: f64,
}

impl InstructionCosts {
    /// The search instructions per node of `detector` relative to `off` (the reproduction's
    /// `overhead_instructions`), if counted.
    pub fn overhead(&self, detector: &str) -> Option<f64> {
        self.search
            .iter()
            .find(|s| s.detector == detector)
            .map(|s| s.relative_to_off)
    }

    /// The instructions per cycle of `detector` at `run`, if counted.
    pub fn per_cycle(&self, detector: &str, run: usize) -> Option<f64> {
        self.cycles
            .iter()
            .find(|c| c.detector == detector && c.run == run)
            .map(|c| c.instructions_per_cycle)
    }
}

/// The child processes counted at once: one per core, at most two (valgrind's children are
/// large).
fn threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, 2)
}

/// The only result of a one-workload count.
fn one(measured: Vec<Measured>) -> Measured {
    measured
        .into_iter()
        .next()
        .expect("callgrind gives one result per workload")
}

/// Counts `batches` on up to two threads (the experiments' job runner, [`parallel`]), each
/// batch's workloads in one child process (valgrind's start, most of a small workload's time,
/// is paid once per batch); every workload's count by its name, one `advance` per workload.
fn run_batches(
    exe: &Path,
    batches: &[Vec<String>],
    progress: &mut dyn Progress,
) -> Result<BTreeMap<String, Measured>> {
    let counted = parallel(
        batches.len(),
        threads(),
        progress,
        || Ok(()),
        |(), i, done| {
            let r = callgrind(exe, &batches[i], true);
            done.add(batches[i].len() as u64);
            Ok(r)
        },
    )
    .expect("every batch returns its own result");
    let mut by_name = BTreeMap::new();
    for (batch, measured) in batches.iter().zip(counted) {
        by_name.extend(batch.iter().cloned().zip(measured?));
    }
    Ok(by_name)
}

/// What [`measure`] counts besides the detectors.
#[derive(Clone, Copy, Debug)]
pub struct Plan<'a> {
    /// Depth of the searches of WAC.018 (none when 0).
    pub depth: u32,
    /// Reversible runs of the cycle workloads (none when empty).
    pub runs: &'a [usize],
    /// Cycles of each cycle workload ([`CYCLES`] in the full run).
    pub cycles: u64,
}

/// Counts the instructions per node of a search of WAC.018 to `plan.depth` for `off` and each
/// of `detectors` that the searcher runs (none when the depth is 0), and the instructions per
/// cycle of `off` and each of `detectors` at each of `plan.runs` over `plan.cycles` cycles,
/// with `exe` (the replab binary; the command line passes [`std::env::current_exe`]).
/// Workloads run in child processes, two at a time. Without valgrind nothing runs: a note says
/// so and [`InstructionCosts::valgrind`] is `None`.
pub fn measure(
    exe: &Path,
    detectors: &[&str],
    plan: &Plan,
    progress: &mut dyn Progress,
) -> Result<InstructionCosts> {
    let start = Instant::now();
    let Some(valgrind) = available() else {
        progress.note(
            "instruction counts skipped: valgrind is not installed (apt-get install valgrind)",
        );
        return Ok(InstructionCosts::default());
    };
    let mut names: Vec<&str> = vec![OFF];
    for &d in detectors {
        check_detector(d, false)?;
        if !names.contains(&d) {
            names.push(d);
        }
    }
    let (id, label, _) = POSITIONS[0];
    let Plan {
        depth,
        runs,
        cycles,
    } = *plan;
    ensure!(cycles > 0, "no cycles to count");
    let searched: Vec<&str> = if depth == 0 {
        Vec::new()
    } else {
        names
            .iter()
            .copied()
            .filter(|&n| n == OFF || info(n).is_some_and(|r| r.caps.searchable))
            .collect()
    };
    let search_job = |d: &str| format!("search:{d}:{id}:{depth}");
    let cycle_job = |d: &str, run: usize| {
        Workload::Cycle {
            detector: d.to_owned(),
            run,
            cycles,
        }
        .name()
    };
    // A search alone in its child (its count moves by a few hundred instructions in 20
    // million with what ran before it in the process: the heap's layout); the cycles, whose
    // counts do not, in one child per thread, their detectors dealt out in turn.
    let threads = threads();
    let mut batches: Vec<Vec<String>> = vec![Vec::new(); threads];
    for (i, d) in names.iter().enumerate() {
        batches[i % threads].extend(runs.iter().map(|&run| cycle_job(d, run)));
    }
    batches.retain(|b| !b.is_empty());
    batches.extend(searched.iter().map(|d| vec![search_job(d)]));
    for job in batches.iter().flatten() {
        Workload::parse(job)?;
    }
    let jobs = batches.iter().map(Vec::len).sum::<usize>();
    progress.stage("instruction counts (callgrind)", jobs as u64);
    let counted = run_batches(exe, &batches, progress);
    progress.finish();
    let counted = counted?;
    let mut search = Vec::new();
    for d in &searched {
        let m = counted[&search_job(d)];
        search.push(SearchCost {
            detector: d.parse()?,
            position: label.to_owned(),
            depth,
            nodes: m.units,
            instructions: m.instructions,
            per_node: m.per_unit,
            relative_to_off: f64::NAN,
        });
    }
    if let Some(off) = search.first().map(|s| s.per_node) {
        for s in &mut search {
            s.relative_to_off = s.per_node / off;
        }
    }
    let mut cycles = Vec::new();
    for d in &names {
        for &run in runs {
            let m = counted[&cycle_job(d, run)];
            cycles.push(CycleCost {
                detector: d.parse()?,
                run,
                cycles: m.units,
                instructions: m.instructions,
                instructions_per_cycle: m.per_unit,
            });
        }
    }
    Ok(InstructionCosts {
        valgrind: Some(valgrind),
        search,
        cycles,
        wall_ms: start.elapsed().as_secs_f64() * 1e3,
    })
}

// ---------------------------------------------------------------------------------------------
// The page section

const SECTION: (&str, &str) = (
    "callgrind/section.html",
    include_str!("../templates/callgrind/section.html"),
);

/// `x` with one decimal and grouped thousands.
fn fmt_one(x: f64) -> String {
    if !x.is_finite() {
        return "n/a".to_owned();
    }
    let tenths = (x * 10.0).round() as u64;
    format!("{}.{}", fmt_int(tenths / 10), tenths % 10)
}

/// An HTML section for a page: the instruction counts as tables, with how they were made; when
/// valgrind was absent, a sentence saying that instruction counts need it and that the page
/// shows times only.
pub fn section_html(costs: &InstructionCosts) -> String {
    let search_table = (!costs.search.is_empty()).then(|| {
        let rows: Vec<Vec<Cell>> = costs
            .search
            .iter()
            .map(|s| {
                vec![
                    Cell::text(s.detector.name()),
                    Cell::text(fmt_int(s.nodes)),
                    Cell::text(fmt_int(s.instructions)),
                    Cell::text(fmt_one(s.per_node)),
                    Cell::text(format!("{:.3}", s.relative_to_off)),
                ]
            })
            .collect();
        table_html(
            &[
                "detector",
                "nodes",
                "instructions",
                "instructions per node",
                "per node relative to off",
            ],
            &rows,
            true,
        )
    });
    let mut runs: Vec<usize> = Vec::new();
    let mut detectors: Vec<&str> = Vec::new();
    for c in &costs.cycles {
        if !runs.contains(&c.run) {
            runs.push(c.run);
        }
        if !detectors.contains(&c.detector.name()) {
            detectors.push(c.detector.name());
        }
    }
    let cycle_table = (!costs.cycles.is_empty()).then(|| {
        let headers: Vec<String> = std::iter::once("detector".to_owned())
            .chain(runs.iter().map(|r| format!("run {r}")))
            .collect();
        let rows: Vec<Vec<Cell>> = detectors
            .iter()
            .map(|&d| {
                std::iter::once(Cell::text(d))
                    .chain(runs.iter().map(|&r| {
                        Cell::text(costs.per_cycle(d, r).map_or("–".to_owned(), fmt_one))
                    }))
                    .collect()
            })
            .collect();
        table_html(&headers, &rows, true)
    });
    let first = costs.search.first();
    let context = serde_json::json!({
        "valgrind": costs.valgrind,
        "search_table": search_table,
        "cycle_table": cycle_table,
        "position": first.map(|s| s.position.as_str()),
        "depth": first.map(|s| s.depth),
        "cycles": costs.cycles.first().map(|c| fmt_int(c.cycles)),
        "history": RUN_HISTORY,
        "warm_up": WARM_UP_CYCLES,
        "symbol": WORKLOAD_SYMBOL,
    });
    render_fragment(SECTION.0, SECTION.1, &context)
        .unwrap_or_else(|e| panic!("{} does not render: {e}", SECTION.0))
}
