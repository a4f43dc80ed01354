//! `replab uci` through the binary's stdin and stdout.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
};

use crate::common::{command, text};

/// Feeds `script` to `replab uci` (stdin then closed) and returns stdout.
fn session(script: &str) -> String {
    session_bytes(script.as_bytes())
}

#[test]
fn handshake_search_and_quit() {
    // Interactive: `quit` (like the end of stdin) would stop the search, so wait for bestmove.
    let mut child = command()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn replab uci");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin
        .write_all(b"uci\nisready\nposition fen R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1\ngo depth 16\n")
        .unwrap();
    let mut out = String::new();
    while !out.contains("bestmove") {
        assert_ne!(stdout.read_line(&mut out).unwrap(), 0, "{out}");
    }
    stdin.write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success());
    assert!(out.starts_with("id name replab "), "{out}");
    assert!(
        out.contains("\nuciok\n") && out.contains("\nreadyok\n"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("info depth 16 seldepth ") && l.contains(" score cp ")),
        "{out}"
    );
    assert!(
        out.trim_end()
            .lines()
            .any(|l| l.split_whitespace().take(2).eq(["bestmove", "a8h8"])),
        "{out}"
    );
}

#[test]
fn end_of_input_finishes_the_search() {
    // No quit: the engine stops the search at the end of stdin and still answers bestmove.
    let out = session("position startpos moves e2e4\ngo infinite\n");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
}

#[test]
fn bad_commands_are_info_strings() {
    let out = session(
        "setoption name DrawPolicy value moreland\nsetoption name Detector value axon\n\
         position startpos moves e7e5\nfoo\ngo depth 1\n",
    );
    let infos: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string"))
        .collect();
    // The illegal move, the unknown command, and at `go` the policy axon cannot serve (the
    // options are judged together there, whatever their order).
    assert_eq!(infos.len(), 3, "{out}");
    assert!(
        infos[2].contains("axon cannot be used with the draw policy moreland")
            && infos[2].ends_with("searching with DrawPolicy twofold instead"),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
}

/// Feeds the bytes of `input` to `replab uci` and returns stdout (the exit status must be 0).
fn session_bytes(input: &[u8]) -> String {
    let mut child = command()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn replab uci");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn hostile_sessions_through_the_binary() {
    let dir = crate::common::repo_root().join("crates/engine/uci/tests/sessions");
    for name in [
        "utf8-invalid-line",
        "position-illegal-then-legal-moves",
        "go-malformed",
        "stop-races",
    ] {
        let input = std::fs::read(dir.join(format!("{name}.uci"))).unwrap();
        let out = session_bytes(&input);
        replab_uci::transcript::check(&input, &out)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{out}"));
    }
}

#[test]
fn invalid_utf8_during_infinite_search_then_quit() {
    let mut child = command()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn replab uci");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut read_until = |prefix: &str| {
        let mut seen = String::new();
        loop {
            let mut line = String::new();
            assert_ne!(
                stdout.read_line(&mut line).unwrap(),
                0,
                "ended after {seen}"
            );
            seen.push_str(&line);
            if line.starts_with(prefix) {
                return seen;
            }
        }
    };
    stdin
        .write_all(b"position startpos\ngo infinite\n\xff\xfe caf\xe9\nisready\n")
        .unwrap();
    let before = read_until("readyok");
    assert!(!before.contains("bestmove"), "{before}");
    assert!(
        before.contains("info string input is not valid UTF-8"),
        "{before}"
    );
    stdin.write_all(b"stop\n").unwrap();
    let answer = read_until("bestmove");
    assert!(!answer.contains("bestmove 0000"), "{answer}");
    stdin.write_all(b"isready\n").unwrap();
    read_until("readyok");
    stdin.write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn help_lists_uci() {
    let out = Command::new(env!("CARGO_BIN_EXE_replab"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains("uci"));
}

#[test]
fn conformance_runs_replab_per_detector_and_skips_missing_engines() {
    let scratch = crate::common::Scratch::new("conformance");
    let out = scratch.path("conf");
    let scenarios = crate::common::repo_root().join(replab_workloads::datasets::CONFORMANCE);
    let o = crate::common::replab(&[
        "conformance",
        "--quiet",
        "--with-replab",
        "--skip-missing",
        "--engine",
        "no-such-engine-here",
        "--scenarios",
        scenarios.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("skipped no-such-engine-here"));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    let engines = json["engines"].as_array().unwrap();
    assert!(
        engines
            .iter()
            .any(|e| e["name"] == "replab linear (twofold)")
    );
    assert!(
        engines
            .iter()
            .all(|e| e["id_name"].as_str().unwrap().starts_with("replab "))
    );
    assert!(json["scenarios"].as_array().unwrap().len() >= 12);
    // `linear (twofold)` fails only the scenarios that exclude the twofold policy, or that
    // check a rule replab's searcher does not implement (`outside_replab`).
    let excluded = |id: &serde_json::Value| {
        json["scenarios"].as_array().unwrap().iter().any(|s| {
            s["id"] == *id
                && (s["excluded_policies"]
                    .as_array()
                    .is_some_and(|p| p.iter().any(|p| p == "twofold"))
                    || s["outside_replab"].as_str().is_some_and(|r| !r.is_empty()))
        })
    };
    let linear_fail = json["results"].as_array().unwrap().iter().any(|r| {
        r["engine"] == "replab linear (twofold)"
            && r["verdict"] == "fail"
            && !excluded(&r["scenario"])
    });
    assert!(!linear_fail);
    assert!(out.join("index.html").is_file());
}
