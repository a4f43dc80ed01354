//! The analysis tools' decision rules, run on made-up game logs that make them flip (skipped
//! without python-chess).

use std::{path::Path, process::Command};

/// Writes a calibrate.py log of `games` games of `subject` against `anchor`, `wins` of them won
/// by the subject and the rest lost, colours alternating.
fn log(dir: &Path, name: &str, subject: &str, anchor: &str, games: usize, wins: usize) -> String {
    let lines: String = (0..games)
        .map(|i| {
            let white = i % 2 == 0;
            let result = match (i < wins, white) {
                (true, true) | (false, false) => "1-0",
                _ => "0-1",
            };
            let colour = if white { "white" } else { "black" };
            format!(
                "  {anchor} game {}/{games}: {result} (checkmate), {subject} {colour}\n",
                i + 1
            )
        })
        .collect();
    let path = dir.join(name);
    std::fs::write(&path, lines).unwrap();
    path.display().to_string()
}

/// tools/anchor_scales.py's last verdict line on the three logs.
fn verdict(dir: &Path, direct_wins: usize) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../tools/anchor_scales.py"
    );
    let a = log(dir, "a.log", "replab", "glaurung", 40, 20);
    let b = log(dir, "b.log", "replab", "stockfish-elo-2400", 40, 20);
    let d = log(
        dir,
        "d.log",
        "glaurung",
        "stockfish-elo-2400",
        40,
        direct_wins,
    );
    let out = Command::new("python3")
        .args([script, "--replab-vs", &a, "--replab-vs", &b, "--direct", &d])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .find(|l| l.contains("minus the anchors' offset"))
        .unwrap()
        .to_string()
}

#[test]
fn the_anchors_offset_accounts_for_replabs_two_ratings_until_it_differs_from_their_gap() {
    if !Command::new("python3")
        .args(["-c", "import chess"])
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("skipped: python-chess is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("replab-anchor-scales-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // replab scores 50% against both: 2793 and 2400, an offset of 393. Glaurung at 50%
    // against Stockfish 2400 reads 2400 on its scale: the same offset.
    assert!(verdict(&dir, 20).contains("which contains 0"));
    // Glaurung winning 36 of 40 reads about 2782 there: the anchors agree with each other,
    // and their offset (about 11) does not account for replab's 393.
    assert!(verdict(&dir, 36).contains("which excludes 0"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes `DIR/audit/results.json` with these `fields` beside provenance that always differs.
fn results(dir: &Path, fields: serde_json::Value) {
    let audit = dir.join("audit");
    std::fs::create_dir_all(&audit).unwrap();
    let mut json = serde_json::json!({ "meta": { "date": dir.display().to_string() } });
    json.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    std::fs::write(audit.join("results.json"), json.to_string()).unwrap();
}

/// tools/compare_leaves.py's exit code and table row for `old` against `new`.
fn compared(old: &Path, new: &Path) -> (i32, String) {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../tools/compare_leaves.py"
    );
    let out = Command::new("python3")
        .arg(script)
        .args(["compare", "--only", "audit"])
        .args([old, new])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().find(|l| l.starts_with("| audit")).unwrap();
    (out.status.code().unwrap(), row.to_string())
}

#[test]
fn the_leaf_comparison_passes_kept_counters_in_any_estimate_shape_and_fails_a_changed_one() {
    if !Command::new("python3")
        .arg("--version")
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("replab-compare-leaves-{}", std::process::id()));
    let interval = serde_json::json!({ "lo": 0.1, "hi": 0.3, "coverage": 0.95, "n": 9 });
    // The old shape: a median time, a rate beside its interval.
    let old = serde_json::json!({ "games": 5, "time_ms": { "median": 1.0, "interval": interval },
        "per_probe": { "rate": 0.2, "interval": interval } });
    results(&dir.join("old"), old);
    // Today's: values in estimates, another time.
    let kept = serde_json::json!({ "games": 5, "time_ms": { "value": 9.0, "interval": interval },
        "per_probe": { "rate": { "value": 0.2, "interval": interval } } });
    results(&dir.join("kept"), kept.clone());
    assert_eq!(
        compared(&dir.join("old"), &dir.join("kept")),
        (0, "| audit | 6 | 0 | 0 | 0 | 0 |".into())
    );
    let mut changed = kept;
    changed["games"] = 6.into();
    results(&dir.join("changed"), changed);
    assert_eq!(compared(&dir.join("old"), &dir.join("changed")).0, 1);
    // A run without results: bad input, exit 2, named.
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../tools/compare_leaves.py"
    );
    let missing = Command::new("python3")
        .args([script, "compare", "--only", "audit"])
        .args([dir.join("old"), dir.join("nosuch")])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nosuch/audit/results.json"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// tools/compare_conclusions.py's exit code and output for the sites `a` and `b`.
fn conclusions_compared(a: &Path, b: &Path) -> (Option<i32>, String, String) {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../tools/compare_conclusions.py"
    );
    let out = Command::new("python3")
        .arg(script)
        .args([a, b])
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code(), text(out.stdout), text(out.stderr))
}

#[test]
fn the_conclusion_comparison_masks_numbers_and_fails_a_changed_decision() {
    if !Command::new("python3")
        .arg("--version")
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let dir =
        std::env::temp_dir().join(format!("replab-compare-conclusions-{}", std::process::id()));
    let site = |name: &str, verdict: &str, decision: &str| {
        results(
            &dir.join(name),
            serde_json::json!({ "verdict": verdict, "games": 5,
                "claims": [{ "decision": decision, "what": "time" }] }),
        );
    };
    site(
        "a",
        "time +3.4% [+0.2%, +7.3%]: within ±7.3%",
        "within-resolution",
    );
    // Other numbers, the same words: the same conclusions.
    site(
        "b",
        "time −1.0% [−5.5%, +2.1%]: within ±5.5%",
        "within-resolution",
    );
    let (code, out, _) = conclusions_compared(&dir.join("a"), &dir.join("b"));
    assert_eq!((code, out.trim()), (Some(0), "0 of 2 conclusions differ"));
    // A changed decision: named with its file and path, exit 1.
    site("c", "time −1.0% [−5.5%, +2.1%]: within ±5.5%", "opposite");
    let (code, out, _) = conclusions_compared(&dir.join("a"), &dir.join("c"));
    assert_eq!(code, Some(1));
    assert!(
        out.contains("audit/results.json: $.claims[0].decision"),
        "{out}"
    );
    assert!(out.ends_with("1 of 2 conclusions differ\n"), "{out}");
    // A missing site or a results.json that is not JSON: bad input, exit 2, named.
    let (code, _, err) = conclusions_compared(&dir.join("a"), &dir.join("nosuch"));
    assert_eq!(code, Some(2));
    assert!(err.contains("nosuch"), "{err}");
    std::fs::write(dir.join("c/audit/results.json"), "{").unwrap();
    let (code, _, err) = conclusions_compared(&dir.join("a"), &dir.join("c"));
    assert_eq!(code, Some(2));
    assert!(err.contains("c/audit/results.json"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
