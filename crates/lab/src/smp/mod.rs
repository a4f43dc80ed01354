//! Parallel search (Lazy SMP) and shared repetition structures (`replab smp`).

pub mod checked;
pub mod group;
pub mod sched;

#[cfg(test)]
mod tests;
