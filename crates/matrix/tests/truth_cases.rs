//! `matrix` and `matrix-checksum` agree with truth on every scripted case.

use replab_matrix::MatrixDetector;

#[test]
fn both_matrix_variants_match_truth_on_the_scripted_cases() {
    replab_truth::kit::check_all(&mut MatrixDetector::new());
    replab_truth::kit::check_all(&mut MatrixDetector::with_checksum());
}
