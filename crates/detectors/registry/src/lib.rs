#![doc = include_str!("../README.md")]

mod build;
mod id;
mod policy_check;
mod preset;
mod row;
mod table;

pub use build::{KeyBitsError, MIN_KEY_BITS, by_name, by_name_with_key_bits, by_name_with_size};
pub use policy_check::{PolicyCell, PolicyRefusal, check_policy, policy_matrix};
pub use preset::{EnginePreset, PRESETS, UnknownPolicy, policy};
pub use replab_axon::AxonDetector;
pub use replab_cuckoo::{CuckooDetector, LinearCuckoo};
pub use replab_detect::{
    Detector, DrawPolicy, FULL_KEY_BITS, Line, Off, Repetition, Stats, UnknownDetector, key_mask,
};
/// Which earlier positions count for an upcoming cycle: [`UpcomingRule`], one per draw policy
/// ([`replab_detect::DrawPolicy::root_rule`]), and the older two-valued [`RootRule`]. Forwarded
/// from `replab-detect` (they live next to the draw policies).
pub use replab_detect::{RootRule, UpcomingRule};
pub use replab_filo::{FiloDetector, HistoryRule};
pub use replab_linear::LinearDetector;
pub use replab_matrix::MatrixDetector;
pub use replab_naive::NaiveDetector;
pub use replab_rookie::RookieDetector;
pub use replab_truth::TruthDetector;
pub use replab_tt_open::TtOpenDetector;
pub use row::{
    Capabilities, Colour, DetectorInfo, Family, KeyCompare, OFF_COLOUR, Sizing, TableLimit,
    TableSize,
};
pub use table::{AnyDetector, DETECTORS, DetectorId};

/// Which `all` list a row belongs to.
#[derive(Clone, Copy)]
enum List {
    /// [`DETECTOR_NAMES`]: listed, not a composition.
    Techniques,
    /// [`SEARCH_DETECTORS`]: listed and searchable.
    Search,
}

const fn in_list(info: &DetectorInfo, list: List) -> bool {
    info.caps.listed
        && match list {
            List::Techniques => !info.caps.composite,
            List::Search => info.caps.searchable,
        }
}

const fn list_len(list: List) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < DETECTORS.len() {
        if in_list(&DETECTORS[i], list) {
            n += 1;
        }
        i += 1;
    }
    n
}

const fn list_names<const N: usize>(list: List) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < DETECTORS.len() {
        if in_list(&DETECTORS[i], list) {
            out[n] = DETECTORS[i].name;
            n += 1;
        }
        i += 1;
    }
    out
}

/// The detector names of the contract, in report order (`truth` last): every listed row of
/// [`DETECTORS`] but the compositions. Derived from the table.
pub const DETECTOR_NAMES: [&str; list_len(List::Techniques)] =
    list_names::<{ list_len(List::Techniques) }>(List::Techniques);

/// The detectors the searcher runs (`off` aside): every listed, searchable row of
/// [`DETECTORS`] (`cuckoo` only in its composition). Derived from the table.
pub const SEARCH_DETECTORS: [&str; list_len(List::Search)] =
    list_names::<{ list_len(List::Search) }>(List::Search);

/// The table row of the detector called `name`, if any.
pub fn info(name: &str) -> Option<&'static DetectorInfo> {
    DETECTORS.iter().find(|d| d.name == name)
}

/// The rule the upcoming-cycle detectors use under a draw policy. Forwards to
/// [`replab_detect::DrawPolicy::root_rule`].
pub fn root_rule_for(policy: DrawPolicy) -> UpcomingRule {
    policy.root_rule()
}

/// Parses a comma-separated detector list, or `all` (every name of `all`). Names are checked
/// with [`by_name`] (so unlisted rows such as `naive` are accepted by name); `off` passes;
/// duplicates are dropped, order kept.
pub fn parse_list(text: &str, all: &[&str]) -> Result<Vec<String>, UnknownDetector> {
    let mut out: Vec<String> = Vec::new();
    for name in text.split(',').map(str::trim) {
        if name == "all" {
            for n in all {
                if !out.iter().any(|o| o == n) {
                    out.push(n.to_string());
                }
            }
            continue;
        }
        if name != "off" {
            by_name(name, RootRule::default())?;
        }
        if !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
    }
    Ok(out)
}
