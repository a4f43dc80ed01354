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

use std::{fmt, ops::Deref, path::Path, str::FromStr, time::Instant};

use anyhow::{Context, Result, bail};
use replab_registry::{DETECTOR_NAMES, DETECTORS, DetectorId, info, parse_list};
use replab_report::{Meta, ReportDir, fmt_int};
use replab_settings::{Ranged, Setting, Settings};
use serde::{Deserialize, Serialize};

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
use crate::contribution::{
    Better, Column, Contribution, Measured, Phrase, Role, Rows, Table, Unit,
};
use crate::experiment::{Conclusion, Configuration, Experiment, Headline};
use crate::{DetectorNames, Progress};

/// The most games an audit plays.
pub const MAX_GAMES: u64 = 100_000_000;

pub use crate::judging::MAX_PLIES;

/// The most worker threads.
pub const MAX_THREADS: usize = 256;

/// The most index bits of a table-size run.
pub const MAX_BITS: u64 = 24;

/// The most slots of a table-size run.
pub const MAX_SLOTS: u64 = 1 << 20;

/// The settings of an audit, each declared on its field: the doc comment is its help.
/// `Default` gives those of `replab audit` without options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// Number of random games to play.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    #[setting(range = 1..=MAX_GAMES)]
    pub games: u64,
    /// Seed of the game generator.
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub seed: u64,
    /// Detectors to audit: a comma-separated list of names, or `all` (every detector but
    /// `truth`, which is the reference).
    #[arg(long, value_name = "LIST", value_parser = parse_detectors)]
    #[setting(shown = "all")]
    pub detectors: DetectorNames,
    /// Longest game in plies ({range}; games also end at checkmate or stalemate).
    #[arg(long, value_name = "P", allow_negative_numbers = true)]
    #[setting(range = 1..=MAX_PLIES)]
    pub max_plies: u32,
    /// Table sizes: `tt-open` index bits, comma-separated (each {range}; empty for none).
    #[arg(long, value_name = "LIST", value_parser = parse_sizes)]
    #[setting(range = 1..=MAX_BITS)]
    pub tt_bits: TableSizes,
    /// Table sizes: `filo` slot counts, comma-separated powers of two (each {range}; empty for
    /// none).
    #[arg(long, value_name = "LIST", value_parser = parse_sizes)]
    #[setting(range = 2..=MAX_SLOTS)]
    pub filo_slots: TableSizes,
    /// Table sizes: `rookie` counter index bits, comma-separated (each {range}; empty for
    /// none).
    #[arg(long, value_name = "LIST", value_parser = parse_sizes)]
    #[setting(range = 1..=MAX_BITS)]
    pub rookie_bits: TableSizes,
    /// Worker threads ({range}); the counts do not depend on it.
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    #[setting(range = 1..=MAX_THREADS)]
    pub threads: usize,
    /// The command line that regenerates the report (in `meta`, recorded as typed).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            games: 10_000,
            seed: 1,
            detectors: DetectorNames(audited_names().into_iter().map(String::from).collect()),
            max_plies: 200,
            tt_bits: TableSizes(vec![20, 12, 8, 4]),
            filo_slots: TableSizes(vec![1024, 64, 16]),
            rookie_bits: TableSizes(vec![14, 8, 4]),
            threads: crate::engine::default_threads(),
            command: String::new(),
        }
    }
}

impl Config {
    /// The table-size settings with their sizes. Each is the setting a registry row names as
    /// its [`DetectorInfo::size_option`](replab_registry::DetectorInfo).
    fn size_options(&self) -> [(Setting, &TableSizes); 3] {
        [
            (Config::TT_BITS, &self.tt_bits),
            (Config::FILO_SLOTS, &self.filo_slots),
            (Config::ROOKIE_BITS, &self.rookie_bits),
        ]
    }

    /// The sizes to run of the registry's detector `name` (whose table size is
    /// configurable): those of the setting its row names, empty for any other.
    pub fn table_sizes(&self, name: &str) -> &[u64] {
        let option = info(name).and_then(|d| d.size_option);
        self.size_options()
            .into_iter()
            .find(|(setting, _)| option.is_some_and(|o| names_option(*setting, o)))
            .map_or(&[], |(_, sizes)| sizes)
    }

    /// The audited specs: the main detectors, then each table-size experiment (every registry
    /// row whose table size is configurable, in table order) with its sizes.
    fn specs(&self) -> Result<(Vec<Spec>, SizeRuns)> {
        let main = self
            .detectors
            .iter()
            .map(|n| Spec::named(n).with_context(|| format!("invalid {} {n:?}", Config::DETECTORS)))
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

/// Whether `setting` is the option a registry row names (`tt-bits`, without dashes).
fn names_option(setting: Setting, option: &str) -> bool {
    setting.flag().strip_prefix("--") == Some(option)
}

impl Configuration for Config {
    /// The quick run of `bench --quick`: 1,000 games.
    fn quick() -> Self {
        Self {
            games: 1_000,
            ..Self::default()
        }
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }

    /// The declared ranges, then the detector names and the powers of two of the `filo`
    /// sizes.
    fn check(&self) -> Result<()> {
        self.check_ranges()?;
        parse_detectors(&self.detectors.to_string())
            .map_err(|e| anyhow::anyhow!("invalid {}: {e}", Config::DETECTORS))?;
        if let Some(n) = self.filo_slots.iter().find(|n| !n.is_power_of_two()) {
            bail!("{} {n} is not a power of two", Config::FILO_SLOTS);
        }
        Ok(())
    }
}

/// The table-size experiments: each technique with the variants to run.
type SizeRuns = Vec<(&'static str, Vec<Spec>)>;

/// The table sizes of one table-size experiment, in the order given, without repeats (written
/// as a JSON list; empty: none of that family).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TableSizes(pub Vec<u64>);

impl Deref for TableSizes {
    type Target = [u64];

    fn deref(&self) -> &[u64] {
        &self.0
    }
}

impl FromStr for TableSizes {
    type Err = String;

    /// As [`parse_sizes`].
    fn from_str(text: &str) -> Result<Self, String> {
        parse_sizes(text)
    }
}

impl fmt::Display for TableSizes {
    /// Comma-separated, as the option takes them (nothing for none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sizes: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&sizes.join(","))
    }
}

impl Ranged<u64> for TableSizes {
    /// Each size in `range`.
    fn check_in(&self, setting: Setting, range: &std::ops::RangeInclusive<u64>) -> Result<()> {
        self.0.check_in(setting, range)
    }
}

/// What `all` means for the audited detectors: every listed technique of the registry but the
/// oracle the others are compared with.
pub fn audited_names() -> Vec<&'static str> {
    let oracle = oracle_name();
    DETECTOR_NAMES
        .iter()
        .copied()
        .filter(|n| *n != oracle)
        .collect()
}

/// Parses the audited detectors: a comma-separated list of registry names, or `all`
/// ([`audited_names`]); `off` and empty names are refused.
pub fn parse_detectors(text: &str) -> Result<DetectorNames, String> {
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
    Ok(DetectorNames(names))
}

/// Parses a comma-separated list of table sizes (whole numbers), dropping empty items and
/// repeats: an empty text is no size at all. Their ranges are [`Config::check`]'s.
pub fn parse_sizes(text: &str) -> Result<TableSizes, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let n: u64 = part
            .parse()
            .map_err(|_| format!("{part:?} is not a whole number"))?;
        if !out.contains(&n) {
            out.push(n);
        }
    }
    Ok(TableSizes(out))
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
            settings: Config {
                command: String::new(), // meta's, not the settings'
                ..config.clone()
            },
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
        assert_eq!(*parse_sizes("20, 12,,12,4").unwrap(), [20, 12, 4]);
        assert!(parse_sizes("x").unwrap_err().contains("not a whole number"));
        assert!(parse_sizes("").unwrap().is_empty());
        assert_eq!(parse_sizes("20,4").unwrap().to_string(), "20,4");
        // The ranges and powers of two are the check's, naming the option.
        let sized = |tt_bits: Vec<u64>, filo_slots: Vec<u64>| Config {
            tt_bits: TableSizes(tt_bits),
            filo_slots: TableSizes(filo_slots),
            ..Config::default()
        };
        assert!(sized(vec![24], vec![2]).check().is_ok());
        let err = sized(vec![25], vec![2]).check().unwrap_err().to_string();
        assert_eq!(err, "--tt-bits 25 is out of range (1 to 24)");
        let err = sized(vec![], vec![100]).check().unwrap_err().to_string();
        assert_eq!(err, "--filo-slots 100 is not a power of two");
        assert_eq!(
            parse_detectors("all").unwrap().len(),
            DETECTOR_NAMES.len() - 1
        );
        let (a, b) = (DETECTOR_NAMES[0], DETECTOR_NAMES[1]);
        assert_eq!(*parse_detectors(&format!("{b},{a},{b}")).unwrap(), [b, a]);
        assert!(parse_detectors("off").is_err());
        assert!(parse_detectors("nosuch").unwrap_err().contains("nosuch"));
    }

    #[test]
    fn every_sizable_row_has_its_size_option() {
        // A row that names a size option the audit does not have would run no sizes: fail
        // here instead of silently.
        let config = Config::default();
        let options = config.size_options().map(|(setting, _)| setting);
        for d in replab_registry::DETECTORS {
            if let Some(option) = d.size_option {
                assert!(
                    options.iter().any(|s| names_option(*s, option)),
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
            "--games 0",
        );
        bad(
            Config {
                detectors: DetectorNames(vec!["nosuch".into()]),
                ..Config::default()
            },
            "invalid --detectors: unknown detector \"nosuch\"",
        );
        bad(
            Config {
                filo_slots: TableSizes(vec![100]),
                ..Config::default()
            },
            "--filo-slots 100",
        );
        bad(
            Config {
                threads: 0,
                ..Config::default()
            },
            "--threads 0",
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
        let options: Vec<String> = Config::default()
            .size_options()
            .iter()
            .map(|(setting, _)| setting.to_string())
            .collect();
        let rows: Vec<String> = DETECTORS
            .iter()
            .filter_map(|d| d.size_option)
            .map(|o| format!("--{o}"))
            .collect();
        assert_eq!(options, rows, "one option per sizable row, in table order");
    }

    /// The audit's options parsed as the binary parses them: from `Default`, the options
    /// given updating it.
    fn parsed(args: &[&str]) -> Result<Config, clap::Error> {
        use clap::{Args, FromArgMatches};
        let command =
            Config::augment_args(clap::Command::new("audit")).mut_args(|arg| arg.required(false));
        let matches =
            command.try_get_matches_from(std::iter::once("audit").chain(args.iter().copied()))?;
        let mut config = Config::default();
        config.update_from_arg_matches(&matches)?;
        Ok(config)
    }

    #[test]
    fn an_empty_size_list_runs_none_of_that_family() {
        let config = parsed(&["--tt-bits", "", "--filo-slots", "64,16"]).unwrap();
        assert!(config.tt_bits.is_empty());
        assert_eq!(*config.filo_slots, [64, 16]);
        assert_eq!(
            *config.rookie_bits,
            [14, 8, 4],
            "an option not given keeps its default"
        );
        assert!(config.check().is_ok());
        let (_, sized) = config.specs().unwrap();
        let tt_open = sized.iter().find(|(t, _)| *t == "tt-open").unwrap();
        assert!(tt_open.1.is_empty(), "no tt-open size run");
        let detectors = parsed(&["--detectors", "all"]).unwrap().detectors;
        assert_eq!(detectors, Config::default().detectors);
    }

    #[test]
    fn a_negative_number_is_a_value_refused_not_an_unknown_option() {
        for args in [
            ["--games", "-1"],
            ["--seed", "-1"],
            ["--max-plies", "-3"],
            ["--threads", "-2"],
        ] {
            let e = parsed(&args).unwrap_err();
            assert_eq!(
                e.kind(),
                clap::error::ErrorKind::ValueValidation,
                "{args:?}: {e}"
            );
            assert!(e.to_string().contains(args[0]), "{e}");
        }
        let e = parsed(&["--tt-bits", "x"]).unwrap_err().to_string();
        assert!(
            e.contains("--tt-bits") && e.contains("not a whole number"),
            "{e}"
        );
    }
}
