//! Atomic output: a report run killed midway leaves the previous report intact, and the next run
//! cleans up what the killed one staged.

use std::{
    path::Path,
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use serde_json::Value;

use crate::common::*;

/// `replab suite` on `epd` into `out`, quiet, its output discarded.
fn suite(epd: &Path, out: &Path, depth: &str) -> Command {
    let mut c = command();
    c.args([
        "suite",
        "--epd",
        epd.to_str().unwrap(),
        "--depth",
        depth,
        "--out",
    ])
    .arg(out)
    .arg("--quiet")
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    c
}

#[test]
fn killed_run_leaves_the_previous_report() {
    let wac = repo_root().join(replab_workloads::datasets::WAC.path);
    let scratch = Scratch::new("interrupt");
    let small = scratch.path("small.epd");
    let first_line = std::fs::read_to_string(&wac)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    std::fs::write(&small, format!("{first_line}\n")).unwrap();
    let out = scratch.path("reports").join("suite");

    assert!(suite(&small, &out, "2").status().unwrap().success());
    let before = std::fs::read(out.join("results.json")).unwrap();

    // A long run over all 300 positions, killed once it is well under way.
    let mut child = suite(&wac, &out, "9").spawn().unwrap();
    let start = Instant::now();
    thread::sleep(Duration::from_millis(1500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the long run ended too soon"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(start.elapsed() < Duration::from_secs(60));

    let staged = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".suite.tmp")
        })
        .count();
    assert_eq!(
        staged, 1,
        "the killed run had staged its output beside the report"
    );
    let after = std::fs::read(out.join("results.json")).unwrap();
    assert_eq!(before, after, "the previous report is unchanged");
    let v: Value = serde_json::from_slice(&after).unwrap();
    // One record, searched with `off` and every search detector that serves the policy.
    assert_eq!(
        v["runs"].as_array().unwrap().len(),
        replab_cost::suite::all_detectors(Default::default()).len() + 1
    );

    // The next run replaces the report and removes the killed run's staging folder.
    assert!(suite(&small, &out, "3").status().unwrap().success());
    let leftovers: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "suite")
        .collect();
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
}
