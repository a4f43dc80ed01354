//! `replab match` and `replab merge`: four shards run as separate processes merge into the
//! unsharded run; bad input and inconsistent shards are refused with exit 2 and no output.

use std::path::Path;

use crate::common::{Scratch, command, replab, text};

const MATCH: [&str; 10] = [
    "match", "--a", "linear", "--b", "off", "--games", "8", "--nodes", "200", "--quiet",
];

/// `results.json` without the fields that differ between runs.
fn stable(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("results.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let o = v.as_object_mut().unwrap();
    for volatile in ["meta", "timing", "shard", "merged_shards"] {
        o.remove(volatile);
    }
    v
}

fn run_ok(args: &[&str]) {
    let out = replab(args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
}

#[test]
fn four_shard_processes_merge_into_the_unsharded_run() {
    let s = Scratch::new("selfplay-shards");
    let whole = s.path("whole");
    let mut args = MATCH.to_vec();
    let whole_s = whole.to_str().unwrap();
    args.extend(["--out", whole_s]);
    let out = replab(&args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    // The summary prints each player's median depth, as results.json records it.
    let depth = &stable(&whole)["play"]["median_depth"];
    let shown = |d: &serde_json::Value| d.as_u64().map_or("none".into(), |d| d.to_string());
    let line = format!(
        "median depth: A {}, B {}",
        shown(&depth[0]),
        shown(&depth[1])
    );
    assert!(
        text(&out.stdout).contains(&line),
        "{line}\n{}",
        text(&out.stdout)
    );
    let dirs: Vec<String> = (1..=4)
        .map(|k| s.path(&format!("s{k}")).to_str().unwrap().to_string())
        .collect();
    let shards: Vec<String> = (1..=4).map(|k| format!("{k}/4")).collect();
    let children: Vec<_> = (0..4)
        .map(|i| {
            command()
                .args(MATCH)
                .args(["--threads", "1", "--shard", &shards[i], "--out", &dirs[i]])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let merged = s.path("merged");
    let mut margs = vec!["merge"];
    margs.extend(dirs.iter().map(String::as_str));
    margs.extend(["--out", merged.to_str().unwrap()]);
    run_ok(&margs);
    assert_eq!(stable(&whole), stable(&merged));
    let pgn = |d: &Path| std::fs::read_to_string(d.join("games.pgn")).unwrap();
    assert_eq!(pgn(&whole), pgn(&merged));

    // Missing, duplicated and foreign shards are refused.
    let refused = |args: Vec<&str>, says: &str| {
        let out = replab(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(says), "{}", text(&out.stderr));
    };
    let out = s.path("bad");
    let out = out.to_str().unwrap();
    refused(
        vec!["merge", &dirs[0], &dirs[1], &dirs[2], "--out", out],
        "missing shard(s) 4/4",
    );
    refused(
        vec![
            "merge", &dirs[0], &dirs[0], &dirs[1], &dirs[2], &dirs[3], "--out", out,
        ],
        "given twice",
    );
    refused(vec!["merge", whole_s, "--out", out], "not a shard");
    let other = s.path("other");
    let mut oargs = MATCH.to_vec();
    oargs.extend([
        "--seed",
        "9",
        "--shard",
        "4/4",
        "--out",
        other.to_str().unwrap(),
    ]);
    run_ok(&oargs);
    refused(
        vec![
            "merge",
            &dirs[0],
            &dirs[1],
            &dirs[2],
            other.to_str().unwrap(),
            "--out",
            out,
        ],
        "seed differs",
    );
    assert!(!Path::new(out).exists(), "no partial result");
}

/// `--scale-by-cost`: B keeps `--nodes`, A gets `--nodes × cost(B) ÷ cost(A)` (instructions
/// per node: callgrind where valgrind is installed, else the recorded table), recorded in the
/// results and the players' specifications; a second run gives the same games.
#[test]
fn equal_cost_budgets_follow_the_instruction_costs_and_repeat() {
    let s = Scratch::new("selfplay-cost");
    let args = |out: &str| {
        [
            "match",
            "--a",
            "tt-open",
            "--b",
            "linear",
            "--games",
            "4",
            "--nodes",
            "400",
            "--scale-by-cost",
            "--quiet",
            "--out",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([out.to_string()])
        .collect::<Vec<_>>()
    };
    let (one, two) = (s.path("one"), s.path("two"));
    for dir in [&one, &two] {
        let a = args(dir.to_str().unwrap());
        run_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    }
    let results = stable(&one);
    assert_eq!(results, stable(&two), "the same budgets and games twice");
    let c = &results["match"]["cost_scaling"];
    let (a_cost, b_cost) = (
        c["a_instructions_per_node"].as_f64().unwrap(),
        c["b_instructions_per_node"].as_f64().unwrap(),
    );
    assert!(a_cost > 0.0 && b_cost > 0.0 && a_cost != b_cost, "{c}");
    let a_nodes = c["a_nodes"].as_u64().unwrap();
    assert_eq!(a_nodes, (400.0 * b_cost / a_cost).round() as u64, "{c}");
    assert_eq!(c["b_nodes"], 400);
    assert_eq!(results["match"]["a_config"]["nodes"], a_nodes);
    assert_eq!(results["match"]["a"], format!("tt-open:nodes={a_nodes}"));
    let source = c["source"].as_str().unwrap();
    if replab_workloads::callgrind::available().is_some() {
        assert!(source.starts_with("callgrind"), "{source}");
    } else {
        eprintln!("valgrind not installed: the costs came from the recorded table");
        assert!(source.contains("datasets/player-costs.json"), "{source}");
    }
}

#[test]
fn bad_match_input_exits_2_without_output() {
    let s = Scratch::new("selfplay-bad");
    let empty = s.path("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let illegal = s.path("illegal.pgn");
    std::fs::write(&illegal, "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    let out = s.path("out");
    let (empty, illegal, out) = (
        empty.to_str().unwrap(),
        illegal.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    for (extra, says) in [
        (vec!["--a", "linear:colour=red"], "unknown option"),
        (vec!["--b", "nope"], "unknown detector"),
        (vec!["--shard", "0/2"], "--shard"),
        (vec!["--shard", "3/2"], "--shard"),
        (vec!["--games", "7"], "--games 7"),
        (vec!["--tc", "8+"], "malformed time control"),
        (vec!["--tc", "8+0.08", "--nodes", "100"], "exclude"),
        (vec!["--book", "/nonexistent.pgn"], "cannot read the book"),
        (vec!["--book", empty], "no openings"),
        (vec!["--book", illegal], "illegal.pgn:3: illegal book move"),
        (
            vec!["--sprt", "0,2", "--shard", "1/2"],
            "exclude each other",
        ),
        (vec!["--tc", "8+0.08", "--scale-by-cost"], "needs --nodes"),
        (
            vec!["--a", "linear:nodes=100", "--scale-by-cost"],
            "gives its own",
        ),
        (
            vec!["--tc", "8+0.08", "--a", "linear:nodes=100"],
            "needs fixed nodes",
        ),
        // A negative lower bound is a value, not a flag: the SPRT check refuses it.
        (vec!["--sprt", "-250,250"], "within ±231.6"),
    ] {
        let mut args = vec!["match", "--quiet"];
        for (flag, default) in [
            ("--a", "linear"),
            ("--b", "off"),
            ("--nodes", "50"),
            ("--games", "2"),
        ] {
            let replaced = extra.contains(&flag) || (flag == "--nodes" && extra.contains(&"--tc"));
            if !replaced {
                args.extend([flag, default]);
            }
        }
        args.extend(extra.iter().copied());
        args.extend(["--out", out]);
        let o = replab(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(
            text(&o.stderr).contains(says),
            "{extra:?}: {}",
            text(&o.stderr)
        );
        assert!(!Path::new(out).exists(), "{extra:?}: no partial result");
    }
}

/// Whether a Slurm cluster answers here (`sinfo` runs and exits 0).
fn slurm_answers() -> bool {
    std::process::Command::new("sinfo")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_slurm_job_array_merges_into_the_unsharded_run() {
    if !slurm_answers() {
        eprintln!(
            "skipped: no Slurm cluster answers sinfo (tools/slurm_local.sh start brings up a \
             one-node cluster as root)"
        );
        return;
    }
    let s = Scratch::new("selfplay-slurm");
    let whole = s.path("whole");
    let mut args = MATCH.to_vec();
    args.extend(["--out", whole.to_str().unwrap()]);
    run_ok(&args);
    // The script is started from the scratch directory, away from the checkout.
    let merged = s.path("merged");
    let script = crate::common::repo_root().join("tools/elo_slurm.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .arg("3")
        .args(&MATCH[1..])
        .args(["--out", merged.to_str().unwrap()])
        .env("REPLAB", env!("CARGO_BIN_EXE_replab"))
        .env("WAIT", "1")
        .current_dir(s.dir())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("array job"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(stable(&whole), stable(&merged));
    let pgn = |d: &Path| std::fs::read_to_string(d.join("games.pgn")).unwrap();
    assert_eq!(pgn(&whole), pgn(&merged));
}

#[test]
fn elo_parallel_runs_from_any_directory() {
    if !std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("skipped: GNU parallel is not installed");
        return;
    }
    let s = Scratch::new("selfplay-parallel");
    let whole = s.path("whole");
    let mut args = MATCH.to_vec();
    args.extend(["--out", whole.to_str().unwrap()]);
    run_ok(&args);
    let merged = s.path("merged");
    let script = crate::common::repo_root().join("tools/elo_parallel.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .arg("2")
        .args(&MATCH[1..])
        .args(["--out", merged.to_str().unwrap()])
        .env("REPLAB", env!("CARGO_BIN_EXE_replab"))
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(stable(&whole), stable(&merged));
}

/// `replab uci` plays what `replab match` and `replab elo` play by default: one draw policy.
#[test]
fn uci_defaults_to_the_policy_self_play_uses() {
    let played = replab_selfplay::PlayerSpec::named(replab_uci::DEFAULT_DETECTOR).policy;
    assert_eq!(replab_uci::DEFAULT_POLICY, played);
    let out = command()
        .arg("uci")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child.stdin.take().unwrap().write_all(b"uci\nquit\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let declared = format!(
        "option name DrawPolicy type combo default {}",
        played.name()
    );
    assert!(
        text(&out.stdout).contains(&declared),
        "{}",
        text(&out.stdout)
    );
}
