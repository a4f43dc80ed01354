//! Long games: a 10,000-ply game replays through `scan` with every detector; exact detectors
//! agree with the oracle at every ply, and the fixed-size structures (Axon's 255-move list,
//! the FILO and open-flag tables) fail safe — they may miss a repetition, never invent one.

use std::fmt::Write as _;

use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};
use replab_board::Position;
use replab_registry::{DETECTORS, TableLimit};
use serde_json::Value;

use crate::common::*;

/// A seeded game of `plies` quiet moves by kings and knights (no captures, so the whole game is
/// one reversible run), as PGN with a FEN tag.
fn long_game(plies: usize, seed: u64) -> String {
    let fen = "4k3/8/8/3n4/8/8/3N4/4K3 w - - 0 1";
    let mut pos = Position::from_fen(fen).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut movetext = String::new();
    for ply in 0..plies {
        let quiet: Vec<_> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !m.is_capture())
            .collect();
        assert!(!quiet.is_empty(), "no quiet move at ply {ply}");
        let m = quiet[(rng.next_u64() % quiet.len() as u64) as usize];
        if ply % 2 == 0 {
            write!(movetext, "{}. ", ply / 2 + 1).unwrap();
        }
        write!(movetext, "{} ", pos.san(m)).unwrap();
        if ply % 12 == 11 {
            movetext.push('\n');
        }
        pos = pos.play(m);
    }
    format!("[Event \"long\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n{movetext}*\n")
}

#[test]
fn ten_thousand_ply_game_every_detector() {
    let plies = 10_000;
    let scratch = Scratch::new("scale");
    let pgn = scratch.path("long.pgn");
    std::fs::write(&pgn, long_game(plies, 7)).unwrap();
    let out = replab(&["scan", "--pgn", pgn.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    // The exact probing detectors that keep every position however long the line, and the
    // exact ones whose fixed-size tables may lose positions.
    let exact = DETECTORS
        .iter()
        .filter(|d| d.caps.listed && !d.caps.composite && d.caps.exact && d.caps.probes);
    let unlimited: Vec<&str> = exact
        .clone()
        .filter(|d| d.caps.table_limit == TableLimit::None)
        .map(|d| d.name)
        .collect();
    let tables: Vec<&str> = exact
        .filter(|d| d.caps.table_limit != TableLimit::None)
        .map(|d| d.name)
        .collect();
    assert!(
        unlimited.len() >= 4 && tables.len() >= 2,
        "{unlimited:?} {tables:?}"
    );
    let mut records = 0;
    let (mut truth_hits, mut axon_hits, mut axon_false, mut table_misses) = (0, 0, 0, 0);
    for line in stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let d = &v["detectors"];
        let truth = d["truth"].as_bool().unwrap();
        assert_eq!(truth, v["occurrence"].as_u64().unwrap() >= 2);
        for exact in &unlimited {
            assert_eq!(
                d[exact].as_bool().unwrap(),
                truth,
                "{exact} at ply {}",
                v["ply"]
            );
        }
        // Fixed-size tables fail safe: once full they miss positions, never invent repetitions.
        for table in &tables {
            let flag = d[table].as_bool().unwrap();
            assert!(!flag || truth, "{table} false positive at ply {}", v["ply"]);
            table_misses += (truth && !flag) as u32;
        }
        truth_hits += truth as u32;
        axon_hits += d["axon"].as_bool().unwrap() as u32;
        axon_false += (d["axon"].as_bool().unwrap() && !truth) as u32;
        records += 1;
    }
    assert_eq!(records, plies + 1);
    // A 10,000-ply shuffle of four pieces repeats now and then; Axon, whose list keeps the
    // newest 255 moves, finds the near ones…
    eprintln!(
        "truth {truth_hits}, axon {axon_hits} ({axon_false} false), table misses {table_misses}"
    );
    assert!(truth_hits > 50, "{truth_hits}");
    assert!(
        axon_hits - axon_false > truth_hits / 2,
        "axon found {axon_hits} of {truth_hits}"
    );
    // …plus its known false positives (odd-length king triangulations, docs/techniques.md, axon).
    assert!(
        axon_false < axon_hits / 2,
        "axon {axon_false} false of {axon_hits}"
    );
    // A 1,024-slot FILO table cannot hold a reversible run of 10,000 plies: the tables miss.
    assert!(table_misses > 0);
}
