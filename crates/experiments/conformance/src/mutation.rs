//! The mutation table: replab's test engine (`replab-mutant`) run through the scenarios clean
//! and with each injected draw-rule bug, in its generator's move order and reversed. A bug that
//! no scenario catches in one of the orders means the suite cannot tell it from a lucky
//! tie-break.

use std::time::Duration;

use anyhow::Result;

use crate::mutant::{Bug, Settings};
use replab_report::{Cell, table_html};
use serde::{Deserialize, Serialize};

use super::{EngineSpec, Launch, Limits, Scenario, run_engine};
use replab_harness::{Progress, Silent};
use replab_workloads::engine::parallel;

/// The deepest the test engine searches in the table (its search is plain alpha-beta).
pub const MUTANT_DEPTH: u32 = 6;

/// One bug (or the clean engine): the scenarios that caught it in each move order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MutationRow {
    /// The bug's name (`clean` for no bug).
    pub bug: String,
    /// What the engine gets wrong.
    pub what: String,
    /// Where the bug was seen.
    pub source: String,
    /// The scenarios failed with the generator's order.
    pub caught: Vec<String>,
    /// The scenarios failed with the order reversed.
    pub caught_reversed: Vec<String>,
}

impl MutationRow {
    /// Whether the row is as it must be: the clean engine fails nothing, a bug is caught in
    /// both orders.
    pub fn holds(&self) -> bool {
        if self.bug == "clean" {
            self.caught.is_empty() && self.caught_reversed.is_empty()
        } else {
            !self.caught.is_empty() && !self.caught_reversed.is_empty()
        }
    }
}

/// The name of the test engine with `settings` in tables.
pub fn label(settings: &Settings) -> String {
    format!(
        "replab-mutant {}{}",
        settings.bug.map_or("clean", Bug::name),
        if settings.reverse { " reversed" } else { "" }
    )
}

/// The test engine with `bug`, in one move order, as an engine to run.
pub fn spec(bug: Option<Bug>, reverse: bool) -> EngineSpec {
    let settings = Settings {
        bug,
        reverse,
        max_depth: MUTANT_DEPTH,
    };
    EngineSpec {
        name: label(&settings),
        launch: Launch::Mutant(settings),
        options: Vec::new(),
        external: true,
        policy: None,
    }
}

/// Runs the clean engine and every bug, in both orders, on `scenarios` (on every core): one
/// row each, clean first. A failure put down to the engine's twofold policy
/// ([`crate::Verdict::Policy`]) is no catch; a wrong answer is not asked again deeper (the test
/// engine stops at [`MUTANT_DEPTH`] whatever it is asked).
pub fn table(
    scenarios: &[Scenario],
    timeout: Duration,
    progress: &mut dyn Progress,
) -> Result<Vec<MutationRow>> {
    let bugs: Vec<Option<Bug>> = std::iter::once(None)
        .chain(Bug::ALL.iter().copied().map(Some))
        .collect();
    let jobs: Vec<(usize, bool)> = (0..bugs.len())
        .flat_map(|i| [(i, false), (i, true)])
        .collect();
    progress.stage("mutations", jobs.len() as u64);
    let failed = parallel(
        jobs.len(),
        crate::run::engines_at_once(),
        progress,
        || Ok(()),
        |(), j, done| {
            let (i, reverse) = jobs[j];
            let (outcomes, _) = run_engine(
                &spec(bugs[i], reverse),
                scenarios,
                Limits::default(),
                timeout,
                false,
                &mut Silent,
            );
            done.add(1);
            Ok(outcomes
                .into_iter()
                .filter(|o| o.verdict.failed() || o.protocol.is_some())
                .map(|o| o.scenario)
                .collect::<Vec<String>>())
        },
    )?;
    let mut found: Vec<[Vec<String>; 2]> = vec![Default::default(); bugs.len()];
    for (&(i, reverse), f) in jobs.iter().zip(failed) {
        found[i][usize::from(reverse)] = f;
    }
    progress.finish();
    Ok(bugs
        .iter()
        .zip(found)
        .map(|(bug, [caught, caught_reversed])| MutationRow {
            bug: bug.map_or("clean", Bug::name).to_string(),
            what: bug.map_or("no bug: the exact rules", Bug::what).to_string(),
            source: bug.map_or("", Bug::source).to_string(),
            caught,
            caught_reversed,
        })
        .collect())
}

/// The table on the page, or a line saying it was not run.
pub fn html(rows: &[MutationRow]) -> String {
    if rows.is_empty() {
        return format!(
            "<p>Not run in this report (<code>replab {} {}</code>; <code>bench</code> runs \
             it).</p>",
            <crate::Conformance as replab_harness::experiment::Experiment>::NAME,
            crate::Config::MUTATIONS
        );
    }
    let holding = rows.iter().filter(|r| r.holds()).count();
    let intro = format!(
        "<p>replab's test engine (<code>crates/experiments/conformance</code>: exact rules, material-only \
         alpha-beta to depth {MUTANT_DEPTH} at most) with one draw-rule bug injected at a time, \
         run through every scenario in its move generator's order and reversed. A bug must be \
         caught by at least one scenario in both orders (no catch may hinge on a tie-break), \
         and the clean engine must pass everything: {holding} of {} rows hold.</p>",
        rows.len()
    );
    let list = |ids: &[String]| {
        if ids.is_empty() {
            "none".to_string()
        } else {
            ids.join(", ")
        }
    };
    let headers: Vec<String> = [
        "bug",
        "what goes wrong",
        "seen in",
        "caught by (generator order)",
        "caught by (reversed)",
        "holds",
    ]
    .map(String::from)
    .to_vec();
    let body: Vec<Vec<Cell>> = rows
        .iter()
        .map(|r| {
            vec![
                Cell::text(&r.bug),
                Cell::text(&r.what),
                Cell::text(&r.source),
                Cell::text(list(&r.caught)),
                Cell::text(list(&r.caught_reversed)),
                Cell::text(if r.holds() { "yes" } else { "NO" }),
            ]
        })
        .collect();
    intro + &table_html(&headers, &body, false)
}
