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
    Perft(cmd::perft::Args),
    /// Replay the games of a PGN file and print JSON Lines, one object per position.
    Scan(cmd::scan::Args),
    /// Search every record of an EPD suite with every detector and write a report.
    Suite(cmd::suite::Args),
    /// Audit every detector against the exact oracle on seeded random games.
    Audit(cmd::audit::Args),
    /// Rerun a paper's experiment on replab's searcher and write a report.
    Reproduce(cmd::reproduce::Args),
    /// The Axon experiment as a study: sensitivity grid, endgame suite and verdict.
    Study(cmd::study::Args),
    /// Key width and false draws: detectors with truncated Zobrist keys against exact identity.
    KeyWidth(cmd::key_width::Args),
    /// Parallel search (Lazy SMP): shared open flags against per-thread repetition structures.
    Smp(cmd::smp::Args),
    /// Engines' draw policies as presets: scripted cases and their effect on search.
    Policies(cmd::policies::Args),
    /// Graph-history interaction: path-dependent draws reused from the transposition table.
    Ghi(cmd::ghi::Args),
    /// The main job: reproduction, suites, audit and micro-benchmarks into reports/index.html.
    Bench(cmd::bench::Args),
    /// Check UCI engines (replab's, once per detector, and --engine ones) against the draw rules.
    Conformance(cmd::conformance::Args),
    /// Self-play gauntlet: what each repetition choice is worth in Elo.
    Elo(cmd::elo::Args),
    /// Self-play match between two player specifications (results.json, games.pgn).
    Match(cmd::r#match::Args),
    /// Merge the shards of one match into the whole match's results.
    Merge(cmd::merge::Args),
    /// Run replab's searcher as a UCI engine on stdin/stdout.
    Uci(cmd::uci::Args),
    /// Internal: one measured workload, run under valgrind by the instruction counts.
    #[command(hide = true)]
    Measure(cmd::measure::Args),
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
        Command::Perft(args) => cmd::perft::run(args),
        Command::Scan(args) => cmd::scan::run(args),
        Command::Suite(args) => cmd::suite::run(args),
        Command::Audit(args) => cmd::audit::run(args),
        Command::Reproduce(args) => cmd::reproduce::run(args),
        Command::Study(args) => cmd::study::run(args),
        Command::KeyWidth(args) => cmd::key_width::run(args),
        Command::Smp(args) => cmd::smp::run(args),
        Command::Policies(args) => cmd::policies::run(args),
        Command::Ghi(args) => cmd::ghi::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Elo(args) => cmd::elo::run(args),
        Command::Match(args) => cmd::r#match::run(args),
        Command::Merge(args) => cmd::merge::run(args),
        Command::Uci(args) => cmd::uci::run(args),
        Command::Conformance(args) => cmd::conformance::run(args),
        Command::Measure(args) => cmd::measure::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("replab: {e:#}");
            ExitCode::from(2)
        }
    }
}
