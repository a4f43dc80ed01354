//! The settings of a conformance run: the configuration, its declared ranges and its checks.

use std::path::PathBuf;

use anyhow::Result;

use crate::engine::Launch;
use replab_harness::experiment::Declared;

/// The settings of a conformance run.
#[derive(Clone, Debug)]
pub struct Config {
    /// A scenario file whose scenarios replace the built-in ones of the same id and are added
    /// after the others; `None` for the built-in scenarios only.
    pub scenarios: Option<PathBuf>,
    /// Only these scenario ids (empty: all).
    pub only: Vec<String>,
    /// Leave these scenario ids out.
    pub skip: Vec<String>,
    /// Scenario ids every engine is expected to fail: their failures do not fail the run.
    pub expect_fail: Vec<String>,
    /// `setoption name … value …` sent to every external engine before `isready`.
    pub engine_options: Vec<(String, String)>,
    /// Search every scenario to this depth instead of its own.
    pub depth: Option<u32>,
    /// Search every scenario for this many milliseconds (`go movetime`) instead of to a depth.
    pub movetime: Option<u64>,
    /// Where to write the JUnit XML file (one testcase per engine × scenario).
    pub junit: Option<PathBuf>,
    /// Print the results as JSON on stdout (the summary goes to stderr).
    pub json: bool,
    /// Run the mutation table: replab's test engine with each injected rule bug, in both move
    /// orders ([`mutation`]).
    pub mutations: bool,
    /// How replab's own engine is started (`replab uci`, or in-process).
    pub replab: Launch,
    /// External engines, each a command line (program and arguments).
    pub engines: Vec<Vec<String>>,
    /// Seconds allowed for one scenario (and for the handshake) ([`TIMEOUT`]).
    pub timeout: u64,
    /// The command line recorded in `meta`.
    pub command: String,
    /// Run replab's own configurations ([`replab_engines`]).
    pub include_replab: bool,
    /// Every search detector of replab's, not only `off` and the exact one.
    pub all_detectors: bool,
    /// An external engine that cannot be started is listed as skipped instead of an error.
    pub skip_missing: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            scenarios: None,
            only: Vec::new(),
            skip: Vec::new(),
            expect_fail: Vec::new(),
            engine_options: Vec::new(),
            depth: None,
            movetime: None,
            junit: None,
            json: false,
            mutations: false,
            replab: Launch::InProcess,
            engines: Vec::new(),
            timeout: 30,
            command: "replab conformance".into(),
            include_replab: true,
            all_detectors: true,
            skip_missing: false,
        }
    }
}

replab_settings::declare! {
    /// Every declared setting of `replab conformance`.
    pub SETTINGS for Config = [
        DEPTH: depth, 1, 64, "Search every scenario to this depth instead of its own.";
        MOVETIME: movetime, 1, 600_000,
            "Search every scenario for this many milliseconds (`go movetime`) instead of to a depth.";
        TIMEOUT: timeout, 1, 3600,
            "Seconds allowed per scenario before the engine counts as hung.";
    ]
}

impl replab_harness::experiment::Settings for Config {
    /// Conformance has no short run of its own: `bench --quick` leaves the external engines out.
    fn quick() -> Self {
        Self::default()
    }
    fn set_command(&mut self, command: String) {
        self.command = command;
    }
    /// The scenarios must load, the limits make sense, and engine options have an engine to go
    /// to, before any engine starts.
    fn check(&self) -> Result<()> {
        self.check_declared()?;
        anyhow::ensure!(
            self.engine_options.is_empty() || !self.engines.is_empty(),
            "{} is sent to {} engines; none given",
            replab_settings::Setting::new("engine_options"),
            replab_settings::Setting::new("engines")
        );
        anyhow::ensure!(
            self.depth.is_none() || self.movetime.is_none(),
            "{} and {} both set: a scenario is searched to a depth or for a time",
            DEPTH.setting,
            MOVETIME.setting
        );
        self.load().map(drop)
    }
    const DECLARED: &'static [Declared] = SETTINGS;
}
