//! `replab audit` through the binary: a small run writes `results.json` and `index.html` and
//! prints its table; bad options exit 2 naming the option. What the audit finds is tested
//! in-process in `crates/experiments/correctness/tests/audit.rs`.

use crate::common::*;

#[test]
fn small_audit_writes_its_report_and_prints_its_table() {
    let dir = Scratch::new("small");
    let out = dir.path("audit");
    let out_s = out.to_str().unwrap();
    let o = replab(&["audit", "--out", out_s, "--games", "50", "--seed", "5"]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(stdout.starts_with("replab audit: 50 games"), "{stdout}");
    assert!(stdout.contains("matrix-checksum"), "{stdout}");
    let index = out.join("index.html");
    assert!(
        stdout.ends_with(&format!("report: {}\n", index.display())),
        "{stdout}"
    );

    let json = std::fs::read_to_string(out.join("results.json")).expect("results.json");
    let v: serde_json::Value = serde_json::from_str(&json).expect("results.json parses");
    // The command recorded is the one typed (the settings themselves are in `meta` beside it).
    let command = v["meta"]["command"].as_str().unwrap();
    assert_eq!(
        command,
        format!("replab audit --out {out_s} --games 50 --seed 5"),
        "{command}"
    );
    assert_eq!(v["meta"]["games"], 50);
    assert_eq!(v["totals"]["games"], 50);
    assert!(v["detectors"]["axon"].is_object());

    let html = std::fs::read_to_string(&index).unwrap();
    assert!(html.contains("Repetition-detection audit"));
    assert!(html.contains("class=\"sortable\""));
    assert!(out.join("errors.svg").is_file());
}

#[test]
fn quick_starts_from_the_short_run_and_the_options_override_it() {
    let dir = Scratch::new("quick");
    let out = dir.path("audit");
    let out_s = out.to_str().unwrap();
    let o = replab(&[
        "audit",
        "--quick",
        "--quiet",
        "--detectors",
        "linear",
        "--max-plies",
        "20",
        "--tt-bits",
        "",
        "--filo-slots",
        "",
        "--rookie-bits",
        "",
        "--out",
        out_s,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let json = std::fs::read_to_string(out.join("results.json")).expect("results.json");
    let v: serde_json::Value = serde_json::from_str(&json).expect("results.json parses");
    assert_eq!(
        v["meta"]["games"], 1_000,
        "--quick plays the short run's games"
    );
    let command = v["meta"]["command"].as_str().unwrap();
    assert!(
        command.starts_with(
            "replab audit --quick --quiet --detectors linear --max-plies 20 --tt-bits ''"
        ),
        "{command}"
    );
    assert_eq!(
        v["meta"]["max_plies"], 20,
        "the option overrides the short run"
    );
    assert_eq!(v["meta"]["seed"], 1);
}

#[test]
fn invalid_options_exit_2_naming_the_option() {
    let dir = Scratch::new("invalid");
    let out = dir.path("audit");
    let out_s = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["--games", "abc"], "--games"),
        (&["--games", "0"], "--games"),
        (&["--games", "-3"], "--games"),
        (&["--seed", "-1"], "--seed"),
        (&["--seed", "x"], "--seed"),
        (&["--detectors", "nosuch"], "--detectors"),
        (&["--detectors", "linear,nosuch"], "nosuch"),
        (&["--detectors", ""], "--detectors"),
        (&["--max-plies", "0"], "--max-plies"),
        (&["--tt-bits", "20,99"], "--tt-bits"),
        (&["--filo-slots", "100"], "--filo-slots"),
        (&["--rookie-bits", "x"], "--rookie-bits"),
        (&["--threads", "0"], "--threads"),
        (&["--bogus"], "--bogus"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["audit", "--games", "1", "--out", out_s];
        all.extend_from_slice(args);
        let o = replab(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?} should name {needle}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert!(!out.exists(), "no report from invalid options");

    // An --out that cannot be created (its parent is a file).
    let file = dir.path("file");
    std::fs::write(&file, "x").unwrap();
    let bad = file.join("audit");
    let o = replab(&["audit", "--games", "1", "--out", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--out") && err.contains("file"), "{err}");
}

/// Every file under `dir` with its bytes, sorted by path.
fn snapshot(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    if dir.is_file() {
        return vec![(dir.to_owned(), std::fs::read(dir).unwrap())];
    }
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flat_map(|e| snapshot(&e.unwrap().path()))
        .collect();
    out.sort();
    out
}

#[test]
fn out_never_replaces_what_replab_did_not_write() {
    let dir = Scratch::new("not-ours");
    let file = dir.path("afile");
    std::fs::write(&file, "the user's notes").unwrap();
    let user = dir.path("userdir");
    std::fs::create_dir_all(user.join("sub")).unwrap();
    std::fs::write(user.join("thesis.tex"), "chapter 1").unwrap();
    std::fs::write(user.join("sub/data.csv"), "1,2").unwrap();
    let before = snapshot(&dir.path(""));
    for target in [&file, &user] {
        let o = replab(&["audit", "--games", "1", "--out", target.to_str().unwrap()]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(target.to_str().unwrap()), "{err}");
        assert!(err.contains("refusing to replace"), "{err}");
    }
    assert_eq!(snapshot(&dir.path("")), before, "a user file was touched");

    // replab's own report directory is replaced on a rerun.
    let own = dir.path("own");
    for _ in 0..2 {
        let o = replab(&["audit", "--games", "1", "--out", own.to_str().unwrap()]);
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let marker = std::fs::read_to_string(own.join(".replab-report")).unwrap();
    assert!(marker.contains("replab audit"), "{marker}");
}
