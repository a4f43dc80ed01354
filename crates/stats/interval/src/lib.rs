//! The one interval type of every `results.json`, and the rule for when a measured time means
//! something in a table.
//!
//! An [`Interval`] is `lo`, `hi`, the probability `coverage` that it covers the true value and
//! the number `n` of samples it is made from. A single sample is an interval too, marked
//! unambiguously: `n = 1`, `coverage = 0`, `lo = hi` ([`Interval::single`]). An exact
//! (deterministic) value has `coverage = 1` ([`Interval::exact`]). Every measured time of a
//! `results.json` carries one, alone or in an [`Estimate`] (`{"value": …, "interval": …}`), so [`unmarked_times`] can check that none is a bare number.
//!
//! The workspace's one [`median`] is here too (the mean of the two middle values for an even
//! count), with [`middle_ranks`] for a caller that must report one of the sample's own values.
//!
//! A leaf crate: the harness re-exports it as `replab_harness::interval`, and the crates below
//! the harness (Elo, self-play) use it directly.

use std::fmt;

use serde::{Deserialize, Serialize};

mod estimate;
mod median;

pub use estimate::{Estimate, Stated};
pub use median::{median, middle_ranks};

/// The confidence level every interval of replab aims at.
pub const LEVEL: f64 = 0.95;

/// An interval around a measured value: `[lo, hi]`, covering the true value with probability
/// `coverage`, made from `n` samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The low end.
    pub lo: f64,
    /// The high end.
    pub hi: f64,
    /// The probability that `[lo, hi]` covers the true value (a 5-sample min–max covers 0.9375
    /// of the median; 0 for a single sample; 1 for an exact value).
    pub coverage: f64,
    /// Samples it is made from (1 for a single sample or an exact value).
    pub n: usize,
}

impl Interval {
    /// A single sample `x`: no interval (`n = 1`, coverage 0).
    pub fn single(x: f64) -> Self {
        Self {
            lo: x,
            hi: x,
            coverage: 0.0,
            n: 1,
        }
    }

    /// An exact, deterministic value `x`: a zero-width interval that covers it (coverage 1).
    pub fn exact(x: f64) -> Self {
        Self {
            coverage: 1.0,
            ..Self::single(x)
        }
    }

    /// The min–max range of `samples`, with the coverage of the median it has (`1 − 2·½ⁿ`:
    /// 0.9375 for 5 samples, 0 for one). NaN ends for no sample.
    pub fn min_max(samples: &[f64]) -> Self {
        let lo = samples.iter().copied().fold(f64::NAN, f64::min);
        let hi = samples.iter().copied().fold(f64::NAN, f64::max);
        let n = samples.len();
        let coverage = if n <= 1 {
            0.0
        } else {
            1.0 - 2.0 * 0.5f64.powi(n as i32)
        };
        Self {
            lo,
            hi,
            coverage,
            n,
        }
    }

    /// Whether it is a single sample (no interval at all).
    pub fn is_single_sample(&self) -> bool {
        self.n <= 1 && self.coverage == 0.0
    }

    /// Whether it is an exact value: zero width, coverage 1.
    pub fn is_exact(&self) -> bool {
        self.coverage >= 1.0 && self.lo == self.hi
    }

    /// Whether the two intervals overlap: then the data support no ranking of the two.
    pub fn overlaps(&self, other: &Interval) -> bool {
        self.lo <= other.hi && other.lo <= self.hi
    }

    /// Whether `x` lies in `[lo, hi]`.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// The ends as a pair `[lo, hi]` (for charts).
    pub fn ends(&self) -> [f64; 2] {
        [self.lo, self.hi]
    }

    /// Maps both ends through a monotone function (a change of unit, or a reciprocal such as
    /// time → nodes per second: the ends are put back in order).
    pub fn map(&self, f: impl Fn(f64) -> f64) -> Self {
        let (a, b) = (f(self.lo), f(self.hi));
        Self {
            lo: a.min(b),
            hi: a.max(b),
            ..*self
        }
    }

    /// The ends as text with `fmt`: `[1.20, 1.35]`, the one spelling of an interval's ends on
    /// every page and terminal ([`Interval::text`], and through it [`Estimate::text`], write it).
    pub fn ends_text(&self, fmt: impl Fn(f64) -> String) -> String {
        format!("[{}, {}]", fmt(self.lo), fmt(self.hi))
    }

    /// The interval as text with `fmt` for its ends: `[1.20, 1.35]`, followed by
    /// `(93.8% interval from 5 samples)` when its coverage falls short of
    /// [`LEVEL`], `single sample` for a single sample, `exact` for an exact value.
    pub fn text(&self, fmt: impl Fn(f64) -> String) -> String {
        if self.is_single_sample() {
            return "single sample".into();
        }
        if self.is_exact() {
            return "exact".into();
        }
        let mut s = self.ends_text(fmt);
        if self.coverage < LEVEL {
            s += &format!(
                " ({:.1}% interval from {} samples)",
                self.coverage * 100.0,
                self.n
            );
        }
        s
    }
}

impl fmt::Display for Interval {
    /// [`Interval::text`] with three significant decimals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(|x| format!("{x:.3}")))
    }
}

/// An interval half as wide as this fraction of its value (±10%) or wider is too noisy to rank.
pub const NOISE_LIMIT: f64 = 0.10;

/// What a measured quantity is, for [`noise`]: a level (a time, a rate) or a relative change
/// against a baseline (`−0.05` is 5% faster).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// A time or rate: its interval is judged relative to its value.
    Level,
    /// A relative change: its interval is judged in points of change and must not contain 0.
    Change,
}

/// What a table cell may show of a measured value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Noise {
    /// A single sample: the value alone, no interval.
    Single,
    /// The interval means something: show it.
    Clear,
    /// Too noisy to rank: the interval's half-width (relative for a level, in points of change
    /// for a change).
    TooNoisy(f64),
}

/// The rule for a time cell: a level whose half-width exceeds [`NOISE_LIMIT`] of its value, or a
/// change whose interval contains zero change or is wider than ±[`NOISE_LIMIT`], is too noisy
/// to rank.
pub fn noise(value: f64, interval: &Interval, quantity: Quantity) -> Noise {
    if interval.is_single_sample() {
        return Noise::Single;
    }
    let half = (interval.hi - interval.lo) / 2.0;
    let (half, spans_zero) = match quantity {
        Quantity::Level if value == 0.0 => (f64::INFINITY, false),
        Quantity::Level => (half / value.abs(), false),
        Quantity::Change => (half, interval.contains(0.0) && half > 0.0),
    };
    if spans_zero || half > NOISE_LIMIT {
        Noise::TooNoisy(half)
    } else {
        Noise::Clear
    }
}

/// A table cell for a measured value: `value [lo, hi]` when the interval means something,
/// `value, too noisy to rank (±x%)` when [`noise`] says so, `value (single sample)` for one
/// sample. `fmt` formats the value and the ends.
pub fn cell(
    value: f64,
    interval: &Interval,
    quantity: Quantity,
    fmt: impl Fn(f64) -> String,
) -> String {
    let shown = interval_part(value, interval, quantity, &fmt);
    match noise(value, interval, quantity) {
        Noise::Single => format!("{} (single sample)", fmt(value)),
        Noise::Clear => format!("{} {shown}", fmt(value)),
        Noise::TooNoisy(_) => format!("{}, {shown}", fmt(value)),
    }
}

/// What a cell shows of a measured value's interval, without the value (a page that sets the
/// two apart, e.g. on two lines): `[lo, hi]` ([`Interval::text`]) when it means something,
/// [`too_noisy`] when [`noise`] says so, nothing for a single sample.
pub fn interval_part(
    value: f64,
    interval: &Interval,
    quantity: Quantity,
    fmt: impl Fn(f64) -> String,
) -> String {
    match noise(value, interval, quantity) {
        Noise::Single => String::new(),
        Noise::Clear => interval.text(fmt),
        Noise::TooNoisy(half) => too_noisy(half),
    }
}

/// The one spelling of a value too noisy to rank, from its interval's half-width (relative for
/// a level, in points of change for a change; see [`noise`]): `too noisy to rank (±11%)`,
/// capped at ±9999%.
pub fn too_noisy(half: f64) -> String {
    format!("too noisy to rank (±{:.0}%)", (half * 100.0).min(9999.0))
}

/// Serde for a measured time kept as a bare `f64` in Rust and written as a single sample
/// (`#[serde(with = "replab_interval::single_sample")]`): [`Estimate::single`], so
/// [`unmarked_times`] finds it marked. Reads that shape or, from files written before, a bare
/// number.
pub mod single_sample {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Estimate;

    /// What may be read: the written shape or a bare number.
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Read {
        Marked(Estimate),
        Bare(f64),
    }

    /// Writes `x` as a single sample.
    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        Estimate::single(*x).serialize(s)
    }

    /// Reads a single sample's value, or a bare number.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(match Read::deserialize(d)? {
            Read::Marked(m) => m.value,
            Read::Bare(x) => x,
        })
    }
}

/// Whether `key` of a `results.json` object names a measured time (or a quantity computed from
/// one): a `_`-separated part `time`, `ms`, `ns`, `nps`, `s`, `second(s)`, `overhead` or
/// `speed` (`time_ms`, `ns_per_node`, `wall_s`, `games_per_second`, `time_change`). Counters,
/// instruction counts and forfeit counts (`time_forfeits`, games lost on time) are not times.
pub fn time_key(key: &str) -> bool {
    const TIME: [&str; 9] = [
        "time", "ms", "ns", "nps", "s", "second", "seconds", "overhead", "speed",
    ];
    let k = key.to_ascii_lowercase();
    !k.contains("instruction") && !k.contains("forfeit") && k.split('_').any(|p| TIME.contains(&p))
}

/// Every number (or object or array of numbers) under a [`time_key`] of `value` that is neither
/// an [`Interval`] nor an object holding one under `interval` (an [`Estimate`]),
/// as `$.path`. Raw samples under a key ending in `_samples` are the data behind an interval
/// and pass; text passes (a verdict about a time). Values under `skip` keys (settings,
/// references such as the paper's) are not measurements and are not walked.
pub fn unmarked_times(value: &serde_json::Value, skip: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    walk(value, "$".into(), skip, &mut found);
    found
}

/// Whether `v` is an interval object (`lo`, `hi`, `coverage`, `n`).
fn is_interval(v: &serde_json::Value) -> bool {
    ["lo", "hi", "coverage", "n"]
        .iter()
        .all(|k| v.get(k).is_some_and(serde_json::Value::is_number))
}

/// Whether `v` under a time key is marked: an interval, an estimate holding one, `null` (not
/// measured), text (a verdict about a time, not a time), or an array of marked values.
fn marked(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::Null | Value::String(_) | Value::Bool(_) => true,
        Value::Array(items) => items.iter().all(marked),
        Value::Object(_) => is_interval(v) || v.get("interval").is_some_and(is_interval),
        _ => false,
    }
}

fn walk(value: &serde_json::Value, path: String, skip: &[&str], found: &mut Vec<String>) {
    use serde_json::Value;
    match value {
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(v, format!("{path}[{i}]"), skip, found);
            }
        }
        Value::Object(object) => {
            for (key, v) in object {
                let sub = format!("{path}.{key}");
                if skip.contains(&key.as_str()) {
                    continue;
                }
                let samples = key.ends_with("_samples");
                // A record under a time-like name (`overhead_adaptive`) is walked, not judged:
                // its own fields say which of them are times.
                let record = v.is_object()
                    && ["value", "lo", "hi", "interval"]
                        .iter()
                        .all(|k| v.get(k).is_none());
                if time_key(key) && !samples && !record && !marked(v) {
                    found.push(sub.clone());
                }
                walk(v, sub, skip, found);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_max_has_the_coverage_of_its_size() {
        let i = Interval::min_max(&[3.0, 1.0, 2.0, 5.0, 4.0]);
        assert_eq!((i.lo, i.hi, i.n), (1.0, 5.0, 5));
        assert_eq!(i.coverage, 0.9375);
        assert!(Interval::min_max(&[7.0]).is_single_sample());
        assert!(!Interval::exact(7.0).is_single_sample());
    }

    #[test]
    fn map_keeps_the_ends_in_order() {
        let i = Interval::min_max(&[2.0, 4.0, 3.0, 2.5, 3.5, 3.0]);
        let nps = i.map(|t| 1000.0 / t);
        assert_eq!((nps.lo, nps.hi), (250.0, 500.0));
        assert_eq!((nps.coverage, nps.n), (i.coverage, 6));
    }

    #[test]
    fn text_says_single_samples_and_short_coverage() {
        assert_eq!(Interval::single(2.0).to_string(), "single sample");
        assert_eq!(Interval::exact(2.0).to_string(), "exact");
        let five = Interval::min_max(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(
            five.to_string(),
            "[1.000, 5.000] (93.8% interval from 5 samples)"
        );
        let six = Interval::min_max(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(six.to_string(), "[1.000, 6.000]");
    }

    #[test]
    fn the_noise_rule_flips_at_its_limit() {
        let at = |lo: f64, hi: f64| Interval {
            lo,
            hi,
            coverage: 0.97,
            n: 6,
        };
        // A level: ±9% is shown, ±11% is too noisy.
        assert_eq!(
            noise(100.0, &at(91.0, 109.0), Quantity::Level),
            Noise::Clear
        );
        assert!(matches!(
            noise(100.0, &at(89.0, 111.0), Quantity::Level),
            Noise::TooNoisy(h) if (h - 0.11).abs() < 1e-9
        ));
        // A change: clear of zero is shown; spanning zero is too noisy even when narrow.
        assert_eq!(
            noise(-0.05, &at(-0.08, -0.02), Quantity::Change),
            Noise::Clear
        );
        assert!(matches!(
            noise(-0.01, &at(-0.03, 0.01), Quantity::Change),
            Noise::TooNoisy(_)
        ));
        assert!(matches!(
            noise(-0.5, &at(-0.8, -0.55), Quantity::Change),
            Noise::TooNoisy(_)
        ));
        assert_eq!(
            noise(5.0, &Interval::single(5.0), Quantity::Level),
            Noise::Single
        );
        let f = |x: f64| format!("{x:.0}");
        assert_eq!(
            cell(100.0, &at(89.0, 111.0), Quantity::Level, f),
            "100, too noisy to rank (±11%)"
        );
        assert_eq!(
            cell(100.0, &at(95.0, 105.0), Quantity::Level, f),
            "100 [95, 105]"
        );
        assert_eq!(too_noisy(f64::INFINITY), "too noisy to rank (±9999%)");
        assert_eq!(
            cell(3.0, &Interval::single(3.0), Quantity::Level, f),
            "3 (single sample)"
        );
    }

    #[test]
    fn a_single_sample_time_is_marked_and_reads_back() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Timing {
            #[serde(with = "single_sample")]
            wall_s: f64,
        }
        let t = Timing { wall_s: 1.25 };
        let v = serde_json::to_value(&t).unwrap();
        assert_eq!(v["wall_s"]["interval"]["n"], 1);
        assert_eq!(unmarked_times(&v, &[]), Vec::<String>::new());
        assert_eq!(serde_json::from_value::<Timing>(v).unwrap(), t);
        let bare = serde_json::json!({ "wall_s": 1.25 });
        assert_eq!(unmarked_times(&bare, &[]), ["$.wall_s"]);
        assert_eq!(serde_json::from_value::<Timing>(bare).unwrap(), t);
    }

    #[test]
    fn time_keys_name_times_not_counts() {
        for k in [
            "time_ms",
            "time",
            "ns",
            "nps",
            "wall_seconds",
            "wall_s",
            "games_per_second",
            "overhead",
            "time_change",
        ] {
            assert!(time_key(k), "{k}");
        }
        for k in [
            "nodes",
            "overhead_instructions",
            "timeout",
            "terminal_nodes",
            "repeats",
            "time_forfeits",
        ] {
            assert!(!time_key(k), "{k}");
        }
    }

    #[test]
    fn bare_times_are_found() {
        use serde_json::json;
        let marked = json!({ "value": 2.0, "interval": Interval::single(2.0) });
        let v = json!({
            "runs": [{ "nodes": 5, "time_ms": marked }, { "nodes": 6, "time_ms": 3.0 }],
            "overhead": Interval::exact(1.0),
            "nps": null,
            "config": { "time_ms": 4.0 },
            "round_time_ms": [1.0, 2.0],
            "time_ms_samples": [1.0, 2.0],
            "time_vs_paper": "agrees",
            "seconds": { "value": 3.0 },
            "overhead_adaptive": { "rounds": 9, "seconds": 4.0 }
        });
        assert_eq!(
            unmarked_times(&v, &["config"]),
            [
                "$.overhead_adaptive.seconds",
                "$.round_time_ms",
                "$.runs[1].time_ms",
                "$.seconds"
            ]
        );
    }
}
