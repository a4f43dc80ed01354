//! Every detector × draw policy combination is either refused by the registry
//! (`replab_registry::check_policy`) or grows exactly the tree `linear` grows under that policy.
//!
//! Every record of `datasets/repetition.epd` (all 79) is searched with its game history
//! (`hfen`/`hmoves`) to depth 4 by every searchable detector of the registry table (listed or
//! not) under every policy, and compared with `linear` (an exact, counting detector) record by
//! record: nodes, terminal nodes, generated moves, repetition draws, best move and score. Probes
//! and hits are not compared: detectors may see repetitions the policy does not score (and
//! `filo`, by Gerbil's rule, does not see single history occurrences at all).
//!
//! Two kinds of rows are searched but not compared, because they change the tree by design, not
//! through the policy: inexact rows (`axon`, whose move chains miss and invent repetitions; the
//! audit measures that) and upcoming-cycle rows (`linear+cuckoo`, which raises alpha at nodes
//! one move from a cycle; `crates/detectors/cuckoo/tests/policies.rs` checks its rule per policy).
//!
//! Set `REPLAB_POLICY_DEPTH` to search deeper, and `REPLAB_POLICY_ALL=1` to also search the
//! refused combinations and print how they differ (no assertion on them).

use crate::common;

use replab_correctness::records::{Record, read_records};
use replab_detect::DrawPolicy;
use replab_registry::{DETECTORS, DetectorId, check_policy, with_detector};
use replab_search::{SearchConfig, SearchResult, Searcher};

/// What must be equal, per record.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    nodes: u64,
    terminal_nodes: u64,
    generated: u64,
    repetitions: u64,
    best_move: Option<String>,
    score: i32,
}

fn outcome(res: &SearchResult) -> Outcome {
    let totals = res.totals();
    let last = res.iterations.last().expect("at least one iteration");
    Outcome {
        nodes: totals.nodes,
        terminal_nodes: totals.terminal_nodes,
        generated: totals.generated,
        repetitions: totals.repetitions,
        best_move: last.best_move.map(|m| format!("{m:?}")),
        score: last.score.0,
    }
}

fn search_all(name: &str, records: &[Record], config: SearchConfig) -> Vec<Outcome> {
    with_detector!(name, config.policy, |d| {
        let mut searcher = Searcher::new(d, config);
        records
            .iter()
            .map(|r| outcome(&searcher.search_game(&r.positions, &r.moves)))
            .collect::<Vec<_>>()
    })
    .expect("a table detector")
}

#[test]
fn every_allowed_detector_grows_linears_tree_under_every_policy() {
    let path = common::checkout_file(replab_correctness::datasets::REPETITION.path);
    let (records, skipped) = read_records(&path, false).expect("the repetition suite reads");
    assert!(skipped.is_empty());
    assert!(records.len() >= 70, "{} records", records.len());
    assert!(
        records.iter().any(|r| !r.moves.is_empty()),
        "records with game history"
    );
    let depth = std::env::var("REPLAB_POLICY_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(4);
    let search_refused = std::env::var_os("REPLAB_POLICY_ALL").is_some();

    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for policy in DrawPolicy::ALL {
        let config = SearchConfig {
            max_depth: depth,
            policy,
            ..SearchConfig::default()
        };
        let reference_id = DetectorId::reference();
        let reference = search_all(reference_id.name(), &records, config);
        let linear_reps: u64 = reference.iter().map(|o| o.repetitions).sum();
        summary.push(format!(
            "{policy}: {reference_id} {linear_reps} repetitions"
        ));
        for row in DETECTORS
            .iter()
            .filter(|d| d.caps.searchable && d.id != reference_id)
        {
            let refusal = check_policy(row.name, policy).err();
            if refusal.is_some() && !search_refused {
                summary.push(format!("  {} refused", row.name));
                continue;
            }
            let compared = row.caps.exact && !row.caps.upcoming;
            let got = search_all(row.name, &records, config);
            let differing: Vec<&str> = records
                .iter()
                .zip(got.iter().zip(&reference))
                .filter(|(_, (g, r))| g != r)
                .map(|(rec, _)| rec.id.as_str())
                .collect();
            let reps: u64 = got.iter().map(|o| o.repetitions).sum();
            summary.push(format!(
                "  {}{}: {reps} repetitions, {} of {} records differ",
                row.name,
                if refusal.is_some() {
                    " (refused)"
                } else if !compared {
                    " (not compared)"
                } else {
                    ""
                },
                differing.len(),
                records.len()
            ));
            if compared && refusal.is_none() && !differing.is_empty() {
                let first = records.iter().position(|r| r.id == differing[0]).unwrap();
                failures.push(format!(
                    "{} under {policy} differs from linear on {} records ({:?}); first {}: {:?} \
                     vs linear {:?}",
                    row.name,
                    differing.len(),
                    differing,
                    differing[0],
                    got[first],
                    reference[first]
                ));
            }
        }
    }
    println!("depth {depth}\n{}", summary.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
