//! The deterministic scheduler: real OS threads that pass a baton, so that at any moment exactly
//! one of them runs and the order in which they run is a function of a seed alone.
//!
//! Each search thread holds a [`Turn`]. The thread that holds the baton runs for a *quantum* of
//! node entries, then hands the baton to another thread that has not finished, chosen by a
//! seeded Xoshiro256++; it then sleeps on its own condition variable until the baton comes
//! back. Quantum lengths are drawn from the same generator, uniformly in `1 ..= 2q − 1` for a
//! mean of `q` nodes (`q = 1`: every node entry hands the baton to another thread). Every
//! draw happens under the baton's mutex by the thread holding it, and everything a thread
//! reads from the others (the shared tables, the stop flag) was written before the hand-over,
//! which the mutex orders; so the interleaving, and with it every count, is the same on every
//! run, whatever the operating system's scheduler does.
//!
//! The hook is a call to [`Turn::tick`] at each node entry, made by the lab's wrapper detector
//! ([`super::checked::Checked`]) inside `probe`, which the searcher calls at every node it
//! enters: the searcher itself has no hook and pays nothing.

use std::{
    cell::Cell,
    sync::{Arc, Condvar, Mutex, MutexGuard},
};

use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};

/// What the threads share: who holds the baton, who is still running, the generator.
#[derive(Debug)]
struct State {
    /// The thread holding the baton.
    holder: usize,
    /// Threads that have not finished.
    running: Vec<bool>,
    /// The quantum granted to the holder when it received the baton.
    grant: u64,
    /// The seeded generator of hand-overs and quanta.
    rng: Xoshiro256PlusPlus,
    /// Hand-overs so far.
    switches: u64,
}

/// The baton of one group of threads ([module docs](self)).
#[derive(Debug)]
pub struct Baton {
    state: Mutex<State>,
    /// One condition variable per thread: only the thread receiving the baton is woken.
    wake: Vec<Condvar>,
    /// Mean quantum, in node entries.
    quantum: u64,
}

impl Baton {
    /// A baton for `threads` threads; thread 0 holds it first.
    ///
    /// # Panics
    /// If `threads` or `quantum` is 0.
    pub fn new(threads: usize, seed: u64, quantum: u64) -> Arc<Baton> {
        assert!(threads > 0 && quantum > 0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let grant = draw_quantum(&mut rng, quantum);
        Arc::new(Baton {
            state: Mutex::new(State {
                holder: 0,
                running: vec![true; threads],
                grant,
                rng,
                switches: 0,
            }),
            wake: (0..threads).map(|_| Condvar::new()).collect(),
            quantum,
        })
    }

    /// The turn of thread `me` (each thread takes its own, once).
    pub fn turn(self: &Arc<Self>, me: usize) -> Turn {
        assert!(me < self.wake.len());
        Turn {
            baton: Arc::clone(self),
            me,
            left: Cell::new(0),
            finished: Cell::new(false),
        }
    }

    /// Hand-overs so far.
    pub fn switches(&self) -> u64 {
        self.lock().switches
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A thread that panicked never holds the lock (it only panics outside it), but a
        // poisoned lock must not hang the others: the state itself is always consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until `me` holds the baton; returns the quantum granted.
    fn wait_for(&self, me: usize, mut state: MutexGuard<'_, State>) -> u64 {
        while state.holder != me {
            state = self.wake[me].wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.grant
    }

    /// Hands the baton from `me` to another running thread chosen by the generator (none left:
    /// `me` keeps it for good). Returns the state still locked.
    fn hand_over<'a>(
        &'a self,
        me: usize,
        mut state: MutexGuard<'a, State>,
    ) -> MutexGuard<'a, State> {
        let others = state
            .running
            .iter()
            .enumerate()
            .filter(|&(i, &r)| r && i != me)
            .count();
        if others == 0 {
            state.grant = u64::MAX;
            return state;
        }
        let pick = below(&mut state.rng, others);
        let next = state
            .running
            .iter()
            .enumerate()
            .filter(|&(i, &r)| r && i != me)
            .nth(pick)
            .map(|(i, _)| i)
            .expect("pick < others");
        state.grant = draw_quantum(&mut state.rng, self.quantum);
        state.holder = next;
        state.switches += 1;
        self.wake[next].notify_one();
        state
    }
}

/// A quantum: uniform in `1 ..= 2q − 1` (mean `q`).
fn draw_quantum(rng: &mut Xoshiro256PlusPlus, quantum: u64) -> u64 {
    1 + below(rng, (2 * quantum - 1) as usize) as u64
}

/// A uniform index below `n` (`n > 0`).
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// One thread's side of a [`Baton`]: [`Turn::start`] before touching anything shared,
/// [`Turn::tick`] at every node entry, [`Turn::finish`] when done (dropping an unfinished turn
/// finishes it, so a thread that panics does not leave the others waiting).
#[derive(Debug)]
pub struct Turn {
    baton: Arc<Baton>,
    me: usize,
    /// Node entries left in the current quantum.
    left: Cell<u64>,
    finished: Cell<bool>,
}

impl Turn {
    /// Waits for the baton.
    pub fn start(&self) {
        let state = self.baton.lock();
        self.left.set(self.baton.wait_for(self.me, state));
    }

    /// A node entry: once the quantum is used up, hands the baton over and waits for it.
    #[inline]
    pub fn tick(&self) {
        let left = self.left.get();
        if left > 1 {
            self.left.set(left - 1);
        } else {
            self.switch();
        }
    }

    #[cold]
    #[inline(never)]
    fn switch(&self) {
        let state = self.baton.hand_over(self.me, self.baton.lock());
        self.left.set(self.baton.wait_for(self.me, state));
    }

    /// This thread is done: hands the baton to another running thread for good.
    pub fn finish(&self) {
        if self.finished.replace(true) {
            return;
        }
        let mut state = self.baton.lock();
        state.running[self.me] = false;
        if state.holder == self.me {
            drop(self.baton.hand_over(self.me, state));
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order in which `threads` threads of `steps` ticks each get to run.
    fn order(threads: usize, steps: usize, seed: u64, quantum: u64) -> Vec<usize> {
        let baton = Baton::new(threads, seed, quantum);
        let log = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for me in 0..threads {
                let turn = baton.turn(me);
                let log = &log;
                s.spawn(move || {
                    turn.start();
                    for _ in 0..steps {
                        log.lock().unwrap().push(me);
                        turn.tick();
                    }
                    turn.finish();
                });
            }
        });
        log.into_inner().unwrap()
    }

    #[test]
    fn the_interleaving_depends_on_the_seed_only() {
        let a = order(4, 200, 7, 1);
        assert_eq!(a.len(), 800);
        assert_eq!(a, order(4, 200, 7, 1));
        assert_ne!(a, order(4, 200, 8, 1));
        // Quantum 1: the baton changes hands at every tick while two threads run.
        let switches = a.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(switches > 600, "{switches}");
        // Every thread got to run everything.
        for t in 0..4 {
            assert_eq!(a.iter().filter(|&&x| x == t).count(), 200);
        }
        // A longer quantum: fewer hand-overs.
        let b = order(4, 200, 7, 16);
        let fewer = b.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(fewer < switches / 4, "{fewer} vs {switches}");
        assert_eq!(b, order(4, 200, 7, 16));
    }

    #[test]
    fn a_dropped_turn_passes_the_baton_on() {
        let baton = Baton::new(2, 1, 1);
        let (a, b) = (baton.turn(0), baton.turn(1));
        std::thread::scope(|s| {
            s.spawn(move || {
                a.start();
                drop(a); // finishes
            });
            s.spawn(move || {
                b.start();
                for _ in 0..10 {
                    b.tick(); // alone: never waits
                }
            });
        });
        assert_eq!(baton.switches(), 1);
    }
}
