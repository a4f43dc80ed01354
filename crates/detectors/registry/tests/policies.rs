//! Detector × draw policy: what `check_policy` allows and refuses, and that the allowed
//! detectors answer every probe the way `linear` does as far as the policy can tell, on seeded
//! depth-first walks with game history (entering and leaving, as the searcher does).

use crate::common;

use common::{Visit, random_walk};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use replab_board::{Move, Position};
use replab_detect::{Detector, DrawPolicy, Line, Repetition, load_history};
use replab_registry::{DETECTORS, LinearDetector, by_name, check_policy, info, policy_matrix};

#[test]
fn the_matrix_allows_exactly_what_the_capabilities_support() {
    use DrawPolicy::*;
    let allowed = |name: &str| -> Vec<DrawPolicy> {
        DrawPolicy::ALL
            .into_iter()
            .filter(|&p| check_policy(name, p).is_ok())
            .collect()
    };
    for name in [
        "linear",
        "tt-open",
        "filo-all-history",
        "rookie",
        "matrix",
        "matrix-checksum",
        "cuckoo",
        "linear+cuckoo",
        "truth",
        "naive",
    ] {
        assert_eq!(allowed(name), DrawPolicy::ALL, "{name}");
    }
    assert_eq!(allowed("axon"), [Twofold]);
    assert_eq!(allowed("filo"), [Moreland, Stockfish]);
    assert_eq!(allowed("off"), DrawPolicy::ALL);

    let matrix = policy_matrix();
    assert_eq!(matrix.len(), DETECTORS.len() * DrawPolicy::ALL.len());
    for cell in &matrix {
        let caps = info(cell.detector).unwrap().caps;
        let refused = caps.probes
            && ((cell.policy.needs_counts() && !caps.counts_occurrences)
                || (cell.policy.needs_single_history() && caps.drops_single_history));
        assert_eq!(
            cell.refusal.is_some(),
            refused,
            "{} {}",
            cell.detector,
            cell.policy
        );
        if let Some(r) = &cell.refusal {
            assert_eq!((r.detector, r.policy), (cell.detector, cell.policy));
            assert!(
                r.to_string().starts_with(&format!(
                    "{} cannot be used with the draw policy {}: ",
                    cell.detector, cell.policy
                )),
                "{r}"
            );
        }
    }
}

#[test]
fn refusals_say_why() {
    let axon = check_policy("axon", DrawPolicy::Threefold).unwrap_err();
    assert!(
        axon.to_string().starts_with(
            "axon cannot be used with the draw policy threefold: Axon's move chains only tell that a \
             cycle closed, not how many times the position occurred nor where (Vučković & \
             Vidanović §4)"
        ),
        "{axon}"
    );
    let filo = check_policy("filo", DrawPolicy::Twofold).unwrap_err();
    let text = filo.to_string();
    assert!(
        text.starts_with("filo cannot be used with the draw policy twofold: "),
        "{text}"
    );
    assert!(
        text.contains("Gerbil") && text.contains("filo-all-history"),
        "{text}"
    );
}

/// Loads `history` (SAN from the start position), then plays `search` below the root, entering
/// each position; returns the last probe.
fn probe_after(name: &str, history: &[&str], search: &[&str]) -> Option<Repetition> {
    let mut d = by_name(name, DrawPolicy::Twofold).unwrap();
    let (positions, moves) = replab_truth::kit::game(Position::startpos(), history);
    let mut line = Line::default();
    load_history(&mut d, &mut line, &positions, &moves, 64);
    let mut pos = *positions.last().unwrap();
    let mut last = None;
    for san in search {
        let m = pos.parse_san(san).unwrap();
        let next = pos.play(m);
        line.push(&pos, m, &next);
        pos = next;
        last = d.probe(&line, &pos);
        d.enter(&line, &pos);
    }
    last
}

fn rep(distance: u32, earlier: u32) -> Option<Repetition> {
    Some(Repetition { distance, earlier })
}

#[test]
fn filo_follows_gerbils_history_rule_and_filo_all_history_does_not() {
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    // The start occurred once in the game and recurs in the search.
    assert_eq!(probe_after("filo", &shuffle[..2], &shuffle[2..]), None);
    assert_eq!(
        probe_after("filo-all-history", &shuffle[..2], &shuffle[2..]),
        rep(4, 1)
    );
    // It occurred twice in the game: Gerbil keeps it, with both occurrences.
    let twice = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"];
    for name in ["filo", "filo-all-history", "linear"] {
        assert_eq!(
            probe_after(name, &twice, &["Ng1", "Ng8"]),
            rep(4, 2),
            "{name}"
        );
    }
    // The root is in the table (the search's first position), occurring once so far.
    for name in ["filo", "filo-all-history", "linear"] {
        let back_to_root = ["Ng1", "Ng8", "Nf3", "Nf6"];
        assert_eq!(
            probe_after(name, &shuffle[..2], &back_to_root),
            rep(4, 1),
            "{name}"
        );
    }
    // A history-once position repeated twice in the search: Gerbil counts the search ones only.
    let search = ["Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    assert_eq!(probe_after("filo", &shuffle[..2], &search), rep(4, 1));
    assert_eq!(probe_after("linear", &shuffle[..2], &search), rep(4, 2));
    assert_eq!(
        probe_after("filo-all-history", &shuffle[..2], &search),
        rep(4, 2)
    );
}

#[test]
fn table_rows_report_the_nearest_occurrence_and_the_count() {
    let history = ["Nf3", "Nf6", "Ng1", "Ng8", "Nc3", "Nc6", "Nb1", "Nb8"];
    // The start occurs at plies 0, 4 and 8 (the root); the search returns to it twice more.
    let search = ["Nf3", "Nf6", "Ng1", "Ng8", "Nc3", "Nc6", "Nb1", "Nb8"];
    for name in [
        "linear",
        "tt-open",
        "filo",
        "filo-all-history",
        "rookie",
        "truth",
    ] {
        assert_eq!(
            probe_after(name, &history, &search[..4]),
            rep(4, 3),
            "{name}"
        );
        assert_eq!(probe_after(name, &history, &search), rep(4, 4), "{name}");
    }
}

#[test]
fn allowed_rows_agree_with_linear_under_their_policies_on_random_walks() {
    let starts = [
        "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
        "1n2k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1",
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    for row in DETECTORS.iter().filter(|d| d.caps.probes && d.caps.exact) {
        let mut compared = 0u64;
        for start in starts {
            for _game in 0..4 {
                // A game history of random reversible moves (so history positions recur).
                let mut positions = vec![Position::from_fen(start).unwrap()];
                let mut moves = Vec::new();
                for _ in 0..rng.random_range(0..16) {
                    let p = *positions.last().unwrap();
                    let list = p.legal_moves();
                    let rev: Vec<Move> =
                        list.iter().copied().filter(|&m| !p.is_zeroing(m)).collect();
                    let m = rev[rng.random_range(0..rev.len().min(3))];
                    moves.push(m);
                    positions.push(p.play(m));
                }
                let mut d = by_name(row.name, DrawPolicy::Twofold).unwrap();
                let mut linear = LinearDetector::new();
                let mut line = Line::default();
                load_history(&mut d, &mut line, &positions, &moves, 16);
                let root = *positions.last().unwrap();
                let mut check = |got: Option<Repetition>, want: Option<Repetition>, ply: u32| {
                    compared += 1;
                    if !row.caps.drops_single_history {
                        assert_eq!(got, want, "{} from {start}", row.name);
                    }
                    for p in DrawPolicy::ALL {
                        if check_policy(row.name, p).is_ok() {
                            assert_eq!(
                                got.is_some_and(|r| p.is_draw(r, ply)),
                                want.is_some_and(|r| p.is_draw(r, ply)),
                                "{} under {p} from {start}: {got:?} vs linear {want:?}",
                                row.name
                            );
                        }
                    }
                };
                random_walk(
                    &mut line,
                    &root,
                    5,
                    &mut rng,
                    &mut |visit, line, next| match visit {
                        Visit::Arrive => {
                            let got = d.probe(line, next);
                            let want = linear.probe(line, next);
                            check(got, want, line.plies_from_root());
                            d.enter(line, next);
                        }
                        Visit::Leave => d.leave(line, next),
                    },
                );
            }
        }
        assert!(compared > 1000, "{}: {compared}", row.name);
    }
}
