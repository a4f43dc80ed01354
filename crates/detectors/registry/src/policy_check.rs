//! Which detectors can serve which draw policies: a detector that cannot count occurrences,
//! or drops single-history positions, is refused by the policies that need it.

use crate::{DETECTORS, DetectorInfo, DrawPolicy, info};
#[cfg(doc)]
use crate::{by_name, parse_list};

/// A detector that cannot serve a draw policy: the searcher would score repetitions wrongly
/// with it. Its [`Display`](std::fmt::Display) names the detector, the policy and the reason in
/// the library's words (`axon cannot be used with the draw policy threefold: …`); a program
/// names its own option instead (the suite's `--policy`, the UCI engine's `DrawPolicy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyRefusal {
    /// The detector's name.
    pub detector: &'static str,
    /// The policy.
    pub policy: DrawPolicy,
    /// Why, in one sentence.
    pub reason: String,
}

impl std::fmt::Display for PolicyRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} cannot be used with the draw policy {}: {}",
            self.detector, self.policy, self.reason
        )
    }
}

impl std::error::Error for PolicyRefusal {}

/// Why a detector lacking [`Capabilities::counts_occurrences`] cannot serve a counting policy.
fn no_counts_reason(info: &DetectorInfo, policy: DrawPolicy) -> String {
    let needs = match policy {
        DrawPolicy::Threefold => "how many times the position occurred",
        DrawPolicy::Stanback => "whether the position occurred twice before",
        _ => "how many times the position occurred and where its nearest earlier occurrence is",
    };
    match info.name {
        "axon" => format!(
            "Axon's move chains only tell that a cycle closed, not how many times the position \
             occurred nor where (Vučković & Vidanović §4); the draw policy {policy} needs {needs}"
        ),
        _ => format!(
            "its probes report one earlier occurrence, not the count and the nearest one; \
             the draw policy {policy} needs {needs}"
        ),
    }
}

/// Why a detector with [`Capabilities::drops_single_history`] cannot serve a policy that
/// needs single history occurrences.
fn single_history_reason(info: &DetectorInfo, policy: DrawPolicy) -> String {
    let what = match policy {
        DrawPolicy::Twofold => "scores that repetition as a draw",
        DrawPolicy::Stanback => "scores that repetition as a draw more than 2 plies below the root",
        _ => "counts that occurrence towards the third",
    };
    let alternative = match info.name {
        "filo" => " (use filo-all-history, which keeps every history position)",
        _ => "",
    };
    format!(
        "following Gerbil, its table leaves out the game-history positions that occurred only \
         once, so it does not see a position that occurred once in the game and recurs in the \
         search, and the draw policy {policy} {what}{alternative}"
    )
}

/// Whether the detector `detector` can serve the draw policy `policy`, decided by its
/// capabilities: a detector that does not count occurrences serves only `twofold` (any
/// repetition is a draw); one that drops single history occurrences serves only the policies
/// for which they never decide (`moreland`, `stockfish`). `off` and the upcoming-only rows
/// (which never answer probes; their rule follows the policy) are always allowed, and so are
/// names outside the table (name checks belong to [`parse_list`] and [`by_name`]).
///
/// The commands call it for each detector and policy before searching, and stop with exit
/// code 2 and the refusal's message (docs/contracts.md, *Draw policies*).
///
/// ```
/// use replab_registry::{DrawPolicy, check_policy};
/// assert!(check_policy("linear", DrawPolicy::Threefold).is_ok());
/// let refusal = check_policy("axon", DrawPolicy::Threefold).unwrap_err();
/// assert!(refusal.to_string().starts_with("axon cannot be used with the draw policy threefold: "));
/// assert!(check_policy("axon", DrawPolicy::Twofold).is_ok());
/// assert!(check_policy("filo", DrawPolicy::Moreland).is_ok());
/// assert!(check_policy("filo", DrawPolicy::Twofold).is_err());
/// ```
pub fn check_policy(detector: &str, policy: DrawPolicy) -> Result<(), PolicyRefusal> {
    let Some(info) = info(detector) else {
        return Ok(());
    };
    if !info.caps.probes {
        return Ok(());
    }
    let reason = if policy.needs_counts() && !info.caps.counts_occurrences {
        no_counts_reason(info, policy)
    } else if policy.needs_single_history() && info.caps.drops_single_history {
        single_history_reason(info, policy)
    } else {
        return Ok(());
    };
    Err(PolicyRefusal {
        detector: info.name,
        policy,
        reason,
    })
}

/// One cell of [`policy_matrix`]: a detector under a policy, allowed or refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyCell {
    /// The detector's name.
    pub detector: &'static str,
    /// The policy.
    pub policy: DrawPolicy,
    /// `None` if allowed, else why not ([`check_policy`]).
    pub refusal: Option<PolicyRefusal>,
}

/// Every row of [`DETECTORS`] under every policy of [`DrawPolicy::ALL`], in table order then
/// policy order: what [`check_policy`] answers, for the reports.
pub fn policy_matrix() -> Vec<PolicyCell> {
    DETECTORS
        .iter()
        .flat_map(|d| {
            DrawPolicy::ALL.into_iter().map(|policy| PolicyCell {
                detector: d.name,
                policy,
                refusal: check_policy(d.name, policy).err(),
            })
        })
        .collect()
}
