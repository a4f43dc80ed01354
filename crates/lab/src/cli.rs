//! `replab`: the command-line harness comparing chess repetition-detection techniques.
//!
//! Every subcommand follows `../shared/docs/contracts.md`. Errors go to stderr naming the input
//! and the place, with exit status 2; no subcommand panics on bad input.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::{audit, bench, perft_cmd, reproduce, scan, suite};

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

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (last line of stdout: the count).
    Perft(perft_cmd::PerftArgs),
    /// Replay the games of a PGN file and print JSON Lines, one object per position.
    Scan(scan::ScanArgs),
    /// Search every record of an EPD suite with every detector and write a report.
    Suite(suite::SuiteArgs),
    /// Audit every detector against the exact oracle on seeded random games.
    Audit(audit::AuditArgs),
    /// Rerun a paper's experiment on replab's searcher and write a report.
    Reproduce(reproduce::ReproduceArgs),
    /// The main job: reproduction, suites, audit and micro-benchmarks into reports/index.html.
    Bench(bench::BenchArgs),
}

/// Runs one parsed command.
fn execute(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Perft(args) => perft_cmd::run(&args),
        Command::Scan(args) => scan::run(&args),
        Command::Suite(args) => suite::run(&args),
        Command::Audit(args) => audit::run(&args),
        Command::Reproduce(args) => reproduce::run(&args),
        Command::Bench(args) => bench::run(&args),
    }
}

/// Runs a subcommand given as arguments (without the program name), in this process: the same
/// code path as the command line (used by `replab bench`).
pub fn run_args(args: &[String]) -> anyhow::Result<()> {
    let argv = std::iter::once("replab".to_string()).chain(args.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(|e| anyhow::anyhow!("{e}"))?;
    execute(cli.command)
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match execute(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("replab: {e:#}");
            ExitCode::from(2)
        }
    }
}
