//! `replab`: the command line of the harness comparing how chess programs detect repeated
//! positions. It only turns arguments into the experiments' configurations (`replab-lab`),
//! draws progress bars and maps errors to exit codes; the contracts are in `docs/contracts.md`.
//!
//! Exit status: 0 on success; 2 for bad input or a refused option combination, with a message
//! on stderr naming the input and the place. No subcommand panics on bad input.

mod bars;
mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use replab_lab::experiment::Failure;

/// Command-line arguments.
#[derive(Parser)]
#[command(
    name = "replab",
    version,
    about = "Compare how chess programs detect repeated positions"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Declares the subcommands: each variant's arguments are `cmd::<module>::Args` (whose doc
/// comment is the subcommand's help), and `cmd::<module>::run` runs it.
macro_rules! subcommands {
    ($( $(#[$meta:meta])* $variant:ident($module:ident), )*) => {
        #[derive(Subcommand)]
        enum Command {
            $( $(#[$meta])* $variant(cmd::$module::Args), )*
        }

        impl Command {
            fn run(self) -> anyhow::Result<()> {
                match self {
                    $( Command::$variant(args) => cmd::$module::run(args), )*
                }
            }
        }
    };
}

subcommands! {
    Perft(perft),
    Scan(scan),
    Suite(suite),
    Audit(audit),
    Reproduce(reproduce),
    Study(study),
    KeyWidth(key_width),
    Smp(smp),
    Policies(policies),
    Ghi(ghi),
    Bench(bench),
    Conformance(conformance),
    Elo(elo),
    Match(r#match),
    Merge(merge),
    Uci(uci),
    #[command(hide = true)]
    Measure(measure),
}

/// Parses the arguments and runs the subcommand: exit 0, or 2 with a message on stderr.
fn main() -> ExitCode {
    match Cli::try_parse().map(|cli| cli.command.run()) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("replab: {e:#}");
            // A written report whose checks failed says how (exit 1); anything else is bad
            // input or a refused option (exit 2).
            let status = e.downcast_ref::<Failure>().map_or(2, |f| f.status);
            ExitCode::from(status)
        }
        Err(e) => {
            let _ = e.print();
            ExitCode::from(if e.use_stderr() { 2 } else { 0 })
        }
    }
}
