//! The settings of a conformance run, each declared on its field (the doc comment is its help),
//! and their checks.

use std::path::PathBuf;

use anyhow::Result;
use replab_settings::Settings;
use serde::Serialize;

use crate::{command_words::EngineCommand, engine::Launch, engine::parse_option};

/// The settings of `replab conformance`.
#[derive(Clone, Debug, Serialize, clap::Args, Settings)]
pub struct Config {
    /// An external UCI engine (repeatable): a path to the program (taken whole, spaces and
    /// all), or a command line split as a POSIX shell splits it
    /// (`--engine "'/opt/my engine/run' --uci"`).
    #[arg(long = "engine", value_name = "CMD")]
    pub engines: Vec<EngineCommand>,
    /// `setoption name NAME value VALUE` sent to every --engine before `isready` (repeatable).
    #[arg(long = "engine-option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub engine_options: Vec<(String, String)>,
    /// List an `--engine` that cannot be started as skipped instead of exiting with status 2
    /// (still 2 when every engine is skipped: nothing was tested).
    #[arg(long)]
    pub skip_missing: bool,
    /// Also run replab's own configurations when `--engine` is given (they always run without
    /// it).
    #[arg(long)]
    pub with_replab: bool,
    /// A scenario file: its scenarios replace the built-in ones of the same id and are added
    /// after the others.
    #[arg(long, value_name = "FILE")]
    pub scenarios: Option<PathBuf>,
    /// Print the scenarios (id, rule, source, what each checks) and exit.
    #[arg(long)]
    pub list: bool,
    /// Run only these scenarios (comma-separated ids).
    #[arg(long, value_name = "ID,...", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Leave these scenarios out (comma-separated ids).
    #[arg(long, value_name = "ID,...", value_delimiter = ',')]
    pub skip: Vec<String>,
    /// Scenarios the engines are expected to fail (comma-separated ids): their failures are
    /// reported but do not fail the run; a pass is reported as unexpected.
    #[arg(long, value_name = "ID,...", value_delimiter = ',')]
    pub expect_fail: Vec<String>,
    /// Search every scenario to this depth instead of its own.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=64)]
    pub depth: Option<u32>,
    /// Search every scenario for this many milliseconds (`go movetime`) instead of to a depth.
    #[arg(long, value_name = "MS")]
    #[setting(range = 1..=600_000)]
    pub movetime: Option<u64>,
    /// Report a wrong answer as the engine first gave it. Without this, a wrong answer of an
    /// engine whose failures count (an --engine, replab's exact detector) is asked again with
    /// a deeper search (4 plies deeper, or 4 times the move time) and the deeper answer decides,
    /// both shown: a rule bug persists with depth, a pruning effect does not.
    #[arg(long)]
    pub first_answer_only: bool,
    /// Fail the run on the failures put down to an engine's twofold search policy too (they
    /// are reported apart, as "by policy (twofold)", and do not fail it otherwise).
    #[arg(long)]
    pub fail_on_policy: bool,
    /// Seconds allowed per scenario before the engine counts as hung.
    #[arg(long, value_name = "S")]
    #[setting(range = 1..=3600)]
    pub timeout: u64,
    /// Write JUnit XML: one testsuite per engine, one testcase per scenario.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Print the results as JSON on stdout (the summary goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// Also run the mutation table: replab's test engine with each injected draw-rule bug, in
    /// both move orders.
    #[arg(long)]
    pub mutations: bool,
    /// How replab's own engine is started (`replab uci`, or in-process).
    #[arg(skip)]
    #[serde(skip)]
    pub replab: Launch,
    /// Every search detector of replab's, not only `off` and the exact one.
    #[arg(skip)]
    pub all_detectors: bool,
    /// The command line recorded in `meta`.
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engines: Vec::new(),
            engine_options: Vec::new(),
            skip_missing: false,
            with_replab: false,
            scenarios: None,
            list: false,
            only: Vec::new(),
            skip: Vec::new(),
            expect_fail: Vec::new(),
            depth: None,
            movetime: None,
            first_answer_only: false,
            fail_on_policy: false,
            timeout: 30,
            junit: None,
            json: false,
            mutations: false,
            replab: Launch::InProcess,
            all_detectors: true,
            command: String::new(),
        }
    }
}

impl Config {
    /// Whether replab's own configurations run: always without `--engine`, with it only when
    /// asked (`--with-replab`).
    pub fn runs_replab(&self) -> bool {
        self.engines.is_empty() || self.with_replab
    }
}

impl replab_harness::experiment::Configuration for Config {
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
        self.check_ranges()?;
        anyhow::ensure!(
            self.engine_options.is_empty() || !self.engines.is_empty(),
            "{} is sent to {} engines; none given",
            Config::ENGINE_OPTIONS,
            Config::ENGINES
        );
        anyhow::ensure!(
            self.depth.is_none() || self.movetime.is_none(),
            "{} and {} both set: a scenario is searched to a depth or for a time",
            Config::DEPTH,
            Config::MOVETIME
        );
        self.load().map(drop)
    }
}
