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

use anyhow::{Context, Result, anyhow, bail};
use replab_detect::DrawPolicy;
use replab_registry::{
    DETECTORS, DetectorId, DetectorInfo, SEARCH_DETECTORS, check_policy, info, parse_list,
};
use replab_report::Meta;
use replab_search::{DynSearch, SearchConfig, SearchResult};
use replab_workloads::rounds;

pub use page::{title, write};
pub use plan::{Plan, Plans, Suite, SuiteReport, Suites};
pub use results::{
    Aggregate, ConfigRecord, SuiteResults, SuiteRun, aggregate, summary_table, time_sentence,
};

use crate::{
    Progress,
    engine::{Done, engine, parallel},
    records::{Record, read_records},
    stats::Estimate,
};

/// The default number of timed runs of every search ([`Config::repeats`]).
pub const DEFAULT_REPEATS: usize = 6;
/// The most timed runs of every search accepted.
pub const MAX_REPEATS: usize = 100;

replab_settings::declare! {
    /// Every declared setting of `replab suite`.
    pub SETTINGS for Config = [
        DEPTH: depth, 1, 30, "Search depth in plies.";
        REPEATS: repeats, 1, MAX_REPEATS as u64,
            "Timed runs of every search ({range}), interleaved across detectors; times are their median with a 95% interval, and every run's counters must agree.";
        THREADS: threads, 1, 256, "Worker threads ({range}); the counts do not depend on it.";
    ]
}

/// The settings of a suite run. `Default` gives the command line's defaults (but no EPD file).
///
/// The page title is not a setting: it is `Suite <file name>` ([`title`]), derived from the
/// EPD path the results carry, so a report rebuilt from `results.json` gets the same title.
#[derive(Clone, Debug)]
pub struct Config {
    /// EPD file (one record per line; `hfen`/`hmoves` operations give a game history).
    pub epd: PathBuf,
    /// Search depth in plies ([`DEPTH`]).
    pub depth: u32,
    /// Node budget per search (the deepest completed iteration counts); `None` for none.
    pub nodes: Option<u64>,
    /// Detectors to search, in order, as [`parse_detectors`] returns them (`off` first).
    pub detectors: Vec<String>,
    /// Draw policy.
    pub policy: DrawPolicy,
    /// Skip bad records (listed in the results) instead of failing at the first.
    pub keep_going: bool,
    /// Only the first N records.
    pub limit: Option<usize>,
    /// Timed runs of every (record, detector) search ([`REPEATS`]): interleaved (for
    /// each record, round after round, every detector once per round), the time reported is
    /// their median with its interval, and the counters of every run must be identical.
    pub repeats: usize,
    /// Worker threads ([`THREADS`]): records are searched side by side, each record's rounds on
    /// one worker (the counters and the order of the results do not depend on it).
    pub threads: usize,
    /// The command line that regenerates the report (for `meta.command`).
    pub command: String,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            epd: PathBuf::new(),
            depth: 6,
            nodes: None,
            detectors: parse_detectors("all", DrawPolicy::default())
                .expect("`all` is a valid detector list"),
            policy: DrawPolicy::default(),
            keep_going: false,
            limit: None,
            repeats: DEFAULT_REPEATS,
            threads: crate::engine::default_threads(),
            command: "replab suite".into(),
        }
    }
}

impl Config {
    /// Checks the numeric settings, the detector names and that every detector can serve the
    /// policy (`replab_registry::check_policy`), with the command line's messages
    /// (`depth 40 is out of range (1 to 30)`, `axon cannot be used with policy threefold: …`).
    pub fn check(&self) -> Result<()> {
        self.check_declared()?;
        if self.nodes == Some(0) {
            bail!(
                "{set_nodes} must be at least 1",
                set_nodes = replab_settings::Setting::new("nodes")
            );
        }
        if let Some(bad) = self.detectors.iter().find(|n| !searchable(n)) {
            bail!(
                "invalid {set_detectors}: {bad:?} is not a search detector",
                set_detectors = replab_settings::Setting::new("detectors")
            );
        }
        for name in &self.detectors {
            check_policy(name, self.policy)?;
        }
        Ok(())
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
    let mut names = parse_list(text, &all_detectors(policy)).with_context(|| {
        format!(
            "invalid {set_detectors} {text:?}",
            set_detectors = replab_settings::Setting::new("detectors")
        )
    })?;
    if names.iter().any(|n| !searchable(n)) {
        bail!(
            "invalid {set_detectors} {text:?}: {}",
            not_searchable(),
            set_detectors = replab_settings::Setting::new("detectors")
        );
    }
    for name in &names {
        check_policy(name, policy)?;
    }
    names.retain(|n| n != "off");
    names.insert(0, "off".into());
    Ok(names)
}

impl Config {
    /// Sets `--policy` (when given) and then `--detectors` (`all` when not given) under it.
    pub fn choose(&mut self, policy: Option<&str>, detectors: Option<&str>) -> Result<()> {
        if let Some(policy) = policy {
            self.policy = parse_policy(policy)?;
        }
        self.detectors = parse_detectors(detectors.unwrap_or("all"), self.policy)?;
        Ok(())
    }
}

/// Parses `--policy`: a draw policy name.
pub fn parse_policy(text: &str) -> Result<DrawPolicy> {
    replab_registry::policy(text).with_context(|| {
        format!(
            "invalid {set_policy} {text:?}",
            set_policy = replab_settings::Setting::new("policy")
        )
    })
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
            run_of(record, ids[i], policy, &res)
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
    let (mut records, skipped) = read_records(&config.epd, config.keep_going)?;
    if let Some(n) = config.limit {
        records.truncate(n);
    }
    if records.is_empty() {
        bail!("no records to search in {}", config.epd.display());
    }
    let search = config.search_config();
    let repeats = config.repeats;
    progress.stage(
        "suite",
        (records.len() * config.detectors.len() * repeats) as u64,
    );
    let ids: Vec<DetectorId> = config
        .detectors
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
        config: ConfigRecord {
            depth: config.depth,
            nodes: config.nodes,
            policy: search.policy.name().into(),
            contempt: search.contempt,
            null_move: search.null_move,
            tt_bits: search.tt_bits,
            detectors: ids.clone(),
            repeats,
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
                    let start = format!(
                        "{name} cannot be used with {set_policy} {policy}: ",
                        set_policy = replab_settings::Setting::new("policy")
                    );
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
        assert!(parse_policy("sometimes").is_err());
        assert_eq!(parse_policy("stockfish").unwrap(), DrawPolicy::Stockfish);
        assert_eq!(
            parse_detectors(&format!("{reference},off"), twofold).unwrap(),
            ["off", reference]
        );
        assert!(Config::default().check().is_ok());
        for bad in [
            Config {
                depth: 0,
                ..Config::default()
            },
            Config {
                nodes: Some(0),
                ..Config::default()
            },
            Config {
                repeats: 0,
                ..Config::default()
            },
            Config {
                repeats: MAX_REPEATS + 1,
                ..Config::default()
            },
            Config {
                detectors: vec![not_search.into()],
                ..Config::default()
            },
            Config {
                detectors: vec!["off".into(), refused.into()],
                ..Config::default()
            },
        ] {
            assert!(bad.check().is_err());
        }
    }
}
