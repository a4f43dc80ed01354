//! The rule that keeps a timed verdict from flipping when it is run again: where a timed
//! change sits, against 0, with the machine's resolution, and the paired rounds taken one at a
//! time while it sits at the edge.
//!
//! A timed change (a median of paired rounds with its distribution-free interval) is a
//! *direction* only when its interval clears 0 by at least [`resolution`]: the larger of
//! [`TIME_RESOLUTION`] and [`EDGE_SHARE`] of the interval's half-width. An interval end jitters
//! from run to run by about the interval's half-width on this machine (±5–20% from run to
//! run), so an end closer to 0 than that can land on either side in a rerun. Such an interval
//! sits *at the edge* ([`at_edge`]), unless it lies within ±[`TIME_RESOLUTION`] already:
//! [`edge_rounds`] adds paired rounds, one at a time, up to [`EDGE_ROUNDS_FACTOR`] times the
//! fixed rounds; an interval still short of clearing 0 after them says only that the change
//! lies within ±x% ([`reach`], the resolution reached), never a direction
//! ([`crate::compare::Decision::WithinResolution`], decided by
//! [`crate::compare::Comparison::timed`]).

use crate::stats::{Estimate, Interval};

/// The smallest resolution of a timed change (5%): its interval must clear 0 by at least this
/// to give a direction, however narrow it is. A run as a whole can shift a change by more than
/// any interval within it sees: two `bench --quick` runs of one build (2026-11-29) gave the
/// study's WAC change of axon against matrix as +5.5% [+3.9%, +9.1%] and +0.3% [−1.8%, +2.3%],
/// intervals that do not meet; 2% let that shift decide.
pub const TIME_RESOLUTION: f64 = 0.05;

/// The smallest resolution of the short run's timed changes (`bench --quick`: 100%). Its
/// rounds are few and no round is added at the edge, and two short runs of one build moved the
/// study's WAC change by 5 points and the micro-benchmarks' ratios by half: it gives its timed
/// changes as figures within ±x%, a direction only to a change that more than doubles a time.
pub const SHORT_RUN_RESOLUTION: f64 = 1.0;

/// The share of a timed interval's half-width that its nearer end must clear 0 by (all of it),
/// when that is more than [`TIME_RESOLUTION`]: an end moves between two runs on this machine by
/// about as much as the half-width (two quick runs of the study gave +2.2% and +1.7% for the
/// low end of one change whose half-width was 4.3%).
pub const EDGE_SHARE: f64 = 1.0;

/// The most rounds a timed comparison at the edge is taken to by default, as a multiple of the
/// rounds it started with (five times: 6 fixed rounds grow to at most 30). An experiment's
/// setting may lower it: 1 adds none (the short run's), and a comparison at the edge is then
/// given as within ±x% at once. The seconds cap ([`EDGE_SECONDS`]) bounds the slow
/// comparisons; this bounds the cheap ones. Three times was too few for them on a slow host:
/// two full `bench` runs of one build (2026-11-30) gave the study's grid row axon against `off`
/// under `default/material` (searches of 50–100 ms) as +51.1% [+48.4%, +54.0%] and +44.5%
/// [+16.1%, +61.1%] after 18 rounds each, a direction in one run and within ±61.1% in the
/// other; the median's interval narrows with the rounds taken.
pub const EDGE_ROUNDS_FACTOR: usize = 5;

/// The resolution of `interval`: the larger of [`TIME_RESOLUTION`] and [`EDGE_SHARE`] of its
/// half-width.
pub fn resolution(interval: &Interval) -> f64 {
    resolution_with(interval, TIME_RESOLUTION)
}

/// The resolution of `interval` when the smallest is `floor` (a run's setting): the larger of
/// `floor` and [`EDGE_SHARE`] of its half-width.
pub fn resolution_with(interval: &Interval, floor: f64) -> f64 {
    floor.max(EDGE_SHARE * (interval.hi - interval.lo) / 2.0)
}

/// Whether `interval` clears 0 by at least its [`resolution`]: a direction a rerun keeps.
pub fn clears_zero(interval: &Interval) -> bool {
    clears_zero_by(interval, TIME_RESOLUTION)
}

/// Whether `interval` clears 0 by at least its resolution when the smallest is `floor`.
pub fn clears_zero_by(interval: &Interval, floor: f64) -> bool {
    let r = resolution_with(interval, floor);
    interval.lo >= r || interval.hi <= -r
}

/// [`TIME_RESOLUTION`], for a setting's serde default (results written before the setting).
pub fn default_floor() -> f64 {
    TIME_RESOLUTION
}

/// Whether `interval` sits at the edge: it does not clear 0 by its [`resolution`], and it
/// reaches that far from 0 (more rounds may settle it either way). An interval within ±the
/// resolution already is settled: the change is that small.
pub fn at_edge(interval: &Interval) -> bool {
    at_edge_by(interval, TIME_RESOLUTION)
}

/// Whether `interval` sits at the edge when the smallest resolution is `floor` (a run's
/// setting): it does not clear 0 by its resolution, it reaches that far from 0, and more
/// rounds could still give it a direction: it lies on one side of 0, or it is wider than the
/// floor. A narrow interval across 0 (half-width under the floor) is settled: more rounds
/// narrow it around a change too small to clear the floor, and its sentence is "within ±x%"
/// either way (the Axon reproduction once spent 123 s of rounds on `linear` and `rookie`,
/// within ±5.2% and ±5.7% at the end).
pub fn at_edge_by(interval: &Interval, floor: f64) -> bool {
    let across = interval.lo < 0.0 && interval.hi > 0.0;
    let half_width = (interval.hi - interval.lo) / 2.0;
    !clears_zero_by(interval, floor)
        && reach(interval) >= resolution_with(interval, floor)
        && (!across || half_width >= floor)
}

/// Whether the estimate `e` sits at the edge when the smallest resolution is `floor`: its
/// interval does ([`at_edge_by`]), or the interval does not clear 0 by its resolution while
/// the median lies at or beyond the floor. A narrow interval across 0 is settled only around a
/// median under the floor: around one past it, more rounds can give a direction. The study's
/// grid, in a variant that made a searcher for every search (tried, not kept), gave axon
/// against `off` under `axon-like/tt-off` as +6.1% [−0.5%, +6.6%] after six rounds, settled as
/// within ±6.6% with no round added, and +6.5% [+5.2%, +7.7%] in the next run, a direction.
pub fn estimate_at_edge(e: &Estimate, floor: f64) -> bool {
    at_edge_by(&e.interval, floor)
        || (!clears_zero_by(&e.interval, floor) && e.value.abs() >= floor)
}

/// The fewest paired rounds a timed comparison is settled with, when its round cap allows
/// (nine): the fewest whose distribution-free 95% interval for the median
/// ([`crate::stats::median_ci`]) leaves out the most extreme round on each side (rounds 2 and 8
/// of 9, 96.1%). With fewer, the interval is the range of the rounds, and one disturbed round
/// sets an end: in eight full `bench` runs (2026-11-28 to 11-30), the study's grid row linear
/// against `off` under `default/tt-off` (searches of 4–9 s, 6 to 8 rounds within the seconds
/// cap) spanned [−16.3%, +131.7%] to [+22.5%, +144.9%] in seven runs, no direction, and
/// [+35.7%, +66.8%] after its 6 fixed rounds in the eighth, a direction. The rounds up to this
/// many are taken whatever the seconds cap ([`EdgeLimits::max_seconds`] bounds those beyond).
pub const SETTLED_ROUNDS: usize = 9;

/// How far from 0 `interval` reaches: `max(|lo|, |hi|)`, the `x` of "within ±x%".
pub fn reach(interval: &Interval) -> f64 {
    interval.lo.abs().max(interval.hi.abs())
}

/// The default cap on the wall time of one experiment's rounds at the edge (30 s), so that a
/// full `bench` keeps its time: the Axon reproduction's WAC.018 rounds at depth 12 once took
/// 123 s when a change stayed at the edge to the round cap.
pub const EDGE_SECONDS: f64 = 30.0;

/// [`EDGE_SECONDS`], for a setting's serde default (results written before the setting).
pub fn default_edge_seconds() -> f64 {
    EDGE_SECONDS
}

/// [`EDGE_ROUNDS_FACTOR`], for a setting's serde default (results written before the setting).
pub fn default_factor() -> usize {
    EDGE_ROUNDS_FACTOR
}

/// The cap on the rounds of a timed comparison that started with `fixed` rounds: `factor` ×
/// `fixed` (`factor` is [`EDGE_ROUNDS_FACTOR`] unless a setting lowers it; at least 1).
pub fn round_cap(fixed: usize, factor: usize) -> usize {
    fixed * factor.max(1)
}

/// The rule's figures for a page's text, from the constants above and the run's `factor`:
/// `resolution` (`5%`), `edge` (`the interval's half-width`, or a share of it), `edge_factor`
/// (`factor`; 1 when no round is added) and `settled` ([`SETTLED_ROUNDS`]).
pub fn figures(factor: usize) -> serde_json::Value {
    figures_with(factor, TIME_RESOLUTION)
}

/// [`figures`] for a run whose smallest resolution is `floor`.
pub fn figures_with(factor: usize, floor: f64) -> serde_json::Value {
    let edge = if EDGE_SHARE == 1.0 {
        "the interval's half-width".to_string()
    } else {
        format!("{:.0}% of the interval's half-width", EDGE_SHARE * 100.0)
    };
    serde_json::json!({
        "resolution": format!("{:.0}%", floor * 100.0),
        "edge": edge,
        "edge_factor": factor.max(1),
        "settled": SETTLED_ROUNDS,
    })
}

/// How far paired rounds at the edge go, from a run's settings: at most `factor` times the
/// fixed rounds ([`round_cap`]), judged against the smallest resolution `floor`, and no round
/// past [`SETTLED_ROUNDS`] begun once `max_seconds` have passed since the first added one (a
/// bench keeps its time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeLimits {
    /// The cap on all rounds, as a multiple of the fixed ones (1 adds none).
    pub factor: usize,
    /// The smallest resolution of a timed change.
    pub floor: f64,
    /// The seconds after which no more rounds are begun, once [`SETTLED_ROUNDS`] were taken.
    pub max_seconds: f64,
}

impl EdgeLimits {
    /// The limits of a run that adds rounds up to `factor` times its fixed ones, judged
    /// against `floor`, with no time cap.
    pub fn new(factor: usize, floor: f64) -> EdgeLimits {
        EdgeLimits {
            factor,
            floor,
            max_seconds: f64::INFINITY,
        }
    }

    /// These limits with a cap of `seconds` on the rounds' time.
    pub fn within(self, seconds: f64) -> EdgeLimits {
        EdgeLimits {
            max_seconds: seconds,
            ..self
        }
    }
}

/// Paired rounds added one at a time to timed comparisons that started with `fixed` rounds.
/// Below [`SETTLED_ROUNDS`] rounds (and the round cap), every comparison gets another round:
/// none is settled yet. From there, while any of `estimates(state)` (one per comparison, from
/// every round so far) sits at the edge ([`estimate_at_edge`] the limits' floor), fewer than
/// [`round_cap`]`(fixed, limits.factor)` rounds were taken and the limits' seconds have not
/// passed, `add_round(state, edge)` runs one more paired round of the comparisons whose indices
/// are in `edge` (the others are settled and get no more). Returns the rounds added.
///
/// # Errors
/// The first error of `add_round`.
pub fn edge_rounds<S, E>(
    fixed: usize,
    limits: EdgeLimits,
    state: &mut S,
    estimates: impl Fn(&S) -> Vec<Estimate>,
    mut add_round: impl FnMut(&mut S, &[usize]) -> Result<(), E>,
) -> Result<usize, E> {
    let start = std::time::Instant::now();
    let mut added = 0;
    while fixed + added < round_cap(fixed, limits.factor) {
        let unsettled = fixed + added < SETTLED_ROUNDS;
        if !unsettled && start.elapsed().as_secs_f64() >= limits.max_seconds {
            break;
        }
        let edge: Vec<usize> = estimates(state)
            .iter()
            .enumerate()
            .filter(|(_, e)| unsettled || estimate_at_edge(e, limits.floor))
            .map(|(i, _)| i)
            .collect();
        if edge.is_empty() {
            break;
        }
        add_round(state, &edge)?;
        added += 1;
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::median_ci;

    fn interval(lo: f64, hi: f64) -> Interval {
        Interval {
            lo,
            hi,
            coverage: 0.97,
            n: 6,
        }
    }

    #[test]
    fn the_figures_come_from_the_constants() {
        let f = figures(EDGE_ROUNDS_FACTOR);
        assert_eq!(f["resolution"], "5%");
        assert_eq!(f["edge"], "the interval's half-width");
        assert_eq!(f["edge_factor"], EDGE_ROUNDS_FACTOR);
        assert_eq!(figures(0)["edge_factor"], 1);
        assert_eq!(f["settled"], SETTLED_ROUNDS);
    }

    #[test]
    fn the_resolution_grows_with_the_interval() {
        assert_eq!(resolution(&interval(0.01, 0.03)), TIME_RESOLUTION);
        assert!((resolution(&interval(-0.1, 0.3)) - 0.2).abs() < 1e-12);
    }

    #[test]
    fn where_an_interval_sits() {
        // Clear of 0 by more than the resolution (5%, or the half-width): a direction.
        assert!(clears_zero(&interval(0.06, 0.10)));
        assert!(!clears_zero(&interval(0.04, 0.06)));
        // The short run's floor: only a change that more than doubles a time clears it.
        assert!(!clears_zero_by(&interval(0.06, 0.10), SHORT_RUN_RESOLUTION));
        assert!(clears_zero_by(&interval(1.10, 1.30), SHORT_RUN_RESOLUTION));
        assert!(clears_zero(&interval(-0.30, -0.12)));
        // The study's WAC row: +3.4% [+0.2%, +7.3%] clears 0 by 0.2% only: at the edge.
        let wac = interval(0.002, 0.073);
        assert!(!clears_zero(&wac) && at_edge(&wac));
        // An end just across 0 is at the edge too, and so is a wide straddle; an interval
        // within ±5% is not: it is settled as that small.
        assert!(at_edge(&interval(-0.01, 0.30)));
        assert!(at_edge(&interval(-0.10, 0.12)));
        let small = interval(-0.005, 0.01);
        assert!(!at_edge(&small) && !clears_zero(&small));
        // Across 0, reaching past 5% but narrower than ±5%: settled (the grid's `linear`,
        // +2.3% [−1.5%, +6.2%]); on one side of 0, as narrow, it is at the edge.
        assert!(!at_edge(&interval(-0.015, 0.062)));
        assert!(at_edge(&interval(0.001, 0.062)));
        assert!((reach(&wac) - 0.073).abs() < 1e-12);
    }

    /// Made-up paired rounds: `first` fixed ones, then `more` (one per added round).
    fn rounds_until_settled(first: &[f64], more: &[f64], factor: usize) -> (usize, Estimate) {
        rounds_within(first, more, EdgeLimits::new(factor, TIME_RESOLUTION))
    }

    /// [`rounds_until_settled`] under `limits`.
    fn rounds_within(first: &[f64], more: &[f64], limits: EdgeLimits) -> (usize, Estimate) {
        let mut samples = first.to_vec();
        let mut next = more.iter();
        let added = edge_rounds(
            first.len(),
            limits,
            &mut samples,
            |s| vec![median_ci(s)],
            |s, edge| {
                assert_eq!(edge, [0]);
                s.push(*next.next().expect("no more made-up rounds"));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        (added, median_ci(&samples))
    }

    #[test]
    fn rounds_are_added_only_at_the_edge() {
        // Clear from the start: rounds only up to the settled count, then none.
        let clear = [0.05, 0.06, 0.07, 0.05, 0.06, 0.08];
        let (added, e) = rounds_until_settled(&clear, &[0.06; 12], EDGE_ROUNDS_FACTOR);
        assert_eq!(added, SETTLED_ROUNDS - clear.len());
        assert!(!estimate_at_edge(&e, TIME_RESOLUTION));
        // At the edge (min 0.001): rounds are added until the interval clears 0 by 5%.
        let edge = [0.001, 0.06, 0.07, 0.05, 0.06, 0.08];
        let (added, e) = rounds_until_settled(&edge, &[0.05; 12], EDGE_ROUNDS_FACTOR);
        assert!((SETTLED_ROUNDS - 6..12).contains(&added), "{added}");
        assert!(clears_zero(&e.interval), "{:?}", e.interval);
        // Still at the edge after the cap: five times the six fixed rounds, then it stops.
        let more = [0.001, 0.07, 0.002].repeat(8);
        let (added, e) = rounds_until_settled(&edge, &more, EDGE_ROUNDS_FACTOR);
        assert_eq!(added, round_cap(6, EDGE_ROUNDS_FACTOR) - 6);
        assert!(at_edge(&e.interval));
        // With a factor of 1 (the short run's) no round is added: it stays at the edge.
        let (added, e) = rounds_until_settled(&edge, &more, 1);
        assert_eq!(added, 0);
        assert!(at_edge(&e.interval));
    }

    #[test]
    fn a_narrow_straddle_around_a_median_past_the_floor_gets_rounds() {
        // +6.3% [−0.5%, +7.0%]: narrower than ±5% across 0, but its median is past 5%.
        let first = [0.065, 0.07, -0.005, 0.06, 0.062, 0.066];
        let e = median_ci(&first);
        assert!(!at_edge(&e.interval) && estimate_at_edge(&e, TIME_RESOLUTION));
        let (added, e) = rounds_until_settled(&first, &[0.064; 12], EDGE_ROUNDS_FACTOR);
        assert!(added >= 1, "{added}");
        assert!(clears_zero(&e.interval), "{:?}", e.interval);
        // The same straddle around +2%: settled as that small, no round added past the
        // settled count.
        let small = [0.02, 0.025, -0.005, 0.018, 0.07, 0.015];
        let e = median_ci(&small);
        assert!(!estimate_at_edge(&e, TIME_RESOLUTION));
        let (added, _) = rounds_until_settled(&small, &[0.02; 12], EDGE_ROUNDS_FACTOR);
        assert_eq!(added, SETTLED_ROUNDS - small.len());
    }

    #[test]
    fn the_floor_and_the_seconds_limit_the_rounds() {
        let edge = [0.001, 0.06, 0.07, 0.05, 0.06, 0.08];
        let more = [0.001, 0.07, 0.002].repeat(8);
        // No time left: the rounds up to the settled count, none beyond, whatever the factor.
        let none = EdgeLimits::new(EDGE_ROUNDS_FACTOR, TIME_RESOLUTION).within(0.0);
        assert_eq!(rounds_within(&edge, &more, none).0, SETTLED_ROUNDS - 6);
        // [+0.1%, +8%] sits at the edge of 5%, not of the short run's 100% (it is within it):
        // past the settled count, no round.
        let short = EdgeLimits::new(EDGE_ROUNDS_FACTOR, SHORT_RUN_RESOLUTION);
        assert_eq!(rounds_within(&edge, &more, short).0, SETTLED_ROUNDS - 6);
        assert!(at_edge(&median_ci(&edge).interval));
        assert!(!at_edge_by(
            &median_ci(&edge).interval,
            SHORT_RUN_RESOLUTION
        ));
    }

    #[test]
    fn the_settled_count_is_the_fewest_rounds_past_their_range() {
        // Eight rounds: the 95% interval is their range; nine: it leaves out each extreme.
        let rounds: Vec<f64> = (1..=SETTLED_ROUNDS).map(|r| r as f64).collect();
        let fewer = median_ci(&rounds[..SETTLED_ROUNDS - 1]).interval;
        assert_eq!((fewer.lo, fewer.hi), (1.0, (SETTLED_ROUNDS - 1) as f64));
        let settled = median_ci(&rounds).interval;
        assert_eq!((settled.lo, settled.hi), (2.0, (SETTLED_ROUNDS - 1) as f64));
        assert!(settled.coverage >= crate::stats::LEVEL);
    }

    #[test]
    fn a_direction_from_six_rounds_waits_for_the_settled_count() {
        // The grid's tt-off row in one run: +41.4% [+35.7%, +66.8%] after six rounds, a
        // direction under the rule without a settled count (it clears 0 by its half-width).
        let first = [0.357, 0.40, 0.414, 0.45, 0.60, 0.668];
        assert!(clears_zero(&median_ci(&first).interval));
        // Three more rounds, one of them disturbed on each side: the range would be
        // [−50%, +300%], but the interval of nine leaves both out and keeps the direction.
        let more = [-0.5, 3.0, 0.45];
        let (added, e) = rounds_until_settled(&first, &more, EDGE_ROUNDS_FACTOR);
        assert_eq!(added, 3);
        assert!(clears_zero(&e.interval), "{:?}", e.interval);
        // Two disturbed rounds below: the low end is one of them, and the change is at the
        // edge; rounds go on (here to the cap) and it ends as within ±x%, not a direction.
        let more = [-0.5, -0.4, 0.45].repeat(8);
        let (added, e) = rounds_until_settled(&first, &more, EDGE_ROUNDS_FACTOR);
        assert!(added > 3, "{added}");
        assert!(!clears_zero(&e.interval), "{:?}", e.interval);
    }
}
