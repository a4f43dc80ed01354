//! `axon` agrees with truth on every scripted case except its listed blind spots, which must happen exactly.

use replab_axon::AxonDetector;

#[test]
fn axon_matches_truth_but_for_its_listed_blind_spots() {
    replab_truth::kit::check_all(&mut AxonDetector::new());
}
