//! The naive detector agrees with truth on every scripted case.

use replab_naive::NaiveDetector;

#[test]
fn naive_matches_truth_on_the_scripted_cases() {
    replab_truth::kit::check_all(&mut NaiveDetector::new());
}
