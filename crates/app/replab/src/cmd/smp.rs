//! `replab smp`: parallel search (Lazy SMP) and shared repetition structures (`replab_smp`).

experiment_command! {
    /// Parallel search (Lazy SMP): shared open flags against per-thread repetition structures.
    replab_smp::Smp with quick {
        depth: Option<u32> ["N"],
        threads: Option<Vec<usize>> ["LIST", value_delimiter = ','],
        repetition_records: Option<usize> ["N"],
        wac_records: Option<usize> ["N"],
        /// Seed of the deterministic scheduler.
        seed: Option<u64> ["S"],
        quantum: Option<u64> ["N"],
        /// Positions searched again by the shared variants with a quantum of 1 (0: no check).
        quantum_check_positions: Option<usize> ["N", long = "quantum-check"],
        tt_bits: Option<u32> ["BITS"],
        real_depth: Option<u32> ["N"],
        /// Real threads: positions timed (the first N of the set; 0: no real-thread runs).
        real_positions: Option<usize> ["N"],
        repeats: Option<usize> ["K"],
        workers: Option<usize> ["T"],
    }
}
