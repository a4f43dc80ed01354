//! The landing page's decision table: one row per detector (detection off, every searchable
//! detector) and per draw-policy preset played with linear, every cell from the typed facts
//! the experiments of the bench composition give ([`Ranked`]), and a recommendation written
//! from those numbers through the lab's comparison type ([`Comparison`]): a comparison the
//! intervals do not support is not made. A fact no experiment of the run gave shows as
//! [`NOT_MEASURED`].

use replab_detect::DrawPolicy;
use replab_registry::{DetectorId, SEARCH_DETECTORS};
use replab_report::{Cell, fmt_delta_pct, table_html};
use replab_selfplay::PlayerSpec;

use replab_harness::compare::{Comparison, Decision, Measured, Reference, Scope, Unit};
use replab_harness::experiment::{EloFact, Fact, Ranked};
use replab_harness::interval::Interval;

/// What a cell says when no experiment of the run measured it.
pub const NOT_MEASURED: &str = "not measured";

/// One row of the decision table: a choice and every fact about it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choice {
    /// The detector.
    pub detector: String,
    /// The draw-policy preset played with the detector (`None`: the detector's own row).
    pub policy: Option<String>,
    /// The choice as a player specification (`axon`, `linear:policy=twofold`).
    pub spec: String,
    /// (false positives, false negatives) against exact FIDE identity (the audit).
    pub errors: Option<(u64, u64)>,
    /// (policy, scenarios, failed scenarios) of the UCI conformance run.
    pub conformance: Option<(String, usize, Vec<String>)>,
    /// Instructions per node relative to detection off (valgrind; exact).
    pub instructions: Option<f64>,
    /// Instructions per node of the Elo baseline's detector relative to off.
    pub baseline_instructions: Option<f64>,
    /// NPS off ÷ NPS with the detector, with its interval and coverage.
    pub overhead: Option<(f64, [f64; 2], f64)>,
    /// A policy preset row: per position set, (set, depth, change of the nodes to that depth
    /// against the detector under its default policy), exact counts (the policies experiment).
    pub tree: Vec<(String, u32, f64)>,
    /// The Elo matches against the baseline, fixed nodes first.
    pub elo: Vec<EloFact>,
    /// Whether this choice is the baseline the Elo matches were played against (and has no
    /// match of its own).
    pub baseline: bool,
}

/// Every row of the decision table from the facts, in a fixed order: detection off and the
/// searchable detectors (registry order), then linear under each draw policy other than its
/// default.
pub fn choices(facts: &[Ranked]) -> Vec<Choice> {
    let mut rows: Vec<Choice> = std::iter::once("off")
        .chain(SEARCH_DETECTORS.iter().copied())
        .map(|d| choice(facts, d, None))
        .collect();
    let linear = DetectorId::reference().name();
    let default = PlayerSpec::named(linear).policy;
    rows.extend(
        DrawPolicy::ALL
            .into_iter()
            .filter(|p| *p != default)
            .map(|p| choice(facts, linear, Some(p))),
    );
    rows
}

/// The row of `detector` (with the preset `policy`, if any) from the facts about it.
fn choice(facts: &[Ranked], detector: &str, policy: Option<DrawPolicy>) -> Choice {
    let spec = match policy {
        Some(p) => format!("{detector}:policy={p}"),
        None => detector.to_string(),
    };
    let policy = policy.map(|p| p.name().to_string());
    let about = |d: String| facts.iter().filter(move |f| f.detector == d);
    let mut row = Choice {
        detector: detector.to_string(),
        policy: policy.clone(),
        spec: spec.clone(),
        ..Choice::default()
    };
    let default_policy = PlayerSpec::named(detector).policy.name().to_string();
    let wanted_policy = policy.clone().unwrap_or_else(|| default_policy.clone());
    for f in about(detector.to_string()) {
        match &f.fact {
            Fact::Errors {
                false_positive,
                false_negative,
            } => {
                row.errors.get_or_insert((*false_positive, *false_negative));
            }
            // Detection costs are the detector's own: a policy preset row has none measured.
            Fact::Instructions(i) if policy.is_none() => {
                row.instructions.get_or_insert(*i);
            }
            Fact::SearchOverhead {
                ratio,
                interval,
                coverage,
            } if policy.is_none() => {
                row.overhead.get_or_insert((*ratio, *interval, *coverage));
            }
            Fact::Conformance {
                policy: p,
                scenarios,
                failed,
            } => {
                // The detector's row takes its default policy's run, else the one it ran.
                let better = row
                    .conformance
                    .as_ref()
                    .is_none_or(|(q, _, _)| *q != wanted_policy && *p == wanted_policy);
                if (policy.is_none() || *p == wanted_policy) && better {
                    row.conformance = Some((p.clone(), *scenarios, failed.clone()));
                }
            }
            Fact::Elo(e) if e.policy == policy => row.elo.push(e.clone()),
            _ => {}
        }
    }
    if let Some(p) = &policy {
        row.tree = policy_tree(facts, detector, p, &default_policy);
    }
    row.elo.sort_by_key(|e| !e.deterministic);
    // A row with matches of its own (linear:policy=twofold, also axon's opponent) shows them.
    row.baseline = row.elo.is_empty()
        && facts
            .iter()
            .any(|f| matches!(&f.fact, Fact::Elo(e) if e.baseline == spec));
    if let Some(base) = row.elo.first().map(|e| e.baseline.clone()) {
        let base_detector = base.split(':').next().unwrap_or_default().to_string();
        row.baseline_instructions = about(base_detector).find_map(|f| match f.fact {
            Fact::Instructions(i) => Some(i),
            _ => None,
        });
    }
    row
}

/// Per position set, the change of `detector`'s nodes to a fixed depth under `policy` against
/// under `default_policy` (exact counts), where both were measured.
fn policy_tree(
    facts: &[Ranked],
    detector: &str,
    policy: &str,
    default_policy: &str,
) -> Vec<(String, u32, f64)> {
    let nodes = |want: &str, set_wanted: &str| {
        facts.iter().find_map(|f| match &f.fact {
            Fact::PolicyTree {
                policy, set, nodes, ..
            } if f.detector == detector && policy == want && set == set_wanted => Some(*nodes),
            _ => None,
        })
    };
    facts
        .iter()
        .filter_map(|f| match &f.fact {
            Fact::PolicyTree {
                policy: p,
                set,
                depth,
                nodes: n,
            } if f.detector == detector && p == policy => {
                let base = nodes(default_policy, set).filter(|b| *b > 0)?;
                Some((set.clone(), *depth, *n as f64 / base as f64 - 1.0))
            }
            _ => None,
        })
        .collect()
}

/// A policy row's tree changes: `+1.2% (repetition, depth 5); −0.3% (wac, depth 6)`.
fn tree_text(tree: &[(String, u32, f64)]) -> String {
    let parts: Vec<String> = tree
        .iter()
        .map(|(set, depth, change)| format!("{} ({set}, depth {depth})", fmt_delta_pct(*change)))
        .collect();
    parts.join("; ")
}

/// The expected score of a logistic Elo difference, as a change relative to an even score
/// (0 Elo: 0; +∞: +100%; −∞: −100%): the Elo scale mapped to a relative change without
/// changing the sign or the order, so that the comparison type decides on it.
fn score_change(elo: f64) -> f64 {
    2.0 / (1.0 + 10f64.powf(-elo / 400.0)) - 1.0
}

/// An Elo match against the baseline as a comparison with the baseline: "the same
/// direction" is stronger, "the opposite direction" weaker.
pub fn elo_comparison(e: &EloFact) -> Comparison {
    let scope = Scope::positions(format!("{} games at {}", e.games, e.control));
    let measured = Measured {
        estimate: score_change(e.elo),
        interval: Interval {
            lo: score_change(e.interval[0]),
            hi: score_change(e.interval[1]),
            coverage: e.coverage,
            n: usize::try_from(e.games).unwrap_or(usize::MAX),
        },
        exact: false,
        unit: Unit::RelativeChange,
        scope: scope.clone(),
    };
    Comparison::new(
        "expected score",
        measured,
        Reference::direction(e.baseline.clone(), 1.0, scope),
    )
}

/// The instructions per node of a choice against its baseline's (exact counts): "the same
/// direction" is costlier.
fn cost_comparison(row: &Choice) -> Option<(f64, Comparison)> {
    let change = row.instructions? / row.baseline_instructions? - 1.0;
    let scope = Scope::positions("the callgrind search");
    let base = row.elo.first()?.baseline.clone();
    Some((
        change,
        Comparison::new(
            "instructions per node",
            Measured::exact(change, scope.clone()),
            Reference::direction(base, 1.0, scope),
        ),
    ))
}

/// Elo with a sign and one decimal, never `-0.0`.
fn signed(elo: f64) -> String {
    let rounded = (elo * 10.0).round() / 10.0;
    format!("{:+.1}", if rounded == 0.0 { 0.0 } else { rounded })
}

/// An Elo value with its interval: `+5.2 [-10.1, +20.3]`.
fn elo_interval(e: &EloFact) -> String {
    format!(
        "{} [{}, {}]",
        signed(e.elo),
        signed(e.interval[0]),
        signed(e.interval[1])
    )
}

/// An Elo cell: `+5.2 [-10.1, +20.3], 200 games`.
fn elo_text(e: &EloFact) -> String {
    let mut text = format!("{}, {} games", elo_interval(e), e.games);
    if e.coverage < replab_harness::stats::LEVEL {
        text += &format!(" ({:.1}% interval)", 100.0 * e.coverage);
    }
    text
}

/// An Elo match in a sentence: `+5.2 [-10.1, +20.3] Elo at 1000 nodes (200 games)`.
fn elo_clause(e: &EloFact) -> String {
    format!(
        "{} Elo at {} ({} games)",
        elo_interval(e),
        e.control,
        e.games
    )
}

/// The recommendation the numbers support, in words.
pub fn recommendation(row: &Choice) -> String {
    if row.baseline {
        return "the baseline of the Elo matches".into();
    }
    let Some(base) = row.elo.first().map(|e| e.baseline.clone()) else {
        return "no recommendation: Elo not measured".into();
    };
    let decided: Vec<(&EloFact, Decision)> = row
        .elo
        .iter()
        .map(|e| (e, elo_comparison(e).decision))
        .collect();
    let clauses = |keep: &dyn Fn(Decision) -> bool| -> String {
        let parts: Vec<String> = decided
            .iter()
            .filter(|(_, d)| keep(*d))
            .map(|(e, _)| elo_clause(e))
            .collect();
        parts.join("; ")
    };
    let inexact = row.errors.filter(|(p, n)| p + n > 0);
    if decided.iter().any(|(_, d)| *d == Decision::Opposite) {
        return format!(
            "not recommended: weaker than {base} ({})",
            clauses(&|d| d == Decision::Opposite)
        );
    }
    if decided.iter().any(|(_, d)| d.same_direction()) {
        let stronger = clauses(&|d| d.same_direction());
        return match inexact {
            Some((p, n)) => format!(
                "stronger than {base} ({stronger}) but inexact ({p} false draws, {n} missed \
                 repetitions)"
            ),
            None => format!("recommended over {base}: stronger ({stronger})"),
        };
    }
    let games: Vec<String> = row
        .elo
        .iter()
        .map(|e| format!("{} games at {}", e.games, e.control))
        .collect();
    let mut text = format!(
        "no measurable Elo difference from {base} at {}",
        games.join(" or ")
    );
    text += &match (inexact, cost_comparison(row)) {
        (Some((p, n)), _) => {
            format!("; inexact ({p} false draws, {n} missed repetitions): keep {base}")
        }
        (None, Some((c, cmp))) => match cmp.decision {
            Decision::Opposite => format!(
                "; exact and {} instructions per node against {base}: a candidate",
                fmt_delta_pct(c)
            ),
            d if d.same_direction() => format!(
                "; {} instructions per node against {base}: keep {base}",
                fmt_delta_pct(c)
            ),
            _ => format!("; the same instructions per node as {base}: either"),
        },
        (None, None) if !row.tree.is_empty() => format!(
            "; the same detector as {base}, nodes to a fixed depth {} against its default \
             policy (exact): either",
            tree_text(&row.tree)
        ),
        (None, None) => format!("; its cost against {base} not measured"),
    };
    text
}

/// The decision table as HTML.
pub fn table(rows: &[Choice]) -> String {
    let headers = [
        "choice",
        "exact (audit)",
        "FIDE conformance",
        "instructions/node vs off",
        "NPS overhead vs off",
        "nodes to depth vs default policy",
        "Elo vs baseline, fixed nodes",
        "Elo vs baseline, time control",
        "recommendation",
    ];
    let cells: Vec<Vec<Cell>> = rows.iter().map(row_cells).collect();
    table_html(&headers, &cells, false)
}

/// One row's cells.
fn row_cells(r: &Choice) -> Vec<Cell> {
    let missing = || NOT_MEASURED.to_string();
    let exact = r.errors.map_or_else(missing, |(p, n)| {
        if p + n == 0 {
            "exact (0 false, 0 missed)".into()
        } else {
            format!("inexact: {p} false draws, {n} missed")
        }
    });
    let conformance = r
        .conformance
        .as_ref()
        .map_or_else(missing, |(policy, n, failed)| {
            if failed.is_empty() {
                format!("passes all {n} ({policy})")
            } else {
                format!(
                    "fails {} of {n}: {} ({policy})",
                    failed.len(),
                    failed.join(", ")
                )
            }
        });
    let instructions = r
        .instructions
        .map_or_else(missing, |i| format!("{} (exact)", fmt_delta_pct(i - 1.0)));
    let overhead = r.overhead.map_or_else(missing, |(o, [lo, hi], coverage)| {
        format!(
            "{} [{}, {}] ({:.1}% interval)",
            fmt_delta_pct(o - 1.0),
            fmt_delta_pct(lo - 1.0),
            fmt_delta_pct(hi - 1.0),
            100.0 * coverage
        )
    });
    let tree = match (&r.policy, r.tree.is_empty()) {
        (None, _) => "—".to_string(),
        (Some(_), true) => missing(),
        (Some(_), false) => format!("{} (exact)", tree_text(&r.tree)),
    };
    let elo_at = |fixed: bool| {
        if r.baseline {
            return "baseline".to_string();
        }
        let cells: Vec<String> = r
            .elo
            .iter()
            .filter(|e| e.deterministic == fixed)
            .map(elo_text)
            .collect();
        if cells.is_empty() {
            missing()
        } else {
            cells.join("; ")
        }
    };
    [
        r.spec.clone(),
        exact,
        conformance,
        instructions,
        overhead,
        tree,
        elo_at(true),
        elo_at(false),
        recommendation(r),
    ]
    .into_iter()
    .map(Cell::text)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elo(policy: Option<&str>, value: f64, interval: [f64; 2]) -> Ranked {
        Ranked {
            detector: "linear+cuckoo".into(),
            fact: Fact::Elo(EloFact {
                policy: policy.map(String::from),
                baseline: "linear".into(),
                control: "1000 nodes".into(),
                deterministic: true,
                games: 400,
                elo: value,
                interval,
                coverage: 0.95,
            }),
        }
    }

    fn exact(detector: &str, false_positive: u64) -> Ranked {
        Ranked {
            detector: detector.into(),
            fact: Fact::Errors {
                false_positive,
                false_negative: 0,
            },
        }
    }

    fn instructions(detector: &str, ratio: f64) -> Ranked {
        Ranked {
            detector: detector.into(),
            fact: Fact::Instructions(ratio),
        }
    }

    fn row<'a>(rows: &'a [Choice], spec: &str) -> &'a Choice {
        rows.iter().find(|r| r.spec == spec).unwrap()
    }

    #[test]
    fn the_recommendation_follows_the_interval() {
        let measurable = [elo(None, 10.0, [2.0, 18.0]), exact("linear+cuckoo", 0)];
        let rows = choices(&measurable);
        let text = recommendation(row(&rows, "linear+cuckoo"));
        assert!(text.starts_with("recommended over linear"), "{text}");
        assert!(row(&rows, "linear").baseline);
        assert_eq!(
            recommendation(row(&rows, "linear")),
            "the baseline of the Elo matches"
        );

        let weaker = choices(&[elo(None, -10.0, [-18.0, -2.0])]);
        let text = recommendation(row(&weaker, "linear+cuckoo"));
        assert!(text.starts_with("not recommended: weaker"), "{text}");

        let flat = choices(&[elo(None, 10.0, [-2.0, 22.0]), exact("linear+cuckoo", 0)]);
        let text = recommendation(row(&flat, "linear+cuckoo"));
        assert!(
            text.starts_with("no measurable Elo difference from linear at 400 games"),
            "{text}"
        );
        assert!(
            text.ends_with("its cost against linear not measured"),
            "{text}"
        );
    }

    #[test]
    fn without_an_elo_difference_exactness_and_cost_decide() {
        let base = |x: f64, fp: u64| {
            vec![
                elo(None, 3.0, [-5.0, 11.0]),
                exact("linear+cuckoo", fp),
                instructions("linear+cuckoo", x),
                instructions("linear", 1.10),
            ]
        };
        let cheaper = recommendation(row(&choices(&base(1.05, 0)), "linear+cuckoo"));
        assert!(cheaper.ends_with("a candidate"), "{cheaper}");
        let costlier = recommendation(row(&choices(&base(1.20, 0)), "linear+cuckoo"));
        assert!(costlier.ends_with("keep linear"), "{costlier}");
        let same = recommendation(row(&choices(&base(1.10, 0)), "linear+cuckoo"));
        assert!(same.ends_with("either"), "{same}");
        let inexact = recommendation(row(&choices(&base(1.05, 3)), "linear+cuckoo"));
        assert!(inexact.contains("inexact (3 false draws"), "{inexact}");
    }

    #[test]
    fn missing_facts_show_as_not_measured_and_policy_rows_take_their_own() {
        let rows = choices(&[elo(Some("twofold"), 1.0, [-3.0, 5.0])]);
        let cuckoo = row(&rows, "linear+cuckoo");
        assert!(cuckoo.elo.is_empty());
        assert_eq!(
            recommendation(cuckoo),
            "no recommendation: Elo not measured"
        );
        let html = table(&rows);
        assert!(html.contains(NOT_MEASURED), "{html}");
        assert!(rows.iter().all(|r| r.spec != "linear:policy=stockfish"));
        // The fact names linear+cuckoo as its detector, so no linear preset row takes it.
        assert!(row(&rows, "linear:policy=twofold").elo.is_empty());
    }

    #[test]
    fn a_row_that_is_also_a_baseline_shows_its_own_matches() {
        let mut axon = elo(None, -10.0, [-28.0, 7.0]);
        axon.detector = "axon".into();
        if let Fact::Elo(e) = &mut axon.fact {
            e.baseline = "linear:policy=twofold".into();
        }
        let mut twofold = elo(Some("twofold"), 0.0, [-20.0, 20.0]);
        twofold.detector = "linear".into();
        let rows = choices(&[axon, twofold]);
        let twofold = row(&rows, "linear:policy=twofold");
        assert!(!twofold.baseline);
        let text = recommendation(twofold);
        assert!(
            text.starts_with("no measurable Elo difference from linear"),
            "{text}"
        );
        assert!(row(&rows, "linear").baseline);
    }

    fn tree(policy: &str, nodes: u64) -> Ranked {
        Ranked {
            detector: "linear".into(),
            fact: Fact::PolicyTree {
                policy: policy.into(),
                set: "repetition".into(),
                depth: 5,
                nodes,
            },
        }
    }

    #[test]
    fn policy_rows_show_their_tree_against_the_default_policy() {
        let mut twofold = elo(Some("twofold"), 1.0, [-3.0, 5.0]);
        twofold.detector = "linear".into();
        let facts = [twofold, tree("twofold", 900), tree("stockfish", 1000)];
        let rows = choices(&facts);
        let r = row(&rows, "linear:policy=twofold");
        assert_eq!(r.tree.len(), 1);
        assert!((r.tree[0].2 + 0.1).abs() < 1e-12, "{:?}", r.tree);
        let text = recommendation(r);
        assert!(text.contains("−10.0% (repetition, depth 5)"), "{text}");
        assert!(table(&rows).contains("(exact)"));
        // Detector rows are under their own policy; without the default's count, not measured.
        assert!(row(&rows, "linear").tree.is_empty());
        let rows = choices(&facts[..2]);
        let r = row(&rows, "linear:policy=twofold");
        assert!(r.tree.is_empty());
        assert!(recommendation(r).ends_with("its cost against linear not measured"));
    }

    #[test]
    fn no_negative_zero() {
        assert_eq!(signed(-1e-14), "+0.0");
        assert_eq!(signed(-0.04), "+0.0");
        assert_eq!(signed(-0.05), "-0.1");
        assert_eq!(signed(2.0), "+2.0");
    }

    #[test]
    fn the_score_change_keeps_sign_and_order() {
        assert_eq!(score_change(0.0), 0.0);
        assert!(score_change(-30.0) < 0.0 && score_change(30.0) > 0.0);
        assert!(score_change(f64::INFINITY) == 1.0);
        assert!(score_change(10.0) < score_change(20.0));
    }
}
