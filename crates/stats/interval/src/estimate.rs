//! [`Estimate`]: a value with its interval, the one value-with-interval type of replab, and
//! [`Estimate::text`], the one way it is written on pages and terminals.

use serde::{Deserialize, Serialize};

#[cfg(doc)]
use crate::LEVEL;
use crate::{Interval, Quantity};

/// A value with its interval, in JSON `{"value": …, "interval": {"lo", "hi", "coverage", "n"}}`.
///
/// `I` is [`Interval`] for a measured value, which always has one (a single sample or an exact
/// count is marked as such in it): a median time and its order-statistic interval. It is
/// `Option<Interval>` for a value whose samples may not back an interval at all (an Elo from
/// fewer than 20 pairs, a value stated without one): [`Stated`], the interval `null` in JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Estimate<I = Interval> {
    /// The point estimate (a median of samples, an exact count, a logistic Elo …). Read as
    /// `median` too, the key of results written before this type was the one.
    #[serde(alias = "median")]
    pub value: f64,
    /// The interval around it, with its coverage and the samples behind it.
    pub interval: I,
}

/// An [`Estimate`] whose interval may be missing (`None` when the samples cannot back one).
pub type Stated = Estimate<Option<Interval>>;

impl Estimate {
    /// An estimate from one exact value (a deterministic count): a zero-width interval.
    pub fn exact(value: f64) -> Self {
        Self {
            value,
            interval: Interval::exact(value),
        }
    }

    /// One measured sample: the value, marked as a single sample (no interval).
    pub fn single(value: f64) -> Self {
        Self {
            value,
            interval: Interval::single(value),
        }
    }

    /// Whether the two intervals overlap: then the data support no ranking of the two.
    pub fn overlaps(&self, other: &Estimate) -> bool {
        self.interval.overlaps(&other.interval)
    }

    /// Maps value and interval through a monotone function (a change of unit; a reciprocal
    /// such as time → nodes per second keeps the ends in order).
    pub fn map(&self, f: impl Fn(f64) -> f64) -> Self {
        Self {
            value: f(self.value),
            interval: self.interval.map(f),
        }
    }

    /// A table cell for it ([`crate::cell`]): the interval where it means something, "too
    /// noisy to rank" where not.
    pub fn cell(&self, quantity: Quantity, fmt: impl Fn(f64) -> String) -> String {
        crate::cell(self.value, &self.interval, quantity, fmt)
    }

    /// As text ([`Stated::text`]): `1.2 [1.1, 1.4]`, `1.2 (exact)`, `1.2 (single sample)`.
    pub fn text(&self, fmt: impl Fn(f64) -> String) -> String {
        Stated::from(*self).text(fmt)
    }
}

impl From<Estimate> for Stated {
    fn from(e: Estimate) -> Self {
        Self {
            value: e.value,
            interval: Some(e.interval),
        }
    }
}

impl Stated {
    /// `value` with the interval `[lo, hi]` of `coverage` made from `n` samples.
    pub fn new(value: f64, lo: f64, hi: f64, coverage: f64, n: u64) -> Self {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        Self {
            value,
            interval: Some(Interval {
                lo,
                hi,
                coverage,
                n,
            }),
        }
    }

    /// `value` without an interval.
    pub fn without_interval(value: f64) -> Self {
        Self {
            value,
            interval: None,
        }
    }

    /// Half the interval's width: the "± error" fastchess and fishtest print (`None` without
    /// an interval). A logistic interval is not symmetric about the value; this is its mean
    /// half-width.
    pub fn error(&self) -> Option<f64> {
        self.interval.map(|i| (i.hi - i.lo) / 2.0)
    }

    /// Whether there is an interval and it contains `x`.
    pub fn contains(&self, x: f64) -> bool {
        self.interval.is_some_and(|i| i.contains(x))
    }

    /// Whether there is an interval and it lies wholly on one side of `x`: the only case in
    /// which the estimate measurably differs from `x`.
    pub fn excludes(&self, x: f64) -> bool {
        self.interval.is_some_and(|i| !i.contains(x))
    }

    /// The one written form of a value with its interval, `fmt` writing the numbers: the value,
    /// then [`Interval::text`] (`−3.1 [−7.0, +0.8]`, with `(93.8% interval from 5 samples)`
    /// when the coverage falls short of [`LEVEL`]); `−3.1 (no interval)` without one, `4.0
    /// (exact)` for an exact value and `4.0 (single sample)` for a single sample.
    pub fn text(&self, fmt: impl Fn(f64) -> String) -> String {
        let value = fmt(self.value);
        match self.interval {
            None => format!("{value} (no interval)"),
            Some(i) if i.is_single_sample() || i.is_exact() => {
                format!("{value} ({})", i.text(fmt))
            }
            Some(i) => format!("{value} {}", i.text(fmt)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LEVEL;

    #[test]
    fn the_text_says_what_backs_the_interval() {
        let signed = |x: f64| format!("{x:+.1}");
        assert_eq!(
            Stated::new(-3.1, -7.0, 0.8, LEVEL, 40).text(signed),
            "-3.1 [-7.0, +0.8]"
        );
        assert_eq!(
            Stated::without_interval(-3.1).text(signed),
            "-3.1 (no interval)"
        );
        let five = Estimate {
            value: 3.0,
            interval: Interval::min_max(&[1.0, 2.0, 3.0, 4.0, 5.0]),
        };
        assert_eq!(
            five.text(|x| format!("{x:.0}")),
            "3 [1, 5] (93.8% interval from 5 samples)"
        );
        assert_eq!(Estimate::exact(4.0).text(|x| format!("{x}")), "4 (exact)");
        assert_eq!(
            Estimate::single(4.0).text(|x| format!("{x}")),
            "4 (single sample)"
        );
    }

    #[test]
    fn the_json_shape_is_value_and_interval_or_null() {
        let json = serde_json::to_value(Stated::without_interval(1.0)).unwrap();
        assert_eq!(json, serde_json::json!({ "value": 1.0, "interval": null }));
        let json = serde_json::to_value(Estimate::exact(2.0)).unwrap();
        assert_eq!(json["value"], 2.0);
        assert_eq!(json["interval"]["coverage"], 1.0);
    }

    #[test]
    fn a_median_written_before_reads_as_the_value() {
        let old = serde_json::json!({
            "median": 2.5,
            "interval": { "lo": 2.0, "hi": 3.0, "coverage": 0.96875, "n": 6 }
        });
        let e: Estimate = serde_json::from_value(old).unwrap();
        assert_eq!((e.value, e.interval.n), (2.5, 6));
        let none: Result<Estimate, _> = serde_json::from_value(serde_json::json!({ "mean": 1 }));
        assert!(none.is_err());
    }

    #[test]
    fn an_interval_excludes_a_value_only_when_it_exists() {
        let e = Stated::new(10.0, 5.0, 15.0, LEVEL, 40);
        assert!(e.contains(5.0) && !e.excludes(5.0));
        assert!(e.excludes(16.0));
        assert!(!Stated::without_interval(10.0).excludes(0.0));
        assert_eq!(e.error(), Some(5.0));
    }
}
