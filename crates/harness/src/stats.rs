//! Every time with its uncertainty: medians of repeated measurements with a distribution-free
//! 95% confidence interval, and the rule for comparing two of them.
//!
//! The interval of a median comes from order statistics: with `n` independent samples, the
//! number falling below the true median is Binomial(n, ½), so the `j`-th and `k`-th smallest
//! samples bracket it with probability `P(j ≤ B < k)`. [`median_ci`] picks the narrowest
//! symmetric pair whose coverage is at least 95% (with fewer than 6 samples no pair reaches
//! 95%: the interval is then the whole range and [`Estimate::coverage`] says how much it
//! covers). No assumption on the shape of the noise, which on a shared machine is skewed.
//!
//! Repeats of different configurations are *interleaved* ([`interleaved`]): round `r` runs
//! every configuration once, so a slow spell of the machine hits all of them alike.

use serde::{Deserialize, Serialize};

/// The confidence level every interval of replab aims at.
pub const LEVEL: f64 = 0.95;

/// A median with its confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The sample median.
    pub median: f64,
    /// `[low, high]`: the order statistics bracketing the median (see the module docs).
    pub ci: [f64; 2],
    /// Samples behind the estimate.
    pub repeats: usize,
    /// The probability that `ci` covers the true median (≥ [`LEVEL`] from 6 samples on).
    pub coverage: f64,
}

impl Estimate {
    /// An estimate from one exact value (a deterministic count): a zero-width interval.
    pub fn exact(value: f64) -> Self {
        Self {
            median: value,
            ci: [value, value],
            repeats: 1,
            coverage: 1.0,
        }
    }

    /// Whether the two intervals overlap: then the data support no ranking of the two.
    pub fn overlaps(&self, other: &Estimate) -> bool {
        self.ci[0] <= other.ci[1] && other.ci[0] <= self.ci[1]
    }

    /// Half the interval's width relative to the median (`0.01` = ±1%).
    pub fn relative_half_width(&self) -> f64 {
        if self.median == 0.0 {
            return f64::INFINITY;
        }
        (self.ci[1] - self.ci[0]) / 2.0 / self.median.abs()
    }

    /// Maps median and interval through an increasing function (a change of unit).
    pub fn map(&self, f: impl Fn(f64) -> f64) -> Self {
        Self {
            median: f(self.median),
            ci: [f(self.ci[0]), f(self.ci[1])],
            ..*self
        }
    }
}

/// The sample median of `values` (NaN-free; the mean of the middle two for an even count).
/// `NaN` for an empty slice.
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// `P(B < j)` for `B ~ Binomial(n, ½)` (statrs).
fn binomial_below(n: usize, j: usize) -> f64 {
    use statrs::distribution::{Binomial, DiscreteCDF};
    if j == 0 {
        return 0.0;
    }
    Binomial::new(0.5, n as u64)
        .expect("p = ½ is a probability")
        .cdf(j as u64 - 1)
}

/// The coverage of the interval between the `j`-th smallest and `j`-th largest of `n` samples:
/// `1 − 2·P(B < j)`, snapped to 0 within rounding (statrs' tail is exact to about 1e-15, and a
/// single sample's interval covers nothing, not 9e-16).
fn coverage(n: usize, j: usize) -> f64 {
    let c = 1.0 - 2.0 * binomial_below(n, j);
    if c < 1e-12 { 0.0 } else { c }
}

/// The coverage of [`median_ci`]'s interval for `n` samples (0 for none): 0.9375 for 5, 0.96875
/// for 6, at least [`LEVEL`] from 6 on.
pub fn median_coverage(n: usize) -> f64 {
    if n == 0 {
        return 0.0;
    }
    median_ci(&vec![0.0; n]).coverage
}

/// The median of `samples` with its distribution-free confidence interval (module docs).
///
/// ```
/// use replab_harness::stats::median_ci;
/// let e = median_ci(&[5.0, 1.0, 4.0, 2.0, 3.0, 9.0, 7.0, 8.0, 6.0]);
/// assert_eq!(e.median, 5.0);
/// assert_eq!(e.ci, [2.0, 8.0]);
/// assert!(e.coverage >= 0.95);
/// ```
///
/// # Panics
/// If `samples` is empty.
pub fn median_ci(samples: &[f64]) -> Estimate {
    assert!(!samples.is_empty(), "an estimate needs at least one sample");
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    // Largest j (1-based rank of the low end) with coverage 1 − 2·P(B < j) ≥ LEVEL.
    let mut best = 1;
    for j in 1..=n.div_ceil(2) {
        if 1.0 - 2.0 * binomial_below(n, j) >= LEVEL {
            best = j;
        } else {
            break;
        }
    }
    let (low, high) = (best - 1, n - best);
    Estimate {
        median: median(&v),
        ci: [v[low], v[high]],
        repeats: n,
        coverage: coverage(n, best),
    }
}

/// Runs `configs` configurations `repeats` times each, interleaved: round by round, every
/// configuration once per round, in order. `measure(config, round)` returns one sample.
/// Returns the samples per configuration, in round order.
pub fn interleaved(
    configs: usize,
    repeats: usize,
    mut measure: impl FnMut(usize, usize) -> f64,
) -> Vec<Vec<f64>> {
    let mut samples = vec![Vec::with_capacity(repeats); configs];
    for round in 0..repeats {
        for (c, s) in samples.iter_mut().enumerate() {
            s.push(measure(c, round));
        }
    }
    samples
}

/// A sentence fragment comparing two estimates of a cost: which is lower, or that the
/// intervals overlap and so no difference was measured.
pub fn compare(a_name: &str, a: &Estimate, b_name: &str, b: &Estimate) -> String {
    if a.overlaps(b) {
        format!("no measurable difference between {a_name} and {b_name}")
    } else if a.median < b.median {
        format!("{a_name} is cheaper than {b_name}")
    } else {
        format!("{b_name} is cheaper than {a_name}")
    }
}

/// Every interval in a `results.json` value whose coverage is missing or below [`LEVEL`], as
/// `$.path: reason`; empty when all pass. The rule of `tools/check_coverage.py` (which says what
/// counts as an interval and where its coverage is looked for), written again here so tests
/// check the results the experiments write.
pub fn uncovered_intervals(value: &serde_json::Value) -> Vec<String> {
    let mut problems = Vec::new();
    walk_intervals(value, "$".into(), &mut problems);
    problems
}

/// Whether `key` names an interval: `ci`, `*_ci`, or any name containing `interval` (but not
/// `coverage`: `intervals_coverage` holds coverages).
fn interval_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    (k == "ci" || k.ends_with("_ci") || k.contains("interval")) && !k.contains("coverage")
}

/// The coverage of the interval under `key` of `object`, looked for as `<key>_coverage`,
/// `<stem>_coverage`, `coverage`, `confidence_level`.
fn coverage_of<'a>(
    object: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Option<&'a serde_json::Value> {
    let stem = key
        .strip_suffix("_ci")
        .or_else(|| key.strip_suffix("_interval"))
        .unwrap_or(key);
    [
        format!("{key}_coverage"),
        format!("{stem}_coverage"),
        "coverage".into(),
        "confidence_level".into(),
    ]
    .iter()
    .find_map(|name| object.get(name))
}

/// Appends `path: reason` unless `coverage` is a number of at least [`LEVEL`].
fn check_coverage(coverage: Option<&serde_json::Value>, path: &str, problems: &mut Vec<String>) {
    match coverage.and_then(serde_json::Value::as_f64) {
        None => problems.push(format!("{path}: no coverage")),
        Some(c) if c < LEVEL => {
            let shown = (c * 1e4).round() / 1e4;
            problems.push(format!("{path}: coverage {shown} < {LEVEL}"));
        }
        Some(_) => {}
    }
}

fn is_pair(v: &serde_json::Value) -> bool {
    v.as_array()
        .is_some_and(|a| a.len() == 2 && a.iter().all(serde_json::Value::is_number))
}

fn walk_intervals(value: &serde_json::Value, path: String, problems: &mut Vec<String>) {
    use serde_json::Value;
    match value {
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk_intervals(v, format!("{path}[{i}]"), problems);
            }
        }
        Value::Object(object) => {
            let number = |k: &str| object.get(k).is_some_and(Value::is_number);
            for (lo, hi) in [("lo", "hi"), ("low", "high"), ("lower", "upper")] {
                if number(lo) && number(hi) && !object.contains_key("llr") {
                    let coverage = object
                        .get("coverage")
                        .or_else(|| object.get("confidence_level"));
                    check_coverage(coverage, &path, problems);
                }
            }
            for (key, v) in object {
                let sub = format!("{path}.{key}");
                if interval_key(key) && is_pair(v) {
                    check_coverage(coverage_of(object, key), &sub, problems);
                } else if interval_key(key)
                    && v.as_array()
                        .is_some_and(|a| !a.is_empty() && a.iter().all(is_pair))
                {
                    let coverage = coverage_of(object, key);
                    for i in 0..v.as_array().map_or(0, Vec::len) {
                        let one = coverage.and_then(|c| c.get(i)).or(coverage);
                        check_coverage(one, &format!("{sub}[{i}]"), problems);
                    }
                } else {
                    walk_intervals(v, sub, problems);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_tails() {
        assert!((binomial_below(1, 1) - 0.5).abs() < 1e-12);
        assert!((binomial_below(4, 3) - 11.0 / 16.0).abs() < 1e-12);
        assert!((binomial_below(1000, 1001) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn small_samples_span_their_range() {
        let e = median_ci(&[3.0, 1.0, 2.0]);
        assert_eq!(e.median, 2.0);
        assert_eq!(e.ci, [1.0, 3.0]);
        assert!(e.coverage < LEVEL);
        let one = median_ci(&[7.0]);
        assert_eq!(one.ci, [7.0, 7.0]);
        assert_eq!(one.coverage, 0.0);
    }

    #[test]
    fn intervals_reach_the_level_and_shrink_with_more_samples() {
        let samples: Vec<f64> = (0..101).map(f64::from).collect();
        let e = median_ci(&samples);
        assert_eq!(e.median, 50.0);
        assert!(e.coverage >= LEVEL);
        // The classic normal approximation: n/2 ± 0.98·√n ≈ 40 and 60.
        assert!((39.0..=41.0).contains(&e.ci[0]), "{:?}", e.ci);
        assert!((59.0..=61.0).contains(&e.ci[1]), "{:?}", e.ci);
        let wide = median_ci(&samples[..11]);
        assert!(wide.ci[1] - wide.ci[0] > 0.0);
        assert!(wide.coverage >= LEVEL);
        // For n = 6 the widest pair (ranks 1 and 6) covers 1 − 2/64 ≥ 95%.
        assert!(median_ci(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).coverage >= LEVEL);
    }

    #[test]
    fn overlap_means_no_ranking() {
        let a = median_ci(&[1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6]);
        let b = median_ci(&[1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1]);
        let c = median_ci(&[3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6]);
        assert!(a.overlaps(&b));
        assert!(!a.overlaps(&c));
        assert!(compare("x", &a, "y", &b).starts_with("no measurable"));
        assert_eq!(compare("x", &a, "z", &c), "x is cheaper than z");
        assert_eq!(compare("z", &c, "x", &a), "x is cheaper than z");
    }

    #[test]
    fn every_interval_needs_its_coverage() {
        use serde_json::json;
        // An estimate from 6 samples passes; from 5 it is flagged with its path and value.
        let six = median_ci(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let five = median_ci(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        let v = json!({ "a": [{ "t": six }, { "t": five }] });
        assert_eq!(
            uncovered_intervals(&v),
            ["$.a[1].t.ci: coverage 0.9375 < 0.95"]
        );
        // Named intervals find their coverage by key, stem, or a shared `coverage`.
        let ok = json!({
            "time_ms_ci": [1, 2], "time_ms_coverage": 0.97,
            "overhead_ci": [1, 2], "overhead_ci_coverage": 0.96,
            "x": { "ns_ci": [1, 2], "ratio_ci": [1, 2], "coverage": 0.99 },
            "crit": { "ci": [1, 2], "confidence_level": 0.95 },
            "elo": { "lower": -10, "upper": 12, "coverage": 0.95 },
            "sprt": { "lower": -2.9, "upper": 2.9, "llr": 0.1 },
            "quartiles": [1, 2], "size_tolerance": [0.5, 2.0], "none_ci": null,
            "intervals": [[1, 2], [3, 4]], "intervals_coverage": [0.95, 0.99]
        });
        assert!(
            uncovered_intervals(&ok).is_empty(),
            "{:?}",
            uncovered_intervals(&ok)
        );
        let bad = json!({
            "time_ci": [1, 2],
            "y": { "low": 1, "high": 2, "coverage": 0.5 },
            "intervals": [[1, 2], [3, 4]], "intervals_coverage": [0.99, 0.9]
        });
        assert_eq!(
            uncovered_intervals(&bad),
            [
                "$.intervals[1]: coverage 0.9 < 0.95",
                "$.time_ci: no coverage",
                "$.y: coverage 0.5 < 0.95"
            ]
        );
    }

    #[test]
    fn interleaving_runs_rounds_in_order() {
        let mut order = Vec::new();
        let s = interleaved(2, 3, |c, r| {
            order.push((c, r));
            (10 * c + r) as f64
        });
        assert_eq!(order, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]);
        assert_eq!(s, [vec![0.0, 1.0, 2.0], vec![10.0, 11.0, 12.0]]);
    }
}
