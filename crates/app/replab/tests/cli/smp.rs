//! `replab smp`: bad options are refused by name with exit status 2; a tiny run writes its
//! report.

use crate::common::{Scratch, replab, text};

#[test]
fn bad_options_exit_2_naming_the_option() {
    for (args, want) in [
        (&["smp", "--depth", "0"][..], "--depth"),
        (&["smp", "--threads", "2,99"][..], "--threads"),
        (&["smp", "--quantum", "0"][..], "--quantum"),
        (&["smp", "--tt-bits", "40"][..], "--tt-bits"),
        (
            &["smp", "--repetition-records", "0", "--wac-records", "0"][..],
            "nothing to search",
        ),
    ] {
        let out = replab(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn a_tiny_run_writes_the_report() {
    let scratch = Scratch::new("cli-smp");
    let out_dir = scratch.path("smp");
    let out = replab(&[
        "smp",
        "--depth",
        "2",
        "--threads",
        "2",
        "--repetition-records",
        "1",
        "--wac-records",
        "0",
        "--real-positions",
        "0",
        "--quantum-check",
        "0",
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("tt-open/shared"), "{stdout}");
    assert!(out_dir.join("index.html").exists());
    let json = std::fs::read_to_string(out_dir.join("results.json")).unwrap();
    assert!(json.contains("\"meta\""));
}
