//! Equal cost against real clocks: for every row played both at equal cost (instructions
//! counted by callgrind) and at a real clock, whether the two Elo figures agree. The equal-cost
//! figure is exact and reproducible; the clock is what an engine author finally plays at, so it
//! is the check on the equal-cost model (instructions are not seconds: cache misses cost time
//! their count does not show).
//!
//! The rule, written once ([`Validation::of`]): the two matches are independent, so the
//! difference of their Elo figures has a standard error of √(se₁² + se₂²), each se taken from
//! its 95% interval as (upper − lower) / (2 · 1.96). The figures agree when the 95% interval of
//! the difference contains 0. Either row without an interval (too few games, or every pair
//! 1–1) is not compared, and that is the reason given even where the machine was busy too (the
//! games decide it, so a rerun gives the same reason); nor is a clock row that measured a busy
//! machine (`decision`).

use replab_elo::two_sided_z;
use replab_harness::{compare::Unit, interval::Interval};
use replab_selfplay::stats::EloEstimate;
use serde::{Deserialize, Serialize};

use super::{Measure, RowResult};

/// The decision of one validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agreement {
    /// The 95% interval of the difference contains 0.
    Agrees,
    /// It does not: the equal-cost model missed a cost the clock sees (or the reverse).
    Disagrees,
    /// The clock row measured a busy machine (time forfeits or CPU share): no comparison.
    MachineTooBusy,
    /// A row without an interval (too few games, or every pair 1–1, identical play among
    /// them): no comparison.
    NoInterval,
}

impl Agreement {
    /// The decision as a phrase.
    pub fn phrase(self) -> &'static str {
        match self {
            Agreement::Agrees => "agree within their intervals",
            Agreement::Disagrees => "disagree: the difference's 95% interval excludes 0",
            Agreement::MachineTooBusy => "not compared: the clock row measured a busy machine",
            Agreement::NoInterval => "not compared: a row without an interval",
        }
    }
}

/// One row measured at equal cost and at a clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Validation {
    /// The row.
    pub label: String,
    /// The equal-cost match's control (`A : B nodes`).
    pub equal_cost_control: String,
    /// The clock match's control.
    pub clock_control: String,
    /// The equal-cost Elo of A.
    pub equal_cost: EloEstimate,
    /// The clock Elo of A.
    pub clock: EloEstimate,
    /// Games of the two matches.
    pub games: [u64; 2],
    /// Median completed depth of A and B, at equal cost and at the clock: how comparable the
    /// two budgets were.
    pub median_depth: [[Option<u32>; 2]; 2],
    /// Equal-cost minus clock Elo, with its interval at the estimates' coverage (95%) from
    /// both matches' games (`None` when either row has none).
    pub difference: EloEstimate,
    /// Games the clock match lost on time.
    pub time_forfeits: u64,
    /// The clock match's lower CPU share.
    pub min_cpu_share: Option<f64>,
    /// The decision.
    pub agreement: Agreement,
}

/// Two independent Elo figures compared by the one rule of this module: their difference, its
/// interval at the figures' coverage, and whether they agree (the interval contains 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// The first figure minus the second, with its interval (`None` when either figure has
    /// none); in JSON its `value` and `interval` beside `agreement`.
    #[serde(flatten)]
    pub estimate: EloEstimate,
    /// [`Agreement::Agrees`], [`Agreement::Disagrees`] or [`Agreement::NoInterval`].
    pub agreement: Agreement,
}

impl Difference {
    /// `x` − `y`, for figures from independent games; `n` is the samples behind both.
    pub fn of(x: &EloEstimate, y: &EloEstimate, n: u64) -> Difference {
        let value = x.value - y.value;
        let half = difference(x, y).map(|(_, half)| half);
        let interval = half.map(|h| Interval {
            lo: value - h,
            hi: value + h,
            coverage: replab_elo::DEFAULT_COVERAGE,
            n: n as usize,
        });
        let agreement = match interval {
            None => Agreement::NoInterval,
            Some(i) if i.contains(0.0) => Agreement::Agrees,
            Some(_) => Agreement::Disagrees,
        };
        Difference {
            estimate: EloEstimate { value, interval },
            agreement,
        }
    }

    /// The difference as text: `+1.2 [-3.4, +5.8]`, or `+1.2 (no interval)`.
    pub fn text(&self) -> String {
        self.estimate.text(|x| Unit::Elo.bare(x))
    }
}

impl Validation {
    /// Compares a row's equal-cost match with its clock match.
    pub fn of(equal: &RowResult, clock: &RowResult) -> Validation {
        let d = Difference::of(&equal.elo, &clock.elo, equal.games + clock.games);
        Validation {
            label: equal.label.clone(),
            equal_cost_control: equal.control.clone(),
            clock_control: clock.control.clone(),
            equal_cost: equal.elo,
            clock: clock.elo,
            games: [equal.games, clock.games],
            median_depth: [equal.median_depth, clock.median_depth],
            difference: d.estimate,
            time_forfeits: clock.time_forfeits,
            min_cpu_share: clock.min_cpu_share,
            agreement: decision(d.agreement, clock.machine_too_busy),
        }
    }

    /// The comparison as a sentence.
    pub fn sentence(&self) -> String {
        let depth = |d: [Option<u32>; 2]| {
            let s = |x: Option<u32>| x.map_or("–".to_string(), |x| x.to_string());
            format!("median depth {}/{}", s(d[0]), s(d[1]))
        };
        let difference = self.difference.text(|x| Unit::Elo.bare(x));
        format!(
            "{}: equal cost {} ({} games at {}, {}) and clock {} ({} games at {}, {}) {} \
             (difference {difference})",
            self.label,
            self.equal_cost.text(|x| Unit::Elo.bare(x)),
            self.games[0],
            self.equal_cost_control,
            depth(self.median_depth[0]),
            self.clock.text(|x| Unit::Elo.bare(x)),
            self.games[1],
            self.clock_control,
            depth(self.median_depth[1]),
            self.agreement.phrase(),
        )
    }
}

/// A validation's decision from its difference's (`difference`) and whether the clock row
/// measured a busy machine: a row without an interval is not compared whatever the machine (the
/// games decide it, so a rerun on a machine busy at other moments says the same); a busy
/// machine withholds any other decision.
fn decision(difference: Agreement, machine_too_busy: bool) -> Agreement {
    match difference {
        Agreement::NoInterval => Agreement::NoInterval,
        _ if machine_too_busy => Agreement::MachineTooBusy,
        decided => decided,
    }
}

/// The difference of two independent estimates and the half-width of its interval at the
/// estimates' own coverage (`None` when either has no interval).
fn difference(x: &EloEstimate, y: &EloEstimate) -> Option<(f64, f64)> {
    let (xi, yi) = (x.interval?, y.interval?);
    let z = two_sided_z(xi.coverage);
    let se = |i: replab_harness::interval::Interval| (i.hi - i.lo) / (2.0 * z);
    Some((
        x.value - y.value,
        z * (se(xi).powi(2) + se(yi).powi(2)).sqrt(),
    ))
}

/// Every row of `rows` measured both at equal cost and at the clock, in the table's order.
pub fn validate(rows: &[RowResult]) -> Vec<Validation> {
    rows.iter()
        .filter(|r| r.measure == Measure::EqualCost)
        .filter_map(|equal| {
            let clock = rows
                .iter()
                .find(|c| c.measure == Measure::Clock && c.label == equal.label)?;
            Some(Validation::of(equal, clock))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn estimate(value: f64, half: f64) -> EloEstimate {
        EloEstimate::new(value, value - half, value + half, 0.95, 50)
    }

    #[test]
    fn figures_agree_until_their_difference_excludes_zero() {
        // Two ±10 intervals: the difference's half-width is 10·√2 ≈ 14.14.
        let (d, half) = difference(&estimate(14.0, 10.0), &estimate(0.0, 10.0)).unwrap();
        assert!((half - 10.0 * 2f64.sqrt()).abs() < 1e-9 && d == 14.0);
        let agrees = |a: f64| {
            let (d, half) = difference(&estimate(a, 10.0), &estimate(0.0, 10.0)).unwrap();
            (d - half..=d + half).contains(&0.0)
        };
        assert!(agrees(14.0));
        assert!(!agrees(14.2));
        assert!(agrees(-14.0) && !agrees(-14.2));
        let none = EloEstimate::without_interval(0.0);
        assert_eq!(difference(&estimate(14.0, 10.0), &none), None);
    }

    #[test]
    fn a_row_without_an_interval_says_so_whatever_the_machine() {
        use Agreement::*;
        for busy in [false, true] {
            assert_eq!(decision(NoInterval, busy), NoInterval);
        }
        assert_eq!(decision(Agrees, true), MachineTooBusy);
        assert_eq!(decision(Disagrees, true), MachineTooBusy);
        assert_eq!(decision(Agrees, false), Agrees);
        assert_eq!(decision(Disagrees, false), Disagrees);
    }
}
