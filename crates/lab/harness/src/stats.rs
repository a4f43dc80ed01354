//! Every time with its uncertainty: medians of repeated measurements with a distribution-free
//! 95% confidence interval (an [`Interval`]); two are compared by [`crate::compare::Comparison`] alone.
//!
//! The interval of a median comes from order statistics: with `n` independent samples, the
//! number falling below the true median is Binomial(n, ½), so the `j`-th and `k`-th smallest
//! samples bracket it with probability `P(j ≤ B < k)`. [`median_ci`] picks the narrowest
//! symmetric pair whose coverage is at least 95% (with fewer than 6 samples no pair reaches
//! 95%: the interval is then the whole range and [`Interval::coverage`] says how much it
//! covers). No assumption on the shape of the noise, which on a shared machine is skewed.
//!
//! Repeats of different configurations are *interleaved* (`replab_workloads::rounds`): round `r`
//! runs every configuration once, so a slow spell of the machine hits all of them alike.

use serde::Deserialize;

pub use crate::interval::{Estimate, Interval, LEVEL, Quantity, median};

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
    median_ci(&vec![0.0; n]).interval.coverage
}

/// The median of `samples` with its distribution-free confidence interval (module docs).
///
/// ```
/// use replab_harness::stats::median_ci;
/// let e = median_ci(&[5.0, 1.0, 4.0, 2.0, 3.0, 9.0, 7.0, 8.0, 6.0]);
/// assert_eq!(e.value, 5.0);
/// assert_eq!(e.interval.ends(), [2.0, 8.0]);
/// assert!(e.interval.coverage >= 0.95);
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
        value: median(&v),
        interval: Interval {
            lo: v[low],
            hi: v[high],
            coverage: coverage(n, best),
            n,
        },
    }
}

/// Every [`Interval`] in a `results.json` value (an object with `lo`, `hi`, `coverage` and `n`)
/// made from several samples whose coverage is below [`LEVEL`], as `$.path: reason`; empty
/// when all pass. Single samples and exact values are marked as such and not flagged. The rule
/// of `tools/check_coverage.py`, written again here so tests check the results the experiments
/// write.
pub fn uncovered_intervals(value: &serde_json::Value) -> Vec<String> {
    let mut problems = Vec::new();
    walk_intervals(value, "$".into(), &mut problems);
    problems
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
            if let Ok(i) = Interval::deserialize(value) {
                if i.n > 1 && i.coverage < LEVEL {
                    let shown = (i.coverage * 1e4).round() / 1e4;
                    problems.push(format!("{path}: coverage {shown} < {LEVEL}"));
                }
                return;
            }
            for (key, v) in object {
                walk_intervals(v, format!("{path}.{key}"), problems);
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
        assert_eq!(e.value, 2.0);
        assert_eq!(e.interval.ends(), [1.0, 3.0]);
        assert!(e.interval.coverage < LEVEL);
        let one = median_ci(&[7.0]);
        assert_eq!(one.interval.ends(), [7.0, 7.0]);
        assert!(one.interval.is_single_sample());
    }

    #[test]
    fn intervals_reach_the_level_and_shrink_with_more_samples() {
        let samples: Vec<f64> = (0..101).map(f64::from).collect();
        let e = median_ci(&samples);
        assert_eq!(e.value, 50.0);
        assert!(e.interval.coverage >= LEVEL);
        // The classic normal approximation: n/2 ± 0.98·√n ≈ 40 and 60.
        assert!((39.0..=41.0).contains(&e.interval.lo), "{}", e.interval);
        assert!((59.0..=61.0).contains(&e.interval.hi), "{}", e.interval);
        let wide = median_ci(&samples[..11]);
        assert!(wide.interval.hi - wide.interval.lo > 0.0);
        assert!(wide.interval.coverage >= LEVEL);
        // For n = 6 the widest pair (ranks 1 and 6) covers 1 − 2/64 ≥ 95%.
        assert!(median_ci(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).interval.coverage >= LEVEL);
        // A 5-sample median interval is the min–max range, with its coverage.
        let five = [1.0, 2.0, 3.0, 4.0, 5.0];
        let (ci, mm) = (median_ci(&five).interval, Interval::min_max(&five));
        assert_eq!((ci.lo, ci.hi, ci.n), (mm.lo, mm.hi, mm.n));
        assert!((ci.coverage - mm.coverage).abs() < 1e-12);
    }

    #[test]
    fn overlap_means_no_ranking() {
        let a = median_ci(&[1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6]);
        let b = median_ci(&[1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1]);
        let c = median_ci(&[3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6]);
        assert!(a.overlaps(&b));
        assert!(!a.overlaps(&c));
    }

    #[test]
    fn every_interval_needs_its_coverage() {
        use serde_json::json;
        // An estimate from 6 samples passes; from 5 it is flagged with its path and value;
        // single samples and exact values are marked, not flagged.
        let six = median_ci(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let five = median_ci(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        let v = json!({
            "a": [{ "t": six }, { "t": five }],
            "one": Estimate::single(3.0), "count": Estimate::exact(4.0),
            "elo": { "lo": -10, "hi": 12, "coverage": 0.5, "n": 300 }
        });
        assert_eq!(
            uncovered_intervals(&v),
            [
                "$.a[1].t.interval: coverage 0.9375 < 0.95",
                "$.elo: coverage 0.5 < 0.95"
            ]
        );
    }
}
