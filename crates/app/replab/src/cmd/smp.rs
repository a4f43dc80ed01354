//! `replab smp`: parallel search (Lazy SMP) and shared repetition structures (`replab_smp`).

use replab_smp::Smp;

experiment_command! {
    /// Parallel search (Lazy SMP): shared open flags against per-thread repetition structures.
    Smp with quick {
        depth: u32 ["N"],
        threads: Vec<usize> ["LIST", value_delimiter = ','],
        repetition_records: usize ["N"],
        wac_records: usize ["N"],
        /// Seed of the deterministic scheduler.
        seed: u64 ["S"],
        quantum: u64 ["N"],
        /// Positions searched again by the shared variants with a quantum of 1 (0: no check).
        quantum_check_positions: usize ["N", long = "quantum-check"],
        tt_bits: u32 ["BITS"],
        real_depth: u32 ["N"],
        /// Real threads: positions timed (the first N of the set; 0: no real-thread runs).
        real_positions: usize ["N"],
        repeats: usize ["K"],
        workers: usize ["T"],
    }
}
