//! Jobs that share one core: each on a thread of its own, all pinned to the core the caller
//! runs on, so the kernel time-slices them a few milliseconds at a time and a slow spell of
//! the machine (a busy neighbour, a clock change) falls on all of them alike. Each job's time
//! is its thread's CPU time. Once a job's measured work is done, its thread keeps the core
//! busy with filler work until every job is done, so that every measured job runs beside the
//! same number of others from start to end.
//!
//! Run in turn, one after another, one job (a loop of random updates to a 4 MB array) took
//! 2.4 to 9.7 s on the 2-core machine (2026-11-30, eight rounds of three); three at once on
//! one core, their CPU times in a round were within 2.5% of each other, while a round's times
//! still ranged from 7.3 to 9.5 s: the spells move every time, and only a ratio within a round
//! holds still.
#![allow(unsafe_code)] // `sched_getcpu` and `sched_setaffinity` are libc calls.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};

/// Whether this system can pin a thread to one core (Linux).
pub fn available() -> bool {
    cfg!(target_os = "linux")
}

/// The core the calling thread runs on now.
#[cfg(target_os = "linux")]
pub fn current_core() -> Result<usize> {
    // SAFETY: `sched_getcpu` takes no arguments and only reads the caller's state.
    let core = unsafe { libc::sched_getcpu() };
    usize::try_from(core)
        .map_err(|_| anyhow!("sched_getcpu failed: {}", std::io::Error::last_os_error()))
}

/// The core the calling thread runs on now (only Linux can tell).
#[cfg(not(target_os = "linux"))]
pub fn current_core() -> Result<usize> {
    bail!("pinning threads to one core needs Linux")
}

/// Pins the calling thread to `core`.
#[cfg(target_os = "linux")]
pub fn pin_to(core: usize) -> Result<()> {
    // SAFETY: the set is a plain bit array, zeroed, then one bit set within its size; the
    // call reads it and affects only the calling thread (pid 0).
    let status = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if core >= 8 * std::mem::size_of::<libc::cpu_set_t>() {
            bail!("core {core} is past the affinity mask");
        }
        libc::CPU_SET(core, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set)
    };
    if status != 0 {
        bail!(
            "cannot pin a thread to core {core}: {}",
            std::io::Error::last_os_error()
        );
    }
    Ok(())
}

/// Pins the calling thread to `core` (only on Linux).
#[cfg(not(target_os = "linux"))]
pub fn pin_to(core: usize) -> Result<()> {
    bail!("pinning threads to core {core} needs Linux")
}

/// The CPU time the calling thread has had so far (self-play's reader,
/// [`replab_selfplay::usage::thread_cpu`]), an error where it cannot be read.
pub fn thread_cpu() -> Result<Duration> {
    replab_selfplay::usage::thread_cpu().context("cannot read the thread's CPU time")
}

/// Runs `measured` on every item at once, each on a thread of its own (a rayon pool of one
/// thread per item) pinned to the caller's current core; a thread whose measured work is done
/// runs `filler(item, stop)` again and again until every measured job is done (`stop` is then
/// set: a filler should look at it and return soon). Returns each item's measured result, in
/// item order, or the first error in item order (a job's panic is the caller's panic).
pub fn run<I: Send, T: Send>(
    items: &mut [I],
    measured: impl Fn(&mut I) -> Result<T> + Sync,
    filler: impl Fn(&mut I, &Arc<AtomicBool>) + Sync,
) -> Result<Vec<T>> {
    let core = current_core()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(items.len())
        .build()
        .context("cannot start the threads that share one core")?;
    let stop = Arc::new(AtomicBool::new(false));
    let left = AtomicUsize::new(items.len());
    let mut results: Vec<Option<Result<T>>> = items.iter().map(|_| None).collect();
    pool.scope(|s| {
        for (item, out) in items.iter_mut().zip(results.iter_mut()) {
            let (stop, left, measured, filler) = (&stop, &left, &measured, &filler);
            s.spawn(move |_| {
                *out = Some(pin_to(core).and_then(|()| measured(item)));
                if left.fetch_sub(1, Ordering::SeqCst) == 1 {
                    stop.store(true, Ordering::SeqCst);
                }
                while !stop.load(Ordering::SeqCst) {
                    filler(item, stop);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(anyhow!("a job sharing one core did not finish"))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spins until the thread has had `ms` milliseconds of CPU; returns the CPU time it took.
    fn spin(ms: u64) -> Result<Duration> {
        let start = thread_cpu()?;
        while thread_cpu()? - start < Duration::from_millis(ms) {
            std::hint::black_box(0u64);
        }
        Ok(thread_cpu()? - start)
    }

    #[test]
    fn every_job_runs_on_the_callers_core_and_fillers_run_until_the_last_is_done() {
        if !available() {
            eprintln!("skipped: pinning threads needs Linux");
            return;
        }
        // (measured milliseconds, the core it ran on, filler calls)
        let mut items: Vec<(u64, Option<usize>, usize)> =
            vec![(5, None, 0), (60, None, 0), (20, None, 0)];
        let caller = current_core().unwrap();
        let out = run(
            &mut items,
            |item| {
                item.1 = Some(current_core()?);
                spin(item.0)
            },
            |item, stop| {
                item.2 += 1;
                while !stop.load(Ordering::SeqCst) && spin(1).is_ok() {}
            },
        )
        .unwrap();
        // Results in item order, each with at least its CPU time.
        for (t, item) in out.iter().zip(&items) {
            assert!(*t >= Duration::from_millis(item.0));
        }
        // Pinned to one core: the core the caller ran on when it started them (a thread may
        // only run where its mask allows).
        let cores: Vec<_> = items.iter().map(|i| i.1.unwrap()).collect();
        assert!(
            cores.iter().all(|&c| c == cores[0]),
            "{cores:?} (caller {caller})"
        );
        // The two shorter jobs kept the core busy; the longest did not need to.
        assert!(items[0].2 >= 1 && items[2].2 >= 1, "{items:?}");
        assert_eq!(items[1].2, 0, "{items:?}");
    }

    #[test]
    fn a_failing_job_is_the_error_and_the_others_stop() {
        if !available() {
            eprintln!("skipped: pinning threads needs Linux");
            return;
        }
        let mut items = [1u64, 2, 3];
        let e = run(
            &mut items,
            |&mut i| {
                if i == 2 {
                    Err(anyhow!("job {i} failed"))
                } else {
                    spin(i)
                }
            },
            |_, _| {},
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "job 2 failed");
    }
}
