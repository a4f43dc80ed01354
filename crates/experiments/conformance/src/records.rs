//! The records of `results.json`: the engines that ran, the scenarios, each engine × scenario
//! outcome with its verdict, and where the machine-readable results go.

use std::path::PathBuf;

use replab_report::Meta;
use serde::{Deserialize, Serialize};

use crate::{PvFailure, Scenario, mutation};

/// An engine in the results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineRecord {
    /// The table name.
    pub name: String,
    /// Its `id name`.
    pub id_name: String,
    /// Its command line.
    pub command: String,
    /// Given with `--engine` (not one of replab's own configurations).
    #[serde(default)]
    pub external: bool,
    /// The Debian package and version the program belongs to (`dpkg-query`), when known.
    #[serde(default)]
    pub package: String,
}

/// A scenario in the results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScenarioRecord {
    /// Short name.
    pub id: String,
    /// The FIDE article.
    pub rule: String,
    /// The description.
    pub description: String,
    /// The start position.
    #[serde(default)]
    pub fen: String,
    /// The moves played from it.
    #[serde(default)]
    pub moves: String,
    /// What a rule-following engine must answer ([`Scenario::expected`]).
    #[serde(default)]
    pub expected: String,
    /// The answer depends on recognising a repetition.
    #[serde(default)]
    pub repetition: bool,
    /// Policies under which replab's engine is expected to fail it.
    #[serde(default)]
    pub excluded_policies: Vec<String>,
    /// The engine bug the scenario comes from.
    #[serde(default)]
    pub source: String,
    /// Why replab's engine is not held to it (empty when it is).
    #[serde(default)]
    pub outside_replab: String,
    /// The scenario whose bug it probes from another position (empty when none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub same_bug_as: String,
}

impl From<&Scenario> for ScenarioRecord {
    fn from(s: &Scenario) -> Self {
        ScenarioRecord {
            id: s.id.clone(),
            rule: s.rule.clone(),
            description: s.description.clone(),
            fen: s.fen.clone(),
            moves: s.moves.trim().to_string(),
            expected: s.expected(),
            repetition: s.repetition,
            excluded_policies: s.excluded_policies.clone(),
            source: s.source.clone(),
            outside_replab: s.outside_replab.clone(),
            same_bug_as: s.same_bug_as.clone(),
        }
    }
}

/// The outcome of one engine on one scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The engine did what the rule requires.
    Pass,
    /// It did not (or it hung, or failed to answer, or gave a null or illegal move).
    Fail,
    /// Its answer was right but a PV it printed continued after the game had ended, or held an
    /// illegal move.
    PvFail,
    /// Informational: the rules allow either outcome.
    NotApplicable,
}

impl Verdict {
    /// `pass`, `fail`, `n/a`.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::PvFail => "pv-fail",
            Verdict::NotApplicable => "n/a",
        }
    }

    /// A failure of either kind.
    pub fn failed(self) -> bool {
        matches!(self, Verdict::Fail | Verdict::PvFail)
    }
}

/// One cell of the engine × scenario table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The engine's table name.
    pub engine: String,
    /// The scenario id.
    pub scenario: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Why, with the engine's own output: its last score line and its bestmove.
    pub evidence: String,
    /// The move the engine played (empty when it gave none).
    #[serde(default)]
    pub bestmove: String,
    /// The first PV the arbiter refused, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv_failure: Option<PvFailure>,
    /// The PV lines the engine printed and the arbiter replayed.
    #[serde(default)]
    pub pvs_checked: usize,
    /// Whether the engine's last score was a draw score (`None`: no score); what an
    /// `expect: same` scenario compares. Not written to `results.json`.
    #[serde(skip)]
    pub scored_draw: Option<bool>,
}

/// What a run found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    /// Provenance.
    pub meta: Meta,
    /// The scenario file.
    pub file: String,
    /// The engines that ran.
    pub engines: Vec<EngineRecord>,
    /// Engines not found, with the reason.
    pub skipped: Vec<String>,
    /// The scenarios.
    pub scenarios: Vec<ScenarioRecord>,
    /// Engine × scenario, engine-major.
    pub results: Vec<Outcome>,
    /// Scenario ids expected to fail (`--expect-fail`): their failures do not fail the run.
    #[serde(default)]
    pub expected_failures: Vec<String>,
    /// replab's test engine with each injected rule bug: the scenarios that caught it, in
    /// each move order (empty unless the run asked for it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mutations: Vec<mutation::MutationRow>,
    /// Where the JUnit file goes, and whether stdout gets JSON (not part of the results).
    #[serde(skip)]
    pub delivery: Delivery,
}

/// Where a run's machine-readable results go.
#[derive(Clone, Debug, Default)]
pub struct Delivery {
    /// The JUnit XML file.
    pub junit: Option<PathBuf>,
    /// JSON on stdout.
    pub json: bool,
}

impl Results {
    /// The outcome of `engine` on `scenario`.
    pub fn outcome(&self, engine: &str, scenario: &str) -> Option<&Outcome> {
        self.results
            .iter()
            .find(|o| o.engine == engine && o.scenario == scenario)
    }
}
