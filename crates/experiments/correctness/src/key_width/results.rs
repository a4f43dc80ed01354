//! What `replab key-width` measures, as written to `results.json`.

use replab_registry::DetectorId;
use replab_report::Meta;
use serde::{Deserialize, Serialize};

use super::search::SearchCounts;
use crate::stats::{Estimate, Interval};

/// The settings a run used, and what it fixed beside them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The settings (written flat, beside what follows), the record counts those searched: a
    /// count above what its file holds searches them all, the same run.
    #[serde(flatten)]
    pub settings: super::Config,
    /// Draw policy of the searches.
    pub policy: String,
    /// The searcher's transposition table, in index bits (its keys are never truncated).
    pub tt_bits: u32,
}

/// The audit games' totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameTotals {
    /// Games played.
    pub games: u64,
    /// Plies judged (probes per probing detector, upcoming queries for cuckoo).
    pub plies: u64,
    /// Plies at which truth reports a repetition.
    pub repetitions: u64,
    /// Plies at which truth reports that a legal move reaches an earlier position.
    pub upcoming: u64,
}

/// A measured rate with its exact 95% interval and the birthday bound's expectation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Events counted.
    pub count: u64,
    /// Trials (probes or games).
    pub trials: u64,
    /// `count / trials`, with its Clopper–Pearson 95% interval, its coverage (at least 95%:
    /// exact intervals are conservative; 0 without trials) and `n` the trials.
    pub rate: Estimate,
    /// Events the birthday bound expects.
    pub expected: f64,
    /// `expected / trials`.
    pub expected_rate: f64,
}

impl Rate {
    /// The rate of `count` in `trials` against `expected` events.
    pub fn new(count: u64, trials: u64, expected: f64) -> Rate {
        let t = trials.max(1) as f64;
        Rate {
            count,
            trials,
            rate: clopper_pearson(count, trials),
            expected,
            expected_rate: expected / t,
        }
    }

    /// Whether the expectation lies inside the measured interval.
    pub fn agrees(&self) -> bool {
        self.rate.interval.contains(self.expected_rate)
    }
}

/// The rate of `count` events in `trials` (0 without trials) with its Clopper–Pearson 95%
/// interval.
pub fn clopper_pearson(count: u64, trials: u64) -> Estimate {
    let [lo, hi] = super::bound::clopper_pearson(count, trials);
    Estimate {
        value: count as f64 / trials.max(1) as f64,
        interval: Interval {
            lo,
            hi,
            coverage: super::bound::clopper_pearson_coverage(trials),
            n: usize::try_from(trials).unwrap_or(usize::MAX),
        },
    }
}

/// One detector at one key width on the audit games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditCell {
    /// Registry name.
    pub detector: DetectorId,
    /// Key bits compared.
    pub bits: u32,
    /// Packed bytes stored per key at this width ([`super::bound::bytes_per_entry`]).
    pub bytes_per_entry: u32,
    /// `probe` or `upcoming`.
    pub check: String,
    /// Agreement with truth: true positives.
    pub true_positive: u64,
    /// False positives.
    pub false_positive: u64,
    /// False negatives.
    pub false_negative: u64,
    /// True negatives.
    pub true_negative: u64,
    /// False positives per probe, with the bound.
    pub per_probe: Rate,
    /// Games with at least one false positive, per game, with the bound.
    pub per_game: Rate,
    /// Games with at least one false negative.
    pub games_with_false_negative: u64,
    /// Keys compared in the bound (`Σ m` over the probes that are not 64-bit repetitions).
    pub keys_compared: f64,
}

/// Linear at every width from 1 bit: exact counts from the keys, against the bound.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TailPoint {
    /// Key bits.
    pub bits: u32,
    /// False positives per probe, with the bound.
    pub per_probe: Rate,
}

/// One search detector at one key width over the position set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchCell {
    /// Registry name (`linear+cuckoo` stands for cuckoo in search).
    pub detector: DetectorId,
    /// Key bits.
    pub bits: u32,
    /// Packed bytes stored per key.
    pub bytes_per_entry: u32,
    /// Positions searched.
    pub positions: usize,
    /// Nodes, summed.
    pub nodes: u64,
    /// What the judge counted, summed.
    pub counts: SearchCounts,
    /// False repetitions per probe with its Clopper–Pearson 95% interval (coverage at least
    /// 95%, 0 without probes; `n`: the probes); no bound.
    pub false_rate: Estimate,
    /// Positions whose best move differs from the 64-bit search's.
    pub best_move_changes: usize,
    /// Positions whose root score differs from the 64-bit search's.
    pub score_changes: usize,
    /// Ids of the positions whose best move or score differs.
    pub changed: Vec<String>,
}

/// Where linear's false positives at the narrowest width come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clusters {
    /// The narrowest width run.
    pub bits: u32,
    /// linear's false positives at that width.
    pub false_positives: u64,
    /// Distinct key differences (current key ⊕ colliding key) behind them.
    pub distinct_differences: u64,
    /// False positives of the most frequent difference.
    pub largest: u64,
}

/// Zarkov's 32-bit keys under `linear` (Zarkov's technique): the headline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Zarkov {
    /// 32.
    pub bits: u32,
    /// False positives per probe on the audit games, with the bound.
    pub per_probe: Rate,
    /// Games with a false positive.
    pub per_game: Rate,
    /// Mean keys compared per probe.
    pub mean_compared: f64,
}

/// Everything `replab key-width` writes to `results.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Provenance.
    pub meta: Meta,
    /// Settings.
    pub config: Setup,
    /// Audit totals.
    pub totals: GameTotals,
    /// Detector × width on the audit games, detectors in report order, widths ascending.
    pub audit: Vec<AuditCell>,
    /// Linear at 1 … 40 bits from the same games.
    pub linear_tail: Vec<TailPoint>,
    /// Where linear's false positives at the narrowest width come from.
    pub clusters: Clusters,
    /// Zarkov's 32 bits (`None` if 32 was not run).
    pub zarkov: Option<Zarkov>,
    /// Detector × width in search.
    pub search: Vec<SearchCell>,
    /// Seconds spent on the audit games and on the searches (one measurement each, marked as a
    /// single sample).
    pub seconds: [Estimate; 2],
}
