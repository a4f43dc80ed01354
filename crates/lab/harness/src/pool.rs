//! The one kind of pool for independent work: a rayon pool of a run's worker threads, whose
//! work reports to the calling thread through a channel as it goes (progress units, finished
//! games), so the caller forwards each report as it comes (no polling).

use std::sync::mpsc::{self, Sender};

use anyhow::{Result, anyhow};
use rayon::{ThreadPool, ThreadPoolBuilder};

/// A pool of `threads` worker threads (at least one), for one run.
pub fn pool(threads: usize) -> Result<ThreadPool> {
    ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .thread_name(|i| format!("replab-worker-{i}"))
        .build()
        .map_err(|e| anyhow!("cannot start {threads} worker threads: {e}"))
}

/// Runs `work` on a pool of `threads` worker threads while the calling thread hands every
/// message `work` sends through its [`Sender`] to `receive`, as they come; returns what `work`
/// returns (a panic in `work` is raised again here). An error from `receive` stops the
/// receiving (the work's later sends fail, which tells it to stop) and is returned once the
/// work has returned.
pub fn run<M: Send, T: Send>(
    threads: usize,
    work: impl FnOnce(Sender<M>) -> T + Send,
    mut receive: impl FnMut(M) -> Result<()>,
) -> Result<T> {
    let pool = pool(threads)?;
    let (tx, rx) = mpsc::channel();
    let (mut out, mut received) = (None, Ok(()));
    pool.in_place_scope(|scope| {
        let slot = &mut out;
        scope.spawn(move |_| *slot = Some(work(tx)));
        // Ends when `work` has returned and dropped the sender, or at `receive`'s first error
        // (dropping the receiver).
        received = rx.into_iter().try_for_each(&mut receive);
    });
    received?;
    Ok(out.expect("the scope waits for the work"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_reaches_the_caller() {
        let mut got = Vec::new();
        let out = run(
            2,
            |tx| {
                (1..=4).for_each(|i| tx.send(i).unwrap());
                "done"
            },
            |m| {
                got.push(m);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!((out, got), ("done", vec![1, 2, 3, 4]));
    }

    #[test]
    fn a_refused_message_stops_the_work_and_is_returned() {
        let e = run(
            1,
            |tx| (0..).take_while(|&i| tx.send(i).is_ok()).count(),
            |m| {
                if m < 3 {
                    Ok(())
                } else {
                    Err(anyhow!("no {m}"))
                }
            },
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "no 3");
    }
}
