//! Properties of the statistics that a wrong formula would break: symmetry, monotonicity, the
//! decision rule at its bounds, and the counting of pairs.

use replab_elo::{
    Decision, EloModel, GameResult, Pentanomial, ResultCounts, Sprt, SprtError, Trinomial,
    games_to_resolve_nelo, llr_bayeselo, llr_logistic, llr_normalized, summarize,
};

const MODELS: [EloModel; 3] = [EloModel::Normalized, EloModel::Logistic, EloModel::BayesElo];

fn sprt(model: EloModel) -> Sprt {
    Sprt::new(0.0, 5.0, 0.05, 0.05, model).unwrap()
}

fn mirrored(p: &Pentanomial) -> Pentanomial {
    Pentanomial::from_fastchess(p.ww, p.wd, p.wl, p.dd, p.ld, p.ll)
}

#[test]
fn symmetric_counts_give_zero_elo_and_an_interval_symmetric_about_zero() {
    for summary in [
        summarize(&Pentanomial::from_fastchess(40, 300, 120, 800, 300, 40)).unwrap(),
        summarize(&Trinomial::from_wdl(250, 500, 250)).unwrap(),
    ] {
        assert!(summary.elo.value.abs() < 1e-9, "{summary:?}");
        assert!(summary.nelo.value.abs() < 1e-9, "{summary:?}");
        assert!((summary.elo.interval.unwrap().lo + summary.elo.interval.unwrap().hi).abs() < 1e-9);
        assert!(
            (summary.nelo.interval.unwrap().lo + summary.nelo.interval.unwrap().hi).abs() < 1e-9
        );
        assert!(summary.elo.contains(0.0) && summary.elo.interval.unwrap().lo < -1.0);
        assert!((summary.los - 0.5).abs() < 1e-9);
    }
}

#[test]
fn a_winning_record_has_positive_elo_los_above_half_and_an_interval_excluding_zero() {
    let summary = summarize(&Pentanomial::from_fastchess(10, 100, 50, 200, 150, 40)).unwrap();
    assert!(summary.elo.value > 0.0 && summary.nelo.value > 0.0);
    assert!(summary.elo.interval.unwrap().lo > 0.0, "{summary:?}");
    assert!(summary.los > 0.99);
    let losing = summarize(&mirrored(&Pentanomial::from_fastchess(
        10, 100, 50, 200, 150, 40,
    )))
    .unwrap();
    assert!((losing.elo.value + summary.elo.value).abs() < 1e-9);
    assert!((losing.los + summary.los - 1.0).abs() < 1e-9);
}

#[test]
fn llr_changes_sign_when_the_hypotheses_swap() {
    let counts = Pentanomial::from_fastchess(30, 420, 90, 900, 470, 35);
    let games = counts.trinomial();
    for (forward, backward) in [
        (
            llr_normalized(0.0, 2.0, &counts),
            llr_normalized(2.0, 0.0, &counts),
        ),
        (
            llr_logistic(0.0, 2.0, &counts),
            llr_logistic(2.0, 0.0, &counts),
        ),
        (
            llr_bayeselo(0.0, 2.0, &games),
            llr_bayeselo(2.0, 0.0, &games),
        ),
    ] {
        assert!(forward.abs() > 0.1, "{forward}");
        assert!((forward + backward).abs() < 1e-9, "{forward} {backward}");
    }
}

#[test]
fn mirrored_counts_with_mirrored_bounds_give_the_opposite_llr() {
    let counts = Pentanomial::from_fastchess(30, 420, 90, 900, 470, 35);
    let mirror = mirrored(&counts);
    let pairs = [
        (
            llr_normalized(0.0, 2.0, &counts),
            llr_normalized(-2.0, 0.0, &mirror),
        ),
        (
            llr_logistic(0.0, 2.0, &counts),
            llr_logistic(-2.0, 0.0, &mirror),
        ),
        (
            llr_bayeselo(0.0, 2.0, &counts.trinomial()),
            llr_bayeselo(-2.0, 0.0, &mirror.trinomial()),
        ),
    ];
    for (llr, mirrored_llr) in pairs {
        assert!((llr + mirrored_llr).abs() < 1e-6, "{llr} {mirrored_llr}");
    }
}

#[test]
fn equal_wins_and_losses_give_zero_llr_for_bounds_symmetric_about_zero() {
    let games = Trinomial::from_wdl(300, 900, 300);
    assert!(llr_bayeselo(-3.0, 3.0, &games).abs() < 1e-9);
    assert!(llr_logistic(-3.0, 3.0, &games).abs() < 1e-9);
    assert!(llr_normalized(-3.0, 3.0, &games).abs() < 1e-9);
}

#[test]
fn more_wins_give_a_larger_llr_in_every_model() {
    for model in MODELS {
        let test = sprt(model);
        let mut pairs = Pentanomial::from_fastchess(50, 400, 100, 800, 400, 50);
        let mut games = pairs.trinomial();
        let (mut last_pairs, mut last_games) = (test.llr(&pairs), test.llr(&games));
        for _ in 0..20 {
            pairs.wd += 10;
            games.wins += 10;
            let (now_pairs, now_games) = (test.llr(&pairs), test.llr(&games));
            assert!(
                now_pairs > last_pairs,
                "{model:?}: {now_pairs} <= {last_pairs}"
            );
            assert!(
                now_games > last_games,
                "{model:?}: {now_games} <= {last_games}"
            );
            (last_pairs, last_games) = (now_pairs, now_games);
        }
    }
}

#[test]
fn the_decision_flips_exactly_at_the_bounds() {
    let test = Sprt::fishtest_stc();
    let bound = 19f64.ln();
    assert!((test.upper() - bound).abs() < 1e-12);
    assert!((test.lower() + bound).abs() < 1e-12);
    assert_eq!(test.decision(test.upper()), Decision::AcceptH1);
    assert_eq!(test.decision(test.upper() - 1e-9), Decision::Continue);
    assert_eq!(test.decision(test.lower()), Decision::AcceptH0);
    assert_eq!(test.decision(test.lower() + 1e-9), Decision::Continue);
    assert_eq!(test.decision(0.0), Decision::Continue);
    assert_eq!(test.decision(f64::NAN), Decision::Continue);
    let asymmetric = Sprt::new(0.0, 2.0, 0.01, 0.2, EloModel::Normalized).unwrap();
    assert!((asymmetric.lower() - (0.2f64 / 0.99).ln()).abs() < 1e-12);
    assert!((asymmetric.upper() - 80f64.ln()).abs() < 1e-12);
}

#[test]
fn a_strong_record_passes_and_a_weak_one_fails() {
    let strong = Pentanomial::from_fastchess(20, 300, 100, 600, 500, 60);
    for model in MODELS {
        let test = sprt(model);
        assert_eq!(
            test.decision(test.llr(&strong)),
            Decision::AcceptH1,
            "{model:?}"
        );
        assert_eq!(
            test.decision(test.llr(&mirrored(&strong))),
            Decision::AcceptH0,
            "{model:?}"
        );
    }
}

#[test]
fn bad_sprt_parameters_are_refused() {
    let normalized = EloModel::Normalized;
    assert!(matches!(
        Sprt::new(2.0, 0.0, 0.05, 0.05, normalized),
        Err(SprtError::Bounds { .. })
    ));
    assert!(matches!(
        Sprt::new(0.0, 0.0, 0.05, 0.05, normalized),
        Err(SprtError::Bounds { .. })
    ));
    assert!(matches!(
        Sprt::new(0.0, f64::NAN, 0.05, 0.05, normalized),
        Err(SprtError::Bounds { .. })
    ));
    for (alpha, beta) in [(0.0, 0.05), (0.05, 1.0), (0.6, 0.5), (f64::NAN, 0.05)] {
        assert!(matches!(
            Sprt::new(0.0, 2.0, alpha, beta, normalized),
            Err(SprtError::ErrorRates { .. })
        ));
    }
}

#[test]
fn no_games_give_no_summary_and_a_zero_llr() {
    assert!(summarize(&Pentanomial::default()).is_none());
    assert!(summarize(&Trinomial::default()).is_none());
    for model in MODELS {
        assert_eq!(sprt(model).llr(&Pentanomial::default()), 0.0);
    }
}

#[test]
fn zero_counts_are_regularised_so_the_statistics_stay_finite() {
    let only_wins = Pentanomial::from_fastchess(0, 0, 0, 0, 0, 12);
    let summary = summarize(&only_wins).unwrap();
    assert!(summary.elo.value.is_finite() && summary.elo.value > 1000.0);
    assert!(summary.nelo.value.is_finite());
    let one_sided = Pentanomial::from_fastchess(0, 3, 0, 10, 6, 0);
    assert!(llr_normalized(0.0, 2.0, &one_sided).is_finite());
    assert!(llr_logistic(0.0, 2.0, &one_sided).is_finite());
    for all_draws in [
        &Pentanomial::from_fastchess(0, 0, 0, 40, 0, 0) as &dyn ResultCounts,
        &Trinomial::from_wdl(0, 80, 0),
    ] {
        assert!(llr_normalized(0.0, 2.0, all_draws).is_finite());
        assert!(llr_logistic(0.0, 2.0, all_draws).is_finite());
        assert!(summarize(all_draws).unwrap().elo.value.abs() < 1e-9);
    }
    // cutechess's BayesElo LLR stays 0 until there is a win, a draw and a loss.
    assert_eq!(llr_bayeselo(0.0, 2.0, &Trinomial::from_wdl(5, 3, 0)), 0.0);
    assert!(llr_bayeselo(0.0, 2.0, &Trinomial::from_wdl(5, 3, 1)) > 0.0);
}

#[test]
fn pairs_fall_into_their_buckets_and_convert_to_games() {
    use GameResult::{Draw, Loss, Win};
    let mut counts = Pentanomial::default();
    for first in [Loss, Draw, Win] {
        for second in [Loss, Draw, Win] {
            counts.add_pair(first, second);
        }
    }
    assert_eq!(counts, Pentanomial::from_fastchess(1, 2, 2, 1, 2, 1));
    assert_eq!(counts.ptnml(), [1, 2, 3, 2, 1]);
    assert_eq!(counts.pairs(), 9);
    assert_eq!(counts.trinomial(), Trinomial::from_wdl(6, 6, 6));
    assert_eq!(counts.classes(), vec![1, 2, 3, 2, 1]);
    assert_eq!(
        Pentanomial::of_pair(Win, Draw),
        Pentanomial::of_pair(Draw, Win)
    );
    assert_eq!(
        Pentanomial::from_ptnml([1, 2, 3, 2, 1]).ptnml(),
        [1, 2, 3, 2, 1]
    );
    let mut games = Trinomial::default();
    games.add_game(Win);
    games.add_game(Loss);
    games.add_game(Draw);
    assert_eq!(games, Trinomial::from_wdl(1, 1, 1));
}

#[test]
fn merging_shards_equals_counting_everything_at_once() {
    let first = Pentanomial::from_fastchess(1, 2, 3, 4, 5, 6);
    let second = Pentanomial::from_fastchess(6, 5, 4, 3, 2, 1);
    let mut merged = first;
    merged += second;
    assert_eq!(merged, first + second);
    assert_eq!(merged, Pentanomial::from_fastchess(7, 7, 7, 7, 7, 7));
    assert_eq!(first.trinomial() + second.trinomial(), merged.trinomial());
}

#[test]
fn games_to_resolve_reproduce_the_interval_width_they_were_asked_for() {
    let counts = Pentanomial::from_fastchess(34, 54, 31, 32, 64, 75);
    let summary = summarize(&counts).unwrap();
    // At the summary's own half-width the formula must give about the games it has (the delta
    // method linearises the logistic curve, so allow a few percent).
    let games = summary
        .games_to_resolve_elo(summary.elo.error().unwrap())
        .unwrap() as f64;
    assert!((games / summary.games as f64 - 1.0).abs() < 0.05, "{games}");
    // Halving the difference needs four times the games.
    let quarter = summary
        .games_to_resolve_elo(summary.elo.error().unwrap() / 2.0)
        .unwrap() as f64;
    assert!((quarter / games - 4.0).abs() < 0.01, "{quarter} {games}");
    // The formula is the normal approximation's, whose normalized half-width depends on the
    // games only; the reported interval is wider (the estimated σ's spread), so at its
    // half-width the formula asks for fewer games than were played, but not far fewer.
    let nelo_games = games_to_resolve_nelo(summary.nelo.error().unwrap(), 0.95).unwrap() as f64;
    let share = nelo_games / summary.games as f64;
    assert!((0.8..=1.0).contains(&share), "{nelo_games}");
    assert_eq!(games_to_resolve_nelo(0.0, 0.95), None);
    // A difference of rounding noise has no game count (not u64::MAX).
    assert_eq!(summary.games_to_resolve_elo(1e-13), None);
    assert!(summary.games_to_resolve_elo(1e-3).is_some());
    assert_eq!(games_to_resolve_nelo(5.0, 1.0), None);
    assert!(replab_elo::summarize_with_coverage(&counts, 0.0).is_none());
    assert!(
        Sprt::fishtest_stc()
            .sequential_estimate(&counts, 1.5)
            .is_none()
    );
    assert_eq!(summary.games_to_resolve_elo(-1.0), None);
}

#[test]
fn counts_and_summaries_serialise_with_stable_field_names() {
    let counts = Pentanomial::from_fastchess(34, 54, 31, 32, 64, 75);
    let json = serde_json::to_value(counts).unwrap();
    assert_eq!(json["ll"], 34);
    assert_eq!(json["ww"], 75);
    let summary = summarize(&counts).unwrap();
    let json = serde_json::to_value(summary).unwrap();
    assert!(json["elo"]["value"].as_f64().unwrap() > 55.0);
    assert_eq!(json["elo"]["interval"]["coverage"], 0.95);
    assert_eq!(json["elo"]["interval"]["n"], counts.pairs());
    let report = serde_json::to_value(Sprt::fishtest_stc().report(&counts)).unwrap();
    for field in ["elo0", "elo1", "llr", "lower", "upper", "decision"] {
        assert!(report.get(field).is_some(), "{field} missing from {report}");
    }
    let decision = serde_json::to_value(Decision::AcceptH1).unwrap();
    assert_eq!(decision, "accept_h1");
    let model = serde_json::to_value(EloModel::Normalized).unwrap();
    assert_eq!(model, "normalized");
}

/// fastchess's `sprt.cpp` uses the quadratic approximation of the GSPRT,
/// N · (s1 − s0)(2s − s0 − s1) / (2v), with s_j the score of hypothesis j; on large samples with
/// small bounds the exact fishtest LLR must agree with it closely.
#[test]
fn the_exact_llr_agrees_with_the_quadratic_approximation_on_large_samples() {
    let pairs = Pentanomial::from_fastchess(300, 9000, 2000, 18000, 9400, 320);
    let games = Trinomial::from_wdl(36433, 68692, 36027);
    for (counts, per_game) in [
        (&pairs as &dyn ResultCounts, 2.0),
        (&games as &dyn ResultCounts, 1.0),
    ] {
        let summary = summarize(counts).unwrap();
        let (s, v, n) = (
            summary.score,
            summary.sample_variance,
            summary.samples as f64,
        );
        let quadratic = |s0: f64, s1: f64| n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * v);
        let sigma = (per_game * v).sqrt();
        let nelo_score = |nelo: f64| 0.5 + nelo / replab_elo::NELO_PER_T * sigma;
        let expected = quadratic(nelo_score(0.0), nelo_score(2.0));
        let exact = llr_normalized(0.0, 2.0, counts);
        assert!((exact - expected).abs() < 0.01, "{exact} vs {expected}");
        let logistic_score = replab_elo::logistic_score;
        let expected = quadratic(logistic_score(0.0), logistic_score(2.0));
        let exact = llr_logistic(0.0, 2.0, counts);
        assert!((exact - expected).abs() < 0.01, "{exact} vs {expected}");
    }
}

#[test]
fn the_sequential_estimate_mirrors_with_the_counts_and_bounds() {
    let counts = Pentanomial::from_fastchess(20, 300, 100, 600, 500, 60);
    let test = Sprt::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let mirror_test = Sprt::new(-2.0, 0.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let estimate = test.sequential_estimate(&counts, 0.95).unwrap();
    let mirror = mirror_test
        .sequential_estimate(&mirrored(&counts), 0.95)
        .unwrap();
    assert!(
        estimate.interval.unwrap().lo < estimate.value
            && estimate.value < estimate.interval.unwrap().hi
    );
    assert!(estimate.value > 0.0, "{estimate:?}");
    assert!(
        (estimate.value + mirror.value).abs() < 1e-6,
        "{estimate:?} {mirror:?}"
    );
    assert!((estimate.interval.unwrap().lo + mirror.interval.unwrap().hi).abs() < 1e-6);
    assert!((estimate.interval.unwrap().hi + mirror.interval.unwrap().lo).abs() < 1e-6);
    let bayes = Sprt::new(0.0, 2.0, 0.05, 0.05, EloModel::BayesElo).unwrap();
    assert!(bayes.sequential_estimate(&counts, 0.95).is_none());
}

/// 80% power needs ((1.96 + 0.84) / 1.96)² ≈ 2.04 times the games of 50% power (an interval
/// centred on the difference just excluding 0); 50% power is exactly the half-width count.
#[test]
fn games_for_power_scales_with_the_summed_quantiles() {
    let summary = summarize(&Pentanomial::from_fastchess(70, 330, 500, 600, 310, 60)).unwrap();
    let d = 5.0;
    let half = summary.games_to_resolve_elo(d).unwrap();
    assert_eq!(summary.games_for_power(d, 0.5), Some(half));
    let eighty = summary.games_for_power(d, 0.8).unwrap() as f64;
    let ratio = eighty / half as f64;
    assert!((ratio - 2.0408).abs() < 0.01, "{ratio}");
    assert!(summary.games_for_power(d, 0.9).unwrap() as f64 > eighty);
    assert_eq!(summary.games_for_power(d, 1.0), None);
    assert_eq!(summary.games_for_power(-d, 0.8), None);
}

#[test]
fn the_three_way_verdict_flips_with_the_counts_and_the_decisions() {
    use replab_elo::{ThreeWay, Verdict};
    let test = ThreeWay::new(-10.0, 10.0, 0.05).unwrap();
    let even = Pentanomial::from_fastchess(100, 1000, 300, 2000, 1000, 100);
    assert_eq!(test.verdict(&even), Verdict::Within);
    let winning = Pentanomial::from_fastchess(10, 100, 50, 200, 150, 40);
    assert_eq!(test.verdict(&winning), Verdict::Better);
    assert_eq!(test.verdict(&mirrored(&winning)), Verdict::Worse);
    assert_eq!(
        test.verdict(&Pentanomial::from_fastchess(1, 2, 1, 3, 2, 1)),
        Verdict::Continue
    );
    use Decision::{AcceptH0, AcceptH1, Continue};
    for (gain, loss, verdict) in [
        (AcceptH1, Continue, Verdict::Better),
        (AcceptH0, AcceptH0, Verdict::Worse),
        (AcceptH0, AcceptH1, Verdict::Within),
        (AcceptH0, Continue, Verdict::Continue),
        (Continue, AcceptH1, Verdict::Continue),
    ] {
        assert_eq!(ThreeWay::combine(gain, loss), verdict);
    }
    assert!(ThreeWay::new(0.0, 10.0, 0.05).is_err());
    // Halving the bounds quadruples the games expected.
    let narrow = ThreeWay::new(-5.0, 5.0, 0.05).unwrap().expected_games() as f64;
    let ratio = narrow / test.expected_games() as f64;
    assert!((ratio - 4.0).abs() < 0.01, "{ratio}");
}
