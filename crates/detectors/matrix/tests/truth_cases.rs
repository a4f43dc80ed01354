//! `matrix`, `matrix-checksum` and `matrix-keybits` agree with truth on every scripted case.

use replab_matrix::MatrixDetector;

#[test]
fn every_matrix_variant_matches_truth_on_the_scripted_cases() {
    replab_truth::kit::check_all(&mut MatrixDetector::new());
    replab_truth::kit::check_all(&mut MatrixDetector::with_checksum());
    replab_truth::kit::check_all(&mut MatrixDetector::with_key_bits());
}
