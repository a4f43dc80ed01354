//! `replab conformance`: its arguments, turned into a [`conformance::Config`].
//!
//! Exit status: 0 when every engine passes (failures listed with `--expect-fail` allowed); 1
//! when an `--engine` engine (or, without `--engine`, replab's exact detector under a policy
//! the scenario holds it to) fails a scenario or a PV check; 2 when nothing could be tested (an
//! engine cannot be started without `--skip-missing`, every engine skipped) or the input is
//! bad (an unreadable scenario file, an unknown scenario id, a zero `--timeout`).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use replab_conformance::{self as conformance, Conformance};

use super::{Output, declared_help, given, show_field, show_out};

/// Check UCI engines (replab's, once per detector, and --engine ones) against the draw rules.
#[derive(clap::Args)]
pub struct Args {
    /// An external UCI engine (repeatable): a path to the program (taken whole, spaces and
    /// all), or a command line split as a POSIX shell splits it
    /// (`--engine "'/opt/my engine/run' --uci"`).
    #[arg(long = "engine", value_name = "CMD")]
    pub engines: Vec<String>,
    /// `setoption name NAME value VALUE` sent to every --engine before `isready` (repeatable).
    #[arg(long = "engine-option", value_name = "NAME=VALUE", value_parser = name_value)]
    pub engine_options: Vec<(String, String)>,
    /// List an `--engine` that cannot be started as skipped instead of exiting with status 2
    /// (still 2 when every engine is skipped: nothing was tested).
    #[arg(long)]
    pub skip_missing: bool,
    /// Also run replab's own configurations when `--engine` is given (they always run
    /// without it).
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
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    #[arg(long, value_name = "S")]
    pub timeout: Option<u64>,
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
    #[command(flatten)]
    output: Output,
}

/// `--help` with the declared help ([`conformance::SETTINGS`]), the defaults of
/// [`conformance::Config::default`] and the report directory.
pub fn defaults(cmd: clap::Command) -> clap::Command {
    let config = conformance::Config::default();
    let declared = |a, field| declared_help(a, conformance::SETTINGS, field);
    cmd.mut_arg("depth", |a| declared(a, "depth"))
        .mut_arg("movetime", |a| declared(a, "movetime"))
        .mut_arg("timeout", |a| show_field(declared(a, "timeout"), "timeout", &config.timeout))
        .mut_arg("out", show_out::<Conformance>)
}

/// `NAME=VALUE` as a pair (the name may hold spaces, as UCI option names do).
fn name_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("expected NAME=VALUE, got {text:?}")),
    }
}

/// Runs `replab conformance`: prints the summary, writes the report, and exits 1 when a
/// scenario fails (see the module's exit statuses).
pub fn run(args: Args) -> Result<()> {
    let exe = std::env::current_exe().context("cannot find the replab binary")?;
    let mut config = conformance::Config::default().with_engines(
        &exe,
        &args.engines,
        args.with_replab,
    )?;
    config.skip_missing = args.skip_missing;
    config.scenarios = args.scenarios;
    config.only = args.only;
    config.skip = args.skip;
    config.expect_fail = args.expect_fail;
    config.engine_options = args.engine_options;
    config.depth = args.depth;
    config.movetime = args.movetime;
    config.junit = args.junit;
    config.json = args.json;
    config.mutations = args.mutations;
    given!(config, args: timeout);
    if args.list {
        print!("{}", conformance::list(&config.load()?));
        return Ok(());
    }
    if !config.engine_options.is_empty() && config.engines.is_empty() {
        bail!("--engine-option is sent to --engine engines; none given");
    }
    args.output.report::<Conformance>(config)
}
