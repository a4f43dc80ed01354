//! Searching a position set (the endgames, WAC) under every profile × detector, and the
//! set's aggregates against `off`.

use anyhow::Result;
use replab_board::{Move, Position};
use replab_registry::DetectorId;
use replab_search::{DynSearch, SearchConfig};

use super::{
    grid::change,
    results::{Aggregate, Distribution, PositionRun, PositionRuns},
};
use crate::{
    Progress,
    endgames::men,
    engine::{engine, parallel},
    resolution,
    stats::{Estimate, median_ci},
};

/// One position to search: id, class, game positions and moves.
pub struct Job<'a> {
    /// Identifier.
    pub id: String,
    /// Class (`rook`, `pawn`, `minor`, `wac`).
    pub class: String,
    /// History positions, the root last.
    pub positions: &'a [Position],
    /// Moves between them.
    pub moves: &'a [Move],
}

/// A worker's searcher for one profile (by name) and detector.
type Engine = (String, DetectorId, Box<dyn DynSearch>);

/// A worker's searchers: one per profile × detector, profiles outer, detectors in order.
fn engines(profiles: &[(String, SearchConfig)], detectors: &[DetectorId]) -> Result<Vec<Engine>> {
    let mut out = Vec::new();
    for (p, config) in profiles {
        for &d in detectors {
            out.push((p.clone(), d, engine(d.name(), *config)?));
        }
    }
    Ok(out)
}

/// Searches every job with every profile × detector (detectors in order, `off` first; the
/// detectors of one profile run back to back on the same worker, so their times share the
/// machine's state) on `threads` workers. Progress: one unit per position.
pub fn search_set(
    label: &str,
    jobs: &[Job<'_>],
    profiles: &[(String, SearchConfig)],
    detectors: &[DetectorId],
    threads: usize,
    progress: &mut dyn Progress,
) -> Result<Vec<PositionRuns>> {
    progress.stage(label, jobs.len() as u64);
    parallel(
        jobs.len(),
        threads,
        progress,
        || engines(profiles, detectors),
        |engines, i, done| {
            let job = &jobs[i];
            let runs = engines
                .iter_mut()
                .map(|(profile, detector, e)| {
                    let res = e.search_game(job.positions, job.moves);
                    PositionRun {
                        profile: profile.clone(),
                        detector: *detector,
                        best_move: res.best_move().map_or("-".into(), |m| m.uci().to_string()),
                        eval_cp: res.score().map_or(0, |s| s.value()),
                        counters: res.totals(),
                        time_ms: Estimate::single(res.time_ms()),
                        rounds_ms: Vec::new(),
                    }
                })
                .collect();
            done.add(1);
            let root = job.positions.last().expect("non-empty");
            Ok(PositionRuns {
                id: job.id.clone(),
                fen: root.fen(),
                class: job.class.clone(),
                men: men(root),
                history_plies: job.moves.len(),
                runs,
            })
        },
    )
}

/// The search of `p` under `profile` with detector `d`, if it was run.
fn run_of<'a>(p: &'a PositionRuns, profile: &str, d: DetectorId) -> Option<&'a PositionRun> {
    p.runs
        .iter()
        .find(|r| r.profile == profile && r.detector == d)
}

/// Per position, `a`'s time (or generated count) against `b`'s under `profile`, as the
/// median over the positions with its interval; `None` without a position searched by both.
pub fn paired(
    positions: &[PositionRuns],
    profile: &str,
    a: DetectorId,
    b: DetectorId,
    time: bool,
) -> Option<Estimate> {
    let values: Vec<f64> = positions
        .iter()
        .filter_map(|p| {
            let get = |d: DetectorId| {
                run_of(p, profile, d).map(|r| {
                    if time {
                        r.time()
                    } else {
                        r.counters.generated as f64
                    }
                })
            };
            Some(change(get(a)?, get(b)?))
        })
        .collect();
    (!values.is_empty()).then(|| median_ci(&values))
}

/// `a`'s time against `b`'s under `profile` over the paired rounds ([`time_in_rounds`]): in
/// each round, per position `a`'s time ÷ `b`'s − 1 and the round's median over the positions;
/// the median over the rounds with its interval over the rounds. `None` when no round was run.
///
/// The rounds are the replicates because a run shifts a change by more than the interval over
/// its positions shows: eight full runs of the study (2026-11-28/29) gave the WAC change of
/// axon against matrix as 1.2% to 12.1%, each with a half-width near 1.5%, and the paired
/// rounds within one run moved it by 4 to 7 points.
pub fn paired_rounds(
    positions: &[PositionRuns],
    profile: &str,
    a: DetectorId,
    b: DetectorId,
) -> Option<Estimate> {
    let pairs: Vec<(&[Estimate], &[Estimate])> = positions
        .iter()
        .filter_map(|p| {
            let rounds = |d: DetectorId| run_of(p, profile, d).map(|r| r.rounds_ms.as_slice());
            Some((rounds(a)?, rounds(b)?))
        })
        .collect();
    let count = pairs.iter().map(|(x, y)| x.len().min(y.len())).min()?;
    let medians: Vec<f64> = (0..count)
        .map(|k| {
            let changes: Vec<f64> = pairs
                .iter()
                .map(|(x, y)| change(x[k].value, y[k].value))
                .collect();
            crate::stats::median(&changes)
        })
        .collect();
    (!medians.is_empty()).then(|| median_ci(&medians))
}

/// Times `a` and `b` alone on every position of `jobs` under each of `profiles`, in paired
/// rounds on fresh searchers, `a` first in even rounds and `b` first in odd ones (and the
/// other way round on odd positions, [`timed_round`]): the study's
/// [`super::Config::set_rounds`], then one at a time while a profile's change
/// ([`paired_rounds`]) sits at the edge ([`resolution::edge_rounds`] within the study's
/// [`super::Config::edge_limits`]: at most [`resolution::round_cap`]`(set_rounds,
/// edge_factor)` in all, none without fixed rounds). The times go to each run's
/// [`PositionRun::rounds_ms`]. Returns the rounds run. Progress: one stage for the fixed
/// rounds, one for those at the edge, one unit per position and round.
pub fn time_in_rounds(
    label: &str,
    jobs: &[Job<'_>],
    profiles: &[(String, SearchConfig)],
    positions: &mut Vec<PositionRuns>,
    [a, b]: [DetectorId; 2],
    config: &super::Config,
    progress: &mut dyn Progress,
) -> Result<usize> {
    let (fixed, threads) = (config.set_rounds, config.threads);
    if fixed == 0 || jobs.is_empty() {
        return Ok(0);
    }
    let order = |round: usize| {
        if round.is_multiple_of(2) {
            [a, b]
        } else {
            [b, a]
        }
    };
    progress.stage(
        &format!("{label}: {} against {}", a.name(), b.name()),
        (fixed * jobs.len()) as u64,
    );
    for round in 0..fixed {
        timed_round(jobs, profiles, order(round), positions, threads, progress)?;
    }
    let limits = config.edge_limits();
    let units = (resolution::round_cap(fixed, limits.factor) - fixed) * jobs.len();
    progress.stage(&format!("{label} at the edge"), units as u64);
    let mut round = fixed;
    let added = resolution::edge_rounds(
        fixed,
        limits,
        positions,
        |p| {
            profiles
                .iter()
                .filter_map(|(name, _)| paired_rounds(p, name, a, b))
                .collect()
        },
        |p, edge| {
            let chosen: Vec<(String, SearchConfig)> =
                edge.iter().map(|&i| profiles[i].clone()).collect();
            round += 1;
            timed_round(jobs, &chosen, order(round - 1), p, threads, progress)
        },
    )?;
    Ok(fixed + added)
}

/// One paired round: every position of `jobs` searched again with the two detectors of
/// `order` alone, on searchers made for the round (in that order), under each of `profiles`:
/// in that order on even positions and the other way round on odd ones, so that every round
/// has each search first on half the positions; each time is added to its run's
/// [`PositionRun::rounds_ms`]. Which searcher is made first still moves a round: in a full run
/// with both orders of search in every round, the rounds still alternated +3.7%, +13.5%,
/// +6.3%, +11.6% (axon made first, then matrix), so the making order alternates from round to
/// round ([`time_in_rounds`]) and the interval over the rounds holds that swing.
fn timed_round(
    jobs: &[Job<'_>],
    profiles: &[(String, SearchConfig)],
    order: [DetectorId; 2],
    positions: &mut [PositionRuns],
    threads: usize,
    progress: &mut dyn Progress,
) -> Result<()> {
    let times = parallel(
        jobs.len(),
        threads,
        progress,
        || engines(profiles, &order),
        |engines, i, done| {
            let job = &jobs[i];
            let mut times: Vec<(String, DetectorId, f64)> = Vec::with_capacity(engines.len());
            // Each profile's two searchers, in turn; the second first on odd positions.
            let turn = if i % 2 == 0 { [0, 1] } else { [1, 0] };
            for pair in engines.chunks_mut(2) {
                for k in turn {
                    let (profile, detector, e) = &mut pair[k];
                    let ms = e.search_game(job.positions, job.moves).time_ms();
                    times.push((profile.clone(), *detector, ms));
                }
            }
            done.add(1);
            Ok(times)
        },
    )?;
    for (position, times) in positions.iter_mut().zip(times) {
        for (profile, detector, ms) in times {
            if let Some(run) = position
                .runs
                .iter_mut()
                .find(|r| r.profile == profile && r.detector == detector)
            {
                run.rounds_ms.push(Estimate::single(ms));
            }
        }
    }
    Ok(())
}

/// The distribution of `changes` (non-empty).
pub fn distribution(changes: &[f64]) -> Distribution {
    let mut v = changes.to_vec();
    v.sort_by(f64::total_cmp);
    let q = |p: f64| {
        // Linear interpolation between order statistics (type 7).
        let h = (v.len() - 1) as f64 * p;
        let lo = h.floor() as usize;
        let hi = h.ceil() as usize;
        v[lo] + (h - lo as f64) * (v[hi] - v[lo])
    };
    let n = v.len() as f64;
    Distribution {
        median: median_ci(&v),
        quartiles: [q(0.25), q(0.75)],
        shrinks: v.iter().filter(|x| **x < 0.0).count() as f64 / n,
        grows: v.iter().filter(|x| **x > 0.0).count() as f64 / n,
    }
}

/// Aggregates per profile × detector (not `off`) against `off` of the same profile.
pub fn aggregate(set: &str, positions: &[PositionRuns]) -> Vec<Aggregate> {
    let Some(first) = positions.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for run in first.runs.iter().filter(|r| r.detector != DetectorId::Off) {
        let find = |p: &PositionRuns, det: DetectorId| run_of(p, &run.profile, det).cloned();
        let pairs: Vec<(PositionRun, PositionRun)> = positions
            .iter()
            .filter_map(|p| Some((find(p, run.detector)?, find(p, DetectorId::Off)?)))
            .collect();
        let per = |f: fn(&PositionRun) -> f64| -> Vec<f64> {
            pairs.iter().map(|(d, o)| change(f(d), f(o))).collect()
        };
        let pooled = |f: fn(&PositionRun) -> f64| {
            change(
                pairs.iter().map(|(d, _)| f(d)).sum(),
                pairs.iter().map(|(_, o)| f(o)).sum(),
            )
        };
        let terminal = |r: &PositionRun| r.counters.terminal_nodes as f64;
        let generated = |r: &PositionRun| r.counters.generated as f64;
        let time = |r: &PositionRun| r.time_ms.value;
        out.push(Aggregate {
            set: set.to_string(),
            profile: run.profile.clone(),
            detector: run.detector,
            positions: pairs.len(),
            terminal: distribution(&per(terminal)),
            generated: distribution(&per(generated)),
            time: distribution(&per(time)),
            pooled_generated_change: pooled(generated),
            pooled_terminal_change: pooled(terminal),
            pooled_time_change: Estimate::single(pooled(time)),
            repetitions: pairs.iter().map(|(d, _)| d.counters.repetitions).sum(),
            best_move_changed: pairs
                .iter()
                .filter(|(d, o)| d.best_move != o.best_move)
                .count(),
        });
    }
    out
}
