//! The EPD suite experiment (`replab suite`): every EPD record searched with every detector
//! (and `off`), counters per record and detector, aggregate tables and charts (docs/contracts.md,
//! `replab suite`).
//!
//! [`Config`] holds the settings, [`run`] reads the suite and searches it, [`write()`] puts
//! `results.json`, the charts and `index.html` into a staged report directory.
//!
//! A detector that cannot serve the draw policy (`replab_registry::check_policy`) is refused
//! before anything is searched; `all` means the search detectors that can serve it.
//!
//! # Game history in EPD records
//! A record may carry the game that led to its position (so game-history repetitions matter,
//! as the sources insist), with two operations of replab's own:
//! `hfen "<six-field FEN of the history's first position>";` and
//! `hmoves "<UCI moves separated by spaces>";`. Playing `hmoves` from `hfen` must reach the
//! record's position exactly (placement, side, castling rights, legal en passant); `hmvc` and
//! `fmvn` give the clocks of the record's position as usual.

mod page;
mod plan;
mod results;

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail, ensure};
use replab_detect::DrawPolicy;
use replab_registry::{
    DETECTORS, DetectorId, DetectorInfo, PolicyRefusal, SEARCH_DETECTORS, check_policy, info,
    parse_list,
};
use replab_report::Meta;
use replab_search::{DynSearch, SearchConfig, SearchResult};
use replab_settings::Settings;
use replab_workloads::rounds;
use serde::{Deserialize, Serialize};

pub use page::{title, write};
pub use plan::{Plan, Plans, Suite, SuiteReport, Suites};
pub use results::{
    Aggregate, Setup, SuiteResults, SuiteRun, aggregate, summary_table, time_sentence,
};

use crate::{
    Progress,
    engine::{Done, engine, parallel},
    experiment::Configuration,
    records::{Record, read_records},
    stats::Estimate,
};

/// The default number of timed runs of every search ([`Config::repeats`]).
pub const DEFAULT_REPEATS: usize = 6;
/// The most timed runs of every search accepted.
pub const MAX_REPEATS: usize = 100;
/// The detector list that stands for every search detector the policy allows
/// ([`all_detectors`]): `--detectors`' default.
pub const ALL: &str = "all";

/// The settings of a suite run, `replab suite`'s options declared on their fields (the doc
/// comment is the help). `Default` gives the command line's defaults, but no EPD file: the
/// check refuses to run without one.
///
/// The page title is not a setting: it is `Suite <file name>` ([`title`]), derived from the
/// EPD path the results carry, so a report rebuilt from `results.json` gets the same title.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// EPD file (one record per line; `hfen`/`hmoves` operations give a game history).
    #[arg(long, value_name = "EPD")]
    #[setting(required)]
    pub epd: PathBuf,
    /// Search depth in plies.
    #[arg(long, value_name = "DEPTH")]
    #[setting(range = 1..=30)]
    pub depth: u32,
    /// Node budget per search (the deepest completed iteration counts); none by default.
    #[arg(long, value_name = "NODES")]
    pub nodes: Option<u64>,
    /// Comma-separated detectors, or `all` (every searcher detector); `off` is always added.
    #[arg(long, value_name = "DETECTORS", value_delimiter = ',')]
    pub detectors: Vec<String>,
    /// Draw policy: twofold, stanback, moreland, stockfish or threefold, or an engine preset
    /// (crafty, weiss, koivisto, viridithas, lc0), an alias of one of them.
    #[arg(long, value_name = "POLICY", value_parser = replab_registry::policy)]
    pub policy: DrawPolicy,
    /// Skip bad records (reported; exit status 2 at the end) instead of stopping at the first.
    #[arg(long)]
    pub keep_going: bool,
    /// Only the first N records.
    #[arg(long, value_name = "LIMIT")]
    pub limit: Option<usize>,
    /// Timed runs of every search ({range}), interleaved across detectors; times are their
    /// median with a 95% interval, and every run's counters must agree.
    #[arg(long, value_name = "REPEATS")]
    #[setting(range = 1..=MAX_REPEATS)]
    pub repeats: usize,
    /// Worker threads ({range}); the counts do not depend on it.
    #[arg(long, value_name = "THREADS")]
    #[setting(range = 1..=256)]
    pub threads: usize,
    /// The command line that regenerates the report (in `meta`).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            epd: PathBuf::new(),
            depth: 6,
            nodes: None,
            detectors: vec![ALL.to_owned()],
            policy: DrawPolicy::default(),
            keep_going: false,
            limit: None,
            repeats: DEFAULT_REPEATS,
            threads: crate::engine::default_threads(),
            command: String::new(),
        }
    }
}

impl Configuration for Config {
    /// A suite has no short run of its own: `bench --quick` chooses its depths ([`Suites`]).
    fn quick() -> Self {
        Self::default()
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }

    /// Refuses settings out of range, a missing EPD file, an empty node budget, and detectors
    /// the searcher cannot run or that cannot serve the policy
    /// (`<detector> cannot be used with --policy <policy>: <reason>`).
    fn check(&self) -> Result<()> {
        self.check_ranges()?;
        ensure!(
            !self.epd.as_os_str().is_empty(),
            "no EPD file to search: {} FILE names it",
            Config::EPD
        );
        ensure!(
            self.nodes != Some(0),
            "{} must be at least 1",
            Config::NODES
        );
        self.searched().map(drop)
    }
}

impl Config {
    /// The detectors searched, `off` first: [`Config::detectors`] read under [`Config::policy`]
    /// ([`parse_detectors`]).
    pub fn searched(&self) -> Result<Vec<String>> {
        parse_detectors(&self.detectors.join(","), self.policy)
    }

    /// The searcher's settings for this run.
    pub fn search_config(&self) -> SearchConfig {
        SearchConfig {
            max_depth: self.depth,
            policy: self.policy,
            node_limit: self.nodes,
            ..SearchConfig::default()
        }
    }
}

/// Whether the searcher can run `name`: `off` or a searchable detector of the registry.
fn searchable(name: &str) -> bool {
    name == "off" || info(name).is_some_and(|i| i.caps.searchable)
}

/// Why a listed row is refused by the searcher: "`truth` and `cuckoo` are not search detectors
/// (use linear+cuckoo)". The registry's listed rows the searcher cannot run, those that probe
/// first, then the searchable compositions that answer upcoming-cycle queries in their place.
fn not_searchable() -> String {
    let mut refused: Vec<&DetectorInfo> = DETECTORS
        .iter()
        .filter(|d| d.caps.listed && !d.caps.searchable)
        .collect();
    refused.sort_by_key(|d| d.caps.upcoming_only());
    let refused: Vec<String> = refused.iter().map(|d| format!("`{}`", d.name)).collect();
    let instead: Vec<&str> = DETECTORS
        .iter()
        .filter(|d| d.caps.listed && d.caps.searchable && d.caps.composite && d.caps.upcoming)
        .map(|d| d.name)
        .collect();
    let are = if refused.len() == 1 {
        "is not a search detector"
    } else {
        "are not search detectors"
    };
    let refused = match refused.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    format!("{refused} {are} (use {})", instead.join(", "))
}

/// The search detectors `all` stands for under `policy`: every one of the registry's search
/// detectors that can serve the policy (`replab_registry::check_policy`; Gerbil's `filo`, for
/// one, does not serve `twofold`), in the registry's order.
pub fn all_detectors(policy: DrawPolicy) -> Vec<&'static str> {
    SEARCH_DETECTORS
        .into_iter()
        .filter(|name| check_policy(name, policy).is_ok())
        .collect()
}

/// Parses `--detectors` for a run under `policy`: a comma-separated list or `all`
/// ([`all_detectors`]), checked against the registry; `off` is put first whether listed or not.
/// A detector named in the list that cannot serve the policy is refused with
/// `<detector> cannot be used with --policy <policy>: <reason>`.
pub fn parse_detectors(text: &str, policy: DrawPolicy) -> Result<Vec<String>> {
    let mut names = parse_list(text, &all_detectors(policy))
        .with_context(|| format!("invalid {} {text:?}", Config::DETECTORS))?;
    if names.iter().any(|n| !searchable(n)) {
        bail!(
            "invalid {} {text:?}: {}",
            Config::DETECTORS,
            not_searchable()
        );
    }
    for name in &names {
        check_policy(name, policy).map_err(refused)?;
    }
    names.retain(|n| n != "off");
    names.insert(0, "off".into());
    Ok(names)
}

/// The registry's refusal of a detector under a policy, as the suite words it: the policy is
/// its option's value (`linear cannot be used with --policy threefold: …`).
fn refused(refusal: PolicyRefusal) -> anyhow::Error {
    anyhow!(
        "{} cannot be used with {} {}: {}",
        refusal.detector,
        Config::POLICY,
        refusal.policy,
        refusal.reason
    )
}

/// Everything a rerun of a search must reproduce exactly (all but the time).
fn signature(run: &SuiteRun) -> (u32, &Option<String>, i32, replab_search::Counters) {
    (run.depth, &run.best_move, run.eval_cp, run.counters)
}

/// One search's run object (one timed run: [`Config::repeats`] runs are merged later).
fn run_of(
    record: &Record,
    detector: DetectorId,
    policy: DrawPolicy,
    res: &SearchResult,
) -> SuiteRun {
    let best = res.best_move();
    let solved = if record.best.is_empty() && record.avoid.is_empty() {
        None
    } else {
        Some(best.is_some_and(|m| {
            (record.best.is_empty() || record.best.contains(&m)) && !record.avoid.contains(&m)
        }))
    };
    SuiteRun {
        id: record.id.clone(),
        line: record.line,
        detector,
        policy: policy.name().to_string(),
        depth: res.last().map_or(0, |it| it.depth),
        best_move: best.map(|m| m.uci().to_string()),
        eval_cp: res.score().map_or(0, |s| s.value()),
        counters: res.totals(),
        time_ms: Estimate::single(res.time_ms()),
        time_ms_samples: vec![res.time_ms()],
        solved,
        history_plies: record.moves.len(),
    }
}

/// Searches one record with every detector: `repeats` rounds, interleaved (round after round,
/// every detector once per round, so a slow spell of the machine hits all detectors alike).
/// Returns one run per detector, in `ids` order, with every round's time; the counters, depth,
/// best move and score must be identical in every round (the search is deterministic), else
/// it fails. `done` counts the searches.
fn search_record(
    record: &Record,
    ids: &[DetectorId],
    engines: &mut [Box<dyn DynSearch>],
    policy: DrawPolicy,
    repeats: usize,
    done: &Done,
) -> Result<Vec<SuiteRun>> {
    let timed = rounds::timed(
        engines.len(),
        repeats,
        |i| {
            let res = engines[i].search_game(&record.positions, &record.moves);
            done.add(1);
            Ok(run_of(record, ids[i], policy, &res))
        },
        |run| run.time_ms.value,
        |first, run| signature(first) == signature(run),
        |i, round| {
            anyhow!(
                "{}: record {} (line {}): run {round} differs from run 1 (the search must be \
                 deterministic)",
                ids[i],
                record.id,
                record.line,
            )
        },
    )?;
    Ok(timed
        .into_iter()
        .map(|t| SuiteRun {
            time_ms: t.estimate(),
            time_ms_samples: t.samples,
            ..t.first
        })
        .collect())
}

/// The records of the suite's EPD file ([`read_records`]); a file that cannot be read is named
/// by its option too (`--epd x.epd: cannot read the EPD file x.epd: …`).
fn records_of(config: &Config) -> Result<(Vec<Record>, Vec<String>)> {
    read_records(&config.epd, config.keep_going).map_err(|e| {
        if e.is::<std::io::Error>() {
            e.context(format!("{} {}", Config::EPD, config.epd.display()))
        } else {
            e
        }
    })
}

/// Reads the suite and searches every record with every detector ([`search_record`]: every
/// search [`Config::repeats`] times, interleaved; a run's time is the median of its rounds
/// with [`median_ci`](crate::stats::median_ci)'s interval), records side by side on [`Config::threads`] workers (one
/// searcher per detector and worker, reused across its records); one progress unit per
/// search.
///
/// Bad records fail the run naming `file:line`, or with `keep_going` are listed in
/// [`SuiteResults::skipped`] (the command line then exits 2 after writing the report).
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<SuiteResults> {
    config.check()?;
    let searched = config.searched()?;
    let (mut records, skipped) = records_of(config)?;
    if let Some(n) = config.limit {
        records.truncate(n);
    }
    if records.is_empty() {
        bail!("no records to search in {}", config.epd.display());
    }
    let search = config.search_config();
    let repeats = config.repeats;
    progress.stage("suite", (records.len() * searched.len() * repeats) as u64);
    let ids: Vec<DetectorId> = searched
        .iter()
        .map(|n| n.parse())
        .collect::<Result<_, _>>()?;
    let per_record = parallel(
        records.len(),
        config.threads,
        progress,
        || {
            ids.iter()
                .map(|id| engine(id.name(), search))
                .collect::<Result<Vec<_>>>()
        },
        |engines, r, done| search_record(&records[r], &ids, engines, search.policy, repeats, done),
    )?;
    let mut runs: Vec<SuiteRun> = per_record.into_iter().flatten().collect();
    // Runs in the order of the report: detector by detector, records in file order.
    let order = |r: &SuiteRun| ids.iter().position(|&d| d == r.detector);
    runs.sort_by_key(order);
    progress.finish();
    Ok(SuiteResults {
        meta: Meta::collect(&config.command),
        epd: config.epd.display().to_string(),
        config: Setup {
            settings: Config {
                detectors: searched,
                ..config.clone()
            },
            contempt: search.contempt,
            null_move: search.null_move,
            tt_bits: search.tt_bits,
        },
        skipped,
        aggregates: aggregate(&runs, &ids),
        runs,
    })
}

#[cfg(test)]
mod tests {
    use replab_registry::DETECTOR_NAMES;

    use super::*;

    #[test]
    fn options_are_checked() {
        let reference = DetectorId::reference().name();
        // A listed row the searcher cannot run, and a search detector the default policy refuses.
        let not_search = DETECTOR_NAMES.into_iter().find(|n| !searchable(n)).unwrap();
        let refused = SEARCH_DETECTORS
            .into_iter()
            .find(|n| check_policy(n, Config::default().policy).is_err())
            .unwrap();
        let twofold = DrawPolicy::Twofold;
        let all = parse_detectors("all", twofold).unwrap();
        assert_eq!(all.len(), all_detectors(twofold).len() + 1);
        assert_eq!(all[0], "off");
        // `all` is every search detector the policy allows (Gerbil's filo, for one, does not
        // serve twofold), and a detector the policy refuses is refused by name.
        for policy in DrawPolicy::ALL {
            let all = parse_detectors("all", policy).unwrap();
            for name in SEARCH_DETECTORS {
                let allowed = check_policy(name, policy).is_ok();
                assert_eq!(all.iter().any(|n| n == name), allowed, "{name} {policy}");
                if !allowed {
                    let e = parse_detectors(&format!("{reference},{name}"), policy).unwrap_err();
                    let start = format!("{name} cannot be used with --policy {policy}: ");
                    assert!(e.to_string().starts_with(&start), "{e}");
                }
            }
        }
        assert!(
            DrawPolicy::ALL
                .into_iter()
                .any(|p| all_detectors(p).len() < SEARCH_DETECTORS.len()),
            "some policy refuses some detector"
        );
        assert!(parse_detectors("nosuch", twofold).is_err());
        for row in DETECTORS
            .iter()
            .filter(|d| d.caps.listed && !d.caps.searchable)
        {
            let e = parse_detectors(row.name, twofold).unwrap_err().to_string();
            assert!(e.contains(&format!("`{}`", row.name)), "{e}");
        }
        assert_eq!(
            parse_detectors(&format!("{reference},off"), twofold).unwrap(),
            ["off", reference]
        );
        let good = Config {
            epd: "suite.epd".into(),
            ..Config::default()
        };
        assert!(good.check().is_ok());
        let missing = Config::default().check().unwrap_err().to_string();
        assert_eq!(missing, "no EPD file to search: --epd FILE names it");
        let policy = good.policy;
        let cases = [
            (
                Config {
                    depth: 0,
                    ..good.clone()
                },
                "--depth 0 is out of range".to_owned(),
            ),
            (
                Config {
                    nodes: Some(0),
                    ..good.clone()
                },
                "--nodes must be at least 1".to_owned(),
            ),
            (
                Config {
                    repeats: 0,
                    ..good.clone()
                },
                "--repeats 0 is out".to_owned(),
            ),
            (
                Config {
                    repeats: MAX_REPEATS + 1,
                    ..good.clone()
                },
                format!("--repeats {} is out", MAX_REPEATS + 1),
            ),
            (
                Config {
                    detectors: vec![not_search.into()],
                    ..good.clone()
                },
                format!("invalid --detectors \"{not_search}\""),
            ),
            (
                Config {
                    detectors: vec!["off".into(), refused.into()],
                    ..good.clone()
                },
                format!("{refused} cannot be used with --policy {policy}: "),
            ),
        ];
        for (bad, message) in cases {
            let refusal = bad.check().unwrap_err().to_string();
            assert!(refusal.starts_with(&message), "{refusal}");
        }
    }
}
