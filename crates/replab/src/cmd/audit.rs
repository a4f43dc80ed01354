//! `replab audit`: its arguments, turned into an [`audit::Config`]; the report directory is
//! staged before the games are played, so a bad `--out` fails at once.

use std::{io::Write as _, path::PathBuf};

use anyhow::{Context, Result};
use replab_lab::audit::{self, MAX_GAMES, MAX_PLIES, MAX_THREADS};

use crate::bars::Bars;

/// A list option, parsed from one comma-separated value (an alias, so clap does not collect
/// repeated values instead).
type List<T> = Vec<T>;

/// Arguments of `replab audit`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Number of random games to play (at least 1).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10_000,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES)
    )]
    games: u64,
    /// Seed of the game generator.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    seed: u64,
    /// Detectors to audit: a comma-separated list of names, or `all` (every detector but
    /// `truth`, which is the reference).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "all",
        value_parser = audit::parse_detectors
    )]
    detectors: List<String>,
    /// Directory of the report (`results.json`, `index.html`); replaced atomically.
    #[arg(long, value_name = "DIR", default_value = audit::DEFAULT_OUT)]
    out: PathBuf,
    /// Longest game in plies (games also end at checkmate or stalemate).
    #[arg(
        long,
        value_name = "P",
        default_value_t = 200,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PLIES))
    )]
    max_plies: u32,
    /// Table-size experiment: `tt-open` index bits to run (comma-separated, 1 to 24; empty
    /// for none).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "20,12,8,4",
        value_parser = audit::parse_bits
    )]
    tt_bits: List<u64>,
    /// Table-size experiment: `filo` slot counts to run (comma-separated powers of two, 2 to
    /// 2^20; empty for none).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "1024,64,16",
        value_parser = audit::parse_slots
    )]
    filo_slots: List<u64>,
    /// Table-size experiment: `rookie` counter index bits to run (comma-separated, 1 to 24;
    /// empty for none).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "14,8,4",
        value_parser = audit::parse_bits
    )]
    rookie_bits: List<u64>,
    /// Worker threads (the counts do not depend on it). Default: 2, or 1 on a single core.
    #[arg(
        long,
        value_name = "T",
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64)
    )]
    threads: Option<u32>,
}

/// Runs `replab audit`: writes the report and prints the summary table.
pub fn run(args: Args) -> Result<()> {
    let mut config = audit::Config {
        games: args.games,
        seed: args.seed,
        detectors: args.detectors,
        max_plies: args.max_plies,
        tt_bits: args.tt_bits,
        filo_slots: args.filo_slots,
        rookie_bits: args.rookie_bits,
        threads: args
            .threads
            .map_or_else(audit::default_threads, |t| t as usize),
        command: String::new(),
    };
    config.command = audit::command_line(&config, &args.out);
    config.check()?;
    // Check that the report directory can be made before spending the time on the games.
    let dir = audit::report_dir(&args.out)?;
    let results = audit::run(&config, &mut Bars::new(false))?;
    audit::write(&results, &dir)
        .and_then(|()| Ok(dir.commit()?))
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;
    let text = audit::stdout_text(&results, &args.out);
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        // A closed pipe (`| head`) is not an error: the report is written.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write the table to stdout")
        }
        _ => Ok(()),
    }
}
