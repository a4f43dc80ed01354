//! `reproduce axon` in process: the results' contract fields and invariants, and the report
//! files `write` stages.

use std::{fs, path::PathBuf, sync::OnceLock};

use replab_cost::{
    Recorded, Silent,
    reproduce::axon::{self, Config, Results},
};
use replab_detect::DrawPolicy;
use replab_registry::{DETECTORS, DetectorId, SEARCH_DETECTORS, check_policy, info};
use replab_report::ReportDir;
use serde_json::Value;

/// Depth of the shared run: deep enough for Figure 1's draw, quick in a test build.
const DEPTH: u32 = 6;
/// Interleaved rounds of the shared run.
const REPEAT: u32 = 3;
/// Cap on linear's paired rounds in the shared run (the adaptive measurement is exercised, not
/// run to its target).
const MAX_ROUNDS: u32 = 9;

/// One run shared by the tests (the search takes seconds).
fn results() -> &'static Results {
    static RESULTS: OnceLock<Results> = OnceLock::new();
    RESULTS.get_or_init(|| {
        let config = Config {
            max_depth: DEPTH,
            repeat: REPEAT,
            overhead_target: 0.0001,
            overhead_max_rounds: MAX_ROUNDS,
            overhead_max_seconds: 30.0,
            command: "replab reproduce axon --max-depth 6 --repeat 3".into(),
            exe: None,
            ..Config::default()
        };
        axon::run(&config, &mut Silent).expect("the experiment runs")
    })
}

/// The configurations searched: `off`, then the registry's search detectors that serve the
/// experiment's policy, `twofold`.
fn detectors() -> Vec<&'static str> {
    std::iter::once("off")
        .chain(
            SEARCH_DETECTORS
                .into_iter()
                .filter(|n| check_policy(n, DrawPolicy::Twofold).is_ok()),
        )
        .collect()
}

/// `results()` as the JSON written to `results.json`.
fn json() -> Value {
    serde_json::to_value(results()).expect("results serialise")
}

/// A fresh scratch directory under the system temp dir.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "replab-lab-reproduce-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn results_carry_the_contract_fields() {
    let json = json();
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
    assert!(json["seed"].is_null());
    assert_eq!(json["config"]["max_depth"], DEPTH);
    assert_eq!(json["config"]["repeat"], REPEAT);
    assert_eq!(json["config"]["overhead_target"], 0.0001);
    assert_eq!(json["config"]["overhead_max_rounds"], MAX_ROUNDS);
    // Three rounds: the interval is the whole range, covering the median with p = 1 − 2/8.
    assert!(
        json["config"]["overhead_clock"]
            .as_str()
            .unwrap()
            .contains("time"),
        "{}",
        json["config"]
    );
    let coverage = json["config"]["time_ci_coverage"].as_f64().unwrap();
    assert!((coverage - 0.75).abs() < 1e-12, "{coverage}");
    assert_eq!(json["config"]["policy"], "twofold");
    assert_eq!(json["config"]["cuckoo_root_rule"], "any-earlier");
    assert_eq!(json["paper"]["off"].as_array().unwrap().len(), 12);
    assert_eq!(json["paper"]["on"][0]["best_move"], "g1f1");
    assert_eq!(json["paper"]["on"][11]["nodes"], 8_524_217);
    assert!(json["paper"]["totals"].is_object());
    assert!(json["paper"]["source"].is_string());

    let detectors = detectors();
    assert_eq!(axon::configurations(DrawPolicy::Twofold), detectors);
    assert_eq!(detectors[0], "off");
    // Every listed search detector is searched but those that drop single history positions
    // (Gerbil's filo), which twofold scores: refused, not run.
    for row in DETECTORS
        .iter()
        .filter(|d| d.caps.listed && d.caps.searchable)
    {
        assert_eq!(
            detectors.contains(&row.name),
            !row.caps.drops_single_history,
            "{} is searched unless it drops single history positions",
            row.name
        );
    }
    let depth = DEPTH as usize;
    let runs = json["runs"].as_array().unwrap();
    assert_eq!(
        runs.len(),
        detectors.len() * depth,
        "configurations x depths"
    );
    for (i, run) in runs.iter().enumerate() {
        assert_eq!(run["detector"], detectors[i / depth]);
        assert_eq!(run["depth"], (i % depth + 1) as u64);
        assert_eq!(run["policy"], "twofold");
        assert!(run["best_move"].as_str().unwrap().len() >= 4);
        assert!(run["eval_cp"].is_i64());
        for counter in [
            "nodes",
            "terminal_nodes",
            "generated",
            "repetitions",
            "probes",
            "hits",
        ] {
            assert!(run[counter].is_u64(), "{counter}");
        }
        assert!(run["nodes"].as_u64().unwrap() > 0);
        assert!(run["time_ms"]["value"].is_f64());
        assert!(run["pv"].is_array());
        assert!(run["best_move_san"].is_string());
        assert!(run.get("mate").is_some());
        assert!(run.get("counters").is_none(), "counters are flattened");
    }
    // Detection off never scores a repetition.
    for run in runs.iter().filter(|r| r["detector"] == "off") {
        assert_eq!(run["repetitions"], 0);
    }
    let summary = json["summary"].as_array().unwrap();
    assert_eq!(summary.len(), detectors.len());
    for (s, name) in summary.iter().zip(&detectors) {
        assert_eq!(s["detector"], *name);
        let sum = |field: &str| -> u64 {
            runs.iter()
                .filter(|r| r["detector"] == *name)
                .map(|r| r[field].as_u64().unwrap())
                .sum()
        };
        for field in ["nodes", "terminal_nodes", "generated", "repetitions"] {
            assert_eq!(s[field].as_u64().unwrap(), sum(field), "{name} {field}");
        }
        assert!(s["nodes_change"].is_number(), "{name}");
        for field in ["nps", "overhead", "time_change", "time_ms"] {
            assert!(s[field]["value"].is_number(), "{name} {field}");
        }
        assert!(s["memory_bytes"].is_u64());
    }
    assert_eq!(summary[0]["nodes_change"], 0.0);
    let verdict = json["verdict"].as_str().unwrap();
    assert!(verdict.contains("paper"));
    assert!(
        verdict.contains("per 1,000 generated positions"),
        "{verdict}"
    );
}

/// `(median, [lo, hi], n)` of a JSON estimate (`{"value", "interval": {lo, hi, coverage, n}}`).
fn estimate(v: &Value) -> (f64, [f64; 2], u64) {
    let i = &v["interval"];
    let end = |k: &str| i[k].as_f64().unwrap_or_else(|| panic!("{k} of {v}"));
    (
        v["value"].as_f64().expect("a value"),
        [end("lo"), end("hi")],
        i["n"].as_u64().expect("n"),
    )
}

#[test]
fn every_time_carries_its_interval_and_repeats() {
    let json = json();
    for run in json["runs"].as_array().unwrap() {
        let (t, [low, high], n) = estimate(&run["time_ms"]);
        assert!(low <= t && t <= high, "{run}");
        assert_eq!(n, u64::from(REPEAT), "{run}");
        let nps = run["nodes"].as_f64().unwrap() * 1000.0 / t;
        let (median_nps, [nps_low, nps_high], _) = estimate(&run["nps"]);
        assert!(
            (median_nps - nps).abs() <= 1e-6 * nps,
            "nps from the median"
        );
        assert!(nps_low <= median_nps && median_nps <= nps_high, "{run}");
    }
    // The further positions are searched once: marked as a single sample (n 1, coverage 0).
    for case in json["cases"].as_array().unwrap() {
        for run in case["runs"].as_array().unwrap() {
            assert_eq!(run["time_ms"]["interval"]["n"], 1, "{run}");
            assert_eq!(run["time_ms"]["interval"]["coverage"], 0.0, "{run}");
        }
    }
    let unmarked = replab_cost::interval::unmarked_times(&json, &["config", "paper"]);
    assert_eq!(unmarked, Vec::<String>::new());
    let adaptive = &json["overhead_adaptive"];
    assert_eq!(adaptive["detector"], "linear");
    // A target no run reaches in nine rounds: the rounds cap stops it.
    assert_eq!(adaptive["stopped"], "rounds cap");
    assert_eq!(adaptive["rounds"], MAX_ROUNDS);
    assert_eq!(adaptive["extra_rounds"], MAX_ROUNDS - REPEAT);
    for s in json["summary"].as_array().unwrap() {
        let name = s["detector"].as_str().unwrap();
        let (t, [low, high], n) = estimate(&s["time_ms"]);
        assert!(low <= t && t <= high, "{name}: {s}");
        assert_eq!(n, u64::from(REPEAT), "{name}");
        let (o, [low, high], rounds) = estimate(&s["overhead"]);
        assert!(
            low <= o && o <= high,
            "{name}: overhead {o} outside [{low}, {high}]"
        );
        let hw = (high - low) / 2.0;
        let (c, [c_low, c_high], _) = estimate(&s["time_change"]);
        assert!(c_low <= c && c <= c_high, "{name}: time change");
        match name {
            "off" => {
                assert_eq!((o, low, high), (1.0, 1.0, 1.0));
                assert_eq!((c, c_low, c_high), (0.0, 0.0, 0.0));
                assert_eq!(rounds, u64::from(REPEAT));
            }
            // Its adaptive rounds, then paired rounds at the edge where the rounds cap of the
            // edge rule lies beyond them (5 × 3 = 15 rounds against 9 here): the adaptive
            // half-width is the summary's when no round was added.
            "linear" => {
                let cap = replab_harness::resolution::round_cap(
                    REPEAT as usize,
                    replab_harness::resolution::EDGE_ROUNDS_FACTOR,
                );
                let edge = u64::from(MAX_ROUNDS)..=u64::from(MAX_ROUNDS).max(cap as u64);
                assert!(edge.contains(&rounds), "linear: {rounds} rounds");
                if rounds == u64::from(MAX_ROUNDS) {
                    let reported = adaptive["half_width"].as_f64().unwrap();
                    assert!((hw - reported).abs() < 1e-12, "{hw} {reported}");
                }
            }
            // A change at the edge of the timing's resolution takes paired rounds, up to the
            // default factor times the fixed ones.
            _ => {
                let cap = replab_harness::resolution::round_cap(
                    REPEAT as usize,
                    replab_harness::resolution::EDGE_ROUNDS_FACTOR,
                );
                assert!(
                    (u64::from(REPEAT)..=cap as u64).contains(&rounds),
                    "{name}: {rounds} rounds"
                );
            }
        }
    }
}

#[test]
fn the_comparison_is_in_the_papers_unit() {
    let json = json();
    let comparison = json["comparison"].as_array().unwrap();
    assert_eq!(comparison.len(), DEPTH as usize, "one object per depth");
    let runs = json["runs"].as_array().unwrap();
    let generated = |name: &str, depth: u64| {
        runs.iter()
            .find(|r| r["detector"] == name && r["depth"] == depth)
            .unwrap()["generated"]
            .as_u64()
            .unwrap()
    };
    for (i, c) in comparison.iter().enumerate() {
        let depth = i as u64 + 1;
        for field in [
            "depth",
            "paper_off",
            "paper_on",
            "ours_off_generated",
            "ours_axon_generated",
        ] {
            assert!(c[field].is_u64(), "depth {depth}: {field} in {c}");
        }
        assert_eq!(c["depth"], depth);
        assert_eq!(c["ours_off_generated"], generated("off", depth));
        assert_eq!(c["ours_axon_generated"], generated("axon", depth));
        assert_eq!(c["paper_off"], json["paper"]["off"][i]["nodes"]);
        assert_eq!(c["paper_on"], json["paper"]["on"][i]["nodes"]);
    }
    // The paper's node counts sum to its generated positions: the unit of the comparison.
    let paper = results().paper.tables();
    assert_eq!(
        paper.off.iter().map(|r| r.nodes).sum::<u64>(),
        paper.totals.off.generated
    );
    assert_eq!(
        paper.on.iter().map(|r| r.nodes).sum::<u64>(),
        paper.totals.on.generated
    );
}

#[test]
fn exact_detectors_search_the_same_tree_as_linear() {
    let r = results();
    let nodes =
        |name: &str| -> Vec<u64> { r.runs_of(name).iter().map(|r| r.counters.nodes).collect() };
    // Every exact detector without upcoming-cycle answers grows linear's tree.
    let exact: Vec<&str> = detectors()
        .into_iter()
        .filter(|n| info(n).is_some_and(|i| i.caps.exact && !i.caps.upcoming))
        .collect();
    let reference = DetectorId::reference().name();
    assert!(exact.len() >= 4 && exact.contains(&reference), "{exact:?}");
    assert_eq!(nodes(reference).len(), DEPTH as usize);
    for name in exact {
        assert_eq!(nodes(name), nodes(reference), "{name}");
    }
}

#[test]
fn the_further_cases_are_searched_by_every_configuration() {
    let json = json();
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0]["id"], "figure1");
    assert_eq!(cases[1]["id"], "diep-axon");
    assert_eq!(cases[0]["history_plies"], 0);
    assert_eq!(cases[1]["history_plies"], 75);
    assert_eq!(
        cases[1]["fen"],
        "5k2/RQ5p/1p2p3/3n2p1/6p1/4P3/P4PKP/2q5 b - - 4 38"
    );
    for case in cases {
        assert_eq!(
            case["runs"].as_array().unwrap().len(),
            detectors().len() * DEPTH as usize
        );
        assert!(case["note"].as_str().unwrap().contains("paper"));
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
}

/// Whether two JSON values are equal, numbers within a relative 1e-12 (serde_json's default
/// float parser may miss the last bit).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, x), (ky, y))| kx == ky && same(x, y))
        }
        _ => a == b,
    }
}

#[test]
fn results_round_trip_through_json() {
    let text = serde_json::to_string_pretty(results()).unwrap();
    let back: Results = serde_json::from_str(&text).expect("results.json reads back");
    assert!(same(&serde_json::to_value(&back).unwrap(), &json()));
    assert_eq!(back.paper.tables().on.len(), 12);
    assert_eq!(back.paper.record(), results().paper.record());
    for (a, b) in back.runs.iter().zip(&results().runs) {
        assert_eq!(a.counters, b.counters);
    }
}

#[test]
fn write_stages_the_json_the_page_and_its_charts() {
    let root = scratch("write");
    let out = root.join("axon");
    let dir = ReportDir::create(&out).unwrap();
    axon::write(results(), &dir).unwrap();
    dir.commit().unwrap();

    let written: Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert!(same(&written, &json()));

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
    // The claims' forest plot: one row per claim, the paper's marks, the decisions' legend.
    let forest = fs::read_to_string(out.join("claims.svg")).expect("claims.svg");
    for what in [
        "terminal nodes",
        "generated positions",
        "time",
        "paper (rescoped)",
    ] {
        assert!(forest.contains(what), "claims.svg lacks {what}");
    }
    // The prose, read with its line breaks as spaces.
    let text = html.split_whitespace().collect::<Vec<_>>().join(" ");
    for needle in [
        "Table 2",
        "Table 3",
        "Figure 1",
        "Diep",
        "head-to-head",
        "reproduce axon",
        "with detection off and with each of the",
        "search detectors, on one deterministic searcher",
        "14,941 repetitions",
        "The draw score (0.00) is reached",
        "our identification",
        "WAC.018 (bm Rh8)",
        "Only WAC.018 has the best move Rh8",
        "legal in WAC.018 at 24 of its 24 table rows",
        "paper off: node count",
        "ours off: generated",
        "per 1,000 generated",
        "95% interval",
        "paired rounds",
    ] {
        assert!(text.contains(needle), "page lacks {needle}");
    }
    assert!(
        !html.contains("{{") && !html.contains("{%"),
        "unrendered template syntax"
    );
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn the_summary_table_lists_every_configuration_and_the_paper() {
    let table = axon::summary_table(results());
    for name in detectors().into_iter().chain(["paper off", "paper on"]) {
        assert!(table.contains(name), "summary lacks {name}:\n{table}");
    }
    assert!(table.starts_with("WAC.018 (R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1), depths 1-6"));
    assert!(table.ends_with(&format!("\n{}\n", results().verdict)));
}

#[test]
fn progress_counts_every_iteration_by_stage() {
    // No rounds at the edge (a factor of 1): the stages are the fixed ones.
    let config = Config {
        max_depth: 2,
        repeat: 2,
        edge_factor: 1,
        overhead_target: 0.0,
        ..Config::default()
    };
    let mut progress = Recorded::default();
    axon::run(&config, &mut progress).unwrap();
    let per_search = 2 * detectors().len() as u64;
    assert_eq!(
        progress.stages,
        [
            ("WAC.018".to_string(), 2 * per_search),
            ("Figure 1".to_string(), per_search),
            ("Diep–Axon".to_string(), per_search),
        ]
    );
    assert_eq!(progress.done, [2 * per_search, per_search, per_search]);

    // With a target: one more stage, one unit per added paired round.
    let config = Config {
        max_depth: 1,
        repeat: 2,
        overhead_target: 1e-9,
        overhead_max_rounds: 6,
        ..Config::default()
    };
    let mut progress = Recorded::default();
    let results = axon::run(&config, &mut progress).unwrap();
    assert_eq!(
        progress.stages[1],
        ("linear overhead to ±0.0 pp".to_string(), 4)
    );
    assert_eq!(progress.done[1], 4);
    assert_eq!(results.overhead_adaptive.unwrap().rounds, 6);
}

#[test]
fn out_of_range_settings_are_refused() {
    let refusal = |config: Config| axon::run(&config, &mut Silent).unwrap_err().to_string();
    for (max_depth, repeat, target, expected) in [
        (0, 1, 0.0, "--max-depth 0 is out of range (1 to 20)"),
        (21, 1, 0.0, "--max-depth 21 is out of range (1 to 20)"),
        (1, 0, 0.0, "--repeat 0 is out of range (1 to 100)"),
        (
            1,
            1,
            1.5,
            "--overhead-target 1.5 is out of range (0 to 0.5)",
        ),
        (
            1,
            1,
            -0.01,
            "--overhead-target -0.01 is out of range (0 to 0.5)",
        ),
        (
            1,
            1,
            f64::NAN,
            "--overhead-target NaN is out of range (0 to 0.5)",
        ),
    ] {
        let config = Config {
            max_depth,
            repeat,
            overhead_target: target,
            ..Config::default()
        };
        assert_eq!(refusal(config), expected);
    }
    let seconds = Config {
        overhead_max_seconds: -1.0,
        ..Config::default()
    };
    assert_eq!(
        refusal(seconds),
        "--overhead-max-seconds -1 is not a number of seconds"
    );
    let profile = Config {
        profile: "nosuch".into(),
        ..Config::default()
    };
    assert!(
        refusal(profile).starts_with("--profile nosuch: unknown searcher profile (known: "),
        "the profile is named"
    );
}

#[test]
fn the_default_config_is_the_command_line_default() {
    use clap::{Args, FromArgMatches};
    use replab_settings::Settings;

    let config = Config::default();
    assert_eq!((config.max_depth, config.repeat), (12, 21));
    assert_eq!(config.overhead_target, 0.01);
    // No command of its own: a report records the command line as typed.
    assert_eq!(config.command, "");
    assert_eq!(
        config.edge_factor,
        replab_harness::resolution::EDGE_ROUNDS_FACTOR
    );
    let quick = Config::quick();
    assert_eq!(
        (quick.max_depth, quick.repeat, quick.edge_factor),
        (9, 6, 1)
    );
    assert_eq!(
        quick.overhead_target, 0.0,
        "the quick run adds no paired rounds"
    );
    assert_eq!(quick.command, "");
    // The options as the subcommand reads them over the defaults (every option optional).
    let parsed = |args: &[&str]| -> Result<Config, clap::Error> {
        let matches = Config::augment_args(clap::Command::new("axon"))
            .mut_args(|a| a.required(false))
            .try_get_matches_from(std::iter::once("axon").chain(args.iter().copied()))?;
        let mut parsed = Config::default();
        parsed.update_from_arg_matches(&matches)?;
        Ok(parsed)
    };
    assert_eq!(parsed(&[]).unwrap(), config);
    let given = parsed(&[
        "--max-depth",
        "8",
        "--overhead-target",
        "0",
        "--profile",
        "axon-like",
    ])
    .unwrap();
    assert_eq!(
        (
            given.max_depth,
            given.overhead_target,
            given.profile.as_str()
        ),
        (8, 0.0, "axon-like")
    );
    assert!(parsed(&["--profile", "nosuch"]).is_err());
    let seconds = parsed(&["--overhead-max-seconds", "-1"])
        .unwrap_err()
        .to_string();
    assert!(
        seconds.contains("-1 is not a number of seconds"),
        "{seconds}"
    );
    // A negative target is read as a number, then refused by its range.
    let negative = parsed(&["--overhead-target", "-0.5"]).unwrap();
    assert_eq!(
        negative.check_ranges().unwrap_err().to_string(),
        "--overhead-target -0.5 is out of range (0 to 0.5)"
    );
}
