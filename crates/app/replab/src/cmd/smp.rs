//! `replab smp`: parallel search (Lazy SMP) and shared repetition structures (`replab_smp`):
//! each option's help and range come from the experiment's declarations (`replab_smp::SETTINGS`).

use replab_smp::Smp;

use super::experiment_command;

experiment_command! {
    /// Parallel search (Lazy SMP): shared open flags against per-thread repetition structures.
    Smp {
        #[arg(long, value_name = "N")]
        depth: Option<u32>,
        #[arg(long, value_name = "LIST", value_delimiter = ',')]
        threads: Option<Vec<usize>>,
        #[arg(long, value_name = "N")]
        repetition_records: Option<usize>,
        #[arg(long, value_name = "N")]
        wac_records: Option<usize>,
        /// Seed of the deterministic scheduler.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        #[arg(long, value_name = "N")]
        quantum: Option<u64>,
        /// Positions searched again by the shared variants with a quantum of 1 (0: no check).
        #[arg(long = "quantum-check", value_name = "N")]
        quantum_check_positions: Option<usize>,
        #[arg(long, value_name = "BITS")]
        tt_bits: Option<u32>,
        #[arg(long, value_name = "N")]
        real_depth: Option<u32>,
        /// Real threads: positions timed (the first N of the set; 0: no real-thread runs).
        #[arg(long, value_name = "N")]
        real_positions: Option<usize>,
        #[arg(long, value_name = "K")]
        repeats: Option<usize>,
        #[arg(long, value_name = "T")]
        workers: Option<usize>,
    }
}
