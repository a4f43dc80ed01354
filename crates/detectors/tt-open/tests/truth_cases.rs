//! `tt-open` agrees with truth on every scripted case at its default size. (A small table can
//! miss repetitions when two open positions share a slot: the audit measures that.)

use replab_tt_open::TtOpenDetector;

#[test]
fn tt_open_matches_truth_on_the_scripted_cases() {
    replab_truth::kit::check_all(&mut TtOpenDetector::new());
}
