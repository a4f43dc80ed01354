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
    /// It failed the Laws the way its own twofold search policy does (it scores a second
    /// occurrence as a draw, which the Laws leave to an engine's search): reported apart, not
    /// a rule bug, and a failure only when the run asks for it.
    Policy,
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
            Verdict::Policy => "policy",
            Verdict::NotApplicable => "n/a",
        }
    }

    /// A failure of the rules: a wrong answer or a PV past the end (not a policy difference).
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
    /// Why the `bestmove` broke the protocol (a null move, a malformed move, a move of the
    /// side not to move, an illegal move, where legal moves exist): a protocol failure, told
    /// apart from the rule the scenario checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The answer to the deeper search asked after a wrong first answer (the verdict above is
    /// the deeper one's): a rule bug persists with depth, a pruning effect does not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deeper: Option<DeeperAnswer>,
}

impl Outcome {
    /// The engine's answer in words: the evidence, after the first answer when it was asked
    /// again (`at go depth 6: …; asked again, of a fresh process, at go depth 10: …`).
    pub fn answer(&self) -> String {
        match &self.deeper {
            None => self.evidence.clone(),
            Some(d) => format!(
                "at {}: {}; asked again, of a fresh process, at {}: {}",
                d.first_go, d.first_evidence, d.go, self.evidence
            ),
        }
    }

    /// A failure of `engine` on `scenario` before any answer (the engine did not start, or
    /// hung): the evidence is filled in by the caller.
    pub fn unanswered(engine: &str, scenario: &str) -> Outcome {
        Outcome {
            engine: engine.to_string(),
            scenario: scenario.to_string(),
            verdict: Verdict::Fail,
            evidence: String::new(),
            bestmove: String::new(),
            pv_failure: None,
            pvs_checked: 0,
            scored_draw: None,
            protocol: None,
            deeper: None,
        }
    }
}

/// The first, wrong answer of a scenario asked again deeper, and the deeper search's limit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeeperAnswer {
    /// The first `go` command (`go depth 6`).
    pub first_go: String,
    /// The first answer's verdict.
    pub first_verdict: Verdict,
    /// The first answer, in words.
    pub first_evidence: String,
    /// The deeper `go` command (`go depth 10`).
    pub go: String,
}

impl DeeperAnswer {
    /// Whether the deeper search put the first answer right (`now` a pass): a search-depth
    /// effect, not a rule bug.
    pub fn corrected(&self, now: Verdict) -> bool {
        self.first_verdict.failed() && now == Verdict::Pass
    }
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
    /// Whether a failure put down to the engine's twofold search policy fails the run too
    /// ([`Verdict::Policy`]).
    #[serde(default)]
    pub fail_on_policy: bool,
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
