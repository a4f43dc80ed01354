//! `linear` agrees with truth on every scripted case.

use replab_linear::LinearDetector;

#[test]
fn linear_matches_truth_on_the_scripted_cases() {
    replab_truth::kit::check_all(&mut LinearDetector::new());
}
