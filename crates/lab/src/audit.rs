//! `replab audit`: every detector against the exact oracle on seeded random games.
//!
//! Plays `--games` seeded random legal games that favour reversible moves ([`games`]), drives
//! every listed detector and `truth` identically over each ([`judge`]), counts agreement per
//! detector (TP/FP/FN/TN, plus the detector's own counters), keeps the shortest erroneous game
//! per detector and error kind, shrinks it to a minimal move sequence and names its cause
//! ([`shrink`]). Table-size experiments run `tt-open`, `filo` and `rookie` at several sizes
//! beside them. The results go to stdout as a table and to `--out` as `results.json` and
//! `index.html` ([`output`]), staged and swapped in atomically.
//!
//! Games are split over threads by index and every game has its own generator, so the counts
//! do not depend on `--threads`.

mod cause;
mod games;
mod judge;
mod output;
mod shrink;

use std::{
    io::Write as _,
    path::PathBuf,
    sync::atomic::{AtomicU64, Ordering},
    thread,
    time::Instant,
};

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use replab_registry::{DETECTOR_NAMES, parse_list};

use self::{
    judge::{Judge, Kind, Spec, Tally, Totals},
    shrink::Case,
};

/// Arguments of `replab audit`.
#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Number of random games to play (at least 1).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10_000,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u64).range(1..=100_000_000)
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
        value_parser = parse_detectors
    )]
    detectors: DetectorList,
    /// Directory of the report (`results.json`, `index.html`); replaced atomically.
    #[arg(long, value_name = "DIR", default_value = "reports/audit")]
    out: PathBuf,
    /// Longest game in plies (games also end at checkmate or stalemate).
    #[arg(
        long,
        value_name = "P",
        default_value_t = 200,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..=100_000)
    )]
    max_plies: u32,
    /// Table-size experiment: `tt-open` index bits to run (comma-separated, 1 to 24; empty
    /// for none).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "20,12,8,4",
        value_parser = |s: &str| parse_sizes(s, 1, 24)
    )]
    tt_bits: Sizes,
    /// Table-size experiment: `filo` slot counts to run (comma-separated powers of two, 2 to
    /// 2^20; empty for none).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "1024,64,16",
        value_parser = parse_slots
    )]
    filo_slots: Sizes,
    /// Table-size experiment: `rookie` counter index bits to run (comma-separated, 1 to 24;
    /// empty for none).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "14,8,4",
        value_parser = |s: &str| parse_sizes(s, 1, 24)
    )]
    rookie_bits: Sizes,
    /// Worker threads (the counts do not depend on it). Default: 2, or 1 on a single core.
    #[arg(
        long,
        value_name = "T",
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..=256)
    )]
    threads: Option<u32>,
}

/// Validated detector names.
#[derive(Clone, Debug)]
struct DetectorList(Vec<String>);

/// A list of table sizes.
#[derive(Clone, Debug)]
struct Sizes(Vec<u64>);

impl Sizes {
    fn text(&self) -> String {
        let v: Vec<String> = self.0.iter().map(u64::to_string).collect();
        v.join(",")
    }
}

/// Every detector name but `truth`: what `all` means here.
fn audited_names() -> Vec<&'static str> {
    DETECTOR_NAMES
        .iter()
        .copied()
        .filter(|n| *n != "truth")
        .collect()
}

fn parse_detectors(text: &str) -> Result<DetectorList, String> {
    let all = audited_names();
    let expected = || {
        format!(
            "expected `all` or a comma-separated list of {}",
            all.join(", ")
        )
    };
    if text.trim().is_empty() {
        return Err(format!("no detector given ({})", expected()));
    }
    let names = parse_list(text, &all).map_err(|e| format!("{e} ({})", expected()))?;
    if let Some(bad) = names.iter().find(|n| n.is_empty() || *n == "off") {
        return Err(format!("unknown detector {bad:?} ({})", expected()));
    }
    Ok(DetectorList(names))
}

fn parse_sizes(text: &str, min: u64, max: u64) -> Result<Sizes, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let n: u64 = part
            .parse()
            .map_err(|_| format!("{part:?} is not a whole number"))?;
        if !(min..=max).contains(&n) {
            return Err(format!("{n} is out of range ({min} to {max})"));
        }
        if !out.contains(&n) {
            out.push(n);
        }
    }
    Ok(Sizes(out))
}

fn parse_slots(text: &str) -> Result<Sizes, String> {
    let sizes = parse_sizes(text, 2, 1 << 20)?;
    if let Some(n) = sizes.0.iter().find(|n| !n.is_power_of_two()) {
        return Err(format!("{n} is not a power of two"));
    }
    Ok(sizes)
}

/// One audited detector's results after shrinking.
pub struct Audited {
    /// What was audited.
    pub spec: Spec,
    /// The counts.
    pub tally: Tally,
    /// The shrunk counterexample per [`Kind`].
    pub examples: [Option<Example>; 2],
    /// The errors per kind and cause, with a shrunk counterexample of that cause (main
    /// detectors only).
    pub causes: Vec<(Kind, &'static str, u64, Option<Example>)>,
}

/// A shrunk counterexample.
pub struct Example {
    /// The minimal case; the error is at its last ply.
    pub case: Case,
    /// Plies of the original game up to its error, before shrinking.
    pub found_plies: usize,
    /// The game it was found in.
    pub game: u64,
    /// A short cause, where recognised.
    pub cause: &'static str,
    /// What the detector and truth say at the erroneous ply.
    pub detail: String,
    /// The PGN.
    pub pgn: String,
    /// SAN moves.
    pub sans: Vec<String>,
    /// The earlier ply the error is about: the occurrence the detector reported (false
    /// positive) or the one truth found (false negative), for probe checks.
    pub earlier: Option<usize>,
}

/// The whole run, ready to be written.
pub struct Run {
    /// The regenerating command.
    pub command: String,
    /// The options.
    pub seed: u64,
    /// Games requested.
    pub games: u64,
    /// Ply limit.
    pub max_plies: u32,
    /// Main detectors, in order.
    pub detectors: Vec<String>,
    /// Experiment sizes.
    pub tt_bits: Vec<u64>,
    /// Experiment sizes.
    pub filo_slots: Vec<u64>,
    /// Experiment sizes.
    pub rookie_bits: Vec<u64>,
    /// Threads used.
    pub threads: usize,
    /// Wall time of the games, seconds.
    pub play_seconds: f64,
    /// Wall time of shrinking, seconds.
    pub shrink_seconds: f64,
    /// Totals.
    pub totals: Totals,
    /// The main detectors.
    pub main: Vec<Audited>,
    /// The table-size variants.
    pub sizes: Vec<Audited>,
}

/// Runs the audit.
pub fn run(args: &AuditArgs) -> Result<()> {
    let detectors = args.detectors.0.clone();
    let command = format!(
        "replab audit --games {} --seed {} --detectors {} --max-plies {} --tt-bits {} \
         --filo-slots {} --rookie-bits {} --out {}",
        args.games,
        args.seed,
        detectors.join(","),
        args.max_plies,
        quote_list(&args.tt_bits),
        quote_list(&args.filo_slots),
        quote_list(&args.rookie_bits),
        shell_quote(&args.out.display().to_string())
    );
    let threads = args.threads.map_or_else(
        || thread::available_parallelism().map_or(1, |n| n.get().min(2)),
        |t| t as usize,
    );

    let main_specs: Vec<Spec> = detectors.iter().cloned().map(Spec::Named).collect();
    let size_specs: Vec<Spec> = args
        .tt_bits
        .0
        .iter()
        .map(|&b| Spec::TtOpenBits(b as u32))
        .chain(
            args.filo_slots
                .0
                .iter()
                .map(|&n| Spec::FiloSlots(n as usize)),
        )
        .chain(
            args.rookie_bits
                .0
                .iter()
                .map(|&b| Spec::RookieBits(b as u32)),
        )
        .collect();
    let specs: Vec<Spec> = main_specs.iter().chain(&size_specs).cloned().collect();

    // Check that the report directory can be made before spending the time on the games.
    let dir = replab_report::ReportDir::create(&args.out)
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;

    let started = Instant::now();
    let (tallies, totals) = play_all(&specs, args, threads);
    let play_seconds = started.elapsed().as_secs_f64();

    let shrink_started = Instant::now();
    let mut audited: Vec<Audited> = specs
        .into_iter()
        .zip(tallies)
        .map(|(spec, mut tally)| {
            tally.sort();
            let causes = tally
                .causes
                .iter()
                .map(|c| (c.kind, c.cause, c.count, None))
                .collect();
            Audited {
                spec,
                tally,
                examples: [None, None],
                causes,
            }
        })
        .collect();
    let sizes = audited.split_off(main_specs.len());
    let mut main = audited;
    for a in &mut main {
        for kind in Kind::ALL {
            if let Some(w) = &a.tally.witness[kind as usize] {
                a.examples[kind as usize] = Some(example(&a.spec, w, kind, None));
            }
        }
        for (c, slot) in a.tally.causes.iter().zip(&mut a.causes) {
            if let Some(w) = &c.witness {
                slot.3 = Some(example(&a.spec, w, c.kind, Some(c.cause)));
            }
        }
    }
    let shrink_seconds = shrink_started.elapsed().as_secs_f64();

    let run = Run {
        command,
        seed: args.seed,
        games: args.games,
        max_plies: args.max_plies,
        detectors,
        tt_bits: args.tt_bits.0.clone(),
        filo_slots: args.filo_slots.0.clone(),
        rookie_bits: args.rookie_bits.0.clone(),
        threads,
        play_seconds,
        shrink_seconds,
        totals,
        main,
        sizes,
    };
    let path = output::write(&run, dir)
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;
    let text = format!(
        "{}report: {}\n",
        output::text(&run),
        path.join("index.html").display()
    );
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        // A closed pipe (`| head`) is not an error: the report is written.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write the table to stdout")
        }
        _ => Ok(()),
    }
}

/// `text` as one shell word: unchanged when it is made of safe characters, else single-quoted.
fn shell_quote(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./,:=+@%".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// A list option as it is written back into the command (`""` when empty).
fn quote_list(sizes: &Sizes) -> String {
    if sizes.0.is_empty() {
        "\"\"".to_owned()
    } else {
        sizes.text()
    }
}

/// Plays and judges every game on `threads` threads; games are handed out by index and the
/// per-thread results merged, so the result does not depend on the thread count.
fn play_all(specs: &[Spec], args: &AuditArgs, threads: usize) -> (Vec<Tally>, Totals) {
    let starts = games::parse_starts();
    let next = AtomicU64::new(0);
    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "audit {bar:40} {pos}/{len} games  {elapsed_precise} elapsed, eta {eta}",
        )
        .expect("valid progress template"),
    );
    let max_plies = args.max_plies as usize;
    let per_thread: Vec<(Vec<Tally>, Totals)> = thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut judge = Judge::new(specs);
                    let mut tallies = vec![Tally::default(); specs.len()];
                    let mut totals = Totals::default();
                    let mut game = games::Game::default();
                    let mut scratch = games::Scratch::default();
                    game.positions.reserve(max_plies + 1);
                    game.moves.reserve(max_plies);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= args.games {
                            break;
                        }
                        games::play(args.seed, i, max_plies, &starts, &mut game, &mut scratch);
                        judge.judge(i, &game, &mut tallies, &mut totals);
                        bar.inc(1);
                    }
                    (tallies, totals)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    bar.finish_and_clear();
    let mut tallies = vec![Tally::default(); specs.len()];
    let mut totals = Totals::default();
    for (t, tot) in per_thread {
        for (mine, theirs) in tallies.iter_mut().zip(t) {
            mine.merge(theirs);
        }
        totals.merge(&tot);
    }
    (tallies, totals)
}

/// Shrinks and describes the witness `w` of `spec`'s error `kind` (keeping the cause `want`,
/// if given).
fn example(spec: &Spec, w: &judge::Witness, kind: Kind, want: Option<&'static str>) -> Example {
    let case = shrink::shrink(spec, w, kind, want);
    let cause = want.unwrap_or_else(|| shrink::classify(spec, &case, kind));
    let detail = shrink::describe(spec, &case, kind, want);
    let pgn = shrink::pgn(&spec.label(), kind, &case, cause, &detail);
    let sans = shrink::sans(&case);
    let earlier = shrink::first_error(spec, &case, kind, want).and_then(|at| {
        let rep = match kind {
            Kind::FalsePositive => at.detected,
            Kind::FalseNegative => at.truth,
        }?;
        at.ply.checked_sub(rep.distance as usize)
    });
    Example {
        case,
        found_plies: w.plies,
        game: w.game,
        cause,
        detail,
        pgn,
        sans,
        earlier,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_parsers() {
        assert_eq!(parse_sizes("20, 12,,12,4", 1, 24).unwrap().0, [20, 12, 4]);
        assert!(
            parse_sizes("25", 1, 24)
                .unwrap_err()
                .contains("out of range")
        );
        assert!(
            parse_sizes("x", 1, 24)
                .unwrap_err()
                .contains("not a whole number")
        );
        assert!(parse_sizes("", 1, 24).unwrap().0.is_empty());
        assert!(parse_slots("100").unwrap_err().contains("power of two"));
        assert_eq!(parse_detectors("all").unwrap().0.len(), 8);
        assert_eq!(
            parse_detectors("axon,linear,axon").unwrap().0,
            ["axon", "linear"]
        );
        assert!(parse_detectors("off").is_err());
        assert!(parse_detectors("nosuch").unwrap_err().contains("nosuch"));
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("reports/audit"), "reports/audit");
        assert_eq!(shell_quote("my dir"), "'my dir'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
