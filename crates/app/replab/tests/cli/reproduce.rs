//! `replab reproduce axon` through the binary: a small run's report files and summary, bad
//! options, and a failed run keeping the previous report.

use std::{fs, path::Path};

use serde_json::Value;

use crate::common::*;

/// One small run through the binary: the summary on stdout, the report committed with the
/// command line in its footer. The results themselves are checked in process
/// (`crates/experiments/cost/tests/reproduce.rs`).
#[test]
fn axon_writes_results_and_page() {
    let tmp = Scratch::new("ok");
    let out = tmp.dir().join("axon");
    let o = replab(&[
        "reproduce",
        "axon",
        "--max-depth",
        "2",
        "--repeat",
        "2",
        "--overhead-target",
        "0.001",
        "--overhead-max-rounds",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "stderr: {}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(
        stdout.contains("paper on"),
        "summary lacks the paper:\n{stdout}"
    );
    assert!(
        stdout.contains(&format!("wrote {}", out.join("index.html").display())),
        "{stdout}"
    );

    let json: Value = serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap())
        .expect("results.json parses");
    assert_eq!(json["position"], "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1");
    let command = json["meta"]["command"].as_str().unwrap();
    assert!(
        command.starts_with(
            "replab reproduce axon --max-depth 2 --repeat 2 --overhead-target 0.001 \
             --overhead-max-rounds 5 --out "
        ),
        "{command}"
    );
    assert_eq!(json["config"]["max_depth"], 2);
    assert_eq!(json["config"]["repeat"], 2);
    assert_eq!(json["config"]["profile"], "default");
    assert_eq!(json["config"]["search"]["extension_limit"], "twice-depth");
    assert_eq!(json["config"]["overhead_target"], 0.001);
    // linear's overhead: at most five paired rounds, then the cap.
    let rounds = json["overhead_adaptive"]["rounds"].as_u64().unwrap();
    assert!((2..=5).contains(&rounds), "{rounds}");
    // Every configuration searched is in the summary on stdout.
    for s in json["summary"].as_array().unwrap() {
        assert!(
            s["time_ms"]["interval"]["lo"].is_number()
                && s["overhead"]["interval"]["hi"].is_number(),
            "{s}"
        );
        let name = s["detector"].as_str().unwrap();
        assert!(stdout.contains(name), "summary lacks {name}:\n{stdout}");
    }
    assert!(stdout.contains("linear overhead:"), "{stdout}");
    assert!(stdout.contains("median [95% interval]"), "{stdout}");
    let configurations = json["summary"].as_array().unwrap().len();
    assert!(configurations >= 9, "{configurations} configurations");
    assert_eq!(json["runs"].as_array().unwrap().len(), configurations * 2);
    // The instructions are counted at the run's own depth (2), not at the default 10.
    if replab_workloads::callgrind::available().is_some() {
        assert_eq!(json["instructions_depth"], 2);
    } else {
        assert!(json["instructions_depth"].is_null());
    }

    // The page states how to regenerate it (its charts are checked in-process by the lab's
    // tests; every link and image of the site by the bench test).
    let html = fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("reproduce axon"), "page lacks the command");
    // No staging directories left behind.
    let leftovers: Vec<_> = fs::read_dir(tmp.dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn assert_usage_error(args: &[&str], out: &Path, needle: &str) {
    let o = replab(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
    let stderr = text(&o.stderr);
    assert!(
        stderr.contains(needle),
        "{args:?}: stderr {stderr:?} lacks {needle:?}"
    );
    assert!(!out.exists(), "{args:?} wrote {}", out.display());
}

#[test]
fn bad_options_exit_2_without_a_report() {
    let tmp = Scratch::new("bad");
    let out = tmp.dir().join("axon");
    let o = out.to_str().unwrap();
    assert_usage_error(
        &["reproduce", "axon", "--max-depth", "0", "--out", o],
        &out,
        "max-depth",
    );
    assert_usage_error(
        &["reproduce", "axon", "--max-depth", "99", "--out", o],
        &out,
        "max-depth",
    );
    assert_usage_error(
        &["reproduce", "axon", "--max-depth", "x", "--out", o],
        &out,
        "max-depth",
    );
    assert_usage_error(
        &["reproduce", "axon", "--repeat", "0", "--out", o],
        &out,
        "repeat",
    );
    assert_usage_error(
        &["reproduce", "axon", "--profile", "stockfish", "--out", o],
        &out,
        "profile",
    );
    for bad in ["1", "-0.1", "x"] {
        assert_usage_error(
            &["reproduce", "axon", "--overhead-target", bad, "--out", o],
            &out,
            "overhead-target",
        );
    }
    assert_usage_error(
        &[
            "reproduce",
            "axon",
            "--overhead-max-seconds",
            "-1",
            "--out",
            o,
        ],
        &out,
        "overhead-max-seconds",
    );
    assert_usage_error(&["reproduce", "nothing"], &out, "nothing");

    // An --out below a regular file cannot be created.
    let file = tmp.dir().join("file");
    fs::write(&file, "not a directory").unwrap();
    let bad = file.join("axon");
    assert_usage_error(
        &[
            "reproduce",
            "axon",
            "--max-depth",
            "1",
            "--out",
            bad.to_str().unwrap(),
        ],
        &bad,
        "--out",
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "not a directory");
}

#[test]
fn a_failed_run_keeps_the_previous_report() {
    let tmp = Scratch::new("keep");
    let out = tmp.dir().join("axon");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("results.json"), "{\"previous\": true}").unwrap();
    let o = replab(&[
        "reproduce",
        "axon",
        "--max-depth",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        fs::read_to_string(out.join("results.json")).unwrap(),
        "{\"previous\": true}"
    );
}

#[test]
fn the_axon_like_profile_is_recorded_and_searched() {
    let tmp = Scratch::new("profile");
    let out = tmp.dir().join("axon");
    let run = |profile: &str| {
        let o = replab(&[
            "reproduce",
            "axon",
            "--profile",
            profile,
            "--max-depth",
            "3",
            "--repeat",
            "1",
            "--overhead-target",
            "0",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "stderr: {}", text(&o.stderr));
        let json: Value =
            serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
        json
    };
    let axon_like = run("axon-like");
    assert_eq!(axon_like["config"]["profile"], "axon-like");
    assert_eq!(axon_like["config"]["search"]["extension_limit"], "max-ply");
    assert_eq!(axon_like["config"]["qsearch_checks"], true);
    let html = fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        html.contains("axon-like</code> profile"),
        "page lacks the profile"
    );
    // The profile changes the searcher, so the trees differ from the default's.
    let default = run("default");
    let generated = |j: &Value| j["summary"][0]["generated"].as_u64().unwrap();
    assert_ne!(generated(&axon_like), generated(&default));
}
