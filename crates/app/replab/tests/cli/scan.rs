//! `replab scan` against the committed python-chess fixtures (tools/scan_oracle.py), and its
//! error handling.

use replab_registry::{DETECTORS, Detector, TruthDetector};
use serde_json::Value;

use crate::common::*;

#[test]
fn scan_matches_python_chess_on_every_game() {
    let oracle = TruthDetector::new().name();
    let mut checked = 0;
    let mut compared = std::collections::BTreeSet::new();
    for game in replab_workloads::datasets::GAMES {
        let path = repo_root().join(game.path);
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let fixture = repo_root().join(format!("crates/app/replab/tests/data/scan/{stem}.jsonl"));
        let expected = std::fs::read_to_string(&fixture).unwrap();
        let out = replab(&["scan", "--pgn", path.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{stem}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let want: Vec<Value> = expected
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(got.len(), want.len(), "{stem}: record count");
        for (g, w) in got.iter().zip(&want) {
            for (k, v) in w.as_object().unwrap() {
                assert_eq!(
                    &g[k], v,
                    "{stem} game {} ply {}: field {k}",
                    w["game"], w["ply"]
                );
            }
            // The exact oracle's column is the fixture's occurrence count seen as a repetition.
            let occurrence = w["occurrence"].as_u64().unwrap();
            assert_eq!(
                g["detectors"][oracle],
                Value::Bool(occurrence >= 2),
                "{stem} {g}"
            );
            // Every exact detector the scan runs agrees with it.
            for exact in DETECTORS.iter().filter(|d| d.caps.exact && d.caps.probes) {
                let answer = &g["detectors"][exact.name];
                if !answer.is_null() {
                    compared.insert(exact.name);
                    assert_eq!(answer, &g["detectors"][oracle], "{}: {g}", exact.name);
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 400, "only {checked} positions checked");
    assert!(
        compared.len() > 5,
        "only {compared:?} compared with the oracle"
    );
}

#[test]
fn scan_detector_list_and_errors() {
    let pgn = repo_root().join(replab_workloads::datasets::DIEP_AXON.path);
    let out = replab(&[
        "scan",
        "--pgn",
        pgn.to_str().unwrap(),
        "--detectors",
        "axon,linear",
    ]);
    assert!(out.status.success());
    let first: Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let names: Vec<_> = first["detectors"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(names.len(), 2);

    let out = replab(&[
        "scan",
        "--pgn",
        pgn.to_str().unwrap(),
        "--detectors",
        "nosuch",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown detector \"nosuch\""));

    let out = replab(&["scan", "--pgn", "/no/such/file.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file.pgn"));
}

#[test]
fn scan_stops_at_an_illegal_move_naming_game_move_and_line() {
    let scratch = Scratch::new("scan-bad");
    let pgn = scratch.path("bad.pgn");
    std::fs::write(
        &pgn,
        "[Event \"ok\"]\n\n1. e4 e5 1-0\n\n[Event \"bad\"]\n\n1. e4 e5\n2. Ke3 Nc6 *\n\n[Event \"after\"]\n\n1. d4 *\n",
    )
    .unwrap();
    let out = replab(&["scan", "--pgn", pgn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.pgn:8: game 1, move 2. Ke3: illegal move"),
        "{stderr}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    // Game 0 (3 positions) and game 1 up to the bad move (3 positions); game 2 not reached.
    assert_eq!(stdout.lines().count(), 6);

    let out = replab(&["scan", "--pgn", pgn.to_str().unwrap(), "--keep-going"]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().count(),
        8,
        "game 2 is scanned with --keep-going"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 game(s) skipped"));
}
