//! `tt-thompson` on its replay table agrees with truth on every scripted case.

use replab_tt_thompson::ThompsonDetector;

#[test]
fn tt_thompson_matches_truth_on_the_scripted_cases() {
    replab_truth::kit::check_all(&mut ThompsonDetector::new());
}
