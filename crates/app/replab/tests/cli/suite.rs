//! `replab suite` on the command line: the printed table and the committed report, exit codes,
//! and errors naming file:line. (Results are checked in-process: crates/experiments/cost/tests/suite.rs.)

use replab_registry::{DETECTORS, DetectorId};
use serde_json::Value;

use crate::common::*;

const EPD: &str = r#"R7/P4k2/8/8/8/8/r7/6K1 w - - bm Rh8; id "WAC.018";
q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - bm Qh6+; id "figure-1";
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - hfen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"; hmoves "g1f3 g8f6 f3g1 f6g8 g1f3"; id "shuffle";
"#;

#[test]
fn suite_prints_its_table_and_commits_the_report() {
    let scratch = Scratch::new("suite-ok");
    let epd = scratch.path("s.epd");
    std::fs::write(&epd, EPD).unwrap();
    let out_dir = scratch.path("report");
    // The reference and an inexact search detector, in table order.
    let reference = DetectorId::reference().name();
    let inexact = DETECTORS
        .iter()
        .find(|d| d.caps.listed && d.caps.searchable && !d.caps.exact)
        .expect("an inexact search detector")
        .name;
    let chosen = format!("{reference},{inexact}");
    let out = replab(&[
        "suite",
        "--epd",
        epd.to_str().unwrap(),
        "--depth",
        "2",
        "--detectors",
        &chosen,
        "--repeats",
        "2",
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let rows: Vec<&str> = stdout
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        rows,
        ["detector", "off", reference, inexact, "Search"],
        "{stdout}"
    );
    assert!(
        stdout.contains("Search time against off (2 interleaved rounds"),
        "{stdout}"
    );
    assert!(
        text(&out.stderr).contains("wrote "),
        "{}",
        text(&out.stderr)
    );
    for file in [
        "results.json",
        "index.html",
        "time.svg",
        "nodes.svg",
        "repetitions.svg",
    ] {
        assert!(out_dir.join(file).exists(), "{file}");
    }
    let v: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(v["runs"].as_array().unwrap().len(), 3 * 3);
    assert_eq!(v["config"]["repeats"], 2);
    assert!(v["runs"].as_array().unwrap().iter().all(|r| {
        r["time_ms"]["interval"]["n"] == 2 && r["time_ms_samples"].as_array().unwrap().len() == 2
    }));
    assert!(
        v["meta"]["command"]
            .as_str()
            .unwrap()
            .starts_with("replab suite --epd ")
    );
}

#[test]
fn bad_records_name_file_and_line() {
    let scratch = Scratch::new("suite-bad");
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
        ["--repeats", "0"],
        ["--repeats", "101"],
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
    // A detector that cannot serve the policy (one that does not count occurrences) is
    // refused before searching.
    let uncounting = DETECTORS
        .iter()
        .find(|d| d.caps.listed && d.caps.searchable && !d.caps.counts_occurrences)
        .expect("a search detector that does not count occurrences")
        .name;
    let chosen = format!("{},{uncounting}", DetectorId::reference());
    let out = replab(&[
        "suite",
        "--epd",
        good.to_str().unwrap(),
        "--detectors",
        &chosen,
        "--policy",
        "threefold",
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let expected = format!("replab: {uncounting} cannot be used with --policy threefold: ");
    assert!(
        text(&out.stderr).starts_with(&expected),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
