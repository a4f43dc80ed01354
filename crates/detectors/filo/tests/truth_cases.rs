//! `filo` agrees with truth on every scripted case, at its default size and at a small one.

use replab_filo::FiloDetector;

#[test]
fn filo_matches_truth_on_the_scripted_cases() {
    replab_truth::kit::check_all(&mut FiloDetector::new());
    replab_truth::kit::check_all(&mut FiloDetector::with_slots(32));
}
