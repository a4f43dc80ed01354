//! `truth` repeats exactly where the scripted cases say, and their premises about the board hold.

use replab_board::Position;
use replab_truth::{TruthDetector, kit};

#[test]
fn truth_repeats_where_the_file_says() {
    kit::check_all(&mut TruthDetector::new());
    let cases = kit::cases();
    let case = |name: &str| cases.iter().find(|c| c.name == name).unwrap();
    // After d4 the black e4 pawn may capture en passant…
    let ep = case("en-passant-possible-at-first-occurrence-only");
    let start = Position::from_fen(&ep.fen).unwrap();
    assert!(
        start
            .play(start.parse_san("d4").unwrap())
            .ep_square()
            .is_some()
    );
    // …but not when the capture would expose its king: no en-passant square then.
    let pinned = case("pseudo-legal-en-passant-of-a-pinned-pawn-does-not-count");
    let start = Position::from_fen(&pinned.fen).unwrap();
    assert_eq!(start.play(start.parse_san("d4").unwrap()).ep_square(), None);
}
