//! `replab conformance`: exit 2 when an engine cannot be started (unless `--skip-missing`),
//! exit 1 when an engine fails a scenario, with each failure's position and rule printed.

use std::os::unix::fs::PermissionsExt;

use crate::common::*;

fn scenarios() -> String {
    repo_root()
        .join(replab_workloads::datasets::CONFORMANCE)
        .display()
        .to_string()
}

#[test]
fn an_engine_that_cannot_start_exits_2_with_the_command_and_the_os_error() {
    let dir = Scratch::new("conformance-missing");
    let out_dir = dir.path("report");
    let out = replab(&[
        "conformance",
        "--quiet",
        "--engine",
        "/nonexistent",
        "--scenarios",
        &scenarios(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("/nonexistent"), "{err}");
    assert!(err.contains("os error"), "{err}");
    assert!(!out_dir.join("index.html").exists());
}

#[test]
fn skip_missing_lists_the_engine_and_exits_0() {
    let dir = Scratch::new("conformance-skip");
    let out = replab(&[
        "conformance",
        "--quiet",
        "--skip-missing",
        "--engine",
        "/nonexistent",
        "--scenarios",
        &scenarios(),
        "--out",
        dir.path("report").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("skipped /nonexistent"));
}

/// A UCI engine (a shell script) that answers every search with a draw score and a null move.
const FAKE_ENGINE: &str = "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    \
    uci) echo 'id name always-draws'; echo uciok ;;\n    isready) echo readyok ;;\n    \
    go*) echo 'info depth 1 score cp 0'; echo 'bestmove 0000' ;;\n    quit) exit 0 ;;\n  \
    esac\ndone\n";

#[test]
fn an_engine_that_fails_a_scenario_exits_1_and_prints_the_failure() {
    let dir = Scratch::new("conformance-fail");
    let engine = dir.path("always-draws.sh");
    std::fs::write(&engine, FAKE_ENGINE).unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = replab(&[
        "conformance",
        "--quiet",
        "--engine",
        engine.to_str().unwrap(),
        "--scenarios",
        &scenarios(),
        "--timeout",
        "5",
        "--out",
        dir.path("report").to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    // A draw score everywhere fails the winning scenarios, with position, rule and answer.
    assert!(
        stdout.contains("winner-avoids-queen (FIDE Laws 9.2.1.2): position fen "),
        "{stdout}"
    );
    assert!(stdout.contains("expected a winning score"), "{stdout}");
    assert!(dir.path("report/index.html").exists());
    let results = std::fs::read_to_string(dir.path("report/results.json")).unwrap();
    assert!(results.contains("\"id_name\": \"always-draws\""));
}
