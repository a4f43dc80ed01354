//! `replab conformance`: scenarios whose outcome the Laws of Chess fix (threefold and fivefold
//! repetition, false repetitions through castling rights, en passant and the side to move, the
//! 50- and 75-move rules, stalemate, dead positions), built into the binary, played over UCI
//! against replab's engine once per search detector and against any external engine, judged
//! from `score` and `bestmove`, with every PV replayed through the exact arbiter ([`arbiter`]);
//! JUnit and JSON for CI ([`ci`]); the mutation table of replab's test engine ([`mutation`]).
//!
//! This file is the experiment of the table ([`Conformance`]); the scenarios are `scenario`
//! (the model) and `scenario_file` (the files), the engines under test `discovery` and
//! `command_words` (an `--engine` value split into words), the settings `config`, the run
//! loop `run`, and what it writes to `results.json` `records`.

mod arbiter;
mod ci;
mod command_words;
mod config;
mod discovery;
mod engine;
mod judge;
mod kinds;
pub mod mutant;
pub mod mutation;
mod page;
mod records;
mod run;
mod scenario;
mod scenario_file;

use anyhow::{Context, Result};
use replab_detect::DrawPolicy;
use replab_registry::DetectorId;

pub use arbiter::{Game, PvFailure, pv_moves};
pub use ci::{junit, list};
pub use command_words::{EngineCommand, command_words};
pub use config::Config;
pub use discovery::{
    DEBIAN_ENGINES, DEBIAN_GAMES_DIR, EXACT_DETECTOR, EngineSpec, locate, package_version,
    replab_command, replab_engines, replab_policy,
};
pub use engine::{Engine, Launch, parse_option};
pub use judge::{DEEPER, Limits, TWOFOLD, TWOFOLD_PROBE, judge};
pub use kinds::{
    ProtocolFailure, counts, policy_differences, protocol_failures, right_only_deeper,
};
pub use page::{
    failures, headline, held_failures, summary_table, terminal_summary, unexpected_failures,
    unexpected_passes, write,
};
pub use records::{
    DeeperAnswer, Delivery, EngineRecord, Outcome, Results, ScenarioRecord, Verdict,
};
pub use run::{run, run_engine};
pub use scenario::{DRAW_MARGIN, Scenario, WIN_MARGIN, expected_failures};
pub use scenario_file::{BUILT_IN, built_in, load, parse};

use replab_harness::Progress;
use replab_harness::contribution::{
    Better, Column, Contribution, Measured, Phrase, Role, Rows, Unit,
};
use replab_harness::experiment::{Conclusion, Experiment, Failure, Headline, Site};

/// The report's title.
pub const TITLE: &str = "Repetition and draw-rule conformance";

/// The conformance run as an experiment of the table.
pub struct Conformance;

impl Experiment for Conformance {
    const NAME: &'static str = "conformance";
    const DIR: &'static str = "conformance";
    const TITLE: &'static str = TITLE;
    type Config = Config;
    type Results = Results;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
        run(config, progress)
    }

    fn write(results: &Results, dir: &replab_report::ReportDir) -> Result<()> {
        write(results, dir)
    }

    /// The one-screen summary on stdout (engines, skipped ones, each unexpected failure; on
    /// stderr with `--json`, which puts the results on stdout), the page on stderr, the JUnit
    /// file when asked for; exit status 1 when a scenario fails ([`unexpected_failures`]) or an
    /// engine breaks the protocol ([`protocol_failures`]), 2 when no engine could be tested.
    fn conclude(results: &Results, index: &std::path::Path) -> Result<Conclusion> {
        if let Some(path) = &results.delivery.junit {
            std::fs::write(path, junit(results)).with_context(|| {
                format!(
                    "cannot write {set_junit} {}",
                    path.display(),
                    set_junit = crate::Config::JUNIT
                )
            })?;
        }
        let failed = unexpected_failures(results).len();
        let summary = terminal_summary(results);
        let mut stderr = format!("wrote {}\n", index.display());
        let stdout = if results.delivery.json {
            stderr = summary + &stderr;
            serde_json::to_string_pretty(results)? + "\n"
        } else {
            summary
        };
        let failure = if results.engines.is_empty() {
            Some(Failure::bad_input(format!(
                "no engine could be tested (every {} was skipped)",
                crate::Config::ENGINES
            )))
        } else {
            failure_count(failed, protocol_failures(results).len())
        };
        Ok(Conclusion {
            stdout,
            stderr,
            failure,
        })
    }

    /// replab's engine once per search detector (`replab uci` in a child process when the
    /// binary is known, else in-process) and the mutation table; the full run adds the Debian
    /// UCI engines installed on the machine (absent ones are listed as not run). The smoke run
    /// tests `off` and the exact detector, without the mutation table (6.4 of its 8.9 s, the
    /// test build, 2026-11-29).
    fn bench_config(site: &Site) -> Result<Config> {
        let engines = if site.quick || site.smoke {
            Vec::new()
        } else {
            DEBIAN_ENGINES
                .iter()
                .map(|e| EngineCommand(vec![e.to_string()]))
                .collect()
        };
        Ok(Config {
            scenarios: Some(site.datasets.join("conformance.json")),
            mutations: !site.smoke,
            replab: site
                .exe
                .as_deref()
                .map_or(Launch::InProcess, replab_command),
            engines,
            command: site.command.clone(),
            // The Debian engines are looked for, not required: absent ones are listed as not run.
            skip_missing: true,
            all_detectors: !site.smoke,
            ..Config::default()
        })
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        vec![Headline {
            label: "Conformance with the rules".into(),
            context: Phrase::parenthesised([Phrase::report("engine × scenario", "conformance")]),
            text: headline(results),
        }]
    }

    /// One value per configuration of replab's engine (detector and draw policy): the
    /// scenarios it failed, by name, under the policy it ran.
    fn contributions(results: &Results) -> Vec<Contribution> {
        let column = Column::new(
            "conformance",
            "FIDE scenarios",
            Unit::Failed {
                of: results.scenarios.len(),
            },
        )
        .what("FIDE conformance")
        .decision(Role::Shown, Better::Lower, Rows::ChoiceOrOwn);
        results
            .engines
            .iter()
            .filter(|e| !e.external)
            .filter_map(|e| {
                let (detector, policy) = e.name.strip_prefix("replab ")?.split_once(" (")?;
                let detector = DetectorId::from_name(detector)?;
                let policy: DrawPolicy = policy.strip_suffix(')')?.parse().ok()?;
                // The scenarios it is held to only (not those outside replab's searcher or
                // answered otherwise by its draw policy).
                let failed: Vec<String> = held_failures(results, e)
                    .into_iter()
                    .map(String::from)
                    .collect();
                // The policy is named where it is not the row's own (the default one).
                let value = Measured::value(failed.len() as f64).items(failed);
                let value = if policy == replab_uci::DEFAULT_POLICY {
                    value
                } else {
                    value.note(policy.name())
                };
                Some(Contribution::new(detector, column.clone(), value).under(Some(policy)))
            })
            .collect()
    }
}

/// The run's failure, when it has one: `2 rule failure(s); protocol failures of 1 engine(s)`.
fn failure_count(rule: usize, protocol: usize) -> Option<Failure> {
    let mut parts = Vec::new();
    if rule > 0 {
        parts.push(format!("{rule} rule failure(s)"));
    }
    if protocol > 0 {
        parts.push(format!("protocol failures of {protocol} engine(s)"));
    }
    (!parts.is_empty()).then(|| Failure::check(parts.join("; ")))
}

#[cfg(test)]
mod tests;
