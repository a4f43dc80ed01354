//! `replab suite`: results per record and detector, exact detectors on identical trees, history
//! records, and errors naming file:line.

use serde_json::Value;

use crate::common::*;

const EPD: &str = r#"R7/P4k2/8/8/8/8/r7/6K1 w - - bm Rh8; id "WAC.018";
q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - bm Qh6+; id "figure-1";
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - hfen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"; hmoves "g1f3 g8f6 f3g1 f6g8 g1f3"; id "shuffle";
"#;

#[test]
fn suite_writes_runs_for_every_record_and_detector() {
    let scratch = Scratch::new("ok");
    let dir = scratch.dir().to_path_buf();
    let epd = dir.join("s.epd");
    std::fs::write(&epd, EPD).unwrap();
    let out_dir = dir.join("report");
    let out = replab(&[
        "suite",
        "--epd",
        epd.to_str().unwrap(),
        "--depth",
        "4",
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("results.json")).unwrap()).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3 * 9);
    for field in [
        "id",
        "detector",
        "policy",
        "depth",
        "best_move",
        "eval_cp",
        "nodes",
        "terminal_nodes",
        "generated",
        "repetitions",
        "time_ms",
        "solved",
    ] {
        assert!(runs[0].get(field).is_some(), "missing {field}");
    }
    // Exact detectors search identical trees.
    for id in ["WAC.018", "figure-1", "shuffle"] {
        let nodes = |d: &str| {
            runs.iter()
                .find(|r| r["id"] == id && r["detector"] == d)
                .unwrap()["nodes"]
                .as_u64()
                .unwrap()
        };
        for d in ["filo", "rookie", "matrix", "matrix-checksum"] {
            assert_eq!(nodes(d), nodes("linear"), "{id}: {d}");
        }
    }
    let shuffle_off = runs
        .iter()
        .find(|r| r["id"] == "shuffle" && r["detector"] == "off")
        .unwrap();
    assert_eq!(shuffle_off["history_plies"], 5);
    assert_eq!(shuffle_off["solved"], Value::Null);
    let html = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    for svg in ["time.svg", "nodes.svg", "repetitions.svg"] {
        assert!(html.contains(svg) && out_dir.join(svg).exists(), "{svg}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_records_name_file_and_line() {
    let scratch = Scratch::new("bad");
    let dir = scratch.dir().to_path_buf();
    let epd = dir.join("bad.epd");
    std::fs::write(
        &epd,
        format!(
            "{EPD}8/8/8/8/8/8/8/8 w - - id \"no kings\";\nR7/P4k2/8/8/8/8/r7/6K1 w - - bm Rh9;\n"
        ),
    )
    .unwrap();
    let out_dir = dir.join("report");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "suite",
            "--epd",
            epd.to_str().unwrap(),
            "--depth",
            "2",
            "--detectors",
            "linear",
            "--out",
            out_dir.to_str().unwrap(),
            "--quiet",
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let a = args(&[]);
    let out = replab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.epd:4:") && stderr.contains("no king"),
        "{stderr}"
    );
    assert!(!out_dir.exists(), "no partial report");

    let a = args(&["--keep-going"]);
    let out = replab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.epd:5:") && stderr.contains("2 record(s) skipped"),
        "{stderr}"
    );
    let v: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(v["skipped"].as_array().unwrap().len(), 2);
    assert_eq!(v["runs"].as_array().unwrap().len(), 3 * 2);

    let good = dir.join("good.epd");
    std::fs::write(&good, EPD).unwrap();
    for bad in [
        ["--depth", "0"],
        ["--policy", "often"],
        ["--detectors", "truth"],
        ["--nodes", "0"],
    ] {
        let mut a = vec!["suite", "--epd", good.to_str().unwrap(), "--quiet"];
        a.extend_from_slice(&bad);
        a.extend_from_slice(&["--out", out_dir.to_str().unwrap()]);
        let out = replab(&a);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(bad[0]),
            "{bad:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
