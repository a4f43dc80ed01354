//! The audit: every detector against the exact oracle on seeded random games.
//!
//! [`run`] plays `games` seeded random legal games that favour reversible moves
//! (`games`), drives every listed detector and `truth` identically over each (`judge`), counts
//! agreement per detector (TP/FP/FN/TN, plus the detector's own counters), keeps the shortest
//! erroneous game per detector and error kind, shrinks it to a minimal move sequence and names
//! its cause (`shrink`, `cause`). Table-size experiments run every detector whose table size
//! the registry says is configurable (`tt-open`, `filo`, `rookie`) at several sizes beside
//! them. [`text`] is the table `replab audit` prints; [`write`] writes `results.json` and
//! `index.html` (`output`) into a staged report directory.
//!
//! Games are split over threads by index and every game has its own generator, so the counts
//! do not depend on [`Config::threads`].

pub(crate) use crate::judging::{cause, games, judge, spec};

mod output;
mod results;
mod shrink;

use std::{path::Path, time::Instant};

use anyhow::{Context, Result, bail};
use replab_registry::{DETECTOR_NAMES, DETECTORS, DetectorId, info, parse_list};
use replab_report::{Meta, ReportDir, fmt_int};

pub use self::{
    judge::Totals,
    output::{text, write},
    results::{AuditMeta, Audited, CauseCount, Counterexamples, Example, Ordered, Results},
    spec::{Cause, Check, Kind},
};
use self::{
    judge::{Games, Tally, Witness},
    spec::{Spec, oracle_name},
};
use crate::Progress;
use crate::contribution::{
    Better, Column, Contribution, Measured, Phrase, Role, Rows, Table, Unit,
};
use crate::experiment::{Conclusion, Declared, Experiment, Headline, Setting};

/// Where `replab audit` writes its report unless told otherwise.
pub const DEFAULT_OUT: &str = "reports/audit";

/// The most games an audit plays.
pub const MAX_GAMES: u64 = 100_000_000;

pub use crate::judging::MAX_PLIES;

/// The most worker threads.
pub const MAX_THREADS: usize = 256;

/// The most index bits of a table-size run.
pub const MAX_BITS: u64 = 24;

/// The most slots of a table-size run.
pub const MAX_SLOTS: u64 = 1 << 20;

replab_settings::declare! {
    /// Every declared setting of `replab audit`.
    pub SETTINGS for Config = [
        GAMES: games, 1, MAX_GAMES, "Number of random games to play.";
        MAX_PLIES_SETTING: max_plies, 1, MAX_PLIES as u64,
            "Longest game in plies ({range}; games also end at checkmate or stalemate).";
        THREADS: threads, 1, MAX_THREADS as u64,
            "Worker threads ({range}); the counts do not depend on it.";
        TT_BITS: tt_bits, 1, MAX_BITS,
            "Table sizes: `tt-open` index bits, comma-separated (each {range}; empty for none).";
        FILO_SLOTS: filo_slots, 2, MAX_SLOTS,
            "Table sizes: `filo` slot counts, comma-separated powers of two (each {range}; empty for none).";
        ROOKIE_BITS: rookie_bits, 1, MAX_BITS,
            "Table sizes: `rookie` counter index bits, comma-separated (each {range}; empty for none).";
    ]
}

/// The settings of an audit. `Default` gives those of `replab audit` without options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The command line that regenerates the report (see [`command_line`]).
    pub command: String,
    /// Random games to play, 1 to [`MAX_GAMES`].
    pub games: u64,
    /// Seed of the game generator.
    pub seed: u64,
    /// Detectors to audit, by registry name, in report order (default: [`audited_names`]).
    pub detectors: Vec<String>,
    /// Longest game in plies, 1 to [`MAX_PLIES`] (games also end at mate or stalemate).
    pub max_plies: u32,
    /// Table-size experiment: `tt-open` index bits (1 to [`MAX_BITS`]).
    pub tt_bits: Vec<u64>,
    /// Table-size experiment: `filo` slot counts (powers of two, 2 to [`MAX_SLOTS`]).
    pub filo_slots: Vec<u64>,
    /// Table-size experiment: `rookie` counter index bits (1 to [`MAX_BITS`]).
    pub rookie_bits: Vec<u64>,
    /// Worker threads, 1 to [`MAX_THREADS`]; the counts do not depend on it.
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        let mut config = Config {
            command: String::new(),
            games: 10_000,
            seed: 1,
            detectors: audited_names().into_iter().map(String::from).collect(),
            max_plies: 200,
            tt_bits: vec![20, 12, 8, 4],
            filo_slots: vec![1024, 64, 16],
            rookie_bits: vec![14, 8, 4],
            threads: crate::engine::default_threads(),
        };
        config.command = command_line(&config, Path::new(DEFAULT_OUT));
        config
    }
}

impl Config {
    /// The table-size options, as the command line spells them without `--`, with their sizes.
    /// Each is a registry row's [`DetectorInfo::size_option`](replab_registry::DetectorInfo).
    fn size_options(&self) -> [(&'static str, &[u64]); 3] {
        [
            ("tt-bits", &self.tt_bits),
            ("filo-slots", &self.filo_slots),
            ("rookie-bits", &self.rookie_bits),
        ]
    }

    /// The sizes to run of the registry's detector `name` (whose table size is
    /// configurable): those of the option its row names, empty for any other.
    pub fn table_sizes(&self, name: &str) -> &[u64] {
        let option = info(name).and_then(|d| d.size_option);
        self.size_options()
            .into_iter()
            .find(|(o, _)| Some(*o) == option)
            .map_or(&[], |(_, sizes)| sizes)
    }

    /// Checks every setting, naming the setting at fault ([`SETTINGS`]).
    pub fn check(&self) -> Result<()> {
        self.check_declared()?;
        parse_detectors(&self.detectors.join(",")).map_err(|e| {
            anyhow::anyhow!(
                "invalid {set_detectors}: {e}",
                set_detectors = Setting::new("detectors")
            )
        })?;
        if let Some(n) = self.filo_slots.iter().find(|n| !n.is_power_of_two()) {
            bail!("{} {n} is not a power of two", FILO_SLOTS.setting);
        }
        Ok(())
    }

    /// The audited specs: the main detectors, then each table-size experiment (every registry
    /// row whose table size is configurable, in table order) with its sizes.
    fn specs(&self) -> Result<(Vec<Spec>, SizeRuns)> {
        let main = self
            .detectors
            .iter()
            .map(|n| {
                Spec::named(n).with_context(|| {
                    format!(
                        "invalid {set_detectors} {n:?}",
                        set_detectors = Setting::new("detectors")
                    )
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let sized = DETECTORS
            .iter()
            .filter(|d| d.caps.table_size)
            .map(|d| {
                let specs = self
                    .table_sizes(d.name)
                    .iter()
                    .filter_map(|&v| Spec::sized(d.name, v))
                    .collect();
                (d.name, specs)
            })
            .collect();
        Ok((main, sized))
    }
}

/// The table-size experiments: each technique with the variants to run.
type SizeRuns = Vec<(&'static str, Vec<Spec>)>;

/// What `all` means for `--detectors`: every listed technique of the registry but the oracle
/// the others are compared with.
pub fn audited_names() -> Vec<&'static str> {
    let oracle = oracle_name();
    DETECTOR_NAMES
        .iter()
        .copied()
        .filter(|n| *n != oracle)
        .collect()
}

/// Parses `--detectors`: a comma-separated list of registry names, or `all`
/// ([`audited_names`]); `off` and empty names are refused.
pub fn parse_detectors(text: &str) -> Result<Vec<String>, String> {
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
    Ok(names)
}

/// Parses a comma-separated list of table sizes (whole numbers), dropping empty items and
/// repeats; their ranges are [`Config::check`]'s.
pub fn parse_sizes(text: &str) -> Result<Vec<u64>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let n: u64 = part
            .parse()
            .map_err(|_| format!("{part:?} is not a whole number"))?;
        if !out.contains(&n) {
            out.push(n);
        }
    }
    Ok(out)
}

/// The command that regenerates an audit of `config` into `out`, every option spelled out:
/// `replab audit --games N --seed S --detectors … --max-plies P --tt-bits … --filo-slots …
/// --rookie-bits … --out DIR` (an empty list as `""`).
pub fn command_line(config: &Config, out: &Path) -> String {
    let list = |sizes: &[u64]| {
        if sizes.is_empty() {
            "\"\"".to_owned()
        } else {
            let v: Vec<String> = sizes.iter().map(u64::to_string).collect();
            v.join(",")
        }
    };
    let sizes: String = config
        .size_options()
        .iter()
        .map(|(option, sizes)| format!(" --{option} {}", list(sizes)))
        .collect();
    format!(
        "replab audit --games {} --seed {} --detectors {} --max-plies {}{sizes} --out {}",
        config.games,
        config.seed,
        config.detectors.join(","),
        config.max_plies,
        crate::experiment::shell_word(&out.display().to_string())
    )
}

/// Runs the audit: plays and judges the games (progress stage `audit`, one unit per game),
/// then shrinks the counterexamples of the main detectors (stage `shrink`, one unit per
/// counterexample). Prints nothing.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let (main, sized) = config.specs()?;
    let specs: Vec<Spec> = main
        .iter()
        .chain(sized.iter().flat_map(|(_, s)| s))
        .cloned()
        .collect();

    progress.stage("audit", config.games);
    let started = Instant::now();
    let games = Games {
        seed: config.seed,
        games: config.games,
        max_plies: config.max_plies as usize,
    };
    let (tallies, totals) = judge::play_all(&specs, games, config.threads, progress)?;
    let play_seconds = started.elapsed().as_secs_f64();

    let mut tallies: Vec<Tally> = tallies
        .into_iter()
        .map(|mut t| {
            t.sort();
            t
        })
        .collect();
    let size_tallies = tallies.split_off(main.len());
    let witnesses: usize = tallies
        .iter()
        .map(|t| {
            t.witness.iter().flatten().count()
                + t.causes.iter().filter(|c| c.witness.is_some()).count()
        })
        .sum();
    progress.stage("shrink", witnesses as u64);
    let shrink_started = Instant::now();
    let detectors = main
        .iter()
        .zip(&tallies)
        .map(|(spec, tally)| (spec.label(), audited(spec, tally, Some(&mut *progress))))
        .collect();
    let shrink_seconds = shrink_started.elapsed().as_secs_f64();
    let mut size_tallies = size_tallies.iter();
    let table_size = sized
        .iter()
        .map(|(technique, specs)| {
            let runs = specs
                .iter()
                .zip(size_tallies.by_ref())
                .map(|(spec, tally)| audited(spec, tally, None))
                .collect();
            ((*technique).to_owned(), runs)
        })
        .collect();
    progress.finish();

    Ok(Results {
        meta: AuditMeta {
            meta: Meta::collect(&config.command),
            seed: config.seed,
            games: config.games,
            max_plies: config.max_plies,
            detectors: config
                .detectors
                .iter()
                .map(|n| n.parse())
                .collect::<Result<_, _>>()?,
            tt_bits: config.tt_bits.clone(),
            filo_slots: config.filo_slots.clone(),
            rookie_bits: config.rookie_bits.clone(),
            threads: config.threads,
            play_seconds: crate::stats::Estimate::single(play_seconds),
            shrink_seconds: crate::stats::Estimate::single(shrink_seconds),
        },
        totals,
        detectors: Ordered(detectors),
        table_size: Ordered(table_size),
    })
}

/// The result of `spec` from its (sorted) tally. With `shrinking` (main detectors), each
/// witness is shrunk into a counterexample and the progress advanced by one per witness.
fn audited(spec: &Spec, tally: &Tally, shrinking: Option<&mut dyn Progress>) -> Audited {
    let c = &tally.confusion;
    let mut causes: Vec<CauseCount> = tally
        .causes
        .iter()
        .map(|t| CauseCount {
            kind: t.kind,
            cause: t.cause,
            count: t.count,
            example: None,
        })
        .collect();
    let counterexamples = shrinking.map(|progress| {
        let mut shrunk = Counterexamples::default();
        for kind in Kind::ALL {
            if let Some(w) = &tally.witness[kind as usize] {
                shrunk.set(kind, Some(example(spec, w, kind, None)));
                progress.advance(1);
            }
        }
        for (t, slot) in tally.causes.iter().zip(&mut causes) {
            if let Some(w) = &t.witness {
                slot.example = Some(example(spec, w, t.kind, Some(t.cause)));
                progress.advance(1);
            }
        }
        shrunk
    });
    Audited {
        detector: spec.label(),
        check: spec.check(),
        size: spec.size(),
        true_positive: c.tp,
        false_positive: c.fp,
        false_negative: c.fn_,
        true_negative: c.tn,
        precision: c.precision(),
        recall: c.recall(),
        error_rate: c.error_rate(),
        errors_after_miss_or_overflow: tally.capacity_errors,
        stats: tally.stats,
        counterexamples,
        causes,
    }
}

/// Shrinks and describes the witness `w` of `spec`'s error `kind` (keeping the cause `want`,
/// if given).
fn example(spec: &Spec, w: &Witness, kind: Kind, want: Option<Cause>) -> Example {
    let case = shrink::shrink(spec, w, kind, want);
    let cause = want.unwrap_or_else(|| shrink::classify(spec, &case, kind));
    let detail = shrink::describe(spec, &case, kind, want);
    let pgn = shrink::pgn(&spec.label(), kind, &case, cause, &detail);
    Example {
        plies: case.moves.len(),
        pgn,
        cause,
        fen_start: case.start.fen(),
        moves: shrink::sans(&case),
        uci: case.moves.iter().map(|m| m.uci().to_string()).collect(),
        detail,
        game: w.game,
        found_plies: w.plies,
    }
}

/// The detectors audited at their default size (not the table-size variants).
fn main_detectors(results: &Results) -> impl Iterator<Item = &(String, Audited)> {
    results.detectors.0.iter().filter(|(_, a)| a.size.is_none())
}

/// The audit as an experiment of the table.
pub struct Audit;

impl crate::experiment::Settings for Config {
    /// The quick run of `bench --quick`: 1,000 games.
    fn quick() -> Self {
        let mut config = Self {
            games: 1_000,
            ..Self::default()
        };
        config.command = command_line(&config, Path::new(DEFAULT_OUT));
        config
    }
    fn set_command(&mut self, command: String) {
        self.command = command;
    }
    fn check(&self) -> Result<()> {
        Config::check(self)
    }
    const DECLARED: &'static [Declared] = SETTINGS;
}

impl Experiment for Audit {
    const NAME: &'static str = "audit";
    const DIR: &'static str = "audit";
    const TITLE: &'static str = "Audit against exact FIDE identity";
    type Config = Config;
    type Results = Results;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
        run(config, progress)
    }

    fn write(results: &Results, dir: &ReportDir) -> Result<()> {
        write(results, dir)
    }

    /// Every setting spelled out ([`command_line`]), whatever was typed.
    fn command(config: &Config, _typed: String, out: &Path) -> String {
        command_line(config, out)
    }

    fn conclude(results: &Results, index: &Path) -> Result<Conclusion> {
        Ok(Conclusion {
            stdout: format!("{}report: {}\n", text(results), index.display()),
            stderr: String::new(),
            failure: None,
        })
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        let main = || main_detectors(results);
        let exact: Vec<&str> = main()
            .filter(|(_, a)| a.false_positive == 0 && a.false_negative == 0)
            .map(|(n, _)| n.as_str())
            .collect();
        let inexact: Vec<String> = main()
            .filter(|(_, a)| a.false_positive + a.false_negative > 0)
            .map(|(n, a)| {
                format!(
                    "{n} ({} false positives, {} false negatives)",
                    fmt_int(a.false_positive),
                    fmt_int(a.false_negative)
                )
            })
            .collect();
        vec![Headline {
            label: "Exact under FIDE identity".into(),
            context: vec![Phrase::text(format!(
                " on {} seeded random games ({} plies)",
                fmt_int(results.totals.games),
                fmt_int(results.totals.plies)
            ))],
            text: format!(
                "{}. Not exact: {}",
                exact.join(", "),
                if inexact.is_empty() {
                    "none".into()
                } else {
                    inexact.join("; ")
                }
            ),
        }]
    }

    /// False draws and missed repetitions against exact FIDE identity: correctness columns of
    /// both tables, the same whatever the draw policy.
    fn contributions(results: &Results) -> Vec<Contribution> {
        let column = |key: &str, heading: &str, what: &str| {
            Column::new(key, heading, Unit::Count)
                .what(what)
                .decision(Role::Correctness, Better::Lower, Rows::EveryPolicy)
                .tables(&[Table::Decision, Table::Ranking])
        };
        let false_draws = column("audit-false-draws", "false draws", "false draws");
        let missed = column("audit-missed", "missed", "missed repetitions");
        main_detectors(results)
            .filter_map(|(n, a)| Some((DetectorId::from_name(n)?, a)))
            .flat_map(|(detector, a)| {
                [
                    (false_draws.clone(), a.false_positive),
                    (missed.clone(), a.false_negative),
                ]
                .map(|(column, n)| Contribution::new(detector, column, Measured::value(n as f64)))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use replab_registry::info;

    use super::{spec::sizing, *};

    #[test]
    fn option_parsers() {
        assert_eq!(parse_sizes("20, 12,,12,4").unwrap(), [20, 12, 4]);
        assert!(parse_sizes("x").unwrap_err().contains("not a whole number"));
        assert!(parse_sizes("").unwrap().is_empty());
        // The ranges and powers of two are the check's, in the declarations' words.
        let sized = |tt_bits: Vec<u64>, filo_slots: Vec<u64>| Config {
            tt_bits,
            filo_slots,
            ..Config::default()
        };
        assert!(sized(vec![24], vec![2]).check().is_ok());
        let err = sized(vec![25], vec![2]).check().unwrap_err().to_string();
        assert!(err.contains("out of range (1 to 24)"), "{err}");
        let err = sized(vec![], vec![100]).check().unwrap_err().to_string();
        assert!(err.contains("100 is not a power of two"), "{err}");
        assert_eq!(
            parse_detectors("all").unwrap().len(),
            DETECTOR_NAMES.len() - 1
        );
        let (a, b) = (DETECTOR_NAMES[0], DETECTOR_NAMES[1]);
        assert_eq!(parse_detectors(&format!("{b},{a},{b}")).unwrap(), [b, a]);
        assert!(parse_detectors("off").is_err());
        assert!(parse_detectors("nosuch").unwrap_err().contains("nosuch"));
    }

    #[test]
    fn every_sizable_row_has_its_size_option() {
        // A row that names a size option the audit does not have would run no sizes: fail
        // here instead of silently.
        let config = Config::default();
        let options: Vec<&str> = config.size_options().iter().map(|(o, _)| *o).collect();
        for d in replab_registry::DETECTORS {
            if let Some(option) = d.size_option {
                assert!(
                    options.contains(&option),
                    "{}: no audit option {option}",
                    d.name
                );
                assert!(!config.table_sizes(d.name).is_empty(), "{}", d.name);
            }
        }
        let named = replab_registry::DETECTORS
            .iter()
            .filter_map(|d| d.size_option)
            .collect::<std::collections::BTreeSet<_>>();
        assert_eq!(
            named.len(),
            options.len(),
            "an audit size option no row names"
        );
    }

    #[test]
    fn config_checks_name_the_option() {
        assert!(Config::default().check().is_ok());
        let bad = |c: Config, option: &str| {
            let e = c.check().unwrap_err().to_string();
            assert!(e.contains(option), "{e}");
        };
        bad(
            Config {
                games: 0,
                ..Config::default()
            },
            "games",
        );
        bad(
            Config {
                detectors: vec!["nosuch".into()],
                ..Config::default()
            },
            "detectors",
        );
        bad(
            Config {
                filo_slots: vec![100],
                ..Config::default()
            },
            "filo slots",
        );
        bad(
            Config {
                threads: 0,
                ..Config::default()
            },
            "threads",
        );
    }

    #[test]
    fn the_audit_list_and_the_size_experiments_come_from_the_registry() {
        let all = audited_names();
        assert!(!all.contains(&oracle_name()));
        assert!(
            DETECTOR_NAMES
                .iter()
                .all(|n| *n == oracle_name() || all.contains(n))
        );
        assert_eq!(all.len(), DETECTOR_NAMES.len() - 1);
        let (_, sized) = Config::default().specs().unwrap();
        let techniques: Vec<&str> = sized.iter().map(|(t, _)| *t).collect();
        let table_size: Vec<&str> = DETECTOR_NAMES
            .into_iter()
            .filter(|n| info(n).is_some_and(|d| d.caps.table_size))
            .collect();
        assert_eq!(techniques, table_size);
        assert!(sized.iter().any(|(_, s)| s[0].label() == "filo/1024"));
        for (t, _) in &sized {
            assert!(sizing(t).is_some());
        }
        let options: Vec<&str> = Config::default()
            .size_options()
            .iter()
            .map(|(o, _)| *o)
            .collect();
        let rows: Vec<&str> = DETECTORS.iter().filter_map(|d| d.size_option).collect();
        assert_eq!(options, rows, "one option per sizable row, in table order");
    }

    #[test]
    fn quoting() {
        assert_eq!(
            crate::experiment::shell_word("reports/audit"),
            "reports/audit"
        );
        assert_eq!(crate::experiment::shell_word("my dir"), "'my dir'");
        assert_eq!(crate::experiment::shell_word("it's"), "'it'\\''s'");
        let c = Config {
            tt_bits: Vec::new(),
            ..Config::default()
        };
        assert!(command_line(&c, Path::new("my dir")).ends_with(
            " --tt-bits \"\" --filo-slots 1024,64,16 --rookie-bits 14,8,4 --out 'my dir'"
        ));
    }
}
