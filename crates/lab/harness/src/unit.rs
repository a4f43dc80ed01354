//! The one unit of a value: how it reads (alone, or as an interval's ends) and how two values
//! of it compare. The landing page's columns and the comparisons behind every verdict use it.

use replab_report::{fmt_delta_pct, fmt_int};
use serde::{Deserialize, Serialize};

/// The unit of a column's values: how a value reads, and how two of them compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// A count of events: `1,234`.
    Count,
    /// A number with a fixed number of decimals: `12.3`, `1.050`.
    Number {
        /// Decimals shown.
        decimals: usize,
    },
    /// A ratio to a common reference, read as the relative change: 1.05 is `+5.0%`.
    Ratio,
    /// A relative change `x / base − 1`: 0.05 is `+5.0%` (in `results.json`:
    /// `relative-change`).
    #[serde(rename = "relative-change")]
    Change,
    /// Logistic Elo over a baseline, with a sign and one decimal: `+5.2`.
    Elo,
    /// Checks failed out of `of`: `passes all 16`, `fails 3 of 16`.
    Failed {
        /// Checks run.
        of: usize,
    },
    /// A rate per 1,000 generated positions (repetitions per 1,000 positions): `0.84 per
    /// 1,000`.
    PerThousand,
}

impl Unit {
    /// `x` in this unit.
    pub fn text(self, x: f64) -> String {
        match self {
            Unit::Failed { of } if x == 0.0 => format!("passes all {of}"),
            Unit::Failed { of } => format!("fails {} of {of}", self.bare(x)),
            Unit::PerThousand => format!("{} per 1,000", self.bare(x)),
            _ => self.bare(x),
        }
    }

    /// `x` as a bare number of this unit (an interval's ends).
    pub fn bare(self, x: f64) -> String {
        match self {
            // Counts are whole and far below 2^53: the conversion is exact.
            Unit::Count | Unit::Failed { .. } => fmt_int(x.round() as i64),
            Unit::Number { decimals } => format!("{x:.decimals$}"),
            Unit::Ratio => fmt_delta_pct(x - 1.0),
            Unit::Change => fmt_delta_pct(x),
            Unit::Elo => signed(x),
            Unit::PerThousand => format!("{x:.2}"),
        }
    }

    /// `a` relative to `b` as a change (`a / b − 1`), for comparing a choice's value with its
    /// baseline's; `None` where the ratio means nothing (Elo, failed checks, `b` zero).
    pub fn change(self, a: f64, b: f64) -> Option<f64> {
        match self {
            Unit::Count | Unit::Number { .. } | Unit::Ratio | Unit::PerThousand => {
                (b != 0.0).then(|| a / b - 1.0)
            }
            Unit::Change => (b != -1.0).then(|| (1.0 + a) / (1.0 + b) - 1.0),
            Unit::Elo | Unit::Failed { .. } => None,
        }
    }

    /// `x` on a scale of relative change with the same sign and order, for the comparison
    /// type: a ratio or a change as is, Elo as the expected score's change from an even score
    /// (0 Elo: 0; +∞: +100%; −∞: −100%).
    pub fn as_change(self, x: f64) -> f64 {
        match self {
            Unit::Ratio => x - 1.0,
            Unit::Elo => 2.0 / (1.0 + 10f64.powf(-x / 400.0)) - 1.0,
            Unit::Count
            | Unit::Number { .. }
            | Unit::Change
            | Unit::Failed { .. }
            | Unit::PerThousand => x,
        }
    }
}

/// A number with a sign and one decimal, never `-0.0`.
fn signed(x: f64) -> String {
    let rounded = (x * 10.0).round() / 10.0;
    format!("{:+.1}", if rounded == 0.0 { 0.0 } else { rounded })
}
