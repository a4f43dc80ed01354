//! `replab key-width` through the binary: a small run writes `results.json` and `index.html`
//! and prints its table; bad options exit 2 naming the option. What it measures is tested
//! in-process in `crates/experiments/correctness/src/key_width/tests.rs`.

use crate::common::*;

#[test]
fn small_key_width_run_writes_its_report() {
    let dir = Scratch::new("key-width");
    let out = dir.path("key-width");
    let out_s = out.to_str().unwrap();
    let o = replab(&[
        "key-width",
        "--quiet",
        "--out",
        out_s,
        "--games",
        "30",
        "--bits",
        "16,64",
        "--depth",
        "2",
        "--repetition",
        "2",
        "--wac",
        "1",
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(stdout.starts_with("Audit games: 30 games"), "{stdout}");
    let json = std::fs::read_to_string(out.join("results.json")).expect("results.json");
    let v: serde_json::Value = serde_json::from_str(&json).expect("results.json parses");
    assert!(
        v["meta"]["command"]
            .as_str()
            .unwrap()
            .starts_with("replab key-width --quiet")
    );
    assert_eq!(v["config"]["widths"], serde_json::json!([16, 64]));
    assert_eq!(v["audit"].as_array().unwrap().len(), 10);
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("Key width and false draws"));
    assert!(out.join("bound.svg").is_file() && out.join("fp-vs-bits.svg").is_file());
}

#[test]
fn bad_options_exit_2_naming_the_option() {
    for (args, option) in [
        (&["--bits", "16,32"][..], "--bits"),
        (&["--bits", "0,64"][..], "--bits"),
        (&["--depth", "0"][..], "--depth"),
        (&["--games", "0"][..], "--games"),
    ] {
        let mut all = vec!["key-width"];
        all.extend_from_slice(args);
        let o = replab(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(option), "{args:?}: {err}");
    }
}
