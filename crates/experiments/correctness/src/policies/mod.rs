//! Engines' draw policies (`replab policies`): the rules real engines use to score a
//! repetition as a draw, as presets ([`replab_registry::PRESETS`]), checked on scripted cases
//! ([`cases`]) and compared in search.
//!
//! Every engine read turned out to follow one of replab's five policies exactly, so each preset
//! is an alias of a policy and the search runs once per distinct policy: `stockfish`,
//! `twofold` (Crafty, Weiss, Koivisto), `moreland` (Viridithas, lc0) and `threefold`. Each is
//! searched with `linear` (exact) and `linear+cuckoo` (the policy's upcoming-cycle rule) on the
//! repetition suite (`datasets/repetition.epd`, with game histories) and on WAC, to a fixed
//! depth; the reference is `threefold` with `linear`, which scores exactly the FIDE threefold
//! repetition. Reported per configuration: nodes, time (per-record medians of interleaved
//! repeats; the change against the reference as the median of per-record ratios with its 95%
//! interval), solved records (bm/am), and how many records' root score and best move differ
//! from the reference.
//!
//! [`run`] searches and returns the [`Results`], [`write`] writes `results.json`, two charts
//! and `index.html`; [`summary_table`] is what the command line prints.

pub mod cases;
mod page;

use std::path::Path;

use anyhow::{Result, anyhow};
use replab_detect::DrawPolicy;
use replab_registry::DetectorId;
use replab_registry::PRESETS;
use replab_report::{Meta, ReportDir, fmt_delta_pct, fmt_int};
use replab_search::{DynSearch, SearchConfig, SearchResult};
use replab_selfplay::PlayerSpec;
use replab_settings::Settings;
use replab_workloads::rounds;
use serde::{Deserialize, Serialize};

pub use cases::{CaseAnswer, CaseCheck};
pub use page::write_page;

use crate::contribution::{Better, Column, Contribution, Measured, Phrase, Role, Rows, Unit};
use crate::experiment::{Conclusion, Configuration, Experiment, Headline};
use crate::{
    Progress, datasets,
    engine::{Done, default_threads, engine, parallel},
    records::Record,
    stats::{Estimate, Interval, median_ci},
};

/// The page title.
pub const TITLE: &str =
    "Engines' draw policies: presets, scripted cases and their effect on search";

/// The detectors every policy is searched with, in table order, from the registry's columns:
/// the reference detector (`linear`) and every listed searchable detector that also finds
/// upcoming cycles (`linear+cuckoo`), so each policy is searched without and with them.
pub fn detectors() -> Vec<DetectorId> {
    DetectorId::select(|c| c.searchable && (c.reference || c.upcoming))
}

/// The reference: `threefold` with the reference detector (`linear`: exact FIDE threefold
/// repetition).
pub fn reference() -> (DrawPolicy, DetectorId) {
    (DrawPolicy::Threefold, DetectorId::reference())
}

/// Deepest search depth accepted.
pub const MAX_DEPTH: u32 = 12;

/// The settings of `replab policies`, each declared on its field: the doc comment is its help
/// (in `results.json` under `config`, beside the references and the searcher's settings:
/// [`Setup`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// Search depth on datasets/repetition.epd.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub repetition_depth: u32,
    /// Search depth on WAC.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub wac_depth: u32,
    /// WAC records searched: the first N of datasets/wac.epd.
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=300)]
    pub wac_records: usize,
    /// Interleaved timed runs of every search ({range}); times are their medians.
    #[arg(long, value_name = "K")]
    #[setting(range = 1..=20)]
    pub repeats: usize,
    /// Worker threads ({range}); the counts do not depend on it.
    #[arg(long, value_name = "T")]
    #[setting(range = 1..=256)]
    pub threads: usize,
    /// The command line that regenerates the report (in `meta`, recorded as typed).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
}

impl Default for Config {
    /// The command line's defaults (the full run).
    fn default() -> Self {
        Self {
            repetition_depth: 6,
            wac_depth: 5,
            wac_records: 120,
            repeats: 3,
            threads: default_threads(),
            command: String::new(),
        }
    }
}

impl Configuration for Config {
    /// The short run of `bench --quick`.
    fn quick() -> Self {
        Self {
            repetition_depth: 5,
            wac_depth: 4,
            wac_records: 40,
            // One timed run per search: a median of two has no 95% interval either, and the
            // short run's times are a smoke test's.
            repeats: 1,
            ..Self::default()
        }
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }
}

/// A preset as the report shows it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PresetRecord {
    /// The preset's name.
    pub name: String,
    /// The engine.
    pub engine: String,
    /// The policy it equals.
    pub policy: DrawPolicy,
    /// The engine's rule as read in its code.
    pub rule: String,
    /// Where it was read.
    pub source: String,
    /// The upcoming-cycle rule the preset's searches use (its policy's).
    pub upcoming_rule: String,
    /// How the engine's own upcoming-cycle code differs, if it does.
    pub upcoming_note: String,
}

/// One record searched under one configuration.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RecordRun {
    /// The record's id.
    pub id: String,
    /// The policy.
    pub policy: DrawPolicy,
    /// The detector.
    pub detector: DetectorId,
    /// Best move (UCI), `-` when none.
    pub best_move: String,
    /// Root score in centipawns, side to move's view.
    pub score_cp: i32,
    /// Nodes, all iterations.
    pub nodes: u64,
    /// Repetition draws scored.
    pub repetitions: u64,
    /// Whether the best move solves the record (bm/am), `None` without bm/am.
    pub solved: Option<bool>,
    /// Wall time: the median of the interleaved runs with its 95% interval (ms).
    pub time_ms: Estimate,
    /// Each run's wall time in round order (ms): the samples behind `time_ms`.
    pub time_ms_samples: Vec<f64>,
}

/// A configuration's totals over a set, against the reference.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Total {
    /// The policy.
    pub policy: DrawPolicy,
    /// The presets that are this policy.
    pub presets: Vec<String>,
    /// The detector.
    pub detector: DetectorId,
    /// Nodes summed over the records.
    pub nodes: u64,
    /// Nodes against the reference's (relative change).
    pub nodes_change: f64,
    /// Repetition draws scored.
    pub repetitions: u64,
    /// Records solved.
    pub solved: usize,
    /// Records with bm/am.
    pub solvable: usize,
    /// Records whose root score differs from the reference's.
    pub score_differs: usize,
    /// Records whose best move differs from the reference's.
    pub best_move_differs: usize,
    /// Sum of the per-record median times (ms), with the interval of the per-round totals
    /// (widened to contain the sum; `n`: the rounds).
    pub time_ms: Estimate,
    /// Time against the reference: the median over records of the per-record time ratio − 1,
    /// with its 95% interval.
    pub time_change: Estimate,
}

/// One position set's results.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SetResults {
    /// `repetition` or `wac`.
    pub set: String,
    /// What it is.
    pub description: String,
    /// Search depth.
    pub depth: u32,
    /// Records searched.
    pub records: usize,
    /// Records with a game history.
    pub with_history: usize,
    /// Totals per configuration, in [`configurations`] order.
    pub totals: Vec<Total>,
    /// Every record under every configuration (configuration by configuration).
    pub runs: Vec<RecordRun>,
}

/// The settings as recorded: the run's [`Config`] and the references and searcher it fixes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Setup {
    /// The settings, their fields beside the three below in JSON.
    #[serde(flatten)]
    pub settings: Config,
    /// Reference policy.
    pub reference_policy: DrawPolicy,
    /// Reference detector.
    pub reference_detector: DetectorId,
    /// The searcher's settings (depth set per set).
    pub search: SearchConfig,
}

/// Everything `replab policies` measured.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Results {
    /// Provenance.
    pub meta: Meta,
    /// Settings.
    pub config: Setup,
    /// The presets.
    pub presets: Vec<PresetRecord>,
    /// The scripted cases, checked through the searcher.
    pub cases: Vec<CaseCheck>,
    /// The position sets.
    pub sets: Vec<SetResults>,
}

/// The distinct policies of the presets, in preset order (reference last).
pub fn policies() -> Vec<DrawPolicy> {
    let mut out: Vec<DrawPolicy> = Vec::new();
    for p in &PRESETS {
        if !out.contains(&p.policy) {
            out.push(p.policy);
        }
    }
    out
}

/// The configurations searched: every distinct policy × every detector.
pub fn configurations() -> Vec<(DrawPolicy, DetectorId)> {
    let detectors = detectors();
    policies()
        .into_iter()
        .flat_map(|p| detectors.iter().map(move |&d| (p, d)))
        .collect()
}

/// The presets that are `policy`.
fn presets_of(policy: DrawPolicy) -> Vec<String> {
    PRESETS
        .iter()
        .filter(|p| p.policy == policy)
        .map(|p| p.name.to_string())
        .collect()
}

/// One search's run of record `r` under `(policy, detector)` (its time a single sample).
fn record_run(
    r: &Record,
    (policy, detector): (DrawPolicy, DetectorId),
    res: &SearchResult,
) -> RecordRun {
    let best = res.best_move();
    RecordRun {
        id: r.id.clone(),
        policy,
        detector,
        best_move: best.map_or_else(|| "-".into(), |m| m.uci().to_string()),
        score_cp: res.score().map_or(0, |s| s.0),
        nodes: res.totals().nodes,
        repetitions: res.totals().repetitions,
        solved: (!r.best.is_empty() || !r.avoid.is_empty()).then(|| {
            best.is_some_and(|m| {
                (r.best.is_empty() || r.best.contains(&m)) && !r.avoid.contains(&m)
            })
        }),
        time_ms: Estimate::single(res.time_ms()),
        time_ms_samples: Vec::new(),
    }
}

/// Searches every record under every configuration (records in parallel, configurations
/// interleaved within a record's rounds). Returns the runs configuration by configuration.
fn search_set(
    label: &str,
    records: &[Record],
    depth: u32,
    config: &Config,
    progress: &mut dyn Progress,
) -> Result<Vec<RecordRun>> {
    let configs = configurations();
    progress.stage(
        label,
        (records.len() * configs.len() * config.repeats) as u64,
    );
    let search = |policy| SearchConfig {
        max_depth: depth,
        policy,
        ..SearchConfig::default()
    };
    let per_record = parallel(
        records.len(),
        config.threads,
        progress,
        || {
            configs
                .iter()
                .map(|&(p, d)| engine(d.name(), search(p)))
                .collect::<Result<Vec<Box<dyn DynSearch>>>>()
        },
        |engines, i, done: &Done| {
            let r = &records[i];
            let timed = rounds::timed(
                configs.len(),
                config.repeats,
                |c| {
                    let res = engines[c].search_game(&r.positions, &r.moves);
                    done.add(1);
                    Ok(record_run(r, configs[c], &res))
                },
                |run| run.time_ms.value,
                |first, run| {
                    (first.nodes, &first.best_move, first.score_cp)
                        == (run.nodes, &run.best_move, run.score_cp)
                },
                |c, _| {
                    let (policy, detector) = configs[c];
                    anyhow!(
                        "{policy}/{detector}: record {} differs between runs (the search must \
                         be deterministic)",
                        r.id
                    )
                },
            )?;
            Ok(timed
                .into_iter()
                .map(|t| RecordRun {
                    time_ms: t.estimate(),
                    time_ms_samples: t.samples,
                    ..t.first
                })
                .collect::<Vec<_>>())
        },
    )?;
    // Configuration by configuration, records in file order.
    let mut out = Vec::with_capacity(records.len() * configs.len());
    for c in 0..configs.len() {
        out.extend(per_record.iter().map(|runs| runs[c].clone()));
    }
    Ok(out)
}

/// The totals of each configuration against the reference.
pub fn totals(runs: &[RecordRun]) -> Vec<Total> {
    let of = |p: DrawPolicy, d: DetectorId| -> Vec<&RecordRun> {
        runs.iter()
            .filter(|r| r.policy == p && r.detector == d)
            .collect()
    };
    let (reference_policy, reference_detector) = reference();
    let reference = of(reference_policy, reference_detector);
    let ref_nodes: u64 = reference.iter().map(|r| r.nodes).sum();
    configurations()
        .into_iter()
        .map(|(policy, detector)| {
            let rs = of(policy, detector);
            let nodes: u64 = rs.iter().map(|r| r.nodes).sum();
            let pairs = rs.iter().zip(&reference);
            let ratios: Vec<f64> = pairs
                .clone()
                .filter(|(_, b)| b.time_ms.value > 0.0)
                .map(|(a, b)| a.time_ms.value / b.time_ms.value - 1.0)
                .collect();
            Total {
                policy,
                presets: presets_of(policy),
                detector,
                nodes,
                nodes_change: if ref_nodes > 0 {
                    nodes as f64 / ref_nodes as f64 - 1.0
                } else {
                    0.0
                },
                repetitions: rs.iter().map(|r| r.repetitions).sum(),
                solved: rs.iter().filter(|r| r.solved == Some(true)).count(),
                solvable: rs.iter().filter(|r| r.solved.is_some()).count(),
                score_differs: pairs
                    .clone()
                    .filter(|(a, b)| a.score_cp != b.score_cp)
                    .count(),
                best_move_differs: pairs.filter(|(a, b)| a.best_move != b.best_move).count(),
                time_ms: total_time(&rs),
                time_change: if ratios.is_empty() {
                    Estimate::exact(0.0)
                } else {
                    median_ci(&ratios)
                },
            }
        })
        .collect()
}

/// The sum of `runs`' median times with the interval of the per-round totals (the median over
/// rounds of each round's sum, [`median_ci`]), widened to contain the sum.
fn total_time(runs: &[&RecordRun]) -> Estimate {
    let sum: f64 = runs.iter().map(|r| r.time_ms.value).sum();
    let rounds = runs
        .iter()
        .map(|r| r.time_ms_samples.len())
        .min()
        .unwrap_or(0);
    if rounds == 0 {
        return Estimate::single(sum);
    }
    let totals: Vec<f64> = (0..rounds)
        .map(|k| runs.iter().map(|r| r.time_ms_samples[k]).sum())
        .collect();
    let i = median_ci(&totals).interval;
    Estimate {
        value: sum,
        interval: Interval {
            lo: i.lo.min(sum),
            hi: i.hi.max(sum),
            ..i
        },
    }
}

/// Runs the cases and the searches.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let meta = Meta::collect(&config.command);
    progress.stage("policy cases", 0);
    let case_list = cases::cases()?;
    let checks = cases::check(&case_list)?;
    let mut sets = Vec::new();
    let rep = datasets::REPETITION.records(None)?;
    let wac = datasets::WAC.records(Some(config.wac_records))?;
    for (set, recs, depth, description) in [
        (
            "repetition",
            &rep,
            config.repetition_depth,
            format!(
                "{}: perpetual checks, composed draws and positions from real games, most with \
                 the game that led to them as history",
                datasets::REPETITION.path
            ),
        ),
        (
            "wac",
            &wac,
            config.wac_depth,
            format!(
                "the first records of {} (Win At Chess tactics), no game history",
                datasets::WAC.path
            ),
        ),
    ] {
        if recs.is_empty() {
            continue;
        }
        let runs = search_set(set, recs, depth, config, progress)?;
        sets.push(SetResults {
            set: set.into(),
            description,
            depth,
            records: recs.len(),
            with_history: recs.iter().filter(|r| !r.moves.is_empty()).count(),
            totals: totals(&runs),
            runs,
        });
    }
    progress.finish();
    Ok(Results {
        meta,
        config: Setup {
            settings: Config {
                command: String::new(), // meta's, not the settings'
                ..config.clone()
            },
            reference_policy: reference().0,
            reference_detector: reference().1,
            search: SearchConfig::default(),
        },
        presets: PRESETS
            .iter()
            .map(|p| PresetRecord {
                name: p.name.into(),
                engine: p.engine.into(),
                policy: p.policy,
                rule: p.rule.into(),
                source: p.source.into(),
                upcoming_rule: p.policy.root_rule().name().into(),
                upcoming_note: p.upcoming_note.into(),
            })
            .collect(),
        cases: checks,
        sets,
    })
}

/// Writes `results.json`, the charts and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_string_pretty(results)?)?;
    write_page(results, dir)
}

/// Whether every scripted case passed for every policy and preset.
pub fn cases_pass(results: &Results) -> (usize, usize) {
    let all: Vec<&CaseAnswer> = results.cases.iter().flat_map(|c| &c.answers).collect();
    (all.iter().filter(|a| a.pass).count(), all.len())
}

/// The headline: on the repetition suite, how many records each policy's root score differs
/// from the threefold reference's (with linear).
pub fn headline(results: &Results) -> String {
    let Some(set) = results.sets.iter().find(|s| s.set == "repetition") else {
        return String::new();
    };
    let parts: Vec<String> = set
        .totals
        .iter()
        .filter(|t| t.detector == reference().1 && t.policy != reference().0)
        .map(|t| {
            format!(
                "{} ({}) {} of {}",
                t.policy,
                t.presets.join(", "),
                t.score_differs,
                set.records
            )
        })
        .collect();
    format!(
        "On the repetition suite at depth {}, the root score differs from exact threefold for {}",
        set.depth,
        parts.join("; ")
    )
}

/// The table the command line prints.
pub fn summary_table(results: &Results) -> String {
    let (pass, all) = cases_pass(results);
    let mut out = format!("Policy cases: {pass} of {all} answers as expected\n");
    for set in &results.sets {
        out += &format!(
            "\n{} ({} records, {} with history, depth {}), reference threefold/linear\n",
            set.set, set.records, set.with_history, set.depth
        );
        out += &format!(
            "{:<10} {:<28} {:<14} {:>11} {:>8} {:>6} {:>7} {:>7} {:>26}\n",
            "policy",
            "presets",
            "detector",
            "nodes",
            "Δnodes",
            "reps",
            "solved",
            "≠score",
            "Δtime [95% CI] (≠move)"
        );
        for t in &set.totals {
            out += &format!(
                "{:<10} {:<28} {:<14} {:>11} {:>8} {:>6} {:>7} {:>7} {:>26}\n",
                t.policy.name(),
                t.presets.join(","),
                t.detector,
                fmt_int(t.nodes),
                fmt_delta_pct(t.nodes_change),
                t.repetitions,
                format!("{}/{}", t.solved, t.solvable),
                t.score_differs,
                format!(
                    "{} ({})",
                    t.time_change.text(fmt_delta_pct),
                    t.best_move_differs
                ),
            );
        }
    }
    out += &format!("\n{}\n", headline(results));
    out
}

/// Engines' draw policies as an experiment of the table.
pub struct Policies;

impl Experiment for Policies {
    const NAME: &'static str = "policies";
    const DIR: &'static str = "policies";
    const TITLE: &'static str = TITLE;
    type Config = Config;
    type Results = Results;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
        run(config, progress)
    }

    fn write(results: &Results, dir: &ReportDir) -> Result<()> {
        write(results, dir)
    }

    fn summary(results: &Results) -> String {
        summary_table(results)
    }

    fn conclude(results: &Results, index: &Path) -> Result<Conclusion> {
        Ok(Conclusion::table(summary_table(results), index))
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        vec![Headline {
            label: "Engines' draw policies".into(),
            context: Phrase::parenthesised([Phrase::report("presets and cases", "policies")]),
            text: headline(results),
        }]
    }

    /// The reference detector's nodes under every policy other than its default on each set,
    /// against under its default: the decision table's policy rows.
    fn contributions(results: &Results) -> Vec<Contribution> {
        policy_trees(results)
    }
}

/// Per set and policy other than the player's default (`PlayerSpec::named`), the change of the
/// reference detector's nodes to the set's depth against under the default policy: an exact
/// effect of the policy, one value per set.
fn policy_trees(results: &Results) -> Vec<Contribution> {
    let detector = reference().1;
    let default = PlayerSpec::named(detector.name()).policy;
    let column = Column::new("policy-tree", "nodes to depth vs default", Unit::Change)
        .what("nodes to a fixed depth against its default policy")
        .decision(Role::Effect, Better::Neither, Rows::Presets);
    results
        .sets
        .iter()
        .flat_map(|set| {
            let ours = set.totals.iter().filter(move |t| t.detector == detector);
            let base = ours
                .clone()
                .find(|t| t.policy == default)
                .map(|t| t.nodes)
                .filter(|n| *n > 0);
            let column = column.clone();
            ours.filter(move |t| t.policy != default)
                .filter_map(move |t| {
                    let change = t.nodes as f64 / base? as f64 - 1.0;
                    let value =
                        Measured::exact(change).note(format!("{}, depth {}", set.set, set.depth));
                    Some(Contribution::new(detector, column.clone(), value).under(Some(t.policy)))
                })
        })
        .collect()
}

#[cfg(test)]
mod tests;
