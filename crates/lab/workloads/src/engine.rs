//! Shared machinery of the experiments: searchers of every detector by name ([`DynSearch`]),
//! running independent jobs on a fixed number of worker threads (a rayon pool per run) with
//! results in a fixed order, and the default thread count.

use std::sync::mpsc;

use anyhow::{Result, anyhow};
use rayon::{iter::ParallelBridge, prelude::*};
use replab_harness::pool;
use replab_registry::with_detector;
use replab_search::{DynSearch, SearchConfig};

use crate::Progress;

/// The most worker threads an experiment takes unless told otherwise.
pub const DEFAULT_THREADS_MAX: usize = 2;

/// The worker threads of an experiment unless told otherwise: [`DEFAULT_THREADS_MAX`], or one
/// on a single core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(DEFAULT_THREADS_MAX))
}

/// [`default_threads`] in words, the same on every machine (as `--help` gives it).
pub fn default_threads_text() -> String {
    format!("{DEFAULT_THREADS_MAX} (1 on a single core)")
}

/// A searcher using the detector `name` (or none for `off`) with `config`.
pub fn engine(name: &str, config: SearchConfig) -> Result<Box<dyn DynSearch>> {
    with_detector!(name, config.policy.root_rule(), |d| {
        replab_search::boxed(d, config).map_err(|e| anyhow!("{name}: {e}"))
    })
    .map_err(|e| anyhow!(e))?
}

/// Units of progress reported by jobs running on a pool ([`on_pool`]): each report wakes the
/// thread waiting for the pool, which forwards it to the progress bar (no polling).
pub struct Done(mpsc::Sender<u64>);

impl Done {
    /// Reports `units` more units done.
    pub fn add(&self, units: u64) {
        // The receiver lives until the work has returned, so the send cannot fail.
        let _ = self.0.send(units);
    }
}

/// Runs `work` on a pool of `threads` worker threads ([`pool::run`]) while the calling thread
/// forwards the units `work` reports through its [`Done`] to `progress`, as they come; returns
/// what `work` returns (a panic in `work` is raised again here).
pub fn on_pool<T: Send>(
    threads: usize,
    progress: &mut dyn Progress,
    work: impl FnOnce(&Done) -> T + Send,
) -> Result<T> {
    pool::run(
        threads,
        |tx| work(&Done(tx)),
        |units| {
            progress.advance(units);
            Ok(())
        },
    )
}

/// Runs `job(i)` for every `i < jobs` on a pool of `threads` workers ([`on_pool`]), returning
/// the results in index order whatever the scheduling. Jobs are handed out in index order to
/// whichever worker is free; each worker builds its own state with `init` (at most one per
/// worker and one more). Progress: the units each job reports through its [`Done`].
pub fn parallel<S, T: Send>(
    jobs: usize,
    threads: usize,
    progress: &mut dyn Progress,
    init: impl Fn() -> Result<S> + Sync + Send,
    job: impl Fn(&mut S, usize, &Done) -> Result<T> + Sync + Send,
) -> Result<Vec<T>> {
    let workers = threads.clamp(1, jobs.max(1));
    let mut results: Vec<(usize, Result<T>)> = on_pool(workers, progress, |done| {
        (0..jobs)
            .par_bridge()
            .map_init(
                || init().map_err(Some),
                |state, i| {
                    let r = match state {
                        Ok(s) => job(s, i, done),
                        // A worker that could not start reports why in its first job.
                        Err(e) => Err(e
                            .take()
                            .unwrap_or_else(|| anyhow!("job {i}: its worker could not start"))),
                    };
                    (i, r)
                },
            )
            .collect()
    })?;
    results.sort_unstable_by_key(|&(i, _)| i);
    results.into_iter().map(|(_, r)| r).collect()
}
