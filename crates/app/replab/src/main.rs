#![doc = include_str!("../README.md")]

mod cmd;
mod spelling;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use replab_harness::experiment::Failure;
use replab_search::ENGINE_DIGEST;

/// `--version`: the package's version and the engine's digest
/// ([`ENGINE_DIGEST`]), which recorded datasets carry.
fn version() -> &'static str {
    let text = format!("{} (engine {ENGINE_DIGEST})", env!("CARGO_PKG_VERSION"));
    Box::leak(text.into_boxed_str())
}

/// Parses the arguments (clap exits 2 on bad ones, 0 after `--help`) and runs the subcommand:
/// exit 0, or a message on stderr and the status of a failed check (1) or of bad input (2).
fn main() -> ExitCode {
    let cli = cmd::Command::command().version(version());
    let matches = cli.clone().get_matches();
    spelling::install(&cli, &matches);
    let command = cmd::Command::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let Err(e) = command.run() else {
        return ExitCode::SUCCESS;
    };
    eprintln!("replab: {e:#}");
    ExitCode::from(e.downcast_ref::<Failure>().map_or(2, |f| f.status))
}
