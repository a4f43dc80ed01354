//! The scan in-process: the stream it writes, its tally, bad games with and without
//! `keep_going`, and a reader that closes the stream. (The comparison with the python-chess
//! fixtures drives the binary: crates/app/replab/tests/cli/scan.rs.)

use crate::common;

use std::{io, path::PathBuf};

use replab_correctness::{Silent, scan};
use replab_registry::{DETECTOR_NAMES, DETECTORS, DetectorId};
use serde_json::Value;

const PGN: &str = "[Event \"ok\"]\n\n1. e4 e5 1-0\n\n[Event \"bad\"]\n\n1. e4 e5\n2. Ke3 Nc6 *\n\n[Event \"after\"]\n\n1. d4 *\n";

/// A PGN file with [`PGN`] for one test, removed when dropped.
struct TempPgn(PathBuf);

impl TempPgn {
    fn new(name: &str) -> TempPgn {
        let path =
            std::env::temp_dir().join(format!("replab-lab-scan-{}-{name}.pgn", std::process::id()));
        std::fs::write(&path, PGN).unwrap();
        TempPgn(path)
    }
}

impl Drop for TempPgn {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn diep_axon() -> PathBuf {
    common::checkout_file(replab_correctness::datasets::DIEP_AXON.path)
}

#[test]
fn streams_one_line_per_position() {
    let config = scan::Config {
        pgn: diep_axon(),
        detectors: scan::parse_detectors("all").unwrap(),
        ..scan::Config::default()
    };
    let mut out = Vec::new();
    let mut progress = replab_correctness::Recorded::default();
    let summary = scan::run(&config, &mut out, &mut progress).unwrap();
    let lines: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(summary.positions, lines.len() as u64);
    assert!(summary.skipped.is_empty() && !summary.output_closed);
    assert_eq!(progress.done, [summary.games as u64]);
    // serde_json's objects are read back sorted by key.
    let names: Vec<&str> = lines[0]["detectors"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = DETECTOR_NAMES.to_vec();
    expected.sort_unstable();
    assert_eq!(names, expected, "every technique");
    // The game is short: every detector exact below its tables' capacity agrees with truth.
    let exact: Vec<&str> = DETECTORS
        .iter()
        .filter(|d| d.caps.listed && !d.caps.composite && d.caps.exact_below_capacity())
        .map(|d| d.name)
        .collect();
    assert!(exact.len() >= 4, "{exact:?}");
    for l in &lines {
        let truth = &l["detectors"]["truth"];
        assert_eq!(*truth, Value::Bool(l["occurrence"].as_u64().unwrap() >= 2));
        for name in &exact {
            assert_eq!(l["detectors"][name], *truth, "{name}: {l}");
        }
    }
}

#[test]
fn detector_lists_are_checked() {
    assert_eq!(
        scan::parse_detectors("all")
            .unwrap()
            .last()
            .map(String::as_str),
        Some("truth")
    );
    let e = scan::parse_detectors("nosuch").unwrap_err();
    assert!(
        format!("{e:#}").contains("unknown detector \"nosuch\""),
        "{e:#}"
    );
    let with_off = format!("{},off", DetectorId::reference());
    let e = scan::parse_detectors(&with_off).unwrap_err().to_string();
    assert!(e.contains("`off` is not a detector"), "{e}");
    let config = scan::Config {
        pgn: "/no/such/file.pgn".into(),
        ..scan::Config::default()
    };
    let e = scan::run(&config, &mut Vec::new(), &mut Silent).unwrap_err();
    assert!(e.to_string().contains("/no/such/file.pgn"), "{e}");
}

#[test]
fn bad_games_stop_the_scan_or_are_skipped() {
    let pgn = TempPgn::new("bad");
    let mut config = scan::Config {
        pgn: pgn.0.clone(),
        detectors: scan::parse_detectors("linear").unwrap(),
        ..scan::Config::default()
    };
    let mut out = Vec::new();
    let e = scan::run(&config, &mut out, &mut Silent).unwrap_err();
    assert!(
        e.to_string()
            .contains("-bad.pgn:8: game 1, move 2. Ke3: illegal move"),
        "{e}"
    );
    // Game 0 (3 positions) and game 1 up to the bad move (3 positions), flushed.
    assert_eq!(
        out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count(),
        6
    );

    config.keep_going = true;
    let mut out = Vec::new();
    let summary = scan::run(&config, &mut out, &mut Silent).unwrap();
    assert_eq!((summary.games, summary.positions), (3, 8));
    assert_eq!(summary.skipped.len(), 1);
    assert!(summary.skipped[0].contains("game 1, move 2. Ke3"));
}

/// A reader that goes away after `left` bytes.
struct ClosingPipe {
    left: usize,
}

impl io::Write for ClosingPipe {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let n = buf.len().min(self.left);
        self.left -= n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_closed_output_ends_the_scan_quietly() {
    let config = scan::Config {
        pgn: diep_axon(),
        ..scan::Config::default()
    };
    let summary = scan::run(&config, &mut ClosingPipe { left: 100 }, &mut Silent).unwrap();
    assert!(summary.output_closed);
}
