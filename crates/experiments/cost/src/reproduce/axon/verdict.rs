//! The paper's claims against ours, computed from the searches' results: per depth, the paper's
//! node counts beside our generated positions; each claim (terminal nodes, generated positions,
//! time) a [`compare::Comparison`] rescoped to the depths searched; and the verdict, the
//! sentence that says whether the paper's claims are reproduced.

use replab_registry::DetectorId;
use replab_report::{fmt_delta_pct, fmt_int};

use super::results::Run;
use super::results::{Comparison, Paper, Summary, runs_of};
use crate::compare::{self, Reference, Scope};
use crate::stats::Estimate;

/// Repetitions per 1,000 generated positions.
pub fn per_thousand(repetitions: u64, generated: u64) -> f64 {
    repetitions as f64 * 1000.0 / generated.max(1) as f64
}

/// The paper's claims against our `axon` run over WAC.018 depths 1 to `max_depth`, each a
/// [`compare::Comparison`]: generated positions against the paper's per-depth table summed over
/// the same depths (its Table 2 and 3 node counts); terminal nodes and time against the only
/// figures the paper prints, its depth 1–12 totals, so they are not comparable below depth 12.
/// The time claim is a timed change whose smallest resolution is `floor`.
pub fn claims(
    summary: &[Summary],
    paper: &Paper,
    max_depth: u32,
    floor: f64,
) -> Vec<compare::Comparison> {
    let Some(axon) = summary.iter().find(|s| s.detector == DetectorId::Axon) else {
        return Vec::new();
    };
    claims_of(
        axon.terminal_nodes_change,
        axon.generated_change,
        &axon.time_change,
        paper,
        max_depth,
        floor,
    )
}

/// [`claims`] from the three changes of `axon` against `off` over depths 1–`max_depth`.
pub fn claims_of(
    terminal_change: f64,
    generated_change: f64,
    time_change: &Estimate,
    paper: &Paper,
    max_depth: u32,
    floor: f64,
) -> Vec<compare::Comparison> {
    let ours = Scope::depths("WAC.018", 1, max_depth);
    let (p_term, _, p_time) = paper.changes();
    vec![
        compare::Comparison::new(
            "terminal nodes",
            compare::Measured::exact(terminal_change, ours.clone()),
            Reference::change("paper", p_term, paper.totals_scope()),
        ),
        compare::Comparison::new(
            "generated positions",
            compare::Measured::exact(generated_change, ours.clone()),
            paper.generated_reference(max_depth),
        ),
        compare::Comparison::timed_with(
            floor,
            "time",
            compare::Measured::sampled(time_change, ours),
            Reference::change("paper", p_time, paper.totals_scope()),
        ),
    ]
}

/// The sentence comparing the `axon` run (the paper's method) with the paper, rendered from
/// [`claims`], with the other detectors' changes against `off` by the clock ([`time_note`]) and, when
/// callgrind counted the searches to `instructions_depth`, in instructions per node
/// ([`instructions_note`]): every figure and every decision in it comes from the results.
pub fn verdict(
    summary: &[Summary],
    paper: &Paper,
    claims: &[compare::Comparison],
    instructions_depth: Option<u32>,
    floor: f64,
) -> String {
    let Some(axon) = summary.iter().find(|s| s.detector == DetectorId::Axon) else {
        return String::new();
    };
    let parts: Vec<String> = claims.iter().map(compare::Comparison::sentence).collect();
    let decided: Vec<compare::Decision> = claims
        .iter()
        .map(|c| c.decision)
        .filter(|d| d.decided())
        .collect();
    let overall = if decided.is_empty() {
        "cannot be compared with the paper's on these depths".to_string()
    } else {
        format!(
            "against the paper, on the {} claim(s) its figures cover at these depths: {}",
            decided.len(),
            compare::tally(decided)
        )
    };
    let paper_reps = paper.totals.on.repetitions.unwrap_or(0);
    let others: Vec<&Summary> = summary
        .iter()
        .filter(|s| s.detector != DetectorId::Off && s.detector != DetectorId::Axon)
        .collect();
    let range = |f: fn(&Summary) -> f64| {
        let lo = others.iter().map(|s| f(s)).fold(f64::INFINITY, f64::min);
        let hi = others
            .iter()
            .map(|s| f(s))
            .fold(f64::NEG_INFINITY, f64::max);
        format!("{} to {}", fmt_delta_pct(lo), fmt_delta_pct(hi))
    };
    format!(
        "With the paper's own method (the axon move-chain detector) against detection off, our \
         searcher changes {}. It scored {} repetitions as draws ({:.2} per 1,000 generated \
         positions; the paper noted {} over depths 1–12 in a tree of {} generated positions, \
         {:.2} per 1,000). Overall our result, {}. The other detectors change terminal nodes by \
         {}, generated positions by {} and time by {}{}.{}",
        parts.join("; "),
        fmt_int(axon.counters.repetitions),
        per_thousand(axon.counters.repetitions, axon.counters.generated),
        fmt_int(paper_reps),
        fmt_int(paper.totals.on.generated),
        per_thousand(paper_reps, paper.totals.on.generated),
        overall,
        range(|s| s.terminal_nodes_change),
        range(|s| s.generated_change),
        range(|s| s.time_change.value),
        time_note(floor),
        instructions_note(axon, &others, instructions_depth),
    )
}

/// How the other detectors' time changes are read: by the clock, a change within ±`floor`
/// (the timing's smallest resolution) having no direction. The note names no detector: from
/// one full bench of one build (06f15a4, 2026-11-29) to the next the clock moved
/// `filo-all-history`'s change from +7.9% to +3.7% and `matrix-keybits`' from +4.6% to +3.3%,
/// so which detectors sit within the resolution is the machine's, not the detectors'; each
/// detector's direction is judged on exact counts instead ([`instructions_note`]), and its
/// timed change is in the summary.
fn time_note(floor: f64) -> String {
    format!(
        " (by the clock: a change within ±{:.0}% gives no direction)",
        floor * 100.0
    )
}

/// The same changes judged on exact counts: instructions per node against `off`, counted by
/// callgrind over WAC.018 to `depth` (a count a rerun never changes), for `axon` and the range
/// of `others`, with those that change by less than [`compare::COUNT_NOISE`]; empty when
/// nothing was counted.
fn instructions_note(axon: &Summary, others: &[&Summary], depth: Option<u32>) -> String {
    let (Some(depth), Some(own)) = (depth, axon.overhead_instructions) else {
        return String::new();
    };
    let scope = Scope::depths("WAC.018", 1, depth);
    let exact = |s: &Summary| {
        let ratio = s.overhead_instructions?;
        Some(compare::Comparison::new(
            s.detector.name(),
            compare::Measured::exact(ratio - 1.0, scope.clone()),
            Reference::direction("off", 1.0, scope.clone()),
        ))
    };
    let counted: Vec<compare::Comparison> = others.iter().filter_map(|s| exact(s)).collect();
    if counted.is_empty() {
        return String::new();
    }
    let changes: Vec<f64> = counted.iter().map(|c| c.measured.estimate.value).collect();
    let lo = changes.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = changes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let flat: Vec<&str> = counted
        .iter()
        .filter(|c| c.decision == compare::Decision::NoMeasurableDifference)
        .map(|c| c.what.as_str())
        .collect();
    let flat_note = if flat.is_empty() {
        String::new()
    } else {
        format!(
            " ({} for {})",
            compare::Decision::NoMeasurableDifference.phrase(),
            flat.join(", ")
        )
    };
    format!(
        " Counted exactly instead (callgrind's instructions per node against off, {scope}, the \
         default searcher; the same in every run), axon changes by {} and the other detectors \
         by {} to {}{flat_note}.",
        fmt_delta_pct(own - 1.0),
        fmt_delta_pct(lo),
        fmt_delta_pct(hi),
    )
}

/// Per depth of our runs, the paper's node counts beside our generated positions.
pub fn comparison(runs: &[Run], paper: &Paper) -> Vec<Comparison> {
    let change = |on: u64, off: u64| {
        if off > 0 {
            on as f64 / off as f64 - 1.0
        } else {
            0.0
        }
    };
    runs_of(runs, "off")
        .into_iter()
        .filter_map(|off| {
            let axon = runs
                .iter()
                .find(|r| r.detector == DetectorId::Axon && r.depth == off.depth)?;
            let p_off = paper.off.iter().find(|r| r.depth == off.depth);
            let p_on = paper.on.iter().find(|r| r.depth == off.depth);
            Some(Comparison {
                depth: off.depth,
                paper_off: p_off.map(|r| r.nodes),
                paper_on: p_on.map(|r| r.nodes),
                ours_off_generated: off.counters.generated,
                ours_axon_generated: axon.counters.generated,
                paper_change: p_off.zip(p_on).map(|(f, n)| change(n.nodes, f.nodes)),
                ours_change: change(axon.counters.generated, off.counters.generated),
                ours_off_nodes: off.counters.nodes,
                ours_axon_nodes: axon.counters.nodes,
                paper_off_move: p_off.map(|r| r.best_move.clone()),
                paper_on_move: p_on.map(|r| r.best_move.clone()),
                ours_off_move: off.best_move.clone(),
                ours_axon_move: axon.best_move.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod claim_tests {
    use super::*;
    use crate::compare::Decision;
    use crate::resolution::TIME_RESOLUTION;
    use crate::stats::{Interval, median_coverage};

    fn paper() -> Paper {
        crate::paper::load().unwrap()
    }

    fn time(median: f64, ci: [f64; 2], repeats: usize) -> Estimate {
        Estimate {
            value: median,
            interval: Interval {
                lo: ci[0],
                hi: ci[1],
                coverage: median_coverage(repeats),
                n: repeats,
            },
        }
    }

    #[test]
    fn the_paper_is_rescoped_to_the_depths_searched() {
        let p = paper();
        let r8 = p.generated_reference(8);
        assert!((r8.value - 0.5731).abs() < 1e-4, "{}", r8.value);
        assert_eq!(r8.scope.depths, Some([1, 8]));
        let r12 = p.generated_reference(12);
        assert!((r12.value + 0.1498).abs() < 1e-4, "{}", r12.value);
        // Deeper than the tables: the reference keeps their scope, so nothing is compared.
        assert_eq!(p.generated_reference(14).scope.depths, Some([1, 12]));
    }

    #[test]
    fn the_same_search_flips_with_the_depths_compared() {
        let p = paper();
        let t = time(-0.09, [-0.12, -0.05], 7);
        // Depth 12: everything the paper prints is in scope; −13.7% / −12.4% agree with it.
        let at12: Vec<Decision> = claims_of(-0.137, -0.124, &t, &p, 12, TIME_RESOLUTION)
            .iter()
            .map(|c| c.decision)
            .collect();
        assert_eq!(
            at12,
            [Decision::SameDirectionSimilarSize; 3],
            "depth 12 should agree"
        );
        // Depth 8: the paper's own depth 1–8 trees grow (+57.3%): the same shrinking is the
        // opposite direction, and the 1–12-only totals are not comparable.
        let at8 = claims_of(-0.137, -0.124, &t, &p, 8, TIME_RESOLUTION);
        let d: Vec<Decision> = at8.iter().map(|c| c.decision).collect();
        assert_eq!(
            d,
            [
                Decision::NotComparable,
                Decision::Opposite,
                Decision::NotComparable
            ]
        );
        let text = verdict_of(&at8);
        assert!(text.contains("+57.3%"), "{text}");
        assert!(text.contains("depths 1–8"), "{text}");
        // A growing tree at depth 8 agrees with the paper's depth 1–8 table.
        let grow = claims_of(0.5, 0.45, &t, &p, 8, TIME_RESOLUTION);
        assert_eq!(grow[1].decision, Decision::SameDirectionSimilarSize);
    }

    #[test]
    fn too_few_rounds_decide_nothing_about_time() {
        let p = paper();
        let c = claims_of(
            -0.137,
            -0.124,
            &time(-0.09, [-0.12, -0.05], 5),
            &p,
            12,
            TIME_RESOLUTION,
        );
        assert_eq!(c[2].decision, Decision::TooFewSamples);
        assert!(
            c[2].sentence().contains("93.8% interval from 5 samples"),
            "{}",
            c[2].sentence()
        );
    }

    /// The claims' clauses joined, as the verdict renders them.
    fn verdict_of(claims: &[compare::Comparison]) -> String {
        claims
            .iter()
            .map(compare::Comparison::sentence)
            .collect::<Vec<_>>()
            .join("; ")
    }
}
