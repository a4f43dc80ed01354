//! Instruction counts under callgrind (`replab_workloads::callgrind`).
//!
//! The tests that count need valgrind and the replab binary of the same profile
//! (`target/<profile>/replab`, e.g. from `cargo build`); without either they say so and pass.
//! The full measurement is `#[ignore]`d: `cargo build --release && cargo test --release -p
//! replab-workloads --test callgrind -- --ignored --nocapture`.

use std::path::PathBuf;

use replab_registry::{DETECTORS, DetectorId, SEARCH_DETECTORS};
use replab_workloads::{
    Silent,
    callgrind::{
        self, CYCLES, CycleCost, DEFAULT_DEPTH, DEFAULT_RUNS, InstructionCosts, Measured, Plan,
        SearchCost, Workload,
    },
};

/// The replab binary beside this test's profile directory, if valgrind is installed and the
/// binary is there; else `None` after saying why.
fn setup() -> Option<PathBuf> {
    let Some(version) = callgrind::available() else {
        eprintln!("skipped: valgrind is not installed (apt-get install valgrind)");
        return None;
    };
    let test = std::env::current_exe().expect("the test binary's path");
    // target/<profile>/deps/callgrind-<hash>
    let profile = test.parent()?.parent()?;
    let exe = profile.join(format!("replab{}", std::env::consts::EXE_SUFFIX));
    if !exe.exists() {
        eprintln!(
            "skipped: {} does not exist (build it with cargo build for the same profile)",
            exe.display()
        );
        return None;
    }
    eprintln!("counting with {version} and {}", exe.display());
    Some(exe)
}

/// Counts `workload`, or `None` (after a message) if the binary is too old to know it.
fn count(exe: &std::path::Path, workload: &str) -> Option<Measured> {
    match callgrind::count(exe, workload) {
        Ok(m) => m,
        Err(e) if format!("{e:#}").contains("unknown workload") => {
            eprintln!(
                "skipped: {} is older than the sources: {e:#}",
                exe.display()
            );
            None
        }
        Err(e) => panic!("{workload}: {e:#}"),
    }
}

#[test]
fn workload_names_round_trip() {
    let mut names = vec!["search:off:wac018:10".to_string(), "cycle:off:0".into()];
    for row in DETECTORS {
        if row.caps.searchable {
            names.push(format!("search:{}:wac018:3", row.name));
        }
        names.push(format!("cycle:{}:100", row.name));
        names.push(format!("cycle:{}:8:250", row.name));
    }
    for name in &names {
        assert_eq!(&Workload::parse(name).unwrap().name(), name);
    }
    let linear = DetectorId::reference().name();
    assert_eq!(
        Workload::parse(&format!("cycle:{linear}:8:10000"))
            .unwrap()
            .name(),
        format!("cycle:{linear}:8")
    );
    assert_eq!(
        Workload::parse(&format!("search:{linear}:WAC.018:5")).unwrap(),
        Workload::Search {
            detector: linear.into(),
            position: "WAC.018".into(),
            depth: 5
        }
    );
}

#[test]
fn bad_workload_names_are_errors() {
    for name in [
        "",
        "bogus",
        "search:linear:wac018",
        "search:nosuch:wac018:5",
        "search:truth:wac018:5",
        "search:cuckoo:wac018:5",
        "search:linear:nosuch:5",
        "search:linear:wac018:0",
        "search:linear:wac018:31",
        "search:linear:wac018:x",
        "cycle:linear",
        "cycle:linear:101",
        "cycle:linear:-1",
        "cycle:linear:8:0",
        "cycle:nosuch:8",
        "cycle:linear:8:10:1",
    ] {
        assert!(
            callgrind::run_workloads(&[name]).is_err(),
            "{name:?} was accepted"
        );
    }
    let e = callgrind::run_workloads(&["bogus"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown workload \"bogus\""), "{e}");
    // A bad name among good ones is an error too.
    assert!(callgrind::run_workloads(&["cycle:off:0:1", "bogus"]).is_err());
}

#[test]
fn workloads_run_in_process() {
    let search = Workload::parse("search:linear:wac018:4")
        .unwrap()
        .run()
        .unwrap();
    let nodes = search["units"].as_u64().unwrap();
    assert!(nodes > 100, "{search}");
    assert_eq!(search["counters"]["nodes"].as_u64(), Some(nodes));
    // Deterministic: the same tree again.
    let again = Workload::parse("search:linear:wac018:4")
        .unwrap()
        .run()
        .unwrap();
    assert_eq!(search, again);
    for (name, cycles) in [
        ("cycle:off:0", CYCLES),
        ("cycle:linear:8:100", 100),
        ("cycle:truth:32:10", 10),
    ] {
        let cycle = Workload::parse(name).unwrap().run().unwrap();
        assert_eq!(cycle["units"].as_u64(), Some(cycles), "{cycle}");
    }
    callgrind::run_workloads(&["search:off:wac018:2"]).unwrap();
}

#[test]
fn callgrind_totals_are_read_from_the_output_file() {
    let text = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n\
                events: Ir\n\nfn=(1) main\n3 10\n\nsummary: 165671921\n\n\ntotals: 165671921\n";
    assert_eq!(callgrind::parse_callgrind_totals(text), Some(165_671_921));
    let summary_only = "events: Ir\nsummary: 42\n";
    assert_eq!(callgrind::parse_callgrind_totals(summary_only), Some(42));
    let two_events = "events: Dr Ir\ntotals: 7 99\n";
    assert_eq!(callgrind::parse_callgrind_totals(two_events), Some(99));
    assert_eq!(callgrind::parse_callgrind_totals("events: Ir\n"), None);
}

fn example_costs() -> InstructionCosts {
    let search = |detector: &str, nodes: u64, instructions: u64, rel: f64| SearchCost {
        detector: detector.parse().unwrap(),
        position: "WAC.018".into(),
        depth: 10,
        nodes,
        instructions,
        per_node: instructions as f64 / nodes as f64,
        relative_to_off: rel,
    };
    let cycle = |detector: &str, run: usize, instructions: u64| CycleCost {
        detector: detector.parse().unwrap(),
        run,
        cycles: CYCLES,
        instructions,
        instructions_per_cycle: instructions as f64 / CYCLES as f64,
    };
    let linear = DetectorId::reference().name();
    InstructionCosts {
        valgrind: Some("valgrind-3.19.0".into()),
        search: vec![
            search("off", 134_387, 149_809_315, 1.0),
            search(linear, 135_769, 152_981_622, 1.0107),
        ],
        cycles: vec![
            cycle("off", 0, 570_048),
            cycle("off", 100, 570_048),
            cycle(linear, 0, 1_000_000),
            cycle(linear, 100, 5_980_067),
        ],
        wall_ms: 1234.5,
    }
}

#[test]
fn costs_round_trip_through_json() {
    let costs = example_costs();
    let json = serde_json::to_string(&costs).unwrap();
    let back: InstructionCosts = serde_json::from_str(&json).unwrap();
    assert_eq!(back, costs);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["search"][1]["relative_to_off"], 1.0107);
    assert_eq!(value["cycles"][3]["instructions_per_cycle"], 598.0067);
    let reference = DetectorId::reference();
    assert_eq!(costs.overhead(reference.name()), Some(1.0107));
    // A detector the costs do not hold.
    let other = DETECTORS.iter().find(|d| d.id != reference).unwrap();
    assert_eq!(costs.overhead(other.name), None);
    assert_eq!(costs.per_cycle("off", 100), Some(57.0048));
    let none: InstructionCosts =
        serde_json::from_str(r#"{"valgrind":null,"search":[],"cycles":[]}"#).unwrap();
    assert_eq!(none, InstructionCosts::default());
}

#[test]
fn the_section_shows_the_tables_or_says_valgrind_is_missing() {
    let html = callgrind::section_html(&example_costs());
    assert!(html.contains("valgrind-3.19.0"), "{html}");
    assert!(
        html.contains("WAC.018") && html.contains("depth\n10"),
        "{html}"
    );
    assert!(html.contains("<table"), "{html}");
    assert!(html.contains("1,114.8") && html.contains("1.011"), "{html}");
    assert!(html.contains("598.0") && html.contains("run 100"), "{html}");
    let missing = callgrind::section_html(&InstructionCosts::default());
    assert!(missing.contains("need valgrind"), "{missing}");
    assert!(missing.contains("apt-get install valgrind"), "{missing}");
    assert!(missing.contains("times only"), "{missing}");
    assert!(!missing.contains("<table"), "{missing}");
}

#[test]
fn counts_cover_only_the_workload_and_scale_with_it() {
    let Some(exe) = setup() else { return };
    let Some(short) = count(&exe, "cycle:linear:32:1000") else {
        return;
    };
    let long = count(&exe, "cycle:linear:32:3000").unwrap();
    assert_eq!((short.units, long.units), (1000, 3000));
    // The same instructions per cycle: the count holds the cycles and (almost) nothing else.
    let marginal = (long.instructions - short.instructions) as f64 / 2000.0;
    assert!(
        (short.per_unit - marginal).abs() < 1.0,
        "{short:?} {long:?}"
    );
    // Deterministic.
    assert_eq!(count(&exe, "cycle:linear:32:1000").unwrap(), short);
    // Startup and setup (building the scenario) are left out.
    let whole = callgrind::count_whole_process(&exe, "cycle:linear:32:1000")
        .unwrap()
        .unwrap();
    assert!(
        whole.instructions > short.instructions + 1_000_000,
        "{whole:?} {short:?}"
    );
    // A search: deeper searches count more; the same search the same.
    let d3 = count(&exe, "search:off:wac018:3").unwrap();
    let d5 = count(&exe, "search:off:wac018:5").unwrap();
    assert!(d5.units > d3.units && d5.instructions > d3.instructions);
    assert_eq!(count(&exe, "search:off:wac018:5").unwrap(), d5);
    let per_node = d5.per_unit;
    assert!((200.0..20_000.0).contains(&per_node), "{d5:?}");
}

#[test]
fn measure_gives_results_in_a_fixed_order() {
    let Some(exe) = setup() else { return };
    if count(&exe, "cycle:off:0:1").is_none() {
        return;
    }
    let mut progress = replab_harness::Recorded::default();
    // The reference, a detector the searcher cannot use, and `off` listed last.
    let searchable = DetectorId::reference();
    let unsearchable = DETECTORS
        .iter()
        .find(|d| d.caps.listed && !d.caps.searchable && d.caps.upcoming_only())
        .expect("an upcoming-only row")
        .id;
    let off = DetectorId::Off;
    let asked = [searchable.name(), unsearchable.name(), off.name()];
    let plan = Plan {
        depth: 4,
        runs: &[8, 0],
        cycles: 100,
    };
    let costs = callgrind::measure(&exe, &asked, &plan, &mut progress).unwrap();
    assert!(costs.valgrind.is_some());
    let searched: Vec<DetectorId> = costs.search.iter().map(|s| s.detector).collect();
    assert_eq!(
        searched,
        [off, searchable],
        "off first, no unsearchable detector"
    );
    assert_eq!(costs.search[0].relative_to_off, 1.0);
    assert!(costs.search.iter().all(|s| s.depth == 4 && s.nodes > 0));
    let cycles: Vec<(DetectorId, usize)> =
        costs.cycles.iter().map(|c| (c.detector, c.run)).collect();
    let expected: Vec<(DetectorId, usize)> = [off, searchable, unsearchable]
        .into_iter()
        .flat_map(|d| [(d, 8), (d, 0)])
        .collect();
    assert_eq!(cycles, expected);
    assert!(costs.cycles.iter().all(|c| c.cycles == 100));
    assert_eq!(progress.stages.len(), 1);
    assert_eq!(progress.done, [8]);
    // No search at depth 0, no cycles without runs.
    let nothing = Plan {
        depth: 0,
        runs: &[],
        cycles: CYCLES,
    };
    let none = callgrind::measure(&exe, &[searchable.name()], &nothing, &mut Silent).unwrap();
    assert!(none.search.is_empty() && none.cycles.is_empty() && none.valgrind.is_some());
    let one_run = Plan { runs: &[0], ..plan };
    assert!(callgrind::measure(&exe, &["nosuch"], &one_run, &mut Silent).is_err());
    let no_cycles = Plan { cycles: 0, ..plan };
    assert!(callgrind::measure(&exe, &[off.name()], &no_cycles, &mut Silent).is_err());
}

#[test]
fn cycles_counted_together_count_as_they_do_alone() {
    let Some(exe) = setup() else { return };
    if count(&exe, "cycle:off:0:1").is_none() {
        return;
    }
    // Several detectors' cycles in one child per core: each part is its workload's own count
    // (three of them counted alone, from both children where there are two).
    let plan = Plan {
        depth: 0,
        runs: &[8, 0],
        cycles: CYCLES,
    };
    let together = callgrind::measure(&exe, &["linear", "rookie"], &plan, &mut Silent).unwrap();
    assert_eq!(together.cycles.len(), 6, "off and the two, at two runs");
    for (detector, run) in [("linear", 8), ("linear", 0), ("rookie", 0)] {
        let alone = count(&exe, &format!("cycle:{detector}:{run}")).unwrap();
        let c = together
            .cycles
            .iter()
            .find(|c| c.detector.name() == detector && c.run == run)
            .unwrap();
        assert_eq!(
            (c.instructions, c.cycles),
            (alone.instructions, alone.units),
            "{detector} at run {run}"
        );
    }
    // The runs differ: a part is not another workload's count (linear's cycle grows with the
    // run it scans).
    let linear = |run| together.per_cycle("linear", run).unwrap();
    assert!(linear(8) > linear(0), "{together:?}");
}

/// Every detector's cycle counted over 10 and over 100 cycles: what a count holds beside its
/// cycles (the intercept of the two) is the call into the workload (52 to 71 instructions in a
/// release build, about 200 unoptimized), never a detector's once-per-search work (filo's
/// filtering of the game history, about 10,800 instructions in a release build, before the
/// cycles were counted after a warm-up).
#[test]
fn a_cycle_count_is_of_steady_cycles() {
    let Some(exe) = setup() else { return };
    if count(&exe, "cycle:off:0:1").is_none() {
        return;
    }
    let detectors = replab_workloads::scenarios::CYCLE_DETECTORS;
    let counted = |cycles| {
        let plan = Plan {
            depth: 0,
            runs: &[8],
            cycles,
        };
        callgrind::measure(&exe, &detectors, &plan, &mut Silent).unwrap()
    };
    let (short, long) = (counted(10), counted(100));
    assert_eq!(short.cycles.len(), detectors.len());
    for (s, l) in short.cycles.iter().zip(&long.cycles) {
        assert_eq!((s.detector, s.cycles, l.cycles), (l.detector, 10, 100));
        let intercept = (10 * s.instructions) as f64 - l.instructions as f64;
        let intercept = intercept / 9.0;
        assert!(
            (0.0..1_000.0).contains(&intercept),
            "{}: {intercept} instructions beside its cycles ({s:?}, {l:?})",
            s.detector
        );
    }
}

/// The full run's searches and cycles.
const FULL: Plan = Plan {
    depth: DEFAULT_DEPTH,
    runs: &DEFAULT_RUNS,
    cycles: CYCLES,
};

/// The full measurement: every search detector at depth 10 on WAC.018, and the cycles at runs
/// 0, 8, 32 and 100, twice (the counts must agree).
#[test]
#[ignore = "a minute or more under valgrind; run with --release -- --ignored --nocapture"]
fn full_measurement() {
    let Some(exe) = setup() else { return };
    let mut names: Vec<&str> = SEARCH_DETECTORS.to_vec();
    for n in replab_workloads::scenarios::CYCLE_DETECTORS {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let first = callgrind::measure(&exe, &names, &FULL, &mut Silent).unwrap();
    println!("wall time: {:.1} s", first.wall_ms / 1e3);
    println!(
        "{:<16} {:>8} {:>13} {:>9} {:>8}",
        "detector", "nodes", "instructions", "per node", "vs off"
    );
    for s in &first.search {
        println!(
            "{:<16} {:>8} {:>13} {:>9.1} {:>8.4}",
            s.detector, s.nodes, s.instructions, s.per_node, s.relative_to_off
        );
    }
    print!("{:<16}", "per cycle");
    for r in DEFAULT_RUNS {
        print!(" {:>9}", format!("run {r}"));
    }
    println!();
    for n in &names {
        print!("{n:<16}");
        for r in DEFAULT_RUNS {
            print!(" {:>9.1}", first.per_cycle(n, r).unwrap());
        }
        println!();
    }
    let second = callgrind::measure(&exe, &names, &FULL, &mut Silent).unwrap();
    println!("second run: {:.1} s", second.wall_ms / 1e3);
    assert_eq!(
        first.search, second.search,
        "search counts differ between runs"
    );
    assert_eq!(
        first.cycles, second.cycles,
        "cycle counts differ between runs"
    );
    println!("{}", serde_json::to_string_pretty(&first).unwrap());
}
