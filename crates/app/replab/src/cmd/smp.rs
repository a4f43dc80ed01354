//! `replab smp`: parallel search (Lazy SMP) and shared repetition structures (`replab_smp`).

use super::{NoOptions, Report};

/// `replab smp`.
pub struct Smp;

impl Report for Smp {
    type Experiment = replab_smp::Smp;
    type Own = NoOptions;
    const ABOUT: &'static str =
        "Parallel search (Lazy SMP): shared open flags against per-thread repetition structures";
    const QUICK: bool = true;
}
