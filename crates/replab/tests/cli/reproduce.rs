//! `replab reproduce axon`: the report files, the contract's JSON shape, and bad options.

use std::{fs, path::Path};

use serde_json::Value;

use crate::common::*;

#[test]
fn axon_writes_results_and_page() {
    let tmp = Scratch::new("ok");
    let out = tmp.dir().join("axon");
    let o = replab(&[
        "reproduce",
        "axon",
        "--max-depth",
        "4",
        "--repeat",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "stderr: {}", text(&o.stderr));
    let stdout = text(&o.stdout);
    for name in [
        "off",
        "linear",
        "axon",
        "matrix-checksum",
        "linear+cuckoo",
        "paper on",
    ] {
        assert!(stdout.contains(name), "summary lacks {name}:\n{stdout}");
    }

    let json: Value = serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap())
        .expect("results.json parses");
    assert_eq!(json["position"], "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1");
    for field in ["commit", "date", "rustc", "cpu", "command"] {
        assert!(json["meta"][field].is_string(), "meta.{field}");
    }
    assert!(
        json["meta"]["command"]
            .as_str()
            .unwrap()
            .contains("reproduce axon")
    );
    assert_eq!(json["paper"]["off"].as_array().unwrap().len(), 12);
    assert_eq!(json["paper"]["on"][0]["best_move"], "g1f1");
    assert_eq!(json["paper"]["on"][11]["nodes"], 8_524_217);

    let runs = json["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 9 * 4, "9 configurations x 4 depths");
    let detectors = [
        "off",
        "linear",
        "tt-open",
        "filo",
        "rookie",
        "axon",
        "matrix",
        "matrix-checksum",
        "linear+cuckoo",
    ];
    for (i, run) in runs.iter().enumerate() {
        assert_eq!(run["detector"], detectors[i / 4]);
        assert_eq!(run["depth"], (i % 4 + 1) as u64);
        assert_eq!(run["policy"], "twofold");
        assert!(run["best_move"].as_str().unwrap().len() >= 4);
        assert!(run["eval_cp"].is_i64());
        for counter in ["nodes", "terminal_nodes", "generated", "repetitions"] {
            assert!(run[counter].is_u64(), "{counter}");
        }
        assert!(run["nodes"].as_u64().unwrap() > 0);
        assert!(run["time_ms"].is_f64());
    }
    // Exact detectors: the same tree as linear at every depth.
    let nodes = |name: &str| -> Vec<u64> {
        runs.iter()
            .filter(|r| r["detector"] == name)
            .map(|r| r["nodes"].as_u64().unwrap())
            .collect()
    };
    for name in ["filo", "rookie", "matrix", "matrix-checksum"] {
        assert_eq!(nodes(name), nodes("linear"), "{name}");
    }
    assert_eq!(json["summary"].as_array().unwrap().len(), 9);
    assert!(json["verdict"].as_str().unwrap().contains("paper"));
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[1]["history_plies"], 75);
    for case in cases {
        assert_eq!(case["runs"].as_array().unwrap().len(), 9 * 4);
    }
    // Figure 1: the draw with detection, not without (depth 4 is enough with linear+cuckoo).
    let figure1 = cases[0]["runs"].as_array().unwrap();
    let at = |name: &str, depth: u64| {
        figure1
            .iter()
            .find(|r| r["detector"] == name && r["depth"] == depth)
            .unwrap()["eval_cp"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(at("linear+cuckoo", 4), 0);
    assert!(at("off", 4) < -300);

    // The page references SVG files that exist beside it, and states how to regenerate it.
    let html = fs::read_to_string(out.join("index.html")).unwrap();
    let svgs: Vec<&str> = html
        .split("src=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|s| s.ends_with(".svg"))
        .collect();
    assert!(svgs.len() >= 8, "{svgs:?}");
    for svg in &svgs {
        let body = fs::read_to_string(out.join(svg)).unwrap_or_else(|_| panic!("{svg} missing"));
        assert!(body.contains("<svg"), "{svg}");
    }
    for needle in [
        "Table 2",
        "Table 3",
        "Figure 1",
        "Diep",
        "head-to-head",
        "reproduce axon",
    ] {
        assert!(html.contains(needle), "page lacks {needle}");
    }
    // No staging directories left behind.
    let leftovers: Vec<_> = fs::read_dir(&tmp.dir())
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
