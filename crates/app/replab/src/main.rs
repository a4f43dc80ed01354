#![doc = include_str!("../README.md")]

mod cmd;

use std::process::ExitCode;

use clap::Command;
use replab_harness::experiment::Failure;
use replab_search::ENGINE_DIGEST;

/// `--version`: the package's version and the engine's digest
/// ([`ENGINE_DIGEST`]), which recorded datasets carry.
fn version() -> &'static str {
    let text = format!("{} (engine {ENGINE_DIGEST})", env!("CARGO_PKG_VERSION"));
    Box::leak(text.into_boxed_str())
}

/// The command line: every subcommand of [`cmd::all`].
fn cli(subcommands: &[cmd::Subcommand]) -> Command {
    let cli = Command::new("replab")
        .about("Compare how chess programs detect repeated positions")
        .version(version())
        .subcommand_required(true)
        .arg_required_else_help(true);
    subcommands
        .iter()
        .fold(cli, |cli, sub| cli.subcommand((sub.command)()))
}

/// The subcommands the command line needs: the one named first when there is one (building
/// every subcommand's options is most of a short process's start, and of each instruction
/// count's valgrind child), else all of them (for `--help`, `--version` and a misspelt name's
/// suggestions).
fn needed(mut subcommands: Vec<cmd::Subcommand>) -> Vec<cmd::Subcommand> {
    let first = std::env::args_os().nth(1);
    let named = |s: &cmd::Subcommand| first.as_deref() == Some(std::ffi::OsStr::new(s.name));
    if subcommands.iter().any(named) {
        subcommands.retain(named);
    }
    subcommands
}

/// Parses the arguments (clap exits 2 on bad ones, 0 after `--help`) and runs the subcommand:
/// exit 0, or a message on stderr and the status of a failed check (1) or of bad input (2).
fn main() -> ExitCode {
    let subcommands = needed(cmd::all());
    let matches = cli(&subcommands).get_matches();
    let Some((name, args)) = matches.subcommand() else {
        return ExitCode::from(2);
    };
    let run = subcommands.iter().find(|s| s.name == name).map(|s| s.run);
    let Err(e) = run.map_or(Ok(()), |run| run(args)) else {
        return ExitCode::SUCCESS;
    };
    eprintln!("replab: {e:#}");
    ExitCode::from(e.downcast_ref::<Failure>().map_or(2, |f| f.status))
}
