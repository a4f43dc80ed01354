//! `replab`: the command-line harness comparing chess repetition-detection techniques.
//!
//! Every subcommand follows `../shared/docs/contracts.md`. Errors go to stderr naming the input
//! and the place, with exit status 2; no subcommand panics on bad input.

mod perft_cmd;
mod scan;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Command-line arguments.
#[derive(Parser)]
#[command(name = "replab", version, about = "Compare how chess programs detect repeated positions")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (last line of stdout: the count).
    Perft(perft_cmd::PerftArgs),
    /// Replay the games of a PGN file and print JSON Lines, one object per position.
    Scan(scan::ScanArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Perft(args) => perft_cmd::run(&args),
        Command::Scan(args) => scan::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("replab: {e:#}");
            ExitCode::from(2)
        }
    }
}
