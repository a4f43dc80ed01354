use replab_board::Position;
use replab_search::{SearchConfig, SharedTable};

use super::group::{Game, Mode, Variant, run_group};

fn game(fen: &str, sans: &[&str], id: &str) -> Game {
    let (positions, moves) = replab_truth::kit::game(Position::from_fen(fen).unwrap(), sans);
    Game {
        id: id.into(),
        set: "test".into(),
        positions,
        moves,
    }
}

#[test]
fn smoke() {
    let g = game(
        "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1",
        &["Qh6+", "Kg8", "Qg5+", "Kh8"],
        "perpetual",
    );
    let config = SearchConfig {
        max_depth: 5,
        tt_bits: Some(16),
        ..SearchConfig::default()
    };
    let table = SharedTable::new(16);
    for v in Variant::ALL {
        for t in [1, 2, 4] {
            let mode = Mode::Deterministic {
                seed: 1,
                quantum: 4,
            };
            let a = run_group(v, &g, config, t, &table, mode, true).unwrap();
            let b = run_group(v, &g, config, t, &table, mode, true).unwrap();
            eprintln!(
                "{} {t}: {:?} {:?}",
                v.name(),
                a.audit(),
                a.threads.iter().map(|t| t.nodes).collect::<Vec<_>>()
            );
            assert_eq!(a.fingerprint(), b.fingerprint());
        }
    }
}
