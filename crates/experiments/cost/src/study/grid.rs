//! The sensitivity grid: WAC.018 by iterative deepening under many searcher configurations,
//! each with `off`, `axon` and `linear`, times as medians of interleaved repeats.

use std::sync::{Arc, atomic::AtomicBool};

use anyhow::{Result, anyhow};
use replab_board::{Color, Position};
use replab_registry::DetectorId;
use replab_search::{
    Counters, DynSearch, Eval, ExtensionLimit, Limits, SearchConfig, SearchResult, TtMode,
};
use replab_workloads::one_core;

use super::results::{GridConfig, GridRun, GridTotal, Judgement, PaperClaims};
use crate::{
    Progress,
    compare::{self, Comparison, Reference, Scope},
    engine::{Done, engine, parallel},
    resolution,
    stats::{Estimate, median_ci},
};

/// The study's subject: the paper's move chains (`axon`).
pub const SUBJECT: DetectorId = DetectorId::Axon;

/// The detectors every grid configuration runs: `off` first, then the paper's move chains
/// ([`SUBJECT`]) and the registry's reference, the plain key list. `axon` serves only `twofold`,
/// so the grid's policy is `twofold`.
pub const GRID_DETECTORS: [DetectorId; 3] = [DetectorId::Off, SUBJECT, DetectorId::reference()];

pub use crate::compare::{COUNT_NOISE, SIZE_TOLERANCE};

/// The grid's configurations for iterations to `depth`: each profile as it is, then with one
/// setting changed (table off, table without path-dependent scores, null move flipped, the other
/// extension limit, quiescence checks flipped, material-only evaluation).
pub fn configs(depth: u32) -> Vec<GridConfig> {
    let mut out = Vec::new();
    for (profile, base) in SearchConfig::profiles() {
        let base = SearchConfig {
            max_depth: depth,
            ..base
        };
        let mut push = |varied: &str, search: SearchConfig| {
            let name = if varied == "-" {
                profile.to_string()
            } else {
                format!("{profile}/{varied}")
            };
            // The same search under another name is searched once: its votes count once.
            if let Some(same) = out
                .iter_mut()
                .find(|c: &&mut GridConfig| c.search == search)
            {
                same.coincides_with.push(name);
                return;
            }
            out.push(GridConfig {
                name,
                profile: profile.to_string(),
                varied: varied.to_string(),
                search,
                coincides_with: Vec::new(),
                searches_as: None,
            });
        };
        push("-", base);
        push(
            "tt-off",
            SearchConfig {
                tt_mode: TtMode::Off,
                ..base
            },
        );
        push(
            "tt-no-path-scores",
            SearchConfig {
                tt_mode: TtMode::NoPathScores,
                ..base
            },
        );
        push(
            if base.null_move {
                "null-off"
            } else {
                "null-on"
            },
            SearchConfig {
                null_move: !base.null_move,
                ..base
            },
        );
        let other_limit = match base.extension_limit {
            ExtensionLimit::TwiceDepth => ExtensionLimit::MaxPly,
            ExtensionLimit::MaxPly => ExtensionLimit::TwiceDepth,
        };
        push(
            other_limit.name(),
            SearchConfig {
                extension_limit: other_limit,
                ..base
            },
        );
        push(
            if base.qsearch_checks {
                "no-qsearch-checks"
            } else {
                "qsearch-checks"
            },
            SearchConfig {
                qsearch_checks: !base.qsearch_checks,
                ..base
            },
        );
        push(
            "material",
            SearchConfig {
                eval: Eval::Material,
                ..base
            },
        );
    }
    out
}

/// What a configuration's searches came to, times aside: per detector and depth, the best
/// move, the score and the counters.
fn outcome<'a>(
    runs: &'a [GridRun],
    config: &str,
) -> Vec<(DetectorId, u32, &'a str, i32, Counters)> {
    runs.iter()
        .filter(|r| r.config == config)
        .map(|r| {
            (
                r.detector,
                r.depth,
                r.best_move.as_str(),
                r.eval_cp,
                r.counters,
            )
        })
        .collect()
}

/// Marks every configuration whose searches equal an earlier configuration's at every depth,
/// for every detector ([`GridConfig::searches_as`]): the setting it varies changed nothing at
/// this depth, so the two are one search in effect and vote once.
pub fn mark_identical(configs: &mut [GridConfig], runs: &[GridRun]) {
    let outcomes: Vec<_> = configs.iter().map(|c| outcome(runs, &c.name)).collect();
    for i in 0..configs.len() {
        configs[i].searches_as = (0..i)
            .find(|&j| configs[j].votes() && outcomes[j] == outcomes[i])
            .map(|j| configs[j].name.clone());
    }
}

/// Relative change `x / base − 1` (0 when the base is 0).
pub fn change(x: f64, base: f64) -> f64 {
    if base > 0.0 { x / base - 1.0 } else { 0.0 }
}

/// WAC.018 over depths 1 to `depth`: the scope of the grid's totals.
pub fn scope(depth: u32) -> Scope {
    Scope::depths("WAC.018", 1, depth)
}

/// An exact count's change against the paper's reference (the rule of `crate::compare`).
pub fn judge_count(ours: f64, reference: &Reference, depth: u32) -> Judgement {
    Comparison::new(
        "",
        compare::Measured::exact(ours, scope(depth)),
        reference.clone(),
    )
    .decision
}

/// A timed change against the paper's reference: its interval and coverage decide, by the rule
/// of a timed change (a direction only when the interval clears 0 by the resolution, whose
/// smallest is `floor`: `crate::resolution`).
pub fn judge_time(ours: &Estimate, reference: &Reference, depth: u32, floor: f64) -> Judgement {
    Comparison::timed_with(
        floor,
        "",
        compare::Measured::sampled(ours, scope(depth)),
        reference.clone(),
    )
    .decision
}

/// One configuration's searches: the first round's results and every round's times.
struct Measured {
    /// Per detector (grid order): the result of the first round.
    first: Vec<SearchResult>,
    /// Per detector, per round, per depth: the iteration's time (ms).
    times: Vec<Vec<Vec<f64>>>,
}

/// Searches WAC.018 with one configuration: `repeat` rounds, each running every detector once
/// (in order, or at once on one core: [`super::Config::shared_core`]), then rounds at the edge
/// ([`edge_rounds`]); every round must give the same counters and moves.
fn measure(
    root: &Position,
    config: &GridConfig,
    settings: &super::Config,
    done: &Done,
) -> Result<Measured> {
    let mut searchers = Searchers::new(config, settings)?;
    let mut m = Measured {
        first: Vec::new(),
        times: vec![Vec::new(); GRID_DETECTORS.len()],
    };
    for _ in 0..settings.repeat {
        searchers.round(root, &mut m)?;
        done.add(GRID_DETECTORS.len() as u64);
    }
    edge_rounds(root, settings, &mut searchers, &mut m)?;
    Ok(m)
}

/// The searchers of one grid configuration, one per detector of [`GRID_DETECTORS`], made anew
/// for every search when `per_search` holds. A searcher's tables sit wherever the allocator put
/// them, and a time ratio depends on that placement: a searcher kept for every round keeps one
/// placement for the whole run, and the run's median with it. Timed alone on one thread
/// (2026-11-30, 20 rounds per process), the per-process medians of linear against `off`
/// spread with a standard deviation of 1.4 points (`axon-like`, 10 processes) and 1.5
/// (`default`, 8) with kept searchers, 0.5 and 0.6 with a searcher per search. The times are
/// the search's own iterations', so making a searcher is not timed.
struct Searchers<'a> {
    /// The configuration searched.
    config: &'a GridConfig,
    /// Whether every search gets a new searcher.
    per_search: bool,
    /// Whether a round runs its searches at once on one core ([`one_core`]).
    shared_core: bool,
    /// The current searcher of each detector.
    searchers: Vec<Box<dyn DynSearch>>,
}

impl<'a> Searchers<'a> {
    /// One searcher per grid detector under `config`, as the study's `settings` make them.
    fn new(config: &'a GridConfig, settings: &super::Config) -> Result<Self> {
        let searchers = (0..GRID_DETECTORS.len())
            .map(|d| Self::make(config, d))
            .collect::<Result<_>>()?;
        Ok(Searchers {
            config,
            per_search: settings.fresh_searchers,
            shared_core: settings.shared_core,
            searchers,
        })
    }

    /// A new searcher of the grid's `detector` under `config`.
    fn make(config: &GridConfig, detector: usize) -> Result<Box<dyn DynSearch>> {
        engine(GRID_DETECTORS[detector].name(), config.search)
    }

    /// One round: every detector searches `root` once, and `m` takes each search's iteration
    /// times (the first round's results too; a later round must search as the first did).
    fn round(&mut self, root: &Position, m: &mut Measured) -> Result<()> {
        let round = m.times[0].len() + 1;
        let searched = if self.shared_core {
            self.on_one_core(root)?
        } else {
            (0..GRID_DETECTORS.len())
                .map(|d| {
                    let res = self.search(root, d)?;
                    let times = iteration_times(&res);
                    Ok((res, times))
                })
                .collect::<Result<Vec<_>>>()?
        };
        for (d, (res, times)) in searched.into_iter().enumerate() {
            match m.first.get(d) {
                None => m.first.push(res),
                Some(first) if same_search(first, &res) => {}
                Some(_) => return Err(differs(self.config, d, round)),
            }
            m.times[d].push(times);
        }
        Ok(())
    }

    /// One search of `root` by the grid's `detector`, on a new searcher when `per_search`.
    fn search(&mut self, root: &Position, detector: usize) -> Result<SearchResult> {
        if self.per_search {
            self.searchers[detector] = Self::make(self.config, detector)?;
        }
        Ok(self.searchers[detector].search_game(std::slice::from_ref(root), &[]))
    }

    /// Every detector's search of `root` at once on one core ([`one_core::run`]), each timed
    /// by its thread's CPU time per iteration. A detector done first searches again, on a
    /// second searcher, until the last is done: its time is the mean over its complete searches
    /// (the one stopped by the last's end is dropped), so that its timed searches span about
    /// the same stretch of the machine's time as the slowest one's.
    fn on_one_core(&mut self, root: &Position) -> Result<Vec<(SearchResult, Vec<f64>)>> {
        if self.per_search {
            for d in 0..GRID_DETECTORS.len() {
                self.searchers[d] = Self::make(self.config, d)?;
            }
        }
        let mut lanes = self
            .searchers
            .iter_mut()
            .enumerate()
            .map(|(d, searcher)| {
                Ok(Lane {
                    searcher,
                    again: Self::make(self.config, d)?,
                    first: None,
                    times: Vec::new(),
                    differs: false,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        one_core::run(
            &mut lanes,
            |lane| lane.first(root),
            |lane, stop| lane.again(root, stop),
        )?;
        lanes
            .into_iter()
            .enumerate()
            .map(|(d, lane)| {
                lane.outcome().ok_or_else(|| {
                    anyhow!(
                        "{} / {}: a search again within a round differs from its first (the \
                         search must be deterministic)",
                        self.config.name,
                        GRID_DETECTORS[d],
                    )
                })
            })
            .collect()
    }
}

/// One detector's searches in a round on one core: the timed first search, then complete
/// searches again while the others run.
struct Lane<'s> {
    /// The detector's searcher for the round's first search.
    searcher: &'s mut Box<dyn DynSearch>,
    /// The searcher of the searches again.
    again: Box<dyn DynSearch>,
    /// The first search's result.
    first: Option<SearchResult>,
    /// Each complete search's iteration times (ms of the thread's CPU), the first's first.
    times: Vec<Vec<f64>>,
    /// Whether a search again came to other iterations than the first.
    differs: bool,
}

impl Lane<'_> {
    /// The round's first search, timed.
    fn first(&mut self, root: &Position) -> Result<()> {
        let (res, times) = cpu_timed_search(self.searcher.as_mut(), root, None)?;
        self.first = Some(res);
        self.times.push(times);
        Ok(())
    }

    /// A search again, stopped once `stop` is set; a complete one adds its times.
    fn again(&mut self, root: &Position, stop: &Arc<AtomicBool>) {
        let Ok((res, times)) = cpu_timed_search(self.again.as_mut(), root, Some(stop)) else {
            return;
        };
        match &self.first {
            Some(first) if res.completed && same_search(first, &res) => self.times.push(times),
            Some(_) if res.completed => self.differs = true,
            _ => {}
        }
    }

    /// The first search's result and the mean time of each iteration over the complete
    /// searches; `None` when a search again differed from the first.
    fn outcome(self) -> Option<(SearchResult, Vec<f64>)> {
        let first = self.first.filter(|_| !self.differs)?;
        let n = self.times.len() as f64;
        let mean = (0..self.times[0].len())
            .map(|k| self.times.iter().map(|t| t[k]).sum::<f64>() / n)
            .collect();
        Some((first, mean))
    }
}

/// A search of `root` with each iteration's time (ms) read from the thread's CPU clock,
/// stopped once `stop` is set when it is given.
fn cpu_timed_search(
    searcher: &mut dyn DynSearch,
    root: &Position,
    stop: Option<&Arc<AtomicBool>>,
) -> Result<(SearchResult, Vec<f64>)> {
    let limits = Limits {
        stop: stop.map(Arc::clone),
        ..Limits::default()
    };
    let start = one_core::thread_cpu()?;
    let mut marks = Vec::new();
    let res = searcher.search_game_limited(std::slice::from_ref(root), &[], &limits, &mut |_| {
        marks.push(one_core::thread_cpu());
    });
    let mut times = Vec::with_capacity(marks.len());
    let mut last = start;
    for mark in marks {
        let mark = mark?;
        times.push((mark - last).as_secs_f64() * 1000.0);
        last = mark;
    }
    Ok((res, times))
}

/// Each iteration's time (ms) of a search.
fn iteration_times(res: &SearchResult) -> Vec<f64> {
    res.iterations.iter().map(|it| it.time_ms).collect()
}

/// Whether two searches of one configuration and detector came to the same iterations.
fn same_search(f: &SearchResult, res: &SearchResult) -> bool {
    f.iterations.len() == res.iterations.len()
        && f.iterations.iter().zip(&res.iterations).all(|(a, b)| {
            (a.depth, a.best_move, a.score, a.counters)
                == (b.depth, b.best_move, b.score, b.counters)
        })
}

/// The error of a round that searched otherwise than the first.
fn differs(config: &GridConfig, detector: usize, round: usize) -> anyhow::Error {
    anyhow!(
        "{} / {}: round {round} differs from round 1 (the search must be deterministic)",
        config.name,
        GRID_DETECTORS[detector],
    )
}

/// Each round's time of all iterations, for one detector's rounds.
fn round_totals(rounds: &[Vec<f64>]) -> Vec<f64> {
    rounds.iter().map(|r| r.iter().sum()).collect()
}

/// Rounds at the edge ([`resolution::edge_rounds`] within the study's
/// [`super::Config::edge_limits`]): while the total time change of a detector against `off`
/// sits at the edge, one more round of every detector in order, up to
/// [`resolution::round_cap`] of the `repeat` fixed rounds. Returns the rounds added.
fn edge_rounds(
    root: &Position,
    settings: &super::Config,
    searchers: &mut Searchers,
    m: &mut Measured,
) -> Result<usize> {
    resolution::edge_rounds(
        settings.repeat as usize,
        settings.edge_limits(),
        m,
        |m| {
            let off = round_totals(&m.times[0]);
            (1..m.times.len())
                .map(|d| ratio_change(&round_totals(&m.times[d]), &off))
                .collect()
        },
        |m, _| searchers.round(root, m),
    )
}

/// Per-round ratios `a[r] / b[r]` as a change with its interval.
fn ratio_change(a: &[f64], b: &[f64]) -> Estimate {
    let ratios: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(x, y)| if *y > 0.0 { x / y } else { 1.0 })
        .collect();
    median_ci(&ratios).map(|r| r - 1.0)
}

/// Runs the grid with the study's `settings` (its repeats, grid threads, one configuration per
/// job, and the smallest resolution of its timed changes). Progress: one unit per search.
pub fn run(
    root: &Position,
    configs: &[GridConfig],
    settings: &super::Config,
    paper: &PaperClaims,
    progress: &mut dyn Progress,
) -> Result<(Vec<GridRun>, Vec<GridTotal>)> {
    let (repeat, threads) = (settings.repeat, settings.grid_threads);
    progress.stage(
        "grid (WAC.018)",
        (configs.len() * GRID_DETECTORS.len()) as u64 * u64::from(repeat),
    );
    let measured = parallel(
        configs.len(),
        threads,
        progress,
        || Ok(()),
        |_, i, done| measure(root, &configs[i], settings, done),
    )?;
    let white = |score: replab_search::Score| match root.side_to_move() {
        Color::White => score.value(),
        Color::Black => score.flip().value(),
    };
    let mut runs = Vec::new();
    let mut totals = Vec::new();
    for (config, m) in configs.iter().zip(&measured) {
        let off = &m.first[0];
        let off_round_totals = round_totals(&m.times[0]);
        let off_total: Counters = off.totals();
        for (d, &id) in GRID_DETECTORS.iter().enumerate() {
            let res = &m.first[d];
            for (k, it) in res.iterations.iter().enumerate() {
                let base = &off.iterations[k].counters;
                let times: Vec<f64> = m.times[d].iter().map(|r| r[k]).collect();
                let off_times: Vec<f64> = m.times[0].iter().map(|r| r[k]).collect();
                runs.push(GridRun {
                    config: config.name.clone(),
                    detector: id,
                    depth: it.depth,
                    best_move: it.best_move.map_or("-".into(), |mv| mv.uci().to_string()),
                    eval_cp: white(it.score),
                    counters: it.counters,
                    time_ms: median_ci(&times),
                    terminal_change: change(
                        it.counters.terminal_nodes as f64,
                        base.terminal_nodes as f64,
                    ),
                    generated_change: change(it.counters.generated as f64, base.generated as f64),
                    time_change: ratio_change(&times, &off_times),
                });
            }
            let c = res.totals();
            let detector_totals = round_totals(&m.times[d]);
            let terminal_change = change(c.terminal_nodes as f64, off_total.terminal_nodes as f64);
            let generated_change = change(c.generated as f64, off_total.generated as f64);
            let time_change = ratio_change(&detector_totals, &off_round_totals);
            let last = res.last();
            totals.push(GridTotal {
                config: config.name.clone(),
                detector: id,
                counters: c,
                time_ms: median_ci(&detector_totals),
                terminal_change,
                generated_change,
                time_change,
                final_best_move: last
                    .and_then(|it| it.best_move)
                    .map_or("-".into(), |mv| mv.uci().to_string()),
                final_eval_cp: last.map_or(0, |it| white(it.score)),
                terminal_vs_paper: judge_count(
                    terminal_change,
                    &paper.terminal_reference,
                    config.search.max_depth,
                ),
                generated_vs_paper: judge_count(
                    generated_change,
                    &paper.generated_reference,
                    config.search.max_depth,
                ),
                time_vs_paper: judge_time(
                    &time_change,
                    &paper.time_reference,
                    config.search.max_depth,
                    settings.time_resolution,
                ),
            });
        }
    }
    Ok((runs, totals))
}
