//! The vocabulary of the study's results: what `results.json` holds and the page and summary
//! table are drawn from. Nothing here searches.

use replab_registry::DetectorId;
use replab_report::Meta;
use replab_search::{Counters, SearchConfig};
use serde::{Deserialize, Serialize};

use super::Config;
use crate::stats::Estimate;

/// The paper's claims, as numbers (from `datasets/paper/axon-tables.json`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PaperClaims {
    /// Relative change of terminal nodes over depths 1–12 (−0.18).
    pub terminal_change: f64,
    /// Relative change of generated positions over depths 1–12 (−0.15).
    pub generated_change: f64,
    /// Relative change of time (−0.10).
    pub time_change: f64,
    /// Repetitions the paper counted over depths 1–12 (14,941).
    pub repetitions: u64,
    /// Generated positions with detection on over depths 1–12 (for a rate per 1,000).
    pub generated_on: u64,
    /// Per depth, the relative change of the paper's "node count" (generated positions).
    pub generated_change_by_depth: Vec<(u32, f64)>,
    /// The paper's terminal-node change as a reference: only its depth 1–12 total exists.
    pub terminal_reference: crate::compare::Reference,
    /// The paper's generated-position change over the grid's depths, summed from its per-depth
    /// table (depths 1–8: +57.3%; depths 1–12: −15.0%).
    pub generated_reference: crate::compare::Reference,
    /// The paper's time change as a reference: only its depth 1–12 total exists.
    pub time_reference: crate::compare::Reference,
    /// Generated positions with detection on over the grid's depths (the per-depth table's sum).
    pub generated_on_in_scope: u64,
}

/// A named searcher profile with its settings.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Profile {
    /// `default` or `axon-like`.
    pub name: String,
    /// The settings (max_depth is the study's, set per part).
    pub search: SearchConfig,
}

/// One searcher configuration of the sensitivity grid.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GridConfig {
    /// Its name, e.g. `default`, `default/tt-off`, `axon-like/material`.
    pub name: String,
    /// The profile it starts from.
    pub profile: String,
    /// What is varied against the profile (`-` for the profile itself).
    pub varied: String,
    /// The settings.
    pub search: SearchConfig,
    /// Named variants whose effective settings are the same as this one's: searched once,
    /// under this name.
    #[serde(default)]
    pub coincides_with: Vec<String>,
    /// The earlier configuration whose searches this one's equal at every depth for every
    /// detector (moves, scores and counters): the varied setting changed nothing at the grid's
    /// depth, so this one does not vote on its own. `None`: a search of its own.
    #[serde(default)]
    pub searches_as: Option<String>,
}

impl GridConfig {
    /// Whether its searches are its own (not identical to an earlier configuration's), so
    /// that it votes.
    pub fn votes(&self) -> bool {
        self.searches_as.is_none()
    }
}

/// One grid object: a configuration × detector × depth (one iteration of iterative deepening).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GridRun {
    /// The configuration's name ([`GridConfig::name`]).
    pub config: String,
    /// `off`, `axon` or `linear` ([`super::grid::GRID_DETECTORS`]), written as its name.
    pub detector: DetectorId,
    /// Iteration depth in plies.
    pub depth: u32,
    /// Best move (UCI), `-` when none.
    pub best_move: String,
    /// Score in centipawns, White's view.
    pub eval_cp: i32,
    /// The iteration's counters (identical in every repeat).
    #[serde(flatten)]
    pub counters: Counters,
    /// Wall time of the iteration: median of the interleaved repeats with its interval (ms).
    pub time_ms: Estimate,
    /// Terminal nodes against `off` at this depth (relative change; 0 for `off`).
    pub terminal_change: f64,
    /// Generated positions against `off` at this depth.
    pub generated_change: f64,
    /// Time against `off` at this depth: median of the per-round ratios − 1, with its interval.
    pub time_change: Estimate,
}

/// How one of our changes compares with the paper's: the decision of a
/// [`Comparison`](crate::compare::Comparison), whose rule is written once in `crate::compare`.
pub use crate::compare::Decision as Judgement;

/// Totals of a configuration × detector over all depths, against `off`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GridTotal {
    /// The configuration's name.
    pub config: String,
    /// `off`, `axon` or `linear` ([`super::grid::GRID_DETECTORS`]), written as its name.
    pub detector: DetectorId,
    /// Counters summed over the depths.
    #[serde(flatten)]
    pub counters: Counters,
    /// Total time (sum over depths per repeat), median with interval (ms).
    pub time_ms: Estimate,
    /// Relative change of terminal nodes against `off`.
    pub terminal_change: f64,
    /// Relative change of generated positions against `off`.
    pub generated_change: f64,
    /// Time against `off`: median of per-round ratios − 1, with interval.
    pub time_change: Estimate,
    /// The best move and score of the deepest iteration.
    pub final_best_move: String,
    /// The score of the deepest iteration, White's view.
    pub final_eval_cp: i32,
    /// Terminal nodes against the paper's (depths 1–12 only: not comparable below).
    pub terminal_vs_paper: Judgement,
    /// Generated positions against the paper's over the same depths.
    pub generated_vs_paper: Judgement,
    /// Time against the paper's (depths 1–12 only).
    pub time_vs_paper: Judgement,
}

/// How much of axon's tree change against `off` on WAC.018 its own false draws cause, under one
/// grid configuration: the grid's `axon` against the same search with every axon draw confirmed
/// by the exact oracle (`study::confirmed`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FalseDraws {
    /// The configuration's name ([`GridConfig::name`]).
    pub config: String,
    /// Counters of the confirmed search, summed over the depths.
    pub confirmed: Counters,
    /// Axon's reports the oracle refuted in the confirmed search (`hits − repetitions` under
    /// `twofold`, where every confirmed report is a draw): false draws it did not score.
    pub refuted: u64,
    /// Repetition draws plain `axon` scored in the grid (false ones included).
    pub axon_repetitions: u64,
    /// Terminal nodes of the confirmed search against `off` (relative change).
    pub terminal_change: f64,
    /// Generated positions of the confirmed search against `off`.
    pub generated_change: f64,
    /// The share of axon's terminal-node change against `off` that confirmation removes:
    /// `(axon − confirmed) / axon` of the two changes; `None` when axon's change is below the
    /// count noise (nothing to explain).
    pub terminal_share: Option<f64>,
    /// The same share for generated positions.
    pub generated_share: Option<f64>,
}

/// One generated endgame (or WAC record) and its searches.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionRuns {
    /// `eg-001` … or the WAC id.
    pub id: String,
    /// FEN of the searched position (the root).
    pub fen: String,
    /// `rook`, `pawn`, `minor` (endgames) or `wac`.
    pub class: String,
    /// Men on the board, kings included.
    pub men: u32,
    /// Plies of game history before the root.
    pub history_plies: usize,
    /// One search per profile × detector, in the order of [`Results::endgame_detectors`].
    pub runs: Vec<PositionRun>,
}

/// One search of one position.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionRun {
    /// The profile's name.
    pub profile: String,
    /// The detector, written as its name.
    pub detector: DetectorId,
    /// Best move of the deepest iteration (UCI), `-` if none.
    pub best_move: String,
    /// Score, side to move's view.
    pub eval_cp: i32,
    /// Counters summed over the iterations.
    #[serde(flatten)]
    pub counters: Counters,
    /// Wall time in ms: one measurement, marked as a single sample (the three detectors of a
    /// profile run back to back).
    pub time_ms: Estimate,
    /// The same search timed again in each paired round of `axon` against `matrix` alone
    /// (ms, each a single sample, in round order; `Config::set_rounds` and the rounds at the
    /// edge); empty for the other detectors and when no round was run.
    #[serde(default, alias = "retimed_ms", skip_serializing_if = "Vec::is_empty")]
    pub rounds_ms: Vec<Estimate>,
}

impl PositionRun {
    /// Its time (ms) in the first pass, where every detector of the profile ran back to back:
    /// the time every per-position change against another detector of that pass uses.
    pub fn time(&self) -> f64 {
        self.time_ms.value
    }
}

/// The distribution of per-position relative changes of one quantity.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Distribution {
    /// The median with its distribution-free 95% interval: in JSON `value` and `interval`.
    #[serde(flatten)]
    pub median: Estimate,
    /// First and third quartiles.
    pub quartiles: [f64; 2],
    /// Share of positions where the quantity shrinks (change < 0).
    pub shrinks: f64,
    /// Share where it grows (change > 0).
    pub grows: f64,
}

/// Aggregate of one set × profile × detector against `off`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Aggregate {
    /// `endgames` or `wac`.
    pub set: String,
    /// Profile name.
    pub profile: String,
    /// The detector, written as its name.
    pub detector: DetectorId,
    /// Positions.
    pub positions: usize,
    /// Per-position change of terminal nodes.
    pub terminal: Distribution,
    /// Per-position change of generated positions.
    pub generated: Distribution,
    /// Per-position change of time.
    pub time: Distribution,
    /// Pooled change of generated positions (sum over positions).
    pub pooled_generated_change: f64,
    /// Pooled change of terminal nodes.
    pub pooled_terminal_change: f64,
    /// Pooled change of time: from one measurement per search, marked as a single sample.
    pub pooled_time_change: Estimate,
    /// Repetitions scored as draws, summed.
    pub repetitions: u64,
    /// Positions whose best move differs from `off`'s.
    pub best_move_changed: usize,
}

/// The position sets searched one by one: the generated endgames and WAC.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionSet {
    /// `endgames` or `wac`.
    pub set: String,
    /// Fixed search depth.
    pub depth: u32,
    /// What the set is.
    pub description: String,
    /// Per position.
    pub positions: Vec<PositionRuns>,
    /// Per profile × detector (not `off`).
    pub aggregates: Vec<Aggregate>,
}

/// One row of a claim's forest plot: what the row is (a configuration, a position set) and the
/// comparison behind it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ClaimRow {
    /// The row's label.
    pub label: String,
    /// The comparison whose decision the claim's support counts.
    pub comparison: crate::compare::Comparison,
}

/// One claim of the paper and what the study says about it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ClaimVerdict {
    /// The claim as the paper states it.
    pub claim: String,
    /// `supported`, `partly supported`, `not supported`, `contradicted`.
    pub support: String,
    /// Under which searcher choices.
    pub when: String,
    /// How confident we are, and why.
    pub confidence: String,
    /// The comparisons the support was decided from, one per row of the claim's forest plot
    /// (empty for the claims judged by other rules, and for the grid's claims, whose rows are
    /// the grid totals).
    #[serde(default)]
    pub rows: Vec<ClaimRow>,
    /// The same claim judged on exact counts (instructions counted by callgrind), a verdict of
    /// its own beside the clock's; `None` where nothing exact measures the claim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<ExactVerdict>,
}

/// A claim judged on exact counts: a deterministic count never flips in a rerun.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ExactVerdict {
    /// `supported`, `partly supported`, `not supported`, `contradicted`.
    pub support: String,
    /// What the counts say, sentence by sentence from the comparisons.
    pub when: String,
    /// The comparisons the support was decided from.
    pub rows: Vec<ClaimRow>,
}

/// The verdict: one entry per claim, and what we could not know.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Verdict {
    /// Per claim.
    pub claims: Vec<ClaimVerdict>,
    /// One paragraph summing up.
    pub summary: String,
    /// What the paper leaves open about Axon, so the study cannot know.
    pub unknowns: Vec<String>,
    /// How much of axon's tree change its own false draws cause (from
    /// [`Results::false_draws`]), stated beside the verdict.
    #[serde(default)]
    pub false_draws: String,
}

/// The study's settings as run, and the fixed parts of its method beside them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Setup {
    /// The settings (written flat, beside what follows).
    #[serde(flatten)]
    pub settings: Config,
    /// Most men (kings included) in a generated endgame.
    pub max_men: u32,
    /// Draw policy (always `twofold`: `axon` serves no other).
    pub policy: String,
    /// Changes of exact counters smaller than this count as no change.
    pub count_noise: f64,
    /// A change reproduces the paper's size when |ours| / |paper| lies in this range.
    pub size_tolerance: [f64; 2],
}

/// Everything the study measured (`results.json`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Results {
    /// Provenance.
    pub meta: Meta,
    /// The settings and the method's fixed parts.
    pub config: Setup,
    /// The paper's numbers the study tests.
    pub paper: PaperClaims,
    /// The two searcher profiles.
    pub profiles: Vec<Profile>,
    /// The grid's configurations, in order.
    pub grid_configs: Vec<GridConfig>,
    /// One object per configuration × detector × depth.
    pub grid: Vec<GridRun>,
    /// Totals per configuration × detector.
    pub grid_totals: Vec<GridTotal>,
    /// Per grid configuration, axon against axon with truth confirmation.
    #[serde(default)]
    pub false_draws: Vec<FalseDraws>,
    /// The detectors searched on the position sets, `off` first (written as their names).
    pub endgame_detectors: Vec<DetectorId>,
    /// The searches of WAC.018 whose instructions callgrind counted (`off` first), handed over
    /// by `bench`'s own step; empty when none were.
    #[serde(default)]
    pub instructions: Vec<crate::callgrind::SearchCost>,
    /// The generated endgames.
    pub endgames: PositionSet,
    /// WAC, for contrast.
    pub wac: PositionSet,
    /// The verdict from the numbers.
    pub verdict: Verdict,
}

/// Configurations that are one search: the name kept, then the others.
pub type OneSearch = (String, Vec<String>);

impl Results {
    /// `axon`'s totals of the configurations that vote: one per search of its own (a
    /// configuration identical in effect to an earlier one is left out), in grid order.
    pub fn voting_axon_totals(&self) -> Vec<&GridTotal> {
        let votes = |name: &str| {
            self.grid_configs
                .iter()
                .any(|c| c.name == name && c.votes())
        };
        self.grid_totals
            .iter()
            .filter(|t| t.detector == super::grid::SUBJECT && votes(&t.config))
            .collect()
    }

    /// The groups of configuration names that are one search: the same settings under other
    /// names ([`GridConfig::coincides_with`]) or identical searches at the grid's depth
    /// ([`GridConfig::searches_as`]), as `(kept, others)`.
    pub fn one_search_groups(&self) -> (Vec<OneSearch>, Vec<OneSearch>) {
        let same_settings = self
            .grid_configs
            .iter()
            .filter(|c| !c.coincides_with.is_empty())
            .map(|c| (c.name.clone(), c.coincides_with.clone()))
            .collect();
        let mut same_search: Vec<OneSearch> = Vec::new();
        for c in &self.grid_configs {
            let Some(kept) = &c.searches_as else { continue };
            match same_search.iter_mut().find(|(k, _)| k == kept) {
                Some((_, others)) => others.push(c.name.clone()),
                None => same_search.push((kept.clone(), vec![c.name.clone()])),
            }
        }
        (same_settings, same_search)
    }
}
