//! In-process tests of the graph-history experiment.

use super::*;
use crate::Silent;

fn small() -> Config {
    Config {
        depth: 3,
        game_positions: 4,
        long_positions: 4,
        threads: 2,
        command: "replab ghi (test)".into(),
        ..Config::default()
    }
}

#[test]
fn counts_repeat_and_every_position_has_every_mode() {
    let a = run(&small(), &mut Silent).unwrap();
    let b = run(
        &Config {
            threads: 1,
            ..small()
        },
        &mut Silent,
    )
    .unwrap();
    assert_eq!(a.positions, b.positions, "deterministic counts");
    assert_eq!(a.examples, b.examples);
    for p in &a.positions {
        assert_eq!(p.outcomes.len(), MODES.len());
        assert_eq!(p.cause.is_some(), p.outcomes[0].differs(&p.outcomes[1]));
        assert_eq!(p.ablations.len(), if p.cause.is_some() { 2 } else { 0 });
    }
    for set in ["repetition", "games", "long"] {
        assert!(a.positions.iter().any(|p| p.set == set), "{set}");
    }
    let long: Vec<&PositionResult> = a.positions.iter().filter(|p| p.set == "long").collect();
    assert!(long.iter().all(|p| (90..=99).contains(&p.halfmove_clock)));
    // The reference never reuses a tainted score.
    assert!(
        a.positions
            .iter()
            .all(|p| p.outcomes[1].repetition_tainted_cutoffs
                + p.outcomes[1].fifty_tainted_cutoffs
                == 0)
    );
    let json = serde_json::to_string(&a).unwrap();
    assert!(json.contains("\"tt_mode\""));
    let scratch = replab_truth::kit::Scratch::new("ghi-page");
    let dir = ReportDir::create(scratch.path("ghi")).unwrap();
    write(&a, &dir).unwrap();
    let out = dir.commit().unwrap();
    assert!(out.join("examples.pgn").exists());
    assert!(
        std::fs::read_to_string(out.join("index.html"))
            .unwrap()
            .contains("NoPathScores")
    );
    assert!(
        Config {
            depth: 0,
            ..small()
        }
        .check()
        .is_err()
    );
    assert!(Config::quick().check().is_ok());
}

/// Searches one position (no history) with `on`, the reference and the ablations.
fn diagnose_fen(fen: &str, depth: u32) -> (Option<Cause>, Outcome, Outcome) {
    let pos = Position::from_fen(fen).unwrap();
    diagnose(&Config::default(), depth, &[pos], &[]).unwrap()
}

#[test]
fn a_known_repetition_case_reproduces() {
    // Diep–Axon, after 45.Kf2 (the repetition suite's game): a repetition draw scored in one
    // line is stored and reused in another; the path-safe reference does not reuse it.
    let (cause, on, reference) = diagnose_fen("5k2/RQ5p/1p2p3/6p1/8/3q4/P4K1P/8 b - - 8 45", 5);
    assert_eq!(cause, Some(Cause::Repetition));
    assert!(on.differs(&reference));
    assert!(on.repetition_tainted_cutoffs > 0);
    assert_eq!(
        reference.repetition_tainted_cutoffs + reference.fifty_tainted_cutoffs,
        0
    );
    // One ply shallower there is no difference.
    assert_eq!(
        diagnose_fen("5k2/RQ5p/1p2p3/6p1/8/3q4/P4K1P/8 b - - 8 45", 4).0,
        None
    );
}

#[test]
fn a_fifty_move_case_is_classified_as_fifty_move() {
    // KRB v K with the halfmove clock at 95: fifty-move draws fill the tree, and a score they
    // made is reused where the clock differs. (KR v K no longer shows it: since dead positions
    // score as draws, the lines where the king takes the rook end in an exact draw, the same
    // score the fifty-move rule gives, so no reused score changes the root.)
    let fen = "2R5/8/8/8/1k2K3/8/8/6B1 w - - 95 49";
    let (cause, on, reference) = diagnose_fen(fen, 6);
    assert_eq!(cause, Some(Cause::FiftyMove));
    assert!(on.fifty_tainted_cutoffs > 0);
    assert!(on.differs(&reference));
    // With the clock at 0 the fifty-move rule is out of reach: no fifty-move case.
    assert_ne!(
        diagnose_fen("2R5/8/8/8/1k2K3/8/8/6B1 w - - 0 49", 6).0,
        Some(Cause::FiftyMove)
    );
    // Removing the fifty-move-tainted scores restores the reference; removing the
    // repetition-tainted ones does not.
    let pos = Position::from_fen(fen).unwrap();
    let config = Config::default();
    let fifty = outcome(&config, 6, &ABLATIONS[1], &[pos], &[]).unwrap();
    let rep = outcome(&config, 6, &ABLATIONS[0], &[pos], &[]).unwrap();
    assert!(!fifty.differs(&reference) && rep.differs(&reference));
}
