//! Key truncation (`Detector::set_key_bits`, `by_name_with_key_bits`): the table's `key_width`
//! capability is exactly the set of detectors that support it, 64 bits is the default detector
//! answer for answer, and truncated keys only add matches to the linear scan.

use crate::common;

use common::{Visit, random_walk};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use replab_board::{Move, Position};
use replab_detect::{Detector, DrawPolicy, Line, Repetition, load_history};
use replab_registry::{
    AnyDetector, DETECTORS, FULL_KEY_BITS, KeyBitsError, by_name, by_name_with_key_bits, key_mask,
    with_detector,
};

#[test]
fn the_key_width_capability_is_what_set_key_bits_supports() {
    for row in DETECTORS {
        let mut d = by_name(row.name, DrawPolicy::Twofold).unwrap();
        assert_eq!(d.set_key_bits(32), row.caps.key_width, "{}", row.name);
        let built = by_name_with_key_bits(row.name, DrawPolicy::Twofold, 24);
        if row.caps.key_width {
            assert_eq!(built.unwrap().name(), row.name);
        } else {
            let e = built.unwrap_err();
            assert_eq!(e, KeyBitsError::Unsupported(row.name.to_string()));
            assert!(e.to_string().contains("cannot be truncated"), "{e}");
        }
    }
    for bits in [0, 65] {
        assert_eq!(
            by_name_with_key_bits("linear", DrawPolicy::Twofold, bits).unwrap_err(),
            KeyBitsError::Bits(bits)
        );
    }
    assert!(matches!(
        by_name_with_key_bits("nosuch", DrawPolicy::Twofold, 32),
        Err(KeyBitsError::Unknown(_))
    ));
    assert!(with_detector!("off", DrawPolicy::Twofold, key_bits = 32, |d| d.name()).is_err());
    assert_eq!(key_mask(FULL_KEY_BITS), u64::MAX);
    assert_eq!(key_mask(16), 0xffff);
    assert_eq!(key_mask(0), 0);
}

/// One probe or upcoming answer of a walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Probe(Option<Repetition>),
    Upcoming(bool),
}

/// A seeded depth-first walk with game history, entering and leaving as the searcher does (a
/// few reversible moves per node, some null moves); returns every answer of `d`.
fn walk_answers(d: &mut AnyDetector, start: &str, seed: u64) -> Vec<Answer> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = vec![Position::from_fen(start).unwrap()];
    let mut moves = Vec::new();
    for _ in 0..rng.random_range(4..24) {
        let p = *positions.last().unwrap();
        let rev: Vec<Move> = p
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| !p.is_zeroing(m))
            .collect();
        let m = rev[rng.random_range(0..rev.len().min(3))];
        moves.push(m);
        positions.push(p.play(m));
    }
    let mut line = Line::default();
    load_history(d, &mut line, &positions, &moves, 16);
    let mut out = Vec::new();
    let root = *positions.last().unwrap();
    random_walk(
        &mut line,
        &root,
        5,
        &mut rng,
        &mut |visit, line, next| match visit {
            Visit::Arrive => {
                out.push(Answer::Probe(d.probe(line, next)));
                d.enter(line, next);
                out.push(Answer::Upcoming(d.upcoming(line, next)));
            }
            Visit::Leave => d.leave(line, next),
        },
    );
    out
}

const STARTS: [&str; 3] = [
    "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
    "1n2k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1",
    "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
];

#[test]
fn sixty_four_key_bits_is_the_default_detector_answer_for_answer() {
    for row in DETECTORS.iter().filter(|d| d.caps.key_width) {
        let mut answers = 0;
        for (i, start) in STARTS.iter().enumerate() {
            for seed in 0..3 {
                let seed = seed + 10 * i as u64;
                let mut default = by_name(row.name, DrawPolicy::Stockfish).unwrap();
                let mut full =
                    by_name_with_key_bits(row.name, DrawPolicy::Stockfish, FULL_KEY_BITS).unwrap();
                let want = walk_answers(&mut default, start, seed);
                let got = walk_answers(&mut full, start, seed);
                assert_eq!(got, want, "{} from {start}", row.name);
                assert_eq!(full.stats(), default.stats(), "{}", row.name);
                answers += want.len();
            }
        }
        assert!(answers > 1000, "{}: {answers}", row.name);
    }
}

#[test]
fn truncated_linear_keys_only_add_matches() {
    // The linear scan compares the same entries at every width: a truncated key can only match
    // more of them, so every full-width repetition is still found and some are added.
    let mut added = 0;
    for (i, start) in STARTS.iter().enumerate() {
        for seed in 0..3 {
            let seed = seed + 10 * i as u64;
            let mut full = by_name("linear", DrawPolicy::Twofold).unwrap();
            let mut narrow = by_name_with_key_bits("linear", DrawPolicy::Twofold, 2).unwrap();
            let want = walk_answers(&mut full, start, seed);
            let got = walk_answers(&mut narrow, start, seed);
            for (g, w) in got.iter().zip(&want) {
                if let (Answer::Probe(g), Answer::Probe(w)) = (g, w) {
                    assert!(w.is_none() || g.is_some(), "{start}: lost {w:?}");
                    if let (Some(g), Some(w)) = (g, w) {
                        assert!(g.earlier >= w.earlier && g.distance <= w.distance);
                    }
                    added += u32::from(g.is_some() && w.is_none());
                }
            }
        }
    }
    assert!(added > 10, "{added}");
}
