//! replab's criterion benchmarks, a workspace package of their own that no other package
//! depends on (`publish = false`). Run them with `cargo bench -p replab-benches` (or
//! `just criterion`); criterion writes its estimates under `target/criterion/`, where the
//! micro-benchmark page of `replab bench` reads them.
//!
//! - `board.rs`: perft of four positions, copy-make of every legal move, and legal move
//!   generation.
//! - `detectors.rs`: one push + probe + enter + upcoming + leave + pop cycle of every detector
//!   in the registry's table, by reversible-run and game-history length, and per node of a
//!   seeded walk. What it times is the workloads' jobs (`replab_workloads::jobs`, over
//!   `scenarios` and `walk`), the same code the micro-benchmark experiment times with its own
//!   round-robin loop. That loop stays because `replab bench`'s page needs what it alone gives
//!   (each cost as a ratio to a copy-make timed in the same round, with intervals, without
//!   cargo at run time); this target stays as the independent check the page shows beside it.
//!
//! This library holds no code: it exists because a package needs a library or binary target.
