//! One comparison type behind every verdict sentence: what was measured, what it is compared
//! with, and the decision, with the rule that decides written once ([`Comparison::new`]).
//!
//! A [`Measured`] value is a relative change (or any quantity in a [`Unit`]) with its interval,
//! the interval's *actual* coverage and the number of samples; an exact count has a zero-width
//! interval and coverage 1. A [`Reference`] is the value it is compared with (the paper's, or
//! another detector's), in a unit and over a [`Scope`]: the positions and depths it covers.
//! Values over different scopes or in different units are never compared: the caller rescopes
//! the reference (e.g. sums the paper's per-depth table over the depths searched) or the
//! comparison says [`Decision::NotComparable`].
//!
//! Nothing in this module knows about any experiment.

use std::fmt;

use replab_report::{ForestChart, ForestRow, RGBColor};
use serde::{Deserialize, Serialize};

use crate::resolution;
use crate::stats::{Estimate, LEVEL};
pub use crate::unit::Unit;

/// Changes of exact counters smaller than this (0.5%) count as no change.
pub const COUNT_NOISE: f64 = 0.005;

/// A change of the reference's sign has a similar size when |ours| / |reference| lies in this
/// range: from half to twice the reference's (−18% is matched by −9% … −36%).
pub const SIZE_TOLERANCE: [f64; 2] = [0.5, 2.0];

/// What a value covers: the positions, the depths, and the settings it was measured on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scope {
    /// The positions, e.g. `WAC.018` or `200 generated endgames`.
    pub positions: String,
    /// The depths `[first, last]` summed over (iterative deepening), if a range.
    pub depths: Option<[u32; 2]>,
}

impl Scope {
    /// `positions` over depths `first..=last`.
    pub fn depths(positions: impl Into<String>, first: u32, last: u32) -> Self {
        Self {
            positions: positions.into(),
            depths: Some([first, last]),
        }
    }

    /// `positions` at whatever depth they were searched (no depth range).
    pub fn positions(positions: impl Into<String>) -> Self {
        Self {
            positions: positions.into(),
            depths: None,
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.depths {
            Some([a, b]) if a == b => write!(f, "{}, depth {a}", self.positions),
            Some([a, b]) => write!(f, "{}, depths {a}–{b}", self.positions),
            None => f.write_str(&self.positions),
        }
    }
}

/// What was measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// The point estimate (a median of samples, or an exact value) with its interval, its
    /// coverage and the samples behind it (zero-width with coverage 1 for an exact value); in
    /// JSON its `value` and `interval` beside the fields below.
    #[serde(flatten)]
    pub estimate: Estimate,
    /// Whether the value is an exact, deterministic count (no sampling doubt).
    pub exact: bool,
    /// Its unit.
    pub unit: Unit,
    /// What it covers.
    pub scope: Scope,
}

impl Measured {
    /// An exact relative change (deterministic counters) over `scope`.
    pub fn exact(change: f64, scope: Scope) -> Self {
        Self {
            estimate: Estimate::exact(change),
            exact: true,
            unit: Unit::Change,
            scope,
        }
    }

    /// An exact value in `unit` (e.g. a rate from exact counters) over `scope`.
    pub fn exact_in(value: f64, unit: Unit, scope: Scope) -> Self {
        Self {
            unit,
            ..Self::exact(value, scope)
        }
    }

    /// A sampled relative change (a median with its order-statistic interval) over `scope`.
    pub fn sampled(change: &Estimate, scope: Scope) -> Self {
        Self {
            estimate: *change,
            exact: false,
            unit: Unit::Change,
            scope,
        }
    }

    /// The value as text: `−12.4%` for an exact change, `−2.0% [−5.5%, +5.7%]` for a sampled
    /// one, with the coverage when it falls short of [`LEVEL`].
    pub fn text(&self) -> String {
        if self.exact {
            return self.unit.text(self.estimate.value);
        }
        let text = self.estimate.text(|x| self.unit.bare(x));
        match (self.unit, text.split_once(']')) {
            (Unit::PerThousand, Some((ends, rest))) => format!("{ends}] per 1,000{rest}"),
            _ => text,
        }
    }
}

/// What a measurement is compared with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// Who says it, e.g. `paper` or `matrix`.
    pub source: String,
    /// The value; only its sign counts when `size_known` is false.
    pub value: f64,
    /// Whether the size is part of the claim (false for "smaller", "faster").
    pub size_known: bool,
    /// Its unit.
    pub unit: Unit,
    /// What it covers.
    pub scope: Scope,
}

impl Reference {
    /// A relative change of known size reported by `source` over `scope`.
    pub fn change(source: impl Into<String>, value: f64, scope: Scope) -> Self {
        Self {
            source: source.into(),
            value,
            size_known: true,
            unit: Unit::Change,
            scope,
        }
    }

    /// A value of known size in `unit` reported by `source` over `scope`.
    pub fn value_in(source: impl Into<String>, value: f64, unit: Unit, scope: Scope) -> Self {
        Self {
            unit,
            ..Self::change(source, value, scope)
        }
    }

    /// A direction only (the sign of `sign`), e.g. "smaller": no size to match.
    pub fn direction(source: impl Into<String>, sign: f64, scope: Scope) -> Self {
        Self {
            size_known: false,
            ..Self::change(source, sign, scope)
        }
    }

    /// The value as text: `−15.0%`, or `smaller` / `larger` for a direction.
    pub fn text(&self) -> String {
        match (self.size_known, self.value < 0.0) {
            (true, _) => self.unit.text(self.value),
            (false, true) => "lower".into(),
            (false, false) => "higher".into(),
        }
    }
}

/// The decision of a comparison, best agreement first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// The same sign and a size within [`SIZE_TOLERANCE`] of the reference's.
    SameDirectionSimilarSize,
    /// The same sign; the size differs, or the reference gives none.
    SameDirection,
    /// The change is below [`COUNT_NOISE`] (exact) or its interval contains 0 (sampled).
    NoMeasurableDifference,
    /// A timed change whose interval does not clear 0 by the timing's resolution
    /// ([`crate::resolution`]), even after the rounds added at the edge: it lies within ±x%
    /// (the interval's reach), and no direction is claimed.
    WithinResolution,
    /// The opposite sign, measurably.
    Opposite,
    /// The scopes or units differ: no comparison is made.
    NotComparable,
    /// The interval's coverage is below [`LEVEL`]: too few samples to decide.
    TooFewSamples,
}

impl Decision {
    /// Every decision, in the order above (for legends and tallies).
    pub const ALL: [Decision; 7] = [
        Decision::SameDirectionSimilarSize,
        Decision::SameDirection,
        Decision::NoMeasurableDifference,
        Decision::WithinResolution,
        Decision::Opposite,
        Decision::NotComparable,
        Decision::TooFewSamples,
    ];

    /// The decision as a phrase for a sentence.
    pub fn phrase(self) -> &'static str {
        match self {
            Decision::SameDirectionSimilarSize => "the same direction and a similar size",
            Decision::SameDirection => "the same direction",
            Decision::NoMeasurableDifference => "no measurable difference",
            Decision::WithinResolution => "no direction within the timing's resolution",
            Decision::Opposite => "the opposite direction",
            Decision::NotComparable => "not comparable",
            Decision::TooFewSamples => "too few repeats to decide",
        }
    }

    /// The kebab-case name (as in `results.json`).
    pub fn name(self) -> &'static str {
        match self {
            Decision::SameDirectionSimilarSize => "same-direction-similar-size",
            Decision::SameDirection => "same-direction",
            Decision::NoMeasurableDifference => "no-measurable-difference",
            Decision::WithinResolution => "within-resolution",
            Decision::Opposite => "opposite",
            Decision::NotComparable => "not-comparable",
            Decision::TooFewSamples => "too-few-samples",
        }
    }

    /// Whether the sign agrees with the reference's, measurably.
    pub fn same_direction(self) -> bool {
        matches!(
            self,
            Decision::SameDirectionSimilarSize | Decision::SameDirection
        )
    }

    /// Whether a comparison was made at all (not refused for scope or samples).
    pub fn decided(self) -> bool {
        !matches!(self, Decision::NotComparable | Decision::TooFewSamples)
    }

    /// The decision's colour in forest plots (Okabe–Ito colours, one per decision).
    pub fn colour(self) -> RGBColor {
        match self {
            Decision::SameDirectionSimilarSize => RGBColor(0x00, 0x9E, 0x73),
            Decision::SameDirection => RGBColor(0x56, 0xB4, 0xE9),
            Decision::NoMeasurableDifference => RGBColor(0xE6, 0x9F, 0x00),
            Decision::WithinResolution => RGBColor(0xF0, 0xE4, 0x42),
            Decision::Opposite => RGBColor(0xD5, 0x5E, 0x00),
            Decision::NotComparable => RGBColor(0x80, 0x80, 0x80),
            Decision::TooFewSamples => RGBColor(0xCC, 0x79, 0xA7),
        }
    }
}

/// One comparison: the measurement, the reference and the decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// What is compared, e.g. `generated positions`.
    pub what: String,
    /// The measurement.
    pub measured: Measured,
    /// The reference.
    pub reference: Reference,
    /// The decision ([`Comparison::new`]).
    pub decision: Decision,
}

impl Comparison {
    /// Compares `measured` with `reference`. The rule, in order:
    /// 1. different scopes or units: [`Decision::NotComparable`];
    /// 2. a sampled value whose interval covers less than [`LEVEL`]: [`Decision::TooFewSamples`];
    /// 3. an exact change smaller than [`COUNT_NOISE`], or a sampled interval containing 0:
    ///    [`Decision::NoMeasurableDifference`];
    /// 4. a sign other than the reference's: [`Decision::Opposite`];
    /// 5. |estimate| / |reference| within [`SIZE_TOLERANCE`] (when the reference has a size):
    ///    [`Decision::SameDirectionSimilarSize`], else [`Decision::SameDirection`].
    pub fn new(what: impl Into<String>, measured: Measured, reference: Reference) -> Self {
        let decision = decide(&measured, &reference);
        Self {
            what: what.into(),
            measured,
            reference,
            decision,
        }
    }

    /// Compares a timed change `measured` with `reference` by the rule of [`Comparison::new`],
    /// except that a sampled change whose interval does not clear 0 by its resolution
    /// ([`resolution::clears_zero`]) gives no direction: [`Decision::WithinResolution`]. The
    /// caller adds rounds at the edge first ([`resolution::edge_rounds`]).
    pub fn timed(what: impl Into<String>, measured: Measured, reference: Reference) -> Self {
        Self::timed_with(resolution::TIME_RESOLUTION, what, measured, reference)
    }

    /// [`Comparison::timed`] with the smallest resolution `floor` (a run's setting: the short
    /// run's is [`resolution::SHORT_RUN_RESOLUTION`]).
    pub fn timed_with(
        floor: f64,
        what: impl Into<String>,
        measured: Measured,
        reference: Reference,
    ) -> Self {
        let c = Self::new(what, measured, reference);
        let interval = &c.measured.estimate.interval;
        let settled = c.measured.exact || resolution::clears_zero_by(interval, floor);
        if !c.decision.decided() || settled {
            return c;
        }
        Self {
            decision: Decision::WithinResolution,
            ..c
        }
    }

    /// The comparison as a clause: `generated positions −12.4% (paper +57.3% over WAC.018,
    /// depths 1–8: the opposite direction)`; a refused comparison names both scopes; a timed
    /// change within the resolution says how far it reaches (`within ±7.3%`).
    pub fn sentence(&self) -> String {
        let (m, r) = (&self.measured, &self.reference);
        match self.decision {
            Decision::WithinResolution => format!(
                "{} {} ({} {}: within {})",
                self.what,
                m.text(),
                r.source,
                r.text(),
                within(m)
            ),
            Decision::NotComparable => format!(
                "{} {} over {} ({} {} covers only {}: not comparable)",
                self.what,
                m.text(),
                m.scope,
                r.source,
                r.text(),
                r.scope
            ),
            d => format!(
                "{} {} ({} {}: {})",
                self.what,
                m.text(),
                r.source,
                r.text(),
                d.phrase()
            ),
        }
    }
}

/// How far `m`'s interval reaches from 0, as `±7.3%` ([`resolution::reach`]).
pub fn within(m: &Measured) -> String {
    let x = m.unit.bare(resolution::reach(&m.estimate.interval));
    match x.strip_prefix(['+', '−', '-']) {
        Some(size) => format!("±{size}"),
        None => format!("±{x}"),
    }
}

/// The rule of [`Comparison::new`], written once.
fn decide(m: &Measured, r: &Reference) -> Decision {
    if m.scope != r.scope || m.unit != r.unit {
        return Decision::NotComparable;
    }
    if !m.exact && m.estimate.interval.coverage < LEVEL {
        return Decision::TooFewSamples;
    }
    let flat = if m.exact {
        m.estimate.value.abs() < COUNT_NOISE
    } else {
        m.estimate.interval.contains(0.0)
    };
    if flat {
        return Decision::NoMeasurableDifference;
    }
    if (m.estimate.value < 0.0) != (r.value < 0.0) {
        return Decision::Opposite;
    }
    let ratio = m.estimate.value.abs() / r.value.abs();
    if r.size_known && (SIZE_TOLERANCE[0]..=SIZE_TOLERANCE[1]).contains(&ratio) {
        Decision::SameDirectionSimilarSize
    } else {
        Decision::SameDirection
    }
}

/// How many of `decisions` fall under each decision, in [`Decision::ALL`] order, zeros left out:
/// `3 the same direction, 1 no measurable difference`.
pub fn tally(decisions: impl IntoIterator<Item = Decision>) -> String {
    let all: Vec<Decision> = decisions.into_iter().collect();
    Decision::ALL
        .iter()
        .filter_map(|d| {
            let n = all.iter().filter(|x| *x == d).count();
            (n > 0).then(|| format!("{n} {}", d.phrase()))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A forest plot of `rows` (a label and a comparison each, top to bottom): see
/// [`forest_chart`] and [`forest_row`].
pub fn forest<'a>(
    title: impl Into<String>,
    x_label: impl Into<String>,
    rows: impl IntoIterator<Item = (String, &'a Comparison)>,
) -> ForestChart {
    let rows: Vec<(String, &Comparison)> = rows.into_iter().collect();
    let source = rows.first().map(|(_, c)| c.reference.source.clone());
    let rows = rows
        .into_iter()
        .map(|(label, c)| forest_row(label, &c.measured, &c.reference, c.decision))
        .collect();
    forest_chart(title, x_label, source.as_deref(), rows)
}

/// One forest row: the measured change with its interval, the reference as a vertical mark
/// when it has a size and the comparison was made over the same scope (the caller rescopes
/// it), and the decision as the row's group.
pub fn forest_row(
    label: String,
    measured: &Measured,
    reference: &Reference,
    decision: Decision,
) -> ForestRow {
    ForestRow {
        label,
        estimate: measured.estimate.value,
        interval: measured.estimate.interval.ends(),
        reference: (reference.size_known && decision != Decision::NotComparable)
            .then_some(reference.value),
        group: decision.phrase().to_owned(),
        hollow: false,
    }
}

/// A forest plot of relative changes with every decision in the legend in its colour, the
/// reference marks labelled as `source`'s (rescoped) values.
pub fn forest_chart(
    title: impl Into<String>,
    x_label: impl Into<String>,
    source: Option<&str>,
    rows: Vec<ForestRow>,
) -> ForestChart {
    let source = source.map_or_else(|| "reference".to_owned(), |s| format!("{s} (rescoped)"));
    ForestChart {
        percent: true,
        groups: Decision::ALL
            .iter()
            .map(|d| (d.phrase().to_owned(), d.colour()))
            .collect(),
        rows,
        ..ForestChart::new(title, x_label, source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interval::Interval;

    fn wac(depth: u32) -> Scope {
        Scope::depths("WAC.018", 1, depth)
    }

    fn paper(value: f64) -> Reference {
        Reference::change("paper", value, wac(12))
    }

    fn sampled(median: f64, ci: [f64; 2], repeats: usize, coverage: f64) -> Measured {
        Measured::sampled(
            &Estimate {
                value: median,
                interval: Interval {
                    lo: ci[0],
                    hi: ci[1],
                    coverage,
                    n: repeats,
                },
            },
            wac(12),
        )
    }

    fn decide_exact(ours: f64, reference: f64) -> Decision {
        Comparison::new("x", Measured::exact(ours, wac(12)), paper(reference)).decision
    }

    #[test]
    fn forest_draws_a_reference_only_where_one_is_compared() {
        let ours = Scope::depths("WAC.018", 1, 8);
        let same = Comparison::new(
            "generated",
            Measured::exact(-0.12, ours.clone()),
            Reference::change("paper", -0.15, ours.clone()),
        );
        let other_scope = Comparison::new(
            "terminal",
            Measured::exact(-0.12, ours.clone()),
            Reference::change("paper", -0.15, Scope::depths("WAC.018", 1, 12)),
        );
        let direction = Comparison::new(
            "time",
            Measured::exact(-0.12, ours.clone()),
            Reference::direction("paper", -1.0, ours),
        );
        let chart = forest(
            "claims",
            "change",
            [&same, &other_scope, &direction].map(|c| (c.what.clone(), c)),
        );
        let references: Vec<Option<f64>> = chart.rows.iter().map(|r| r.reference).collect();
        assert_eq!(references, [Some(-0.15), None, None]);
        assert_eq!(other_scope.decision, Decision::NotComparable);
        assert_eq!(chart.rows[0].group, same.decision.phrase());
        assert_eq!(chart.groups.len(), Decision::ALL.len());
        assert_eq!(chart.reference_label, "paper (rescoped)");
        for (i, a) in Decision::ALL.iter().enumerate() {
            for b in &Decision::ALL[i + 1..] {
                assert_ne!(a.colour(), b.colour(), "{a:?} and {b:?} share a colour");
            }
        }
    }
    #[test]
    fn each_outcome_of_an_exact_change() {
        use Decision::*;
        assert_eq!(decide_exact(-0.15, -0.15), SameDirectionSimilarSize);
        assert_eq!(decide_exact(-0.01, -0.15), SameDirection);
        assert_eq!(decide_exact(-0.40, -0.15), SameDirection);
        assert_eq!(decide_exact(0.001, -0.15), NoMeasurableDifference);
        assert_eq!(decide_exact(0.10, -0.15), Opposite);
        assert_eq!(decide_exact(-0.10, 0.573), Opposite);
    }

    #[test]
    fn boundaries_of_noise_and_size() {
        use Decision::*;
        // The size tolerance is inclusive: exactly half and exactly twice are similar.
        assert_eq!(decide_exact(-0.10, -0.20), SameDirectionSimilarSize);
        assert_eq!(decide_exact(-0.40, -0.20), SameDirectionSimilarSize);
        assert_eq!(decide_exact(-0.0999, -0.20), SameDirection);
        assert_eq!(decide_exact(-0.4001, -0.20), SameDirection);
        // The noise threshold is exclusive: 0.5% is a change, just under it is none.
        assert_eq!(decide_exact(-0.005, -0.01), SameDirectionSimilarSize);
        assert_eq!(decide_exact(-0.00499, -0.01), NoMeasurableDifference);
        assert_eq!(decide_exact(0.00499, -0.01), NoMeasurableDifference);
    }

    #[test]
    fn sampled_changes_decide_by_their_interval() {
        use Decision::*;
        let r = paper(-0.10);
        let d = |m| Comparison::new("time", m, r.clone()).decision;
        assert_eq!(
            d(sampled(-0.09, [-0.12, -0.05], 7, 0.98)),
            SameDirectionSimilarSize
        );
        assert_eq!(d(sampled(-0.02, [-0.03, -0.01], 7, 0.98)), SameDirection);
        assert_eq!(
            d(sampled(-0.09, [-0.12, 0.0], 7, 0.98)),
            NoMeasurableDifference
        );
        assert_eq!(
            d(sampled(0.05, [-0.01, 0.08], 7, 0.98)),
            NoMeasurableDifference
        );
        assert_eq!(d(sampled(0.05, [0.01, 0.08], 7, 0.98)), Opposite);
    }

    /// Made-up paired rounds of a timed change against the paper's "lower": the fixed ones,
    /// then one more from `more` per round added at the edge; the comparison, and the rounds
    /// added.
    fn timed_after_rounds(fixed: &[f64], more: &[f64]) -> (Comparison, usize) {
        let mut samples = fixed.to_vec();
        let mut next = more.iter().copied();
        let added = resolution::edge_rounds(
            fixed.len(),
            resolution::EdgeLimits::new(
                resolution::EDGE_ROUNDS_FACTOR,
                resolution::TIME_RESOLUTION,
            ),
            &mut samples,
            |s| vec![crate::stats::median_ci(s)],
            |s, _| {
                s.push(next.next().expect("a made-up round"));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        let m = Measured::sampled(&crate::stats::median_ci(&samples), wac(12));
        let r = Reference::direction("paper", -1.0, wac(12));
        (Comparison::timed("time", m, r), added)
    }

    #[test]
    fn a_timed_change_at_the_edge_takes_rounds_then_says_within() {
        use Decision::*;
        // Clear of 0: a direction once the settled count of rounds is reached, none beyond.
        let settling = resolution::SETTLED_ROUNDS - 6;
        let clear = [0.05, 0.06, 0.07, 0.05, 0.06, 0.08];
        let (c, added) = timed_after_rounds(&clear, &[0.06; 12]);
        assert_eq!((c.decision, added), (Opposite, settling));
        // The old rule's direction from an interval that clears 0 by 0.1%: at the edge, so
        // rounds are added; they settle it as a direction…
        let edge = [0.001, 0.06, 0.07, 0.05, 0.06, 0.08];
        let old = Comparison::new(
            "time",
            Measured::sampled(&crate::stats::median_ci(&edge), wac(12)),
            Reference::direction("paper", -1.0, wac(12)),
        );
        assert_eq!(old.decision, Opposite);
        let (c, added) = timed_after_rounds(&edge, &[0.05; 12]);
        assert!(added > 0);
        assert_eq!(c.decision, Opposite);
        // …or, still at the edge at the cap, it says how far the change reaches instead.
        let (c, added) = timed_after_rounds(&edge, &[0.001, 0.07, 0.002].repeat(8));
        assert_eq!(
            added,
            resolution::round_cap(edge.len(), resolution::EDGE_ROUNDS_FACTOR) - edge.len()
        );
        assert_eq!(c.decision, WithinResolution);
        assert!(
            c.sentence().ends_with("(paper lower: within ±7.0%)"),
            "{}",
            c.sentence()
        );
        // An interval within ±5% already gives no direction either, with no round added past
        // the settled count.
        let small = [-0.01, 0.0, 0.005, 0.01, -0.005, 0.0];
        let (c, added) = timed_after_rounds(&small, &[0.01, -0.01, 0.0]);
        assert_eq!((c.decision, added), (WithinResolution, settling));
        assert!(c.sentence().ends_with("within ±1.0%)"), "{}", c.sentence());
        // Exact values and refused comparisons keep the rule of `Comparison::new`.
        let exact = Comparison::timed("i", Measured::exact(0.001, wac(12)), paper(-0.1));
        assert_eq!(exact.decision, NoMeasurableDifference);
        let few = Comparison::timed("t", sampled(0.001, [0.0, 0.1], 5, 0.9375), paper(-0.1));
        assert_eq!(few.decision, TooFewSamples);
    }

    #[test]
    fn too_few_samples_never_decide() {
        // A 5-sample min-max interval covers 93.75%; one sample covers nothing.
        let r = paper(-0.10);
        for (n, coverage) in [(5, 0.9375), (3, 0.75), (1, 0.0)] {
            let c = Comparison::new("t", sampled(-0.10, [-0.11, -0.09], n, coverage), r.clone());
            assert_eq!(c.decision, Decision::TooFewSamples, "{n} samples");
            assert!(c.sentence().contains("too few repeats to decide"));
            let said = if n == 1 {
                "single sample"
            } else {
                "interval from"
            };
            let text = c.measured.text();
            assert!(text.contains(said), "{text}");
        }
        // Six samples reach 96.9%: decided.
        let c = Comparison::new("t", sampled(-0.10, [-0.11, -0.09], 6, 0.96875), r);
        assert_eq!(c.decision, Decision::SameDirectionSimilarSize);
    }

    #[test]
    fn scopes_must_match() {
        // Depths 1–8 against the paper's 1–12 totals: refused, whatever the numbers.
        let ours = Measured::exact(-0.15, wac(8));
        let c = Comparison::new("generated positions", ours.clone(), paper(-0.15));
        assert_eq!(c.decision, Decision::NotComparable);
        let s = c.sentence();
        assert!(s.contains("depths 1–8") && s.contains("depths 1–12"), "{s}");
        // Rescoped to depths 1–8 (the paper's per-depth table: +57.3%): decided, and opposite.
        let rescoped = Reference::change("paper", 0.573, wac(8));
        let c = Comparison::new("generated positions", ours, rescoped);
        assert_eq!(c.decision, Decision::Opposite);
        // Other positions: refused too.
        let eg = Measured::exact(-0.15, Scope::positions("endgames"));
        let wac_only = Reference::change("paper", -0.15, Scope::positions("WAC.018"));
        assert_eq!(
            Comparison::new("g", eg, wac_only).decision,
            Decision::NotComparable
        );
    }

    #[test]
    fn a_direction_only_reference_never_claims_a_similar_size() {
        let r = Reference::direction("paper", -1.0, wac(12));
        let c = Comparison::new("time", Measured::exact(-1.0, wac(12)), r.clone());
        assert_eq!(c.decision, Decision::SameDirection);
        assert_eq!(r.text(), "lower");
        let c = Comparison::new("time", Measured::exact(0.2, wac(12)), r);
        assert_eq!(c.decision, Decision::Opposite);
    }

    #[test]
    fn rates_compare_by_size_and_scope() {
        let rate = |x: f64, depth: u32| Measured::exact_in(x, Unit::PerThousand, wac(depth));
        let paper_rate = Reference::value_in("paper", 0.84, Unit::PerThousand, wac(12));
        let d = |m: Measured| Comparison::new("rate", m, paper_rate.clone()).decision;
        assert_eq!(d(rate(0.5, 12)), Decision::SameDirectionSimilarSize);
        assert_eq!(d(rate(0.3, 12)), Decision::SameDirection);
        assert_eq!(d(rate(0.5, 8)), Decision::NotComparable);
        // A rate is never compared with a relative change.
        let change = Comparison::new("rate", Measured::exact(0.5, wac(12)), paper_rate.clone());
        assert_eq!(change.decision, Decision::NotComparable);
        let c = Comparison::new("repetitions", rate(0.5, 12), paper_rate);
        assert_eq!(
            c.sentence(),
            "repetitions 0.50 per 1,000 (paper 0.84 per 1,000: the same direction and a similar \
             size)"
        );
    }

    #[test]
    fn sentences_are_built_from_the_values() {
        let c = Comparison::new(
            "generated positions",
            Measured::exact(-0.124, wac(12)),
            paper(-0.15),
        );
        assert_eq!(
            c.sentence(),
            "generated positions −12.4% (paper −15.0%: the same direction and a similar size)"
        );
        assert_eq!(
            tally([
                Decision::Opposite,
                Decision::SameDirection,
                Decision::Opposite
            ]),
            "1 the same direction, 2 the opposite direction"
        );
    }
}
