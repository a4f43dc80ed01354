//! `rookie` agrees with truth on every scripted case, with Rookie's table and with a tiny one (more futile back-traces, same answers).

use replab_rookie::RookieDetector;

#[test]
fn rookie_matches_truth_on_the_scripted_cases() {
    replab_truth::kit::check_all(&mut RookieDetector::new());
    replab_truth::kit::check_all(&mut RookieDetector::with_bits(2));
}
