//! `replab conformance`: exit 2 when an engine cannot be started (unless `--skip-missing`) or
//! when nothing was tested, exit 1 when an engine fails a scenario or a PV check, with each
//! failure's position and rule printed; the built-in scenarios, JUnit, JSON, the author's
//! controls.

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
fn skip_missing_with_every_engine_missing_exits_2_having_tested_nothing() {
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
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no engine could be tested"), "{err}");
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

/// Writes an executable shell script `name` into `dir`.
fn script(dir: &Scratch, name: &str, body: &str) -> std::path::PathBuf {
    let path = dir.path(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A UCI engine that logs every command it receives to `$LOG` and answers every search with
/// `answer` (its `info` and `bestmove` lines).
fn logging_engine(log: &std::path::Path, answer: &str) -> String {
    format!(
        "#!/bin/sh\nwhile read -r line; do\n  echo \"$line\" >> '{}'\n  case \"$line\" in\n    \
         uci) echo 'id name logger'; echo uciok ;;\n    isready) echo readyok ;;\n    \
         go*) {answer} ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
        log.display()
    )
}

#[test]
fn engine_options_are_sent_before_isready_and_paths_with_spaces_work() {
    let dir = Scratch::new("conformance-options");
    let log = dir.path("commands.log");
    let engine = script(
        &dir,
        "my engines/logger.sh",
        &logging_engine(
            &log,
            "echo 'info depth 1 score cp 0 pv g7h8'; echo 'bestmove g7h8'",
        ),
    );
    let out = replab(&[
        "conformance",
        "--quiet",
        "--engine",
        engine.to_str().unwrap(),
        "--engine-option",
        "Hash=16",
        "--engine-option",
        "Threads = 1",
        "--only",
        "threefold-claim-by-moving",
        "--depth",
        "3",
        "--out",
        dir.path("report").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    let at = |l: &str| {
        lines
            .iter()
            .position(|x| *x == l)
            .unwrap_or_else(|| panic!("{l}: {log}"))
    };
    assert!(at("setoption name Hash value 16") < at("isready"), "{log}");
    assert!(
        at("setoption name Threads value 1") < at("isready"),
        "{log}"
    );
    // The override replaces the scenario's depth.
    assert!(lines.contains(&"go depth 3"), "{log}");
}

#[test]
fn a_pv_past_a_threefold_is_a_failure_of_its_own_kind() {
    let dir = Scratch::new("conformance-pv");
    // The right answer (a draw, Kg7-h8), but the PV plays on after the third occurrence.
    let engine = script(
        &dir,
        "pv.sh",
        &logging_engine(
            &dir.path("log"),
            "echo 'info depth 3 score cp 0 pv g7h8 b1c1 h8g7'; echo 'bestmove g7h8'",
        ),
    );
    let out = replab(&[
        "conformance",
        "--quiet",
        "--engine",
        engine.to_str().unwrap(),
        "--only",
        "threefold-claim-by-moving",
        "--junit",
        dir.path("c.xml").to_str().unwrap(),
        "--out",
        dir.path("report").to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("1 pv-fail"), "{stdout}");
    assert!(
        stdout.contains(
            "pv g7h8 b1c1 h8g7: ply 2 continues with b1c1 after ply 1 ended the game: threefold"
        ),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(dir.path("c.xml")).unwrap();
    assert!(xml.contains("<failure type=\"pv\""), "{xml}");
    // The same engine with the scenario expected to fail passes the run.
    let out = replab(&[
        "conformance",
        "--quiet",
        "--engine",
        engine.to_str().unwrap(),
        "--only",
        "threefold-claim-by-moving",
        "--expect-fail",
        "threefold-claim-by-moving",
        "--out",
        dir.path("report").to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("expected failure"), "{stdout}");
}

#[test]
fn built_in_scenarios_run_outside_a_checkout_with_junit_and_json() {
    let dir = Scratch::new("conformance-outside");
    let engine = script(&dir, "always-draws.sh", FAKE_ENGINE);
    let out = command()
        .args([
            "conformance",
            "--quiet",
            "--engine",
            engine.to_str().unwrap(),
            "--timeout",
            "5",
            "--junit",
            "c.xml",
            "--json",
        ])
        .current_dir(dir.path(""))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let scenarios = results["scenarios"].as_array().unwrap();
    assert!(scenarios.len() >= 42, "{}", scenarios.len());
    assert!(results["file"].as_str().unwrap().contains("built in"));
    // The summary went to stderr.
    assert!(text(&out.stderr).contains("FAIL "), "{}", text(&out.stderr));
    let xml = std::fs::read_to_string(dir.path("c.xml")).unwrap();
    assert!(xml.starts_with("<?xml"), "{xml}");
    // A testcase per scenario and one for the protocol.
    assert_eq!(xml.matches("<testcase ").count(), scenarios.len() + 1);
    assert_eq!(xml.matches("<testsuite ").count(), 1);
    let case = |name: &str| {
        xml.split("<testcase ")
            .find(|c| c.starts_with(&format!("name=\"{name}\"")))
            .unwrap()
            .to_string()
    };
    // A wrong score fails its scenario, with position and expected answer.
    let wrong = case("winner-avoids-queen");
    assert!(wrong.contains("<failure type=\"answer\""), "{wrong}");
    assert!(
        wrong.contains("position fen 5k2/8/3K4/8/8/8/8/1Q6 w - - 0 1 moves b1h7"),
        "{wrong}"
    );
    assert!(wrong.contains("expected a winning score"), "{wrong}");
    // The null bestmove is one protocol failure naming the scenarios it showed in; the rule of
    // each is judged from the score (a draw score passes a draw scenario).
    let protocol = case("protocol");
    assert!(
        protocol.contains("<failure type=\"protocol\""),
        "{protocol}"
    );
    assert!(
        protocol.contains("en-passant-pinned-same (bestmove &quot;0000&quot; is a null move"),
        "{protocol}"
    );
    assert!(
        !case("en-passant-pinned-same").contains("<failure"),
        "{}",
        case("en-passant-pinned-same")
    );
    assert!(
        text(&out.stderr).contains("PROTOCOL "),
        "{}",
        text(&out.stderr)
    );
    assert!(dir.path("reports/conformance/index.html").exists());
}

#[test]
fn list_prints_every_scenario_and_bad_options_exit_2() {
    let out = replab(&["conformance", "--list"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        stdout.contains("en-passant-fen-pinned  [FIDE Laws 9.2.3.1, 9.2.3]  from Stockfish #6563"),
        "{stdout}"
    );
    let last = stdout.lines().last().unwrap();
    let judged: usize = last
        .split(" (")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(judged >= 40, "{last}");
    for (args, message) in [
        (&["--only", "no-such-scenario"][..], "no such scenario"),
        (&["--skip", "nope"][..], "no such scenario"),
        (&["--timeout", "0"][..], "--timeout"),
        (&["--depth", "0"][..], "--depth"),
        (&["--engine-option", "Hash"][..], "NAME=VALUE"),
        (&["--depth", "3", "--movetime", "100"][..], "--movetime"),
    ] {
        let mut all = vec!["conformance", "--quiet", "--engine", "/nonexistent"];
        all.extend_from_slice(args);
        let out = replab(&all);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

/// Debian's Stockfish 15.1 keeps the en-passant square of a pinned pawn in its position
/// identity (Stockfish #6138, #6563, fixed upstream since): `--expect-fail
/// en-passant-pinned-same` covers both scenarios of that bug and the run passes. Skipped where
/// Stockfish is not installed.
#[test]
fn stockfish_passes_with_its_en_passant_bug_expected() {
    let stockfish = std::path::Path::new("/usr/games/stockfish");
    if !stockfish.exists() {
        eprintln!("skipped: /usr/games/stockfish is not installed (apt-get install stockfish)");
        return;
    }
    let dir = Scratch::new("conformance-stockfish");
    let out = command()
        .args([
            "conformance",
            "--quiet",
            "--engine",
            "/usr/games/stockfish",
            "--expect-fail",
            "en-passant-pinned-same",
            "--json",
        ])
        .current_dir(dir.path(""))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let failed: Vec<&str> = results["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["verdict"] == "fail" || o["verdict"] == "pv-fail")
        .map(|o| o["scenario"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["en-passant-pinned-same", "en-passant-fen-pinned"]);
    assert_eq!(
        results["expected_failures"],
        serde_json::json!(["en-passant-pinned-same", "en-passant-fen-pinned"])
    );
}

/// `replab conformance --engine …` run where `reports/conformance` holds a page written by
/// the command `writer`, without `--out`.
fn conformance_over(dir: &Scratch, writer: &str) -> std::process::Output {
    let page = dir.path("reports/conformance/index.html");
    std::fs::create_dir_all(page.parent().unwrap()).unwrap();
    std::fs::write(&page, "the page bench wrote").unwrap();
    std::fs::write(
        dir.path("reports/conformance/.replab-report"),
        format!("This report directory was written by replab.\ncommand: {writer}\n"),
    )
    .unwrap();
    let answer = "echo 'info depth 1 score cp 0 pv g7h8'; echo 'bestmove g7h8'";
    let engine = script(dir, "draws.sh", &logging_engine(&dir.path("log"), answer));
    command()
        .args(["conformance", "--quiet", "--engine"])
        .arg(&engine)
        .args(["--only", "threefold-claim-by-moving", "--timeout", "5"])
        .current_dir(dir.path(""))
        .output()
        .unwrap()
}

#[test]
fn a_page_bench_wrote_is_replaced_only_when_out_names_it() {
    let dir = Scratch::new("conformance-over-bench");
    let out = conformance_over(&dir, "replab bench --quick");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("reports/conformance") && err.contains("replab bench --quick"),
        "{err}"
    );
    assert!(err.contains("--out"), "{err}");
    let page = dir.path("reports/conformance/index.html");
    assert_eq!(
        std::fs::read_to_string(&page).unwrap(),
        "the page bench wrote"
    );
    // A page the subcommand itself wrote is its own to replace; the new page does not claim
    // runs of replab's engine that did not happen.
    let out = conformance_over(&dir, "replab conformance");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("replab's own engine did not run"), "{html}");
    assert!(!html.contains("runs once per search detector"), "{html}");
}

/// Stockfish 19's single-threaded WASM build from npm's `stockfish` package (`npm install -g
/// stockfish@19`), under node: the ground truth's engine that passes every scenario. Skipped,
/// saying so, where node or the package is absent.
fn stockfish_19_js() -> Option<std::path::PathBuf> {
    let root = std::process::Command::new("npm")
        .args(["root", "-g"])
        .output()
        .ok()?;
    let root = std::path::PathBuf::from(text(&root.stdout).trim());
    let js = root.join("stockfish/bin/stockfish-19-single.js");
    js.exists().then_some(js)
}

#[test]
fn stockfish_19_from_npm_passes_every_scenario() {
    let Some(js) = stockfish_19_js() else {
        eprintln!(
            "skipped: node and npm's stockfish 19 package are not installed \
             (apt-get install nodejs npm; npm install -g stockfish@19)"
        );
        return;
    };
    let dir = Scratch::new("conformance-stockfish-19");
    let engine = format!("node {}", js.display());
    let out = command()
        .args(["conformance", "--quiet", "--engine", &engine, "--json"])
        .current_dir(dir.path(""))
        .output()
        .unwrap();
    let summary = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{summary}");
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let verdicts: Vec<&str> = results["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["verdict"].as_str().unwrap())
        .collect();
    assert!(
        verdicts
            .iter()
            .all(|v| *v == "pass" || *v == "not-applicable"),
        "{summary}"
    );
    assert!(!summary.contains("PROTOCOL"), "{summary}");
}
