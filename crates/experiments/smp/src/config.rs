//! The settings of `replab smp`, each declared on its field, and their checks.

use anyhow::{Result, ensure};
use replab_search::SearchConfig;
use replab_settings::Settings;
use serde::{Deserialize, Serialize};

use crate::experiment::Configuration;

/// Deepest main-thread depth accepted.
pub const MAX_DEPTH: u32 = 12;
/// Most threads accepted in a group.
pub const MAX_THREADS: usize = 64;

/// Thread counts of the quantum check (those that are run).
pub const QUANTUM_CHECK_THREADS: [usize; 2] = [2, 4];

/// The settings of `replab smp`, each declared on its field: the doc comment is its help.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// The main thread's depth in deterministic mode.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub depth: u32,
    /// Thread counts, comma-separated (each {range}; 1 is always added: the reference).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    #[setting(range = 1..=MAX_THREADS)]
    pub threads: Vec<usize>,
    /// Records of datasets/repetition.epd searched (the first N; more than the file holds
    /// means all).
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=1000)]
    pub repetition_records: usize,
    /// Records of datasets/wac.epd searched (the first N; more than the file holds means all).
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=1000)]
    pub wac_records: usize,
    /// Seed of the deterministic scheduler.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Mean node entries per turn of the deterministic scheduler (1: the baton changes hands at
    /// every node).
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=1_000_000)]
    pub quantum: u64,
    /// Positions searched again by the shared variants with a quantum of 1 (0: no check).
    #[arg(long = "quantum-check", value_name = "N")]
    pub quantum_check_positions: usize,
    /// Positions (the first N) whose deterministic groups are searched twice and compared.
    #[arg(skip)]
    pub reproducibility_positions: usize,
    /// Index bits of the shared transposition table.
    #[arg(long, value_name = "BITS")]
    #[setting(range = 10..=26)]
    pub tt_bits: u32,
    /// Real threads: the main thread's depth.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub real_depth: u32,
    /// Real threads: positions timed (the first N of the set; 0: no real-thread runs).
    #[arg(long, value_name = "N")]
    pub real_positions: usize,
    /// Real threads: interleaved timed rounds.
    #[arg(long, value_name = "K")]
    #[setting(range = 1..=100)]
    pub repeats: usize,
    /// Worker threads running deterministic groups side by side ({range}); the counts do not
    /// depend on it.
    #[arg(long, value_name = "T")]
    #[setting(range = 1..=256, shown = WORKERS_SHOWN)]
    pub workers: usize,
    /// The command line that regenerates the report (in `meta`).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
}

/// Deterministic groups searched side by side unless told otherwise, per core. A group's
/// threads pass a baton: one of them runs at a time, and its core waits at every hand-over
/// while the next one wakes, so one group per core leaves the cores idle. The short run's
/// groups took 4.9 s of wall with 8 workers against 8.7 and 9.6 s with 2, for about 9 s of CPU
/// either way (`replab smp --depth 4 --repetition-records 24 --wac-records 4 --quantum-check 4
/// --real-positions 0`, 2 cores, 2026-11-30).
pub const WORKERS_PER_CORE: usize = 4;

/// [`Config::workers`]' default as `--help` shows it, the same on every machine.
pub const WORKERS_SHOWN: &str = "4 per core";

/// [`WORKERS_PER_CORE`] on each core of this machine.
pub fn default_workers() -> usize {
    WORKERS_PER_CORE * std::thread::available_parallelism().map_or(1, usize::from)
}

impl Default for Config {
    /// The command line's defaults (the full run).
    fn default() -> Self {
        Self {
            depth: 5,
            threads: vec![1, 2, 4, 8],
            repetition_records: 79,
            wac_records: 8,
            seed: 1,
            quantum: 32,
            quantum_check_positions: 12,
            reproducibility_positions: 2,
            tt_bits: 18,
            real_depth: 6,
            real_positions: 3,
            repeats: 6,
            workers: default_workers(),
            command: String::new(),
        }
    }
}

impl Config {
    /// The short run of `bench --quick`.
    pub fn quick() -> Self {
        Self {
            depth: 4,
            repetition_records: 24,
            wac_records: 4,
            quantum_check_positions: 4,
            reproducibility_positions: 1,
            real_depth: 5,
            real_positions: 2,
            // The real threads once: a smoke run of them (their times carry no interval), as
            // every count of the page comes from the deterministic groups.
            repeats: 1,
            ..Self::default()
        }
    }

    /// The thread counts as run: sorted, deduplicated, 1 included.
    pub fn thread_counts(&self) -> Vec<usize> {
        let mut t = self.threads.clone();
        t.push(1);
        t.sort_unstable();
        t.dedup();
        t
    }

    /// The main thread's search settings at `depth`.
    pub(crate) fn search(&self, depth: u32) -> SearchConfig {
        SearchConfig {
            max_depth: depth,
            tt_bits: Some(self.tt_bits),
            ..SearchConfig::default()
        }
    }
}

impl Configuration for Config {
    fn quick() -> Self {
        Config::quick()
    }

    /// The short run's groups on fewer positions, a ply shallower.
    fn smoke() -> Self {
        Config {
            depth: 3,
            repetition_records: 6,
            wac_records: 2,
            quantum_check_positions: 2,
            real_depth: 4,
            real_positions: 1,
            ..Config::quick()
        }
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }

    fn check(&self) -> Result<()> {
        self.check_ranges()?;
        ensure!(
            !self.threads.is_empty(),
            "{} needs at least one count",
            Config::THREADS
        );
        ensure!(
            self.repetition_records + self.wac_records > 0,
            "{} and {} are both 0: nothing to search",
            Config::REPETITION_RECORDS,
            Config::WAC_RECORDS
        );
        Ok(())
    }
}
