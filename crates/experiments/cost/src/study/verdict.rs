//! The verdict: for each of the paper's claims, what the numbers of the study say, under which
//! searcher choices, and how confident we are. Every sentence is generated from the results.

use replab_registry::DetectorId;
use replab_report::{fmt_delta_pct, fmt_int};

use super::{
    CHAINS_AGAINST_MATRIX, grid,
    grid::{COUNT_NOISE, SUBJECT},
    results::{
        Aggregate, ClaimRow, ClaimVerdict, ExactVerdict, GridTotal, Judgement, PositionSet,
        Results, Verdict,
    },
    sets,
};
use crate::{
    compare::{self, Comparison, Measured, Reference, Scope, Unit},
    stats::Estimate,
};

/// A change with its interval, `−3.1% [−4.0%, −2.2%]`.
pub fn fmt_estimate(e: &Estimate) -> String {
    e.text(fmt_delta_pct)
}

/// Names of the configurations, or `none`.
fn list(names: &[&str]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// The support a set of decisions gives a claim; the refused ones (not comparable, too few
/// samples) do not vote. Supported: every deciding configuration agrees in direction and at
/// least half in size too. Partly: at least half agree in direction. Contradicted: more than
/// half measurably go the other way.
pub fn support(decisions: &[Judgement]) -> &'static str {
    let count = |f: fn(Judgement) -> bool| decisions.iter().filter(|d| f(**d)).count();
    let decided = count(Judgement::decided);
    let same = count(Judgement::same_direction);
    let similar = count(|d| d == Judgement::SameDirectionSimilarSize);
    let opposite = count(|d| d == Judgement::Opposite);
    if decided == 0 {
        if decisions.contains(&Judgement::TooFewSamples) {
            "too few repeats to decide"
        } else {
            "not comparable"
        }
    } else if same == decided && 2 * similar >= decided {
        "supported"
    } else if 2 * same >= decided {
        "partly supported"
    } else if 2 * opposite > decided {
        "contradicted"
    } else {
        "not supported"
    }
}

/// The verdict on one of the grid's totals (terminal nodes, generated positions, time) for
/// `axon` against `off`.
fn grid_claim(
    claim: String,
    axon: &[&GridTotal],
    judge: fn(&GridTotal) -> Judgement,
    value: fn(&GridTotal) -> String,
    measured: bool,
) -> ClaimVerdict {
    let decisions: Vec<Judgement> = axon.iter().map(|t| judge(t)).collect();
    let groups: Vec<String> = Judgement::ALL
        .iter()
        .filter_map(|d| {
            let names: Vec<&str> = axon
                .iter()
                .filter(|t| judge(t) == *d)
                .map(|t| t.config.as_str())
                .collect();
            (!names.is_empty()).then(|| format!("{}: {}", d.phrase(), list(&names)))
        })
        .collect();
    let n = axon.len();
    let same = decisions.iter().filter(|d| d.same_direction()).count();
    let decided = decisions.iter().filter(|d| d.decided()).count();
    let values: Vec<String> = axon
        .iter()
        .map(|t| format!("{} {}", t.config, value(t)))
        .collect();
    let when = format!(
        "{}. (axon against off: {}.)",
        groups.join(". "),
        values.join("; ")
    );
    let doubt = if measured {
        "Times are medians of interleaved repeats; a change whose 95% interval contains 0 counts \
         as no change, an interval short of 95% coverage decides nothing, and it is one position \
         on one machine."
    } else {
        "The counters are exact and identical run to run, so there is no sampling doubt; the \
         doubt is which of these searchers Axon resembles, and that WAC.018 is one position."
    };
    ClaimVerdict {
        exact: None,
        claim,
        support: support(&decisions).into(),
        when,
        confidence: format!(
            "{same} of the {decided} distinct configurations the paper's figure can be compared \
             with agree in direction ({} not compared). {doubt}",
            n - decided
        ),
        rows: Vec::new(),
    }
}

/// The aggregate of `set` for `profile` × `detector`.
fn agg<'a>(set: &'a PositionSet, profile: &str, detector: DetectorId) -> Option<&'a Aggregate> {
    set.aggregates
        .iter()
        .find(|a| a.profile == profile && a.detector == detector)
}

/// Per position, `a`'s time or generated count against `b`'s (same profile), as an estimate
/// ([`sets::paired`]).
fn paired(
    set: &PositionSet,
    profile: &str,
    a: DetectorId,
    b: DetectorId,
    time: bool,
) -> Option<Estimate> {
    sets::paired(&set.positions, profile, a, b, time)
}

/// The paper's point: move chains (axon) beat the 512-bit position matrix (matrix). Judged per
/// position set and profile by the rule of a timed change ([`Comparison::timed`]), against the
/// paper's direction (lower), never its size, on axon's time against matrix's
/// ([`chains_time`]); and beside it on the instructions callgrind counted ([`chains_exact`]).
fn chains_against_matrix(r: &Results) -> ClaimVerdict {
    let mut comparisons = Vec::new();
    let mut rows = Vec::new();
    for profile in r.profiles.iter().map(|p| p.name.as_str()) {
        for (set, name) in [(&r.endgames, "endgames"), (&r.wac, "WAC")] {
            let Some((t, how)) = chains_time(set, profile) else {
                continue;
            };
            let scope = Scope::positions(format!(
                "{} {name} at depth {}, {profile}, {how}",
                set.positions.len(),
                set.depth
            ));
            let c = Comparison::timed_with(
                r.config.settings.time_resolution,
                "axon's time against matrix's",
                Measured::sampled(&t, scope.clone()),
                Reference::direction("paper", -1.0, scope.clone()),
            );
            rows.push(ClaimRow {
                label: format!("{name}, {profile}"),
                comparison: c.clone(),
            });
            comparisons.push(c);
        }
    }
    let decisions: Vec<Judgement> = comparisons.iter().map(|c| c.decision).collect();
    let when: Vec<String> = comparisons
        .iter()
        .map(|c| format!("{}: {}", c.measured.scope, c.sentence()))
        .collect();
    ClaimVerdict {
        exact: chains_exact(r),
        claim: "Move chains are faster than the 512-bit position matrix".into(),
        support: if comparisons.is_empty() {
            "not comparable"
        } else {
            support(&decisions)
        }
        .into(),
        when: if when.is_empty() {
            "matrix was not searched.".into()
        } else {
            format!("{}.", when.join("; "))
        },
        confidence: format!(
            "{} {}. A change gives a direction only when its interval clears 0 by the timing's \
             resolution. The paper gives a direction, not a size, so at best it is the same \
             direction.",
            chains_method(r.config.settings.set_rounds),
            compare::tally(decisions)
        ),
        rows,
    }
}

/// Axon's time against matrix's on `set` under `profile`, and how it was measured: over the
/// paired rounds when the run took them ([`sets::paired_rounds`]), else over the first pass's
/// positions ([`sets::paired`]); `None` when matrix was not searched.
fn chains_time(set: &PositionSet, profile: &str) -> Option<(Estimate, String)> {
    let [a, b] = CHAINS_AGAINST_MATRIX;
    if let Some(t) = sets::paired_rounds(&set.positions, profile, a, b) {
        let n = t.interval.n;
        return Some((
            t,
            format!("{n} paired round{}", if n == 1 { "" } else { "s" }),
        ));
    }
    paired(set, profile, a, b, true).map(|t| (t, "one pass".to_string()))
}

/// How the claim's times were taken, for its confidence: in `set_rounds` paired rounds (and
/// more at the edge), or in the first pass alone.
fn chains_method(set_rounds: usize) -> String {
    if set_rounds == 0 {
        return "Per position, axon's search time ÷ matrix's minus 1 in the pass where every \
                detector ran back to back, the median over the positions with its \
                distribution-free interval (one pass: the interval says nothing of how far a \
                rerun moves the median):"
            .into();
    }
    format!(
        "Axon and matrix alone, on fresh searchers, in {set_rounds} paired rounds over every \
         position (more while the change sat at the edge, within the edge factor): per round \
         the median over the positions of axon's search time ÷ matrix's minus 1; the change is \
         the median over the rounds with its distribution-free interval over the rounds, which \
         sees how far the median moves from round to round:"
    )
}

/// The same claim on exact counts: axon's instructions against matrix's in the searches of
/// WAC.018 that callgrind counted ([`Results::instructions`]), per node (the detector's own
/// cost) and over the whole search (the tree's size too); `None` when they were not counted.
fn chains_exact(r: &Results) -> Option<ExactVerdict> {
    let [axon, matrix] =
        CHAINS_AGAINST_MATRIX.map(|d| r.instructions.iter().find(|s| s.detector == d));
    let (axon, matrix) = (axon?, matrix?);
    let scope = Scope::depths(
        format!("{}, the default searcher", axon.position),
        1,
        axon.depth,
    );
    let exact = |what: &str, ours: f64, theirs: f64| {
        Comparison::new(
            what,
            Measured::exact(ours / theirs - 1.0, scope.clone()),
            Reference::direction("paper", -1.0, scope.clone()),
        )
    };
    let rows = vec![
        ClaimRow {
            label: "per node (exact)".into(),
            comparison: exact(
                "axon's instructions per node against matrix's",
                axon.per_node,
                matrix.per_node,
            ),
        },
        ClaimRow {
            label: "whole search (exact)".into(),
            comparison: exact(
                "axon's instructions against matrix's",
                axon.instructions as f64,
                matrix.instructions as f64,
            ),
        },
    ];
    let decisions: Vec<Judgement> = rows.iter().map(|row| row.comparison.decision).collect();
    let sentences: Vec<String> = rows.iter().map(|row| row.comparison.sentence()).collect();
    Some(ExactVerdict {
        support: support(&decisions).into(),
        when: format!(
            "Counted by callgrind over {scope} (the same in every run): {}.",
            sentences.join("; ")
        ),
        rows,
    })
}

/// The paper's repetition count, compared as a rate per 1,000 generated positions (a count
/// scales with the tree): one comparison per `axon` configuration, against the paper's rate
/// over its depths 1–12 (the only scope it gives), decided by the rule of every comparison.
fn rate_claim(r: &Results, axon: &[&GridTotal]) -> ClaimVerdict {
    let p = &r.paper;
    let paper_rate = p.repetitions as f64 * 1000.0 / p.generated_on.max(1) as f64;
    let reference = Reference::value_in(
        "paper",
        paper_rate,
        Unit::PerThousand,
        p.terminal_reference.scope.clone(),
    );
    let rows: Vec<ClaimRow> = axon
        .iter()
        .map(|t| {
            let rate = t.counters.repetitions as f64 * 1000.0 / t.counters.generated.max(1) as f64;
            ClaimRow {
                label: t.config.clone(),
                comparison: Comparison::new(
                    "repetitions per 1,000 generated positions",
                    Measured::exact_in(
                        rate,
                        Unit::PerThousand,
                        grid::scope(r.config.settings.grid_depth),
                    ),
                    reference.clone(),
                ),
            }
        })
        .collect();
    let decisions: Vec<Judgement> = rows.iter().map(|row| row.comparison.decision).collect();
    let counts: Vec<u64> = axon.iter().map(|t| t.counters.repetitions).collect();
    let rates: Vec<f64> = rows
        .iter()
        .map(|row| row.comparison.measured.estimate.value)
        .collect();
    ClaimVerdict {
        exact: None,
        claim: format!(
            "{} repetitions over {} ({})",
            fmt_int(p.repetitions),
            reference.scope,
            reference.text()
        ),
        support: if rows.is_empty() {
            "not comparable"
        } else {
            support(&decisions)
        }
        .into(),
        when: format!(
            "axon scored {} repetitions over depths 1–{} ({} per 1,000 generated positions): {}.",
            range(&counts, fmt_int),
            r.config.settings.grid_depth,
            range(&rates, |x| format!("{x:.2}")),
            compare::tally(decisions)
        ),
        confidence: format!(
            "{} A similar size is half to twice the paper's rate.",
            trees_sentence(r, axon)
        ),
        rows,
    }
}

/// Why the absolute repetition count cannot be compared, with the tree sizes of this run.
fn trees_sentence(r: &Results, axon: &[&GridTotal]) -> String {
    let p = &r.paper;
    let mut generated: Vec<u64> = axon.iter().map(|t| t.counters.generated).collect();
    generated.sort_unstable();
    let (Some(lo), Some(hi)) = (generated.first(), generated.last()) else {
        return "No configuration was searched.".into();
    };
    let mid = generated[generated.len() / 2].max(1);
    let scope = &p.generated_reference.scope;
    format!(
        "The absolute count cannot be compared: over {scope} our trees hold {} to {} generated \
         positions (axon), Axon's {}, so the median tree is {:.1} times {} than Axon's; and the \
         paper counts repetitions only over depths 1–12. So only the rate per generated position \
         is compared, and it depends on move ordering, pruning and the table, all unknown for \
         Axon.",
        fmt_int(*lo),
        fmt_int(*hi),
        fmt_int(p.generated_on_in_scope),
        if mid as f64 >= p.generated_on_in_scope as f64 {
            mid as f64 / p.generated_on_in_scope.max(1) as f64
        } else {
            p.generated_on_in_scope as f64 / mid as f64
        },
        if mid >= p.generated_on_in_scope {
            "larger"
        } else {
            "smaller"
        },
    )
}

/// The verdict from the results.
pub fn verdict(r: &Results) -> Verdict {
    let axon = r.voting_axon_totals();
    let mut claims = grid_claims(r, &axon);
    claims.push(rate_claim(r, &axon));
    claims.push(endgame_claim(r));
    claims.push(standard_claim(r));
    claims.push(chains_against_matrix(r));
    let summary = summary_sentence(r, &axon, &claims);
    Verdict {
        claims,
        summary,
        unknowns: UNKNOWNS.iter().map(|s| s.to_string()).collect(),
        false_draws: false_draws_sentence(r),
    }
}

/// The grid's three claims, on terminal nodes, generated positions and time, judged over
/// the axon configurations `axon`.
fn grid_claims(r: &Results, axon: &[&GridTotal]) -> Vec<ClaimVerdict> {
    let p = &r.paper;
    vec![
        grid_claim(
            format!(
                "Terminal nodes {} (the paper's {}; {} distinct configurations searched to depth {})",
                p.terminal_reference.text(),
                p.terminal_reference.scope,
                axon.len(),
                r.config.settings.grid_depth
            ),
            axon,
            |t| t.terminal_vs_paper,
            |t| fmt_delta_pct(t.terminal_change),
            false,
        ),
        grid_claim(
            format!(
                "Generated positions {} (the paper's {}, from its per-depth table)",
                p.generated_reference.text(),
                p.generated_reference.scope
            ),
            axon,
            |t| t.generated_vs_paper,
            |t| fmt_delta_pct(t.generated_change),
            false,
        ),
        grid_claim(
            format!(
                "Time {} (the paper's {})",
                p.time_reference.text(),
                p.time_reference.scope
            ),
            axon,
            |t| t.time_vs_paper,
            |t| fmt_estimate(&t.time_change),
            true,
        ),
    ]
}

/// The claim "more efficient, especially in endgames": axon's change on the endgame suite
/// against WAC's, under each searcher profile.
fn endgame_claim(r: &Results) -> ClaimVerdict {
    let mut eg_parts = Vec::new();
    let mut eg_support = Vec::new();
    for profile in r.profiles.iter().map(|p| p.name.as_str()) {
        let Some(eg) = agg(&r.endgames, profile, SUBJECT) else {
            continue;
        };
        let wac = agg(&r.wac, profile, SUBJECT);
        let e = &eg.generated.median;
        let faster = eg.time.median.interval.hi < 0.0;
        // Efficiency is time first: a measurably slower search contradicts the claim however
        // the tree changes; a smaller tree at no measurable time cost supports it in part.
        let slower = eg.time.median.interval.lo > 0.0;
        let s = if e.interval.hi < 0.0
            && faster
            && wac.is_none_or(|w| e.interval.hi < w.generated.median.interval.lo)
        {
            "supported"
        } else if slower || e.interval.lo > 0.0 {
            "contradicted"
        } else if e.interval.hi < 0.0 {
            "partly supported"
        } else {
            "not supported"
        };
        eg_support.push(s);
        eg_parts.push(format!(
            "under {profile}: endgames generated {} (median per position, 95% CI), shrinking the \
             tree in {:.0}% of {} positions, time {}{}",
            fmt_estimate(e),
            eg.generated.shrinks * 100.0,
            eg.positions,
            fmt_estimate(&eg.time.median),
            wac.map_or(String::new(), |w| format!(
                "; WAC generated {}, time {}",
                fmt_estimate(&w.generated.median),
                fmt_estimate(&w.time.median)
            )),
        ));
    }
    let eg_overall = if eg_support.iter().all(|s| *s == "supported") {
        "supported"
    } else if eg_support.iter().all(|s| *s == "contradicted") {
        "contradicted"
    } else if eg_support
        .iter()
        .any(|s| *s == "supported" || *s == "partly supported")
    {
        "partly supported"
    } else {
        "not supported"
    };
    ClaimVerdict {
        exact: None,
        claim: "More efficient, \"especially in positions with few pieces (endgames)\"".into(),
        support: eg_overall.into(),
        when: format!("{}.", eg_parts.join(". ")),
        confidence: format!(
            "Supported needs the endgames' median change of generated positions to lie below 0 \
             and below WAC's, and the median time change to lie below 0, all with their 95% \
             intervals (order statistics, distribution-free); a median time change whose \
             interval lies above 0 contradicts it. {} endgames at depth {}, {} WAC records at depth {}; per-position \
             times are single measurements, so their medians carry the machine's noise.",
            r.endgames.positions.len(),
            r.endgames.depth,
            r.wac.positions.len(),
            r.wac.depth
        ),
        rows: Vec::new(),
    }
}

/// The claim "more efficient than the standard treatment": axon against linear, paired per
/// position, on both position sets under each searcher profile.
fn standard_claim(r: &Results) -> ClaimVerdict {
    let mut std_parts = Vec::new();
    let mut faster = 0;
    let mut slower = 0;
    for profile in r.profiles.iter().map(|p| p.name.as_str()) {
        for (set, name) in [(&r.endgames, "endgames"), (&r.wac, "WAC")] {
            let (Some(t), Some(g)) = (
                paired(set, profile, SUBJECT, DetectorId::reference(), true),
                paired(set, profile, SUBJECT, DetectorId::reference(), false),
            ) else {
                continue;
            };
            if t.interval.hi < 0.0 {
                faster += 1;
            } else if t.interval.lo > 0.0 {
                slower += 1;
            }
            std_parts.push(format!(
                "{name} under {profile}: axon against linear, time {}, generated {}",
                fmt_estimate(&t),
                fmt_estimate(&g)
            ));
        }
    }
    ClaimVerdict {
        exact: None,
        claim: "More efficient than the standard treatment (a list of keys scanned back, our \
                linear)"
            .into(),
        support: if slower == 0 && faster > 0 {
            "supported"
        } else if faster > 0 {
            "partly supported"
        } else if slower > 0 {
            "contradicted"
        } else {
            "not supported"
        }
        .into(),
        when: format!("{}.", std_parts.join("; ")),
        confidence: format!(
            "Per-position medians with 95% intervals; axon is measurably faster in {faster} and \
             slower in {slower} of {} comparisons.",
            std_parts.len()
        ),
        rows: Vec::new(),
    }
}

/// The verdict's summary: the tally of the claims' support and the grid's sentence.
fn summary_sentence(r: &Results, axon: &[&GridTotal], claims: &[ClaimVerdict]) -> String {
    let count = |what: &str| claims.iter().filter(|c| c.support == what).count();
    let tally: Vec<String> = [
        "supported",
        "partly supported",
        "not supported",
        "contradicted",
        "not comparable",
        "too few repeats to decide",
    ]
    .iter()
    .map(|what| format!("{} {what}", count(what)))
    .collect();
    format!(
        "Of the paper's {} claims tested here: {} by this study. {} The endgame suite tests the \
         broader claim on {} positions instead of one.",
        claims.len(),
        tally.join(", "),
        grid_sentence(r, axon),
        r.endgames.positions.len(),
    )
}

/// The range `lo to hi` of `values` (`lo` alone when equal), formatted by `f`.
fn range<T: PartialOrd + Copy>(values: &[T], f: impl Fn(T) -> String) -> String {
    let lo = values
        .iter()
        .copied()
        .reduce(|a, b| if b < a { b } else { a });
    let hi = values
        .iter()
        .copied()
        .reduce(|a, b| if b > a { b } else { a });
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo == hi => f(lo),
        (Some(lo), Some(hi)) => format!("{} to {}", f(lo), f(hi)),
        _ => "none".into(),
    }
}

/// The share of axon's change of one count that its false draws cause, over the configurations
/// where axon changes that count at all.
fn share_clause(what: &str, shares: &[f64], n: usize) -> String {
    // Rounded first, so that a share that rounds to 0 is `0%`, never `−0%`.
    let pct = |x: f64| {
        let v = (x * 100.0).round() + 0.0;
        format!("{}{:.0}%", if v < 0.0 { "−" } else { "" }, v.abs())
    };
    if shares.is_empty() {
        return format!(
            "axon's {what} change against off is below the count noise in all {n} \
             configurations, so there is no change to explain"
        );
    }
    format!(
        "{} of axon's {what} change against off (median over the {} configurations where it \
         changes; {})",
        pct(crate::stats::median(shares)),
        shares.len(),
        range(shares, pct)
    )
}

/// How much of axon's tree change its own false draws cause: axon against the same searches
/// with every axon draw confirmed by the exact oracle ([`Results::false_draws`]).
pub fn false_draws_sentence(r: &Results) -> String {
    // One search, one figure: a configuration identical in effect to an earlier one is left out.
    let votes = |name: &str| !r.grid_configs.iter().any(|c| c.name == name && !c.votes());
    let f: Vec<&super::FalseDraws> = r.false_draws.iter().filter(|x| votes(&x.config)).collect();
    if f.is_empty() {
        return "Axon's own false draws were not measured in this run.".into();
    }
    let refuted: Vec<u64> = f.iter().map(|x| x.refuted).collect();
    let draws: Vec<u64> = f.iter().map(|x| x.axon_repetitions).collect();
    let terminal: Vec<f64> = f.iter().filter_map(|x| x.terminal_share).collect();
    let generated: Vec<f64> = f.iter().filter_map(|x| x.generated_share).collect();
    let count = |n: u64| fmt_int(n);
    format!(
        "Axon's own false draws, measured: the same WAC.018 searches (depths 1–{}, the {} \
         distinct configurations) with every axon draw confirmed by the exact oracle (FIDE \
         identity) before it is scored refuse {} false draws per configuration (plain axon \
         scores {} draws). Confirmation removes {}, and {}.",
        r.config.settings.grid_depth,
        f.len(),
        range(&refuted, count),
        range(&draws, count),
        share_clause("terminal-node", &terminal, f.len()),
        share_clause("generated-position", &generated, f.len()),
    )
}

/// How axon's tree changes on WAC.018 across the grid, against off: the signs of both counts,
/// and which way the paper's figure over the same depths points.
fn grid_sentence(r: &Results, axon: &[&GridTotal]) -> String {
    let n = axon.len();
    let shrink = axon
        .iter()
        .filter(|t| t.terminal_change <= -COUNT_NOISE && t.generated_change <= -COUNT_NOISE)
        .count();
    let grow = axon
        .iter()
        .filter(|t| t.terminal_change >= COUNT_NOISE && t.generated_change >= COUNT_NOISE)
        .count();
    let g = &r.paper.generated_reference;
    format!(
        "On WAC.018 axon shrinks both counts against off in {shrink} of {n} distinct \
         configurations and grows both in {grow}; over {} the paper's own generated positions \
         change {}.",
        g.scope,
        g.text()
    )
}

/// What the paper does not say about Axon, so no study can reproduce it exactly.
const UNKNOWNS: [&str; 9] = [
    "Axon's transposition table: whether it had one, its size, its replacement scheme and \
     whether repetition-affected scores were stored (the grid varies off / on / no-path-scores).",
    "The \"other pruning techniques\" besides null move: unnamed; our searcher has none beyond \
     alpha-beta, mate-distance pruning and null move.",
    "The null-move reduction R and its conditions (we use R = 2).",
    "The \"adaptive depth control\": which moves were extended and how far (we vary the check \
     extension's limit: twice the depth, or the ply limit).",
    "The quiescence search: whether it searched checks (we vary it).",
    "The evaluation: Axon's is not described (we vary full against material only).",
    "Move ordering: not described.",
    "What \"terminal nodes\" and \"generated positions\" count exactly (we count static \
     evaluations and generated moves).",
    "How the time was measured (one run? on what load?) and the time per depth: only the total \
     change, −10%, is printed.",
];
