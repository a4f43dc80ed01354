//! Shared machinery of the experiments: searchers of every detector behind one interface,
//! running independent jobs on a fixed number of worker threads with results in a fixed order,
//! and the default thread count.

use std::sync::{
    Mutex,
    atomic::{AtomicU64, AtomicUsize, Ordering},
};

use anyhow::{Result, anyhow};
use replab_board::{Move, Position};
use replab_detect::Detector;
use replab_registry::with_detector;
use replab_search::{SearchConfig, SearchResult, Searcher};

use crate::Progress;

/// The worker threads of an experiment unless told otherwise: two, or one on a single core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(2))
}

/// A searcher with its detector, so searchers of every detector type can be kept side by side
/// and reused (a reused searcher has its tables already in memory).
pub trait Engine {
    /// Searches the last of `positions` (the game before it as history).
    fn search(&mut self, positions: &[Position], moves: &[Move]) -> SearchResult;
}

impl<D: Detector> Engine for Searcher<D> {
    fn search(&mut self, positions: &[Position], moves: &[Move]) -> SearchResult {
        self.search_game(positions, moves)
    }
}

/// A searcher using the detector `name` (or none for `off`) with `config`.
pub fn engine(name: &str, config: SearchConfig) -> Result<Box<dyn Engine>> {
    with_detector!(name, config.policy.root_rule(), |d| {
        Searcher::try_new(d, config)
            .map(|s| Box::new(s) as Box<dyn Engine>)
            .map_err(|e| anyhow!("{name}: {e}"))
    })
    .map_err(|e| anyhow!(e))?
}

/// Runs `job(i)` for every `i < jobs` on `threads` workers (each worker builds its own state
/// with `init`), returning the results in index order whatever the scheduling. Progress: the
/// units each job reports through its counter are forwarded by the calling thread.
pub fn parallel<S, T: Send>(
    jobs: usize,
    threads: usize,
    progress: &mut dyn Progress,
    init: impl Fn() -> Result<S> + Sync,
    job: impl Fn(&mut S, usize, &AtomicU64) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let finished = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<Result<T>>>> = Mutex::new((0..jobs).map(|_| None).collect());
    let workers = threads.clamp(1, jobs.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut state = match init() {
                    Ok(s) => Some(s),
                    Err(e) => {
                        // Report the failure in the first slot this worker would have taken.
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i < jobs {
                            slots.lock().expect("no poisoned lock")[i] = Some(Err(e));
                        }
                        None
                    }
                };
                if let Some(state) = &mut state {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= jobs {
                            break;
                        }
                        let r = job(state, i, &done);
                        slots.lock().expect("no poisoned lock")[i] = Some(r);
                    }
                }
                finished.fetch_add(1, Ordering::Release);
            });
        }
        let mut reported = 0;
        loop {
            let all = finished.load(Ordering::Acquire) == workers;
            let now = done.load(Ordering::Relaxed);
            if now > reported {
                progress.advance(now - reported);
                reported = now;
            }
            if all {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    });
    slots
        .into_inner()
        .expect("no poisoned lock")
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|| Err(anyhow!("job {i} was not run"))))
        .collect()
}
