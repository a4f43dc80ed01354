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
                        retimed_ms: Vec::new(),
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
                p.runs
                    .iter()
                    .find(|r| r.profile == profile && r.detector == d)
                    .map(|r| {
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

/// Times `a` and `b` again on every position of `jobs`, under each of `profiles` whose
/// per-position time change of `a` against `b` ([`paired`]) sits at the edge, a paired round
/// at a time ([`resolution::edge_rounds`] within the study's [`super::Config::edge_limits`]:
/// each position was timed once, so at most [`resolution::round_cap`]`(1, edge_factor)` times
/// in all, none with a factor of 1); the times go to each run's [`PositionRun::retimed_ms`].
/// Returns the rounds added. Progress: one stage, one unit per position and round.
pub fn retime_at_edge(
    label: &str,
    jobs: &[Job<'_>],
    profiles: &[(String, SearchConfig)],
    positions: &mut Vec<PositionRuns>,
    [a, b]: [DetectorId; 2],
    config: &super::Config,
    progress: &mut dyn Progress,
) -> Result<usize> {
    let (limits, threads) = (config.edge_limits(), config.threads);
    let factor = limits.factor;
    if resolution::round_cap(1, factor) <= 1 {
        return Ok(0);
    }
    let timed: Vec<&(String, SearchConfig)> = profiles
        .iter()
        .filter(|(name, _)| paired(positions, name, a, b, true).is_some())
        .collect();
    let units = (resolution::round_cap(1, factor) - 1) * jobs.len();
    progress.stage(&format!("{label} at the edge"), units as u64);
    let mut round = 0;
    resolution::edge_rounds(
        1,
        limits,
        positions,
        |p| {
            timed
                .iter()
                .filter_map(|(name, _)| paired(p, name, a, b, true))
                .collect()
        },
        |p, edge| {
            let order = if round % 2 == 0 { [a, b] } else { [b, a] };
            round += 1;
            let chosen: Vec<(String, SearchConfig)> =
                edge.iter().map(|&i| timed[i].clone()).collect();
            retime_round(jobs, &chosen, order, p, threads, progress)
        },
    )
}

/// One paired round: every position of `jobs` searched again with the detectors of `order`, in
/// that order, under each of `profiles`; each time is added to its run's
/// [`PositionRun::retimed_ms`].
fn retime_round(
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
            let times: Vec<(String, DetectorId, f64)> = engines
                .iter_mut()
                .map(|(profile, detector, e)| {
                    let ms = e.search_game(job.positions, job.moves).time_ms();
                    (profile.clone(), *detector, ms)
                })
                .collect();
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
                run.retimed_ms.push(Estimate::single(ms));
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
        let find = |p: &PositionRuns, det: DetectorId| {
            p.runs
                .iter()
                .find(|r| r.profile == run.profile && r.detector == det)
                .cloned()
        };
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
