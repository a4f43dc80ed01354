//! The real coverage of the intervals `summarize` reports, measured by a seeded simulation:
//! matches drawn from known pentanomial distributions at 1 to 1,000 game pairs. An interval
//! labelled 95% must cover the true value at least 95% of the time, less a Monte-Carlo
//! tolerance, wherever one is given; where the samples cannot back one, none is given.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use replab_elo::{
    DEFAULT_COVERAGE, MIN_INTERVAL_SAMPLES, NELO_PER_T, Pentanomial, logistic_elo, summarize,
};

/// Simulated matches per distribution and pair count.
const MATCHES: u32 = 2000;

/// How far below its label a measured coverage may fall: three standard errors of a
/// proportion near 0.95 over [`MATCHES`] matches (√(0.95 · 0.05 / 2000) ≈ 0.0049), rounded up.
const TOLERANCE: f64 = 0.015;

/// Fewest matches with an interval for their coverage to be judged (its standard error is
/// then at most about 0.015).
const JUDGED: u32 = 200;

/// The pair counts of the simulation, the minimum for an interval among them.
const PAIRS: [u64; 8] = [1, 2, 5, 10, MIN_INTERVAL_SAMPLES, 30, 100, 1000];

/// The per-pair scores of the five pentanomial classes.
const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Known distributions over `[LL, LD, WL+DD, WD, WW]`: near-equal players (about +5 Elo) with
/// 30%, 60% and 90% of the pairs scoring 1–1, and a lopsided match (about +185 Elo).
const DISTRIBUTIONS: [(&str, [f64; 5]); 4] = [
    ("near-equal, 30% 1-1 pairs", [0.14, 0.2, 0.3, 0.2, 0.16]),
    ("near-equal, 60% 1-1 pairs", [0.07, 0.12, 0.6, 0.13, 0.08]),
    ("near-equal, 90% 1-1 pairs", [0.01, 0.03, 0.9, 0.04, 0.02]),
    ("lopsided", [0.02, 0.05, 0.25, 0.3, 0.38]),
];

/// The true logistic and normalized Elo of a pentanomial distribution.
fn truth(p: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = p.iter().zip(SCORES).map(|(q, a)| q * a).sum();
    let variance: f64 = p
        .iter()
        .zip(SCORES)
        .map(|(q, a)| q * (a - mean).powi(2))
        .sum();
    let nelo = (mean - 0.5) / (2.0 * variance).sqrt() * NELO_PER_T;
    (logistic_elo(mean), nelo)
}

/// One match of `pairs` pairs drawn from `p`.
fn draw(p: &[f64; 5], pairs: u64, rng: &mut Xoshiro256PlusPlus) -> Pentanomial {
    let mut counts = [0u64; 5];
    for _ in 0..pairs {
        let u: f64 = rng.random();
        let mut cumulative = 0.0;
        let class = p
            .iter()
            .position(|q| {
                cumulative += q;
                u < cumulative
            })
            .unwrap_or(4);
        counts[class] += 1;
    }
    Pentanomial::from_ptnml(counts)
}

/// Of `MATCHES` matches: how many had an interval, and how many of those covered the true
/// logistic and normalized Elo.
fn measure(p: &[f64; 5], pairs: u64, rng: &mut Xoshiro256PlusPlus) -> (u32, u32, u32) {
    let (elo, nelo) = truth(p);
    let (mut given, mut elo_covered, mut nelo_covered) = (0, 0, 0);
    for _ in 0..MATCHES {
        let s = summarize(&draw(p, pairs, rng)).expect("at least one pair");
        assert_eq!(s.elo.interval.is_some(), s.nelo.interval.is_some());
        if s.elo.interval.is_some() {
            given += 1;
            elo_covered += u32::from(s.elo.contains(elo));
            nelo_covered += u32::from(s.nelo.contains(nelo));
        }
    }
    (given, elo_covered, nelo_covered)
}

#[test]
fn every_interval_given_covers_at_least_its_label() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(35);
    let mut short = Vec::new();
    for (name, p) in &DISTRIBUTIONS {
        for pairs in PAIRS {
            let (given, elo, nelo) = measure(p, pairs, &mut rng);
            let share = |k: u32| f64::from(k) / f64::from(given.max(1));
            println!(
                "{name}, {pairs} pairs: interval given in {given} of {MATCHES}; coverage Elo \
                 {:.3}, nElo {:.3}",
                share(elo),
                share(nelo)
            );
            if pairs < MIN_INTERVAL_SAMPLES && given > 0 {
                short.push(format!(
                    "{name}, {pairs} pairs: an interval below the minimum"
                ));
            }
            if given < JUDGED {
                continue;
            }
            for (what, covered) in [("Elo", elo), ("nElo", nelo)] {
                if share(covered) < DEFAULT_COVERAGE - TOLERANCE {
                    short.push(format!(
                        "{name}, {pairs} pairs: {what} interval covers {:.3} < {}",
                        share(covered),
                        DEFAULT_COVERAGE
                    ));
                }
            }
        }
    }
    assert!(short.is_empty(), "{}", short.join("\n"));
}

#[test]
fn samples_that_all_score_the_same_get_no_interval() {
    for counts in [
        Pentanomial::from_fastchess(0, 0, 40, 0, 0, 0),
        Pentanomial::from_fastchess(0, 0, 10, 30, 0, 0),
        Pentanomial::from_fastchess(0, 0, 0, 0, 0, 50),
    ] {
        let s = summarize(&counts).unwrap();
        assert!(
            s.elo.interval.is_none() && s.nelo.interval.is_none(),
            "{s:?}"
        );
        assert!(!s.elo.excludes(0.0) && !s.elo.contains(s.elo.value));
    }
    // One pair of another score gives the variance an interval needs.
    let s = summarize(&Pentanomial::from_fastchess(0, 0, 10, 29, 1, 0)).unwrap();
    assert!(s.elo.interval.is_some() && s.elo.contains(0.0));
}

#[test]
fn the_minimum_sample_count_is_where_the_interval_starts() {
    let below = Pentanomial::from_ptnml([1, 2, MIN_INTERVAL_SAMPLES - 7, 2, 1]);
    let at = Pentanomial::from_ptnml([1, 2, MIN_INTERVAL_SAMPLES - 6, 2, 1]);
    assert_eq!(below.pairs() + 1, MIN_INTERVAL_SAMPLES);
    assert!(summarize(&below).unwrap().elo.interval.is_none());
    assert!(summarize(&at).unwrap().elo.interval.is_some());
}
