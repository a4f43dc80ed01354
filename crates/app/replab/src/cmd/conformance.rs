//! `replab conformance`: its arguments, turned into a [`conformance::Config`] (the exit
//! statuses: `docs/contracts.md`).

use anyhow::Context;
use replab_conformance::{self as conformance, Conformance};

experiment_command! {
    /// Check UCI engines (replab's, once per detector, and --engine ones) against the draw rules.
    Conformance {
        /// An external UCI engine (repeatable): a path to the program (taken whole, spaces and
        /// all), or a command line split as a POSIX shell splits it
        /// (`--engine "'/opt/my engine/run' --uci"`).
        #[arg(long = "engine", value_name = "CMD")]
        engines: Vec<String>,
        /// `setoption name NAME value VALUE` sent to every --engine before `isready` (repeatable).
        engine_options: Option<Vec<(String, String)>>
            ["NAME=VALUE", long = "engine-option", value_parser = conformance::parse_option],
        /// List an `--engine` that cannot be started as skipped instead of exiting with status 2
        /// (still 2 when every engine is skipped: nothing was tested).
        skip_missing: bool,
        /// Also run replab's own configurations when `--engine` is given (they always run
        /// without it).
        with_replab: bool,
        /// A scenario file: its scenarios replace the built-in ones of the same id and are added
        /// after the others.
        scenarios: Option<std::path::PathBuf> ["FILE"],
        /// Print the scenarios (id, rule, source, what each checks) and exit.
        list: bool,
        /// Run only these scenarios (comma-separated ids).
        only: Option<Vec<String>> ["ID,...", value_delimiter = ','],
        /// Leave these scenarios out (comma-separated ids).
        skip: Option<Vec<String>> ["ID,...", value_delimiter = ','],
        /// Scenarios the engines are expected to fail (comma-separated ids): their failures are
        /// reported but do not fail the run; a pass is reported as unexpected.
        expect_fail: Option<Vec<String>> ["ID,...", value_delimiter = ','],
        depth: Option<u32> ["N"],
        movetime: Option<u64> ["MS"],
        timeout: Option<u64> ["S"],
        /// Write JUnit XML: one testsuite per engine, one testcase per scenario.
        junit: Option<std::path::PathBuf> ["FILE"],
        /// Print the results as JSON on stdout (the summary goes to stderr).
        json: bool,
        /// Also run the mutation table: replab's test engine with each injected draw-rule bug, in
        /// both move orders.
        mutations: bool,
    }
    |config| {
        let exe = std::env::current_exe().context("cannot find the replab binary")?;
        *config = std::mem::take(config).with_engines(&exe, &engines, with_replab)?;
        config.skip_missing = skip_missing;
        config.json = json;
        config.mutations = mutations;
        if list {
            print!("{}", conformance::list(&config.load()?));
            return Ok(());
        }
    }
}
