//! Parallel search (Lazy SMP) and shared repetition structures (`replab smp`).
//!
//! Moreland's warning about Thompson's open flags: in a table shared by several search
//! threads, a thread meets the open flags of the *other* threads' lines and takes positions
//! that are only on another thread's line for repetitions. This experiment measures it.
//!
//! N threads (1, 2, 4, 8) search the same root by iterative deepening and share one
//! transposition table ([`replab_search::SharedTable`]); each has its own line, killers, history
//! and counters; thread 0 is the main thread, whose result is the search's, and it stops the
//! helpers when it finishes; odd helpers start each iteration one ply deeper (Cheng's Lazy SMP).
//! The repetition structures are set up per [`Variant`]: per-thread (`linear`, `tt-open`,
//! `filo-all-history`) or shared (`tt-open`, `filo-all-history`, and `tt-thompson`, whose marks live in the shared
//! table). Every probe of every thread is checked against exact identity over that thread's own
//! line ([`checked::Checked`]).
//!
//! Two modes: **deterministic** ([`sched`]: the threads take turns passing a baton, chosen by a
//! seeded generator, so every count is reproducible), and **real threads** (free-running, for
//! time and nodes per second on this machine's cores). [`run`] measures and returns the
//! [`Results`], [`write()`] writes `results.json` and `index.html`, [`summary_table`] is what the
//! command line prints.

pub mod checked;
mod config;
pub mod group;
mod page;
mod results;
pub mod sched;

use anyhow::{Context, Result, ensure};
use replab_board::Move;
use replab_report::{Meta, ReportDir, fmt_int};
use replab_search::{SearchConfig, SharedTable};

pub use config::{Config, MAX_DEPTH, MAX_THREADS, QUANTUM_CHECK_THREADS};
pub use group::{Game, GroupOutcome, Mode, Variant, run_group};
// The harness and the workloads under the paths the modules use (`crate::stats`, …), as in
// the other experiment crates.
pub use replab_harness::{Progress, Silent, contribution, experiment, stats};
use replab_workloads::rounds;
pub use replab_workloads::{datasets, engine};

pub use results::{
    Aggregate, DeterministicRun, PositionInfo, QuantumCheck, RealAggregate, Reproducibility,
    Results, Setup, VariantInfo, aggregate,
};

use crate::contribution::Phrase;
use crate::experiment::{Configuration, Experiment, Headline};
use crate::{
    engine::{Done, parallel},
    stats::median_ci,
};

/// The page title.
pub const TITLE: &str = "Parallel search (Lazy SMP) and shared repetition structures";

/// The positions: the first records of the repetition suite, then of WAC.
pub fn games(repetition: usize, wac: usize) -> Result<Vec<Game>> {
    let mut out = Vec::new();
    for (set, data, n) in [
        ("repetition", datasets::REPETITION, repetition),
        ("wac", datasets::WAC, wac),
    ] {
        for r in data.records(Some(n))? {
            out.push(Game {
                id: r.id,
                set: set.into(),
                positions: r.positions,
                moves: r.moves,
            });
        }
    }
    Ok(out)
}

/// SplitMix64's finaliser: the scheduler seed of one group from the run's seed and the group.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The scheduler seed of the group (position, variant, threads): independent of which worker
/// searches it and of the other groups.
fn group_seed(seed: u64, position: usize, variant: Variant, threads: usize) -> u64 {
    let v = Variant::ALL.iter().position(|&x| x == variant).unwrap_or(0);
    mix(seed ^ mix(position as u64 ^ mix((v as u64) << 32 | threads as u64)))
}

fn uci(m: Option<Move>) -> String {
    m.map_or("-".into(), |m| m.uci().to_string())
}

/// The record of one deterministic group.
fn record(position: usize, variant: Variant, threads: usize, o: &GroupOutcome) -> DeterministicRun {
    let audit = o.audit();
    DeterministicRun {
        position,
        variant: variant.name().into(),
        threads,
        best_move: uci(o.best_move),
        score: o.score,
        depth: o.depth,
        main_nodes: o.threads.first().map_or(0, |t| t.nodes),
        nodes: o.nodes(),
        probes: audit.probes,
        false_repetitions: audit.false_repetitions,
        main_false_repetitions: o.threads.first().map_or(0, |t| t.false_repetitions),
        missed_repetitions: audit.missed_repetitions,
        repetitions: o.threads.iter().map(|t| t.repetitions).sum(),
        detector_bytes: o.threads.iter().map(|t| t.detector_bytes).sum(),
        shared_bytes: o.shared_bytes,
        switches: o.switches,
    }
}

/// Runs the experiment: deterministic groups, the reproducibility and quantum checks, real
/// threads. Progress: one stage per part.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let meta = Meta::collect(&config.command);
    let games = games(config.repetition_records, config.wac_records)?;
    let threads = config.thread_counts();
    let plan = Plan {
        config,
        games: &games,
        threads: &threads,
        search: config.search(config.depth),
    };
    let runs = plan.deterministic_runs(progress)?;
    check_one_thread(&games, &runs)?;
    let reproducibility = plan.reproducibility(&runs, progress)?;
    let quantum_check = plan.quantum_check(&runs, progress)?;
    let (real_ids, real) = real_threads(config, &games, &threads, progress)?;
    progress.finish();

    let aggregates = aggregate(&runs, &Variant::ALL, &threads);
    let headline = headline(&aggregates, &threads, games.len());
    Ok(Results {
        meta,
        config: plan.setup(real_ids),
        variants: Variant::ALL.iter().map(|&v| VariantInfo::of(v)).collect(),
        positions: position_infos(&games),
        runs,
        aggregates,
        reproducibility,
        quantum_check,
        real,
        headline,
    })
}

/// What the deterministic parts of a run share: the settings, the positions, the thread counts
/// and the main thread's search.
struct Plan<'a> {
    /// The settings.
    config: &'a Config,
    /// The positions searched.
    games: &'a [Game],
    /// The thread counts as run (sorted, 1 included).
    threads: &'a [usize],
    /// The main thread's search settings at the configured depth.
    search: SearchConfig,
}

impl Plan<'_> {
    /// Runs one deterministic group on `table` (position `p`, variant `v`, `t` threads, the
    /// scheduler's `quantum`) and returns its record.
    fn group(
        &self,
        table: &SharedTable,
        p: usize,
        v: Variant,
        t: usize,
        quantum: u64,
    ) -> Result<DeterministicRun> {
        let mode = Mode::Deterministic {
            seed: group_seed(self.config.seed, p, v, t),
            quantum,
        };
        let o = run_group(v, &self.games[p], self.search, t, table, mode, true)?;
        Ok(record(p, v, t, &o))
    }

    /// Runs `jobs` jobs as one progress stage on the configured workers, each worker with its
    /// own shared table; `job(table, i)` runs job `i`.
    fn parallel_stage<T: Send>(
        &self,
        stage: &str,
        jobs: usize,
        progress: &mut dyn Progress,
        job: impl Fn(&SharedTable, usize) -> Result<T> + Sync,
    ) -> Result<Vec<T>> {
        progress.stage(stage, jobs as u64);
        parallel(
            jobs,
            self.config.workers,
            progress,
            || Ok(SharedTable::new(self.config.tt_bits)),
            |table: &mut SharedTable, i, done: &Done| {
                let out = job(table, i)?;
                done.add(1);
                Ok(out)
            },
        )
    }

    /// Deterministic mode: one job per position × variant, every thread count.
    fn deterministic_runs(&self, progress: &mut dyn Progress) -> Result<Vec<DeterministicRun>> {
        let jobs = position_variants(self.games.len());
        let per_job = self.parallel_stage("deterministic", jobs.len(), progress, |table, i| {
            let (p, v) = jobs[i];
            let mut out = Vec::with_capacity(self.threads.len());
            for &t in self.threads {
                let run = self
                    .group(table, p, v, t, self.config.quantum)
                    .with_context(|| {
                        format!("{} / {} / {t} threads", self.games[p].id, v.name())
                    })?;
                out.push(run);
            }
            Ok(out)
        })?;
        Ok(per_job.into_iter().flatten().collect())
    }

    /// Reproducibility: the groups of the first positions again with the most threads, and how
    /// many of them differ from the first run.
    fn reproducibility(
        &self,
        runs: &[DeterministicRun],
        progress: &mut dyn Progress,
    ) -> Result<Reproducibility> {
        let repro = position_variants(self.config.reproducibility_positions.min(self.games.len()));
        let most = *self.threads.last().expect("at least one thread count");
        let repeated =
            self.parallel_stage("reproducibility", repro.len(), progress, |table, i| {
                let (p, v) = repro[i];
                self.group(table, p, v, most, self.config.quantum)
            })?;
        let differing = repeated
            .iter()
            .filter(|again| {
                runs.iter()
                    .find(|r| {
                        r.position == again.position
                            && r.variant == again.variant
                            && r.threads == again.threads
                    })
                    .is_none_or(|first| first != *again)
            })
            .count();
        Ok(Reproducibility {
            groups: repeated.len(),
            differing,
        })
    }

    /// The quantum check: the shared variants' groups of the first positions again with a
    /// quantum of 1, beside the configured quantum's (none when that is already 1).
    fn quantum_check(
        &self,
        runs: &[DeterministicRun],
        progress: &mut dyn Progress,
    ) -> Result<Vec<QuantumCheck>> {
        let check_threads: Vec<usize> = self
            .threads
            .iter()
            .copied()
            .filter(|t| QUANTUM_CHECK_THREADS.contains(t))
            .collect();
        let positions = self.config.quantum_check_positions.min(self.games.len());
        let qjobs: Vec<(usize, Variant, usize)> = (0..positions)
            .flat_map(|p| {
                let check_threads = &check_threads;
                Variant::ALL
                    .iter()
                    .filter(|v| v.shared())
                    .flat_map(move |&v| check_threads.iter().map(move |&t| (p, v, t)))
            })
            .collect();
        if self.config.quantum == 1 || qjobs.is_empty() {
            return Ok(Vec::new());
        }
        let q1 = self.parallel_stage("quantum check", qjobs.len(), progress, |table, i| {
            let (p, v, t) = qjobs[i];
            self.group(table, p, v, t, 1)
        })?;
        let mut out = Vec::new();
        for &v in Variant::ALL.iter().filter(|v| v.shared()) {
            for &t in &check_threads {
                out.push(self.quantum_cell(v, t, runs, &q1));
            }
        }
        Ok(out)
    }

    /// One cell of the quantum check: variant `v` with `t` threads, under the configured quantum
    /// (`runs`) and under a quantum of 1 (`q1`).
    fn quantum_cell(
        &self,
        v: Variant,
        t: usize,
        runs: &[DeterministicRun],
        q1: &[DeterministicRun],
    ) -> QuantumCheck {
        let first = self.config.quantum_check_positions;
        let (positions, probes, false_repetitions) = quantum_sums(runs, v, t, first);
        let (_, probes_q1, false_repetitions_q1) = quantum_sums(q1, v, t, first);
        QuantumCheck {
            variant: v.name().into(),
            threads: t,
            positions,
            probes,
            false_repetitions,
            probes_q1,
            false_repetitions_q1,
        }
    }

    /// The settings of the run and what it set up, with the real-thread positions' ids.
    fn setup(&self, real_position_ids: Vec<String>) -> Setup {
        Setup {
            settings: self.config.clone(),
            search: self.search,
            tt_open_bits: group::TT_OPEN_BITS,
            filo_slots: replab_filo::DEFAULT_SLOTS,
            helper_extra_depth: group::HELPER_EXTRA_DEPTH,
            real_position_ids,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// Every (position, variant) pair of the first `positions` positions, position by position.
fn position_variants(positions: usize) -> Vec<(usize, Variant)> {
    (0..positions)
        .flat_map(|p| Variant::ALL.iter().map(move |&v| (p, v)))
        .collect()
}

/// One thread: a shared structure with one thread is the per-thread structure. Refuses the run
/// when a shared variant's one-thread search differs from its per-thread variant's.
fn check_one_thread(games: &[Game], runs: &[DeterministicRun]) -> Result<()> {
    for v in Variant::ALL {
        let Some(own) = v.per_thread() else {
            continue;
        };
        for (p, g) in games.iter().enumerate() {
            let find = |name: &str| {
                runs.iter()
                    .find(|r| r.variant == name && r.threads == 1 && r.position == p)
            };
            if let (Some(a), Some(b)) = (find(v.name()), find(own.name())) {
                ensure!(
                    (
                        a.best_move.as_str(),
                        a.score,
                        a.nodes,
                        a.probes,
                        a.false_repetitions
                    ) == (
                        b.best_move.as_str(),
                        b.score,
                        b.nodes,
                        b.probes,
                        b.false_repetitions
                    ),
                    "{}: {} with one thread differs from {}",
                    g.id,
                    v.name(),
                    own.name()
                );
            }
        }
    }
    Ok(())
}

/// Positions, probes and false repetitions of variant `v` with `t` threads over the runs of
/// positions below `first`.
fn quantum_sums(
    runs: &[DeterministicRun],
    v: Variant,
    t: usize,
    first: usize,
) -> (usize, u64, u64) {
    let sel: Vec<&DeterministicRun> = runs
        .iter()
        .filter(|r| r.variant == v.name() && r.threads == t && r.position < first)
        .collect();
    (
        sel.len(),
        sel.iter().map(|r| r.probes).sum(),
        sel.iter().map(|r| r.false_repetitions).sum(),
    )
}

/// The positions' records: id, set, history length and final FEN.
fn position_infos(games: &[Game]) -> Vec<PositionInfo> {
    games
        .iter()
        .map(|g| PositionInfo {
            id: g.id.clone(),
            set: g.set.clone(),
            history_plies: g.moves.len(),
            fen: g.positions.last().map_or(String::new(), |p| p.fen()),
        })
        .collect()
}

/// Real threads: `repeats` timed rounds (unchecked), interleaved over variants and thread
/// counts, then one checked round. Returns the positions' ids and the cells.
fn real_threads(
    config: &Config,
    games: &[Game],
    threads: &[usize],
    progress: &mut dyn Progress,
) -> Result<(Vec<String>, Vec<RealAggregate>)> {
    let real_games = real_games(config, games);
    let ids: Vec<String> = real_games.iter().map(|g| g.id.clone()).collect();
    if real_games.is_empty() {
        return Ok((ids, Vec::new()));
    }
    let real = RealRun {
        games: real_games,
        search: config.search(config.real_depth),
        table: SharedTable::new(config.tt_bits),
        cells: Variant::ALL
            .iter()
            .flat_map(|&v| threads.iter().map(move |&t| (v, t)))
            .collect(),
    };
    progress.stage(
        "real threads",
        ((config.repeats + 1) * real.cells.len()) as u64,
    );
    let samples = real.timed_rounds(config.repeats, progress)?;
    let checked = real.checked_round(progress)?;
    let reference = real.reference_moves()?;
    let out = (0..real.cells.len())
        .map(|c| real.aggregate(c, &samples, &checked[c], &reference))
        .collect();
    Ok((ids, out))
}

/// The positions of the real-thread runs: the first `real_positions` WAC positions, or the first
/// positions of all when there are no WAC positions.
fn real_games<'g>(config: &Config, games: &'g [Game]) -> Vec<&'g Game> {
    let wac: Vec<&Game> = games.iter().filter(|g| g.set == "wac").collect();
    let pool: Vec<&Game> = if wac.is_empty() {
        games.iter().collect()
    } else {
        wac
    };
    pool.into_iter().take(config.real_positions).collect()
}

/// The checked round's figures of one cell: false repetitions, probes and the best move per
/// position.
type CheckedCell = (u64, u64, Vec<String>);

/// The real-thread runs: their positions, search, table and cells (variant, threads).
struct RealRun<'g> {
    /// The positions searched.
    games: Vec<&'g Game>,
    /// The main thread's search settings at the real depth.
    search: SearchConfig,
    /// The transposition table every group shares.
    table: SharedTable,
    /// Every (variant, thread count) cell, variant by variant.
    cells: Vec<(Variant, usize)>,
}

impl RealRun<'_> {
    /// The timed rounds, interleaved over the cells: per cell, per round, (time ms, nodes).
    fn timed_rounds(
        &self,
        repeats: usize,
        progress: &mut dyn Progress,
    ) -> Result<Vec<Vec<(f64, u64)>>> {
        rounds::interleaved(self.cells.len(), repeats, |c, _| {
            let (v, t) = self.cells[c];
            let (mut time, mut nodes) = (0.0, 0u64);
            for g in &self.games {
                let o = run_group(v, g, self.search, t, &self.table, Mode::Free, false)?;
                time += o.time_ms;
                nodes += o.nodes();
            }
            progress.advance(1);
            Ok((time, nodes))
        })
    }

    /// The checked round: false repetitions and best moves with free-running threads.
    fn checked_round(&self, progress: &mut dyn Progress) -> Result<Vec<CheckedCell>> {
        let mut checked = Vec::with_capacity(self.cells.len());
        for &(v, t) in &self.cells {
            let (mut false_repetitions, mut probes, mut moves) = (0, 0, Vec::new());
            for g in &self.games {
                let o = run_group(v, g, self.search, t, &self.table, Mode::Free, true)?;
                let a = o.audit();
                false_repetitions += a.false_repetitions;
                probes += a.probes;
                moves.push(uci(o.best_move));
            }
            checked.push((false_repetitions, probes, moves));
            progress.advance(1);
        }
        Ok(checked)
    }

    /// The deterministic one-thread moves at the real depth, for comparison.
    fn reference_moves(&self) -> Result<Vec<String>> {
        self.games
            .iter()
            .map(|g| {
                run_group(
                    Variant::Linear,
                    g,
                    self.search,
                    1,
                    &self.table,
                    Mode::Deterministic {
                        seed: 0,
                        quantum: 1,
                    },
                    false,
                )
                .map(|o| uci(o.best_move))
            })
            .collect()
    }

    /// The aggregate of cell `c`: medians of its timed rounds (speed-ups against the same
    /// variant's one-thread cell) and its checked round against the reference moves.
    fn aggregate(
        &self,
        c: usize,
        samples: &[Vec<(f64, u64)>],
        checked: &CheckedCell,
        reference: &[String],
    ) -> RealAggregate {
        let (v, t) = self.cells[c];
        let one = self
            .cells
            .iter()
            .position(|&(w, u)| w == v && u == 1)
            .expect("1 is always a thread count");
        let times: Vec<f64> = samples[c].iter().map(|s| s.0).collect();
        let mnps: Vec<f64> = samples[c]
            .iter()
            .map(|&(ms, nodes)| {
                if ms > 0.0 {
                    nodes as f64 / ms / 1000.0
                } else {
                    0.0
                }
            })
            .collect();
        let speedups: Vec<f64> = samples[one]
            .iter()
            .zip(&samples[c])
            .map(|(a, b)| if b.0 > 0.0 { a.0 / b.0 } else { 1.0 })
            .collect();
        let mut nodes: Vec<f64> = samples[c].iter().map(|s| s.1 as f64).collect();
        nodes.sort_by(f64::total_cmp);
        let (false_repetitions, probes, moves) = checked;
        RealAggregate {
            variant: v.name().into(),
            threads: t,
            time_ms: median_ci(&times),
            mnps: median_ci(&mnps),
            speedup: median_ci(&speedups),
            nodes: crate::stats::median(&nodes),
            best_move_changed: moves.iter().zip(reference).filter(|(a, b)| a != b).count(),
            false_repetitions: *false_repetitions,
            probes: *probes,
        }
    }
}

/// The one-line headline: tt-open's shared table against its per-thread tables and linear.
fn headline(aggregates: &[Aggregate], threads: &[usize], positions: usize) -> String {
    let get = |v: Variant, t: usize| {
        aggregates
            .iter()
            .find(|a| a.variant == v.name() && a.threads == t)
    };
    let Some(&t) = threads.iter().find(|&&t| t > 1) else {
        return "One thread only: nothing is shared.".into();
    };
    let (Some(shared), Some(own), Some(linear)) = (
        get(Variant::TtOpenShared, t),
        get(Variant::TtOpenPerThread, t),
        get(Variant::Linear, t),
    ) else {
        return String::new();
    };
    format!(
        "{t} threads sharing one tt-open table: {} false repetitions ({:.0} per million probes, \
         on {} of {positions} positions); per-thread tt-open tables {}, linear {}",
        fmt_int(shared.false_repetitions),
        shared.false_per_million,
        shared.positions_with_false,
        fmt_int(own.false_repetitions),
        fmt_int(linear.false_repetitions)
    )
}

/// Writes `results.json`, the charts and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_string_pretty(results)?)
        .context("writing results.json")?;
    page::write(results, dir).context("writing index.html")
}

/// The table the command line prints.
pub fn summary_table(results: &Results) -> String {
    let c = &results.config;
    let mut out = format!(
        "Deterministic: {} positions, main thread to depth {}, quantum {} nodes, seed {}\n",
        results.positions.len(),
        c.settings.depth,
        c.settings.quantum,
        c.settings.seed
    );
    out += &format!(
        "{:<28} {:>3} {:>12} {:>9} {:>10} {:>8} {:>8} {:>8} {:>8}\n",
        "variant", "thr", "nodes", "false", "false/Mpr", "pos>0", "missed", "Δmove", "Δscore"
    );
    for a in &results.aggregates {
        out += &format!(
            "{:<28} {:>3} {:>12} {:>9} {:>10.1} {:>8} {:>8} {:>8} {:>8}\n",
            a.variant,
            a.threads,
            fmt_int(a.nodes),
            fmt_int(a.false_repetitions),
            a.false_per_million,
            a.positions_with_false,
            fmt_int(a.missed_repetitions),
            a.best_move_changed,
            a.score_changed
        );
    }
    out += &format!(
        "Reproducibility: {} groups searched twice, {} differing\n",
        results.reproducibility.groups, results.reproducibility.differing
    );
    if !results.real.is_empty() {
        out += &format!(
            "\nReal threads ({} cores): {} positions, depth {}, {} rounds\n",
            c.cores,
            c.real_position_ids.len(),
            c.settings.real_depth,
            c.settings.repeats
        );
        out += &format!(
            "{:<28} {:>3} {:>22} {:>22} {:>8} {:>7}\n",
            "variant", "thr", "time ms [95% CI]", "Mnps [95% CI]", "speedup", "false"
        );
        for r in &results.real {
            out += &format!(
                "{:<28} {:>3} {:>22} {:>22} {:>8.2} {:>7}\n",
                r.variant,
                r.threads,
                r.time_ms.text(|x| format!("{x:.1}")),
                r.mnps.text(|x| format!("{x:.2}")),
                r.speedup.value,
                r.false_repetitions
            );
        }
    }
    out += &format!("\n{}\n", results.headline);
    out
}

/// Parallel search as an experiment of the table.
pub struct Smp;

impl Experiment for Smp {
    const NAME: &'static str = "smp";
    const DIR: &'static str = "smp";
    const TITLE: &'static str = TITLE;
    type Config = Config;
    type Results = Results;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
        run(config, progress)
    }

    fn write(results: &Results, dir: &ReportDir) -> Result<()> {
        write(results, dir)
    }

    fn summary(results: &Results) -> String {
        summary_table(results)
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        vec![Headline {
            label: "Parallel search".into(),
            context: Phrase::parenthesised([
                Phrase::report("Lazy SMP", "smp"),
                Phrase::text(
                    ", deterministic threads, every probe checked on the thread's own line",
                ),
            ]),
            text: results.headline.clone(),
        }]
    }
}

#[cfg(test)]
mod tests;
