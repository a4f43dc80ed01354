//! The kinds of failure told apart: a rule failure (the scenario's rule broken, see
//! [`crate::unexpected_failures`]), a policy difference (a wrong answer the engine's own twofold
//! search rule explains, [`Verdict::Policy`]), a protocol failure (a `bestmove` that is no
//! legal move, counted once per engine) and a wrong first answer a deeper search put right
//! (a search-depth effect, not a failure).

use crate::{Outcome, Results, Verdict};

/// One engine's protocol failure: every scenario where its `bestmove` was no legal move.
pub struct ProtocolFailure<'a> {
    /// The engine's table name.
    pub engine: &'a str,
    /// The outcomes whose `bestmove` broke the protocol, in scenario order.
    pub cases: Vec<&'a Outcome>,
}

impl ProtocolFailure<'_> {
    /// `a bestmove that is no legal move in 2 scenarios: a (bestmove "a1a1" is a null move
    /// where legal moves exist); b (…)`.
    pub fn text(&self) -> String {
        let each: Vec<String> = self
            .cases
            .iter()
            .map(|o| format!("{} ({})", o.scenario, o.protocol.as_deref().unwrap_or("")))
            .collect();
        format!(
            "a bestmove that is no legal move in {} scenario{}: {}",
            self.cases.len(),
            if self.cases.len() == 1 { "" } else { "s" },
            each.join("; ")
        )
    }
}

/// The protocol failures of the run, one per engine that showed any, in engine order.
pub fn protocol_failures(r: &Results) -> Vec<ProtocolFailure<'_>> {
    r.engines
        .iter()
        .filter_map(|e| {
            let cases: Vec<&Outcome> = r
                .results
                .iter()
                .filter(|o| o.engine == e.name && o.protocol.is_some())
                .collect();
            (!cases.is_empty()).then_some(ProtocolFailure {
                engine: &e.name,
                cases,
            })
        })
        .collect()
}

/// The scenarios whose failure `engine`'s twofold search policy explains, in scenario order.
pub fn policy_differences<'a>(r: &'a Results, engine: &str) -> Vec<&'a str> {
    r.results
        .iter()
        .filter(|o| o.engine == engine && o.verdict == Verdict::Policy)
        .map(|o| o.scenario.as_str())
        .collect()
}

/// The outcomes whose wrong first answer the deeper search put right, in engine order.
pub fn right_only_deeper(r: &Results) -> Vec<&Outcome> {
    r.results
        .iter()
        .filter(|o| o.deeper.as_ref().is_some_and(|d| d.corrected(o.verdict)))
        .collect()
}

/// `engine`'s verdicts counted: `3 pass, 1 fail, 0 pv-fail, 2 by policy (twofold), 1 n/a`.
pub fn counts(r: &Results, engine: &str) -> String {
    let count = |v: Verdict| {
        r.results
            .iter()
            .filter(|o| o.engine == engine && o.verdict == v)
            .count()
    };
    format!(
        "{} pass, {} fail, {} pv-fail, {} by policy ({}), {} n/a",
        count(Verdict::Pass),
        count(Verdict::Fail),
        count(Verdict::PvFail),
        count(Verdict::Policy),
        crate::TWOFOLD,
        count(Verdict::NotApplicable)
    )
}
