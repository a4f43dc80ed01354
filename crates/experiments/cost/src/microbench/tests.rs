//! The micro-benchmark's summary, JSON and page, in-process: made-up times over the real
//! scenario lists (fast), and one very short real run.

use std::{collections::BTreeSet, time::Duration};

use replab_detect::Detector;
use replab_detect::Stats;
use replab_registry::{DETECTORS, DetectorId};
use replab_report::ReportDir;
use serde_json::Value;

use super::{
    Config, Results, TITLE,
    measure::{Budget, CycleResult, Measurements, WalkResult},
    run,
    scenarios::{
        CYCLE_DETECTORS, CYCLE_IDS, HISTORY_LENGTHS, OFF, RUN_LENGTHS, Scenario, SizedVisitor,
        history_scenarios, run_scenarios, table_size_runs,
    },
    summarise,
    walk::WalkTally,
    write,
};
use crate::Recorded;
use crate::stats::{Estimate, Interval, median_coverage};

/// A made-up median of three rounds with its interval `[lo, hi]`.
fn three(median: f64, lo: f64, hi: f64) -> Estimate {
    Estimate {
        value: median,
        interval: Interval {
            lo,
            hi,
            coverage: median_coverage(3),
            n: 3,
        },
    }
}

/// The table-size configurations of the real runs, as (detector, entries).
fn table_sizes() -> Vec<(DetectorId, usize)> {
    struct Sizes(Vec<(DetectorId, usize)>);
    impl SizedVisitor for Sizes {
        fn visit<D: Detector + 'static>(&mut self, name: &'static str, entries: usize, _: D) {
            self.0.push((name.parse().unwrap(), entries));
        }
    }
    let mut sizes = Sizes(Vec::new());
    table_size_runs(&mut sizes);
    sizes.0
}

/// The detector the made-up times make cheapest: the reference, first of the repetition
/// reporters in table order (ratios grow with the position in [`CYCLE_IDS`]).
fn cheap() -> DetectorId {
    DetectorId::reference()
}

/// Measurements with made-up times over the real scenario lists (no timing).
fn fake() -> Measurements {
    let cycle = |sc: &Scenario, i: usize, id: DetectorId| CycleResult {
        detector: id,
        history: sc.history,
        run: sc.run,
        hit: sc.hit,
        ns: three(
            2.0 + i as f64 + sc.run as f64 * if id == cheap() { 0.5 } else { 2.0 },
            1.0,
            3.0 + i as f64 + sc.run as f64 * 2.0,
        ),
        // Intervals ±0.01: adjacent detectors (0.05 apart) never overlap.
        ratio: three(
            (2.0 + i as f64) / 20.0,
            (2.0 + i as f64) / 20.0 - 0.01,
            (2.0 + i as f64) / 20.0 + 0.01,
        ),
    };
    let cycles = |scs: Vec<Scenario>| {
        scs.iter()
            .flat_map(|sc| {
                CYCLE_IDS
                    .iter()
                    .enumerate()
                    .map(move |(i, &id)| cycle(sc, i, id))
            })
            .collect::<Vec<_>>()
    };
    let walk = |id: DetectorId, entries: usize| WalkResult {
        detector: id,
        entries,
        memory_bytes: entries * 16,
        ns_per_node: three(
            10.0 + entries as f64 / 1000.0,
            9.0,
            11.0 + entries as f64 / 1000.0,
        ),
        ratio: three(0.5, 0.45, 0.55),
        tally: WalkTally {
            nodes: 3000,
            enters: 2900,
            repetitions: 100,
            found: 99,
            missed: 1,
            false_reports: 0,
        },
        stats: Stats {
            probes: 3000,
            futile: 30,
            misses: 29,
            collisions: 58,
            ..Stats::default()
        },
    };
    Measurements {
        budget: Budget {
            reps: 3,
            batch: Duration::from_millis(1),
        },
        make_ns: 20.0,
        make_samples: vec![19.0, 20.0, 21.0],
        runs: cycles(run_scenarios()),
        histories: cycles(history_scenarios()),
        walk: CYCLE_IDS.iter().map(|&id| walk(id, 0)).collect(),
        tables: table_sizes()
            .into_iter()
            .map(|(id, entries)| walk(id, entries))
            .collect(),
        walk_nodes: 3000,
        seconds: 1.0,
    }
}

/// A fixed `meta`, so pages compare equal.
fn meta() -> replab_report::Meta {
    replab_report::Meta {
        command: "replab bench --quick".into(),
        commit: "abc1234".into(),
        date: "2026-01-01T00:00:00Z".into(),
        rustc: "rustc".into(),
        cpu: "cpu".into(),
        machine: "machine".into(),
    }
}

/// A scratch directory for one test, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("replab-microbench-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether two JSON values are equal, numbers up to rounding (serde_json's float parser is not
/// always correctly rounded).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// The keys of a JSON object.
fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn summary_json_has_every_detector_and_run_length() {
    let summary = summarise(&fake(), false);
    let json: Value = serde_json::to_value(&summary).unwrap();
    // Every listed row of the registry's table, and the baseline.
    let names = DETECTORS
        .iter()
        .filter(|d| d.caps.listed)
        .map(|d| d.name)
        .chain([OFF]);
    for name in names {
        for run in RUN_LENGTHS {
            let found = json["runs"].as_array().unwrap().iter().any(|c| {
                c["detector"] == name && c["run"] == run && c["ns"]["value"].as_f64().unwrap() > 0.0
            });
            assert!(found, "{name} run {run}");
        }
        for h in HISTORY_LENGTHS {
            assert!(
                json["histories"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c["detector"] == name && c["history"] == h),
                "{name} history {h}"
            );
        }
    }
    assert_eq!(
        json["hits"].as_array().unwrap().len(),
        6 * CYCLE_DETECTORS.len()
    );
    assert_eq!(
        json["tables"].as_array().unwrap().len(),
        table_sizes().len()
    );
    assert!((json["runs"][0]["ratio"]["value"].as_f64().unwrap() - 2.0 / 20.0).abs() < 1e-9);
    // Every figure carries the one interval type; no time is a bare number.
    assert_eq!(json["runs"][0]["ratio"]["interval"]["n"], 3);
    assert_eq!(json["seconds"]["interval"]["n"], 1);
    assert_eq!(
        crate::interval::unmarked_times(&json, &[]),
        Vec::<String>::new()
    );
    // The reference costs 3 + 0.5 × run, everything else more (the next row 4 + 2 × run): it
    // wins everywhere, alone (the next is 33% dearer at run 0).
    let cheap = cheap();
    assert!(summary.cheapest.iter().all(|c| c.detector == cheap));
    assert!(
        summary
            .cheapest_sentence
            .contains(&format!("— 0–100 plies: {cheap} (")),
        "{}",
        summary.cheapest_sentence
    );
    assert_eq!(summary.cheapest[0].tied, [cheap]);
}

#[test]
fn write_makes_results_page_and_charts() {
    let results = Results {
        meta: meta(),
        summary: summarise(&fake(), false),
        criterion_dir: Some("/nonexistent/criterion".into()),
        criterion: None,
    };
    let scratch = Scratch::new("write");
    let dir = ReportDir::create(&scratch.0).unwrap();
    write(&results, &dir).unwrap();
    for f in [
        "results.json",
        "index.html",
        "microbench-run.svg",
        "microbench-run-ratio.svg",
        "microbench-run-hit.svg",
        "microbench-history.svg",
        "microbench-tables-cost.svg",
        "microbench-tables-rates.svg",
    ] {
        assert!(dir.staging().join(f).is_file(), "{f}");
    }
    let json: Value =
        serde_json::from_slice(&std::fs::read(dir.staging().join("results.json")).unwrap())
            .unwrap();
    assert_eq!(
        keys(&json),
        BTreeSet::from(["meta", "summary", "criterion_dir", "criterion"])
    );
    assert_eq!(json["criterion"], Value::Null);
    let back: Results = serde_json::from_value(json.clone()).unwrap();
    assert!(same_json(&serde_json::to_value(&back).unwrap(), &json));
    assert!(same_json(&serde_json::to_value(&results).unwrap(), &json));
    let html = std::fs::read_to_string(dir.staging().join("index.html")).unwrap();
    assert!(html.contains(TITLE));
    assert!(html.contains("class=\"sortable\""));
    assert!(html.contains("microbench-run.svg"));
    assert!(html.contains("../index.html"));
    for heading in [
        "Summary",
        "Cost per node by reversible run",
        "Cost of a repetition hit",
        "Cost per node by game-history length",
        "Search-like walk",
        "Table size: cost, false hits and misses",
        "Method",
        "criterion&#39;s estimates",
    ] {
        assert!(html.contains(&format!(">{heading}</h2>")), "{heading}");
    }
    // Without criterion's results the page says how to produce them.
    assert!(html.contains("No criterion estimates were found in <code>/nonexistent/criterion"));
    assert!(html.contains("cargo bench -p replab-benches --bench detectors"));
    // Medians with their intervals.
    assert!(html.contains("4.0 [1.0, 8.0]"), "linear at run 2");
    // The headline is escaped text; the tables and figures are markup.
    assert!(html.contains("— 0–100 plies: linear ("));
    assert!(!html.contains("&lt;table"));
    assert!(!html.contains("This was a quick run"));
    dir.commit().unwrap();
}

#[test]
fn a_short_real_run_has_the_results_structure() {
    let config = Config {
        rounds: 1,
        batch: Duration::from_micros(20),
        criterion_dir: None,
        command: "replab bench --quick".into(),
        ..Config::quick()
    };
    let mut progress = Recorded::default();
    let results = run(&config, &mut progress).unwrap();
    assert_eq!(results.meta.command, "replab bench --quick");
    assert_eq!(progress.stages.len(), 1);
    assert_eq!(progress.done[0], progress.stages[0].1);
    let json = serde_json::to_value(&results).unwrap();
    let s = &json["summary"];
    assert_eq!(
        keys(s),
        BTreeSet::from([
            "batch_ms",
            "cheapest",
            "cheapest_sentence",
            "detectors",
            "hits",
            "histories",
            "history_lengths",
            "history_run",
            "make_unmake_ns",
            "make_unmake_ns_samples",
            "quick",
            "reps",
            "run_history",
            "run_lengths",
            "runs",
            "seconds",
            "tables",
            "walk",
            "walk_nodes",
            "walk_shape",
        ])
    );
    assert_eq!(json["criterion"], Value::Null);
    assert_eq!(json["criterion_dir"], Value::Null);
    let cycle_keys = BTreeSet::from(["detector", "history", "run", "hit", "ns", "ratio"]);
    for c in ["runs", "hits", "histories"] {
        assert!(
            s[c].as_array()
                .unwrap()
                .iter()
                .all(|x| keys(x) == cycle_keys)
        );
    }
    let walk_keys = BTreeSet::from([
        "detector",
        "entries",
        "memory_bytes",
        "ns_per_node",
        "ratio",
        "nodes",
        "enters",
        "repetitions",
        "found",
        "missed",
        "false_reports",
        "collisions",
        "misses",
        "futile",
        "probes",
        "collision_rate",
        "miss_rate",
        "false_hit_rate",
    ]);
    for w in ["walk", "tables"] {
        assert!(
            s[w].as_array()
                .unwrap()
                .iter()
                .all(|x| keys(x) == walk_keys)
        );
    }
    let cheapest_keys = BTreeSet::from(["run", "detector", "ns", "ratio", "tied", "instructions"]);
    let cheapest = s["cheapest"].as_array().unwrap();
    assert_eq!(cheapest.len(), RUN_LENGTHS.len());
    assert!(cheapest.iter().all(|x| keys(x) == cheapest_keys));
    assert_eq!(s["quick"], true);
    assert_eq!(s["reps"], 1);
    // Every measured time carries an interval or is marked a single sample (one round here).
    assert_eq!(
        crate::interval::unmarked_times(&json, &["meta"]),
        Vec::<String>::new()
    );
    assert_eq!(s["runs"][0]["ns"]["interval"]["n"], 1);
    assert_eq!(
        s["detectors"],
        serde_json::to_value(CYCLE_DETECTORS).unwrap()
    );
    // It reads back, and a page can be written from it.
    let back: Results = serde_json::from_value(json.clone()).unwrap();
    assert!(same_json(&serde_json::to_value(&back).unwrap(), &json));
    let scratch = Scratch::new("real");
    let dir = ReportDir::create(&scratch.0).unwrap();
    write(&results, &dir).unwrap();
}

#[test]
fn overlapping_intervals_tie_for_cheapest() {
    let mut m = fake();
    // At run 0, make the next row's ratio interval reach down into the cheapest's: a tie,
    // whatever the medians; the one after stays clear of it.
    let cheap = cheap();
    let next = CYCLE_IDS[CYCLE_IDS.iter().position(|&id| id == cheap).unwrap() + 1];
    let low = m
        .runs
        .iter()
        .find(|c| c.detector == cheap && c.run == 0 && !c.hit)
        .unwrap()
        .ratio
        .interval;
    for c in m.runs.iter_mut().filter(|c| c.run == 0 && !c.hit) {
        if c.detector == next {
            c.ratio.interval.lo = low.hi;
        }
    }
    let summary = summarise(&m, false);
    let at0 = &summary.cheapest[0];
    assert_eq!((at0.run, at0.detector), (0, cheap));
    assert_eq!(at0.tied, [cheap, next]);
    assert_eq!(at0.ratio.interval, low);
    assert_eq!(summary.cheapest[1].tied, [cheap]);
    let s = &summary.cheapest_sentence;
    assert!(
        s.contains(&format!(
            "— 0 plies: no measurable difference between {cheap} and {next} ("
        )) && s.contains(&format!("; 2–100 plies: {cheap} (")),
        "{s}"
    );
    assert!(s.contains("95% intervals overlap"), "{s}");
    // Clear of the cheapest's interval, but by less than the timing's resolution: still tied;
    // by more: ranked.
    for (gap, tied) in [(0.04, true), (0.06, false)] {
        for c in m.runs.iter_mut().filter(|c| c.run == 0 && !c.hit) {
            if c.detector == next {
                c.ratio.interval.lo = low.hi * (1.0 + gap);
                c.ratio.value = c.ratio.value.max(c.ratio.interval.lo);
            }
        }
        let at0 = &summarise(&m, false).cheapest[0];
        assert_eq!(at0.tied.contains(&next), tied, "a gap of {gap}");
        // The short run's resolution (100%) ranks neither gap.
        let at0 = &summarise(&m, true).cheapest[0];
        assert!(at0.tied.contains(&next), "a gap of {gap}, short run");
    }
}

#[test]
fn detectors_tied_by_the_clock_are_listed_in_the_registrys_order_whichever_is_faster() {
    let cheap = cheap();
    let next = CYCLE_IDS[CYCLE_IDS.iter().position(|&id| id == cheap).unwrap() + 1];
    assert!(cheap < next, "the registry's order puts {cheap} first");
    for next_faster in [false, true] {
        let mut m = fake();
        // Half the cheapest ratio at run 0: the two are the cheapest, a thousandth apart.
        let base = m
            .runs
            .iter()
            .filter(|c| c.run == 0 && !c.hit)
            .map(|c| c.ratio.interval.lo)
            .fold(f64::INFINITY, f64::min)
            / 2.0;
        let gap = if next_faster { -base } else { base } / 1000.0;
        for c in m.runs.iter_mut().filter(|c| c.run == 0 && !c.hit) {
            let value = match c.detector {
                d if d == cheap => base,
                d if d == next => base + gap,
                _ => continue,
            };
            c.ratio.value = value;
            (c.ratio.interval.lo, c.ratio.interval.hi) = (value * 0.99, value * 1.01);
        }
        let at0 = &summarise(&m, true).cheapest[0];
        let fastest = if next_faster { next } else { cheap };
        assert_eq!(at0.detector, fastest, "next faster: {next_faster}");
        assert_eq!(at0.tied, [cheap, next], "next faster: {next_faster}");
    }
}

/// Made-up callgrind counts of every detector's cycle at every run length: `per_cycle(id, run)`
/// instructions per cycle, or none for the detectors `per_cycle` gives `None`.
fn counts(
    per_cycle: impl Fn(DetectorId, usize) -> Option<f64>,
) -> crate::callgrind::InstructionCosts {
    let mut cycles = Vec::new();
    for &detector in &CYCLE_IDS {
        for &run in &RUN_LENGTHS {
            if let Some(x) = per_cycle(detector, run) {
                cycles.push(crate::callgrind::CycleCost {
                    detector,
                    run,
                    cycles: 10_000,
                    instructions: (x * 10_000.0) as u64,
                    instructions_per_cycle: x,
                });
            }
        }
    }
    crate::callgrind::InstructionCosts {
        valgrind: Some("valgrind-3.19.0".into()),
        cycles,
        ..Default::default()
    }
}

/// Where every detector's cycle was counted, the ranking is by the counts, whatever the clock
/// says; ties are within 0.5% of the fewest (0.4% ties, 0.6% does not); a run length missing a
/// detector's count is ranked by the clock.
#[test]
fn counted_cycles_rank_exactly_and_the_clock_ranks_the_rest() {
    let m = fake();
    let clock = summarise(&m, false);
    let cheap = clock.cheapest[0].detector;
    let next = *CYCLE_IDS
        .iter()
        .rev()
        .find(|&&d| super::scenarios::reports_repetitions(d) && d != cheap)
        .unwrap();
    for (gap, tied) in [(0.004, true), (0.006, false)] {
        // `next`, slowest by the clock, has the fewest instructions; `cheap` is `gap` above.
        let k = counts(|d, _| {
            Some(if d == next {
                100.0
            } else if d == cheap {
                100.0 * (1.0 + gap)
            } else {
                500.0
            })
        });
        let s = super::summarise_with(&m, false, Some(&k));
        assert_eq!(s.cheapest.len(), RUN_LENGTHS.len());
        for c in &s.cheapest {
            assert_eq!((c.detector, c.instructions), (next, Some(100.0)));
            assert_eq!(c.tied.contains(&cheap), tied, "a gap of {gap}");
        }
        assert!(
            s.cheapest_sentence
                .contains("instructions a cycle by callgrind"),
            "{}",
            s.cheapest_sentence
        );
    }
    // Run 0 lacks `next`'s count: the clock ranks it; the other run lengths stay exact.
    let k =
        counts(|d, run| (d != next || run != 0).then_some(if d == next { 100.0 } else { 500.0 }));
    let s = super::summarise_with(&m, false, Some(&k));
    assert_eq!(s.cheapest[0], clock.cheapest[0]);
    assert!(s.cheapest[1..].iter().all(|c| c.instructions.is_some()));
}

/// Writes one criterion benchmark result under `root` (with `benchmark.json` unless `ids` is
/// false).
fn fake_criterion(root: &std::path::Path, id: [&str; 3], median: f64, ids: bool) {
    let new = root.join(id[0]).join(id[1]).join(id[2]).join("new");
    std::fs::create_dir_all(&new).unwrap();
    let stat = |v: f64| {
        serde_json::json!({
            "confidence_interval": {
                "confidence_level": 0.95,
                "lower_bound": v * 0.9,
                "upper_bound": v * 1.1,
            },
            "point_estimate": v,
            "standard_error": v * 0.05,
        })
    };
    let estimates = serde_json::json!({
        "mean": stat(median * 1.01),
        "median": stat(median),
        "median_abs_dev": stat(1.0),
        "slope": stat(median),
        "std_dev": stat(1.0),
    });
    std::fs::write(new.join("estimates.json"), estimates.to_string()).unwrap();
    if ids {
        let b = serde_json::json!({
            "group_id": id[0], "function_id": id[1], "value_str": id[2],
            "throughput": null, "full_id": id.join("/"), "directory_name": id.join("/"),
            "title": id.join("/"),
        });
        std::fs::write(new.join("benchmark.json"), b.to_string()).unwrap();
        let samples = serde_json::json!({ "sampling_mode": "Linear", "iters": vec![1.0; 10] });
        std::fs::write(new.join("sample.json"), samples.to_string()).unwrap();
    }
}

#[test]
fn criterion_estimates_are_read_and_shown_beside_replab() {
    let scratch = Scratch::new("criterion");
    let root = scratch.0.join("criterion");
    // The cheap detector's cycles and walk, and the first table-size run.
    let cheap = cheap().name();
    let (sized, entries) = table_sizes()[0];
    let entries = entries.to_string();
    fake_criterion(&root, ["run-miss", cheap, "8"], 7.0, true);
    fake_criterion(&root, ["run-miss", cheap, "64"], 30.0, true);
    fake_criterion(&root, ["make-unmake", "copy-make", "quiet"], 20.0, true);
    fake_criterion(&root, ["walk", cheap, "3000"], 30_000.0, false);
    fake_criterion(
        &root,
        ["table-size", sized.name(), &entries],
        300_000.0,
        true,
    );
    fake_criterion(&root, ["unknown-group", "x", "1"], 5.0, true);
    // criterion's own leftovers are ignored: the previous run, reports, broken files.
    let base = root.join(format!("run-miss/{cheap}/8/base"));
    std::fs::create_dir_all(&base).unwrap();
    std::fs::copy(
        root.join(format!("run-miss/{cheap}/64/new/estimates.json")),
        base.join("estimates.json"),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("report")).unwrap();
    let broken = root.join(format!("history/{cheap}/0/new"));
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("estimates.json"), "{oops").unwrap();

    assert_eq!(super::read_criterion(&scratch.0.join("absent")), None);
    let found = super::read_criterion(&root).unwrap();
    let ids: Vec<String> = found
        .iter()
        .map(|e| format!("{}/{}/{}", e.group, e.function, e.parameter))
        .collect();
    assert_eq!(
        ids,
        [
            "make-unmake/copy-make/quiet".to_owned(),
            format!("run-miss/{cheap}/8"),
            format!("run-miss/{cheap}/64"),
            format!("table-size/{sized}/{entries}"),
            "unknown-group/x/1".to_owned(),
            format!("walk/{cheap}/3000"),
        ]
    );
    let e8 = &found[1];
    assert_eq!(e8.ns.value, 7.0);
    let ci = e8.ns.interval;
    assert!((ci.lo - 6.3).abs() < 1e-9 && (ci.hi - 7.7).abs() < 1e-9);
    assert_eq!((ci.coverage, ci.n), (0.95, 10));

    // Paired with replab's figures: run-miss/<cheap>/8 is 3 + 0.5 × 8 = 7 ns in fake(); the walk
    // per node (criterion's per-replay time over 3000 nodes).
    let summary = summarise(&fake(), false);
    let (c, ours) = super::criterion::pair(e8, &summary).unwrap();
    assert_eq!((c.value, ours.value), (7.0, 7.0));
    assert_eq!(ours.interval.ends(), [1.0, 20.0]);
    let walk = found.iter().find(|e| e.group == "walk").unwrap();
    let (c, ours) = super::criterion::pair(walk, &summary).unwrap();
    assert_eq!((c.value, ours.value), (10.0, 10.0));
    assert!((c.interval.lo - 9.0).abs() < 1e-9);
    let table = found.iter().find(|e| e.group == "table-size").unwrap();
    let per_node = 10.0 + table_sizes()[0].1 as f64 / 1000.0;
    assert_eq!(
        super::criterion::pair(table, &summary).unwrap().1.value,
        per_node
    );
    let make = &found[0];
    let (_, ours) = super::criterion::pair(make, &summary).unwrap();
    assert_eq!(ours.interval.ends(), [20.0, 20.0]);
    assert!(super::criterion::pair(&found[4], &summary).is_none());

    // Through `run`'s fields into the JSON and onto the page.
    let results = Results {
        meta: meta(),
        summary,
        criterion_dir: Some(root.display().to_string()),
        criterion: Some(found),
    };
    let json = serde_json::to_value(&results).unwrap();
    assert_eq!(json["criterion"][1]["group"], "run-miss");
    assert_eq!(json["criterion"][1]["ns"]["value"], 7.0);
    let hi = &json["criterion"][1]["ns"]["interval"]["hi"];
    assert!((hi.as_f64().unwrap() - 7.7).abs() < 1e-9);
    assert_eq!(
        crate::interval::unmarked_times(&json, &["meta"]),
        Vec::<String>::new()
    );
    let back: Results = serde_json::from_value(json.clone()).unwrap();
    assert!(same_json(&serde_json::to_value(&back).unwrap(), &json));
    let dir = ReportDir::create(scratch.0.join("report")).unwrap();
    write(&results, &dir).unwrap();
    let html = std::fs::read_to_string(dir.staging().join("index.html")).unwrap();
    assert!(!html.contains("No criterion estimates"));
    assert!(html.contains("criterion ns (interval)"));
    assert!(
        html.contains("<td>run-miss</td><td>linear</td><td>8</td>"),
        "row"
    );
    assert!(
        html.contains("7.0 [6.3, 7.7]"),
        "criterion's median and interval"
    );
    assert!(html.contains("6 benchmarks"), "count");
}
