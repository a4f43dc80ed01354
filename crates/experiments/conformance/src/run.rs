//! The run loop: every engine on every scenario, an engine restarted after a hang, then the
//! mutation table when asked for.

use std::time::Duration;

use anyhow::Result;
use replab_harness::{Progress, Silent};
use replab_report::Meta;
use replab_workloads::engine::parallel;

use crate::discovery::external_engines;
use crate::judge::{ask_again, judge_pairs, judge_policy, open, play};
use crate::{
    Config, Delivery, Engine, EngineRecord, EngineSpec, Limits, Outcome, Results, Scenario,
    ScenarioRecord, expected_failures, mutation, replab_engines,
};

/// Every scenario on one engine (restarted after a hang): the outcomes and its `id name`. With
/// `recheck`, a wrong answer is asked again, deeper and of a fresh process, before it is
/// reported ([`ask_again`]; not an engine that did not start or hung); the failures the
/// engine's own twofold policy explains are told apart ([`judge_policy`]).
pub fn run_engine(
    spec: &EngineSpec,
    scenarios: &[Scenario],
    limits: Limits,
    timeout: Duration,
    recheck: bool,
    progress: &mut dyn Progress,
) -> (Vec<Outcome>, String) {
    let mut id_name = String::new();
    let mut current: Option<Engine> = None;
    let mut outcomes = Vec::new();
    for s in scenarios {
        let mut outcome = Outcome::unanswered(&spec.name, &s.id);
        if current.is_none() {
            match open(spec, timeout) {
                Ok((e, id)) => {
                    id_name = id;
                    current = Some(e);
                }
                Err(e) => outcome.evidence = format!("engine did not start: {e:#}"),
            }
        }
        if let Some(engine) = current.as_mut() {
            match play(engine, s, limits, timeout) {
                Ok(played) => {
                    outcome = Outcome {
                        engine: spec.name.clone(),
                        ..played
                    };
                    if recheck && outcome.verdict.failed() {
                        outcome = ask_again(spec, s, limits, timeout, outcome);
                    }
                }
                Err(e) => {
                    current = None; // a hung or broken engine is restarted for the next one
                    outcome.evidence = format!("{e:#}");
                }
            }
        }
        outcomes.push(outcome);
        progress.advance(1);
    }
    judge_pairs(scenarios, &mut outcomes);
    judge_policy(scenarios, &mut outcomes);
    (outcomes, id_name)
}

/// Runs every engine on every scenario. An external engine that cannot be started is an
/// error unless `config.skip_missing`. replab's own engines answer at fixed depths whatever the
/// load, so they run side by side, two per core ([`engines_at_once`]); external engines run
/// alone, one after another (one may be limited by time).
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    let scenarios = config.load()?;
    let mut skipped = Vec::new();
    let mut specs: Vec<(EngineSpec, String)> = if config.runs_replab() {
        replab_engines(&config.replab, config.all_detectors)
            .into_iter()
            .map(|s| (s, String::new()))
            .collect()
    } else {
        Vec::new()
    };
    specs.extend(external_engines(config, &mut skipped, progress)?);
    progress.stage("conformance", (specs.len() * scenarios.len()) as u64);
    let own = specs.iter().take_while(|(s, _)| !s.external).count();
    let mut played = side_by_side(config, &specs[..own], &scenarios, progress)?;
    played.extend(
        specs[own..]
            .iter()
            .map(|spec| run_spec(config, spec, &scenarios, progress)),
    );
    progress.finish();
    let (engines, results): (Vec<EngineRecord>, Vec<Vec<Outcome>>) = played.into_iter().unzip();
    let results: Vec<Outcome> = results.into_iter().flatten().collect();
    let mutations = if config.mutations {
        mutation::table(&scenarios, Duration::from_secs(config.timeout), progress)?
    } else {
        Vec::new()
    };
    Ok(Results {
        meta: Meta::collect(&config.command),
        file: config.source(),
        engines,
        skipped,
        scenarios: scenarios.iter().map(ScenarioRecord::from).collect(),
        results,
        expected_failures: expected_failures(&config.expect_fail, &scenarios),
        mutations,
        fail_on_policy: config.fail_on_policy,
        delivery: Delivery {
            junit: config.junit.clone(),
            json: config.json,
        },
    })
}

/// Every engine of `specs` on every scenario, the engines side by side, two per core (one
/// process each); their records and outcomes in `specs`' order.
fn side_by_side(
    config: &Config,
    specs: &[(EngineSpec, String)],
    scenarios: &[Scenario],
    progress: &mut dyn Progress,
) -> Result<Vec<(EngineRecord, Vec<Outcome>)>> {
    parallel(
        specs.len(),
        engines_at_once(),
        progress,
        || Ok(()),
        |(), i, done| {
            let played = run_spec(config, &specs[i], scenarios, &mut Silent);
            done.add(scenarios.len() as u64);
            Ok(played)
        },
    )
}

/// How many engines play their scenarios at once: two per core. Each is a driver and an engine
/// taking turns (the driver waits while the engine searches, the engine while the driver judges
/// its answer), so one per core leaves the cores idle between turns: replab's engines and the
/// mutation table took 12.8 and 13.7 s of wall with two per core against 17.2 and 18.3 s with
/// one, for 23 to 24 s of CPU either way (2 cores, 2026-11-30).
pub(crate) fn engines_at_once() -> usize {
    2 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// One engine on every scenario: its record and outcomes.
fn run_spec(
    config: &Config,
    (spec, package): &(EngineSpec, String),
    scenarios: &[Scenario],
    progress: &mut dyn Progress,
) -> (EngineRecord, Vec<Outcome>) {
    let limits = Limits {
        depth: config.depth,
        movetime: config.movetime,
    };
    let timeout = Duration::from_secs(config.timeout);
    let recheck = !config.first_answer_only && spec.is_judged();
    let (outcomes, id_name) = run_engine(spec, scenarios, limits, timeout, recheck, progress);
    let record = EngineRecord {
        name: spec.name.clone(),
        id_name,
        command: spec.command(),
        external: spec.external,
        package: package.clone(),
    };
    (record, outcomes)
}
