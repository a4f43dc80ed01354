use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;
use crate::budgets::Recorded as BudgetCosts;

fn estimate(value: f64, se: f64) -> Estimate {
    normal(value, se, 1000)
}

fn slope(nodes: u64, value: f64, se: f64) -> BudgetSlope {
    BudgetSlope {
        nodes,
        slope: Slope {
            elo_per_doubling: estimate(value, se),
            games: 2000,
            ratios: vec![2.0],
        },
        file: format!("elo-slope-{nodes}.json"),
    }
}

/// Costs at 10k, 40k and 1M nodes: `filo` cheaper than linear by 2% everywhere; `axon`
/// searched another tree.
fn costs() -> BudgetCosts {
    let budgets = [10_000u64, 40_000, 1_000_000];
    let per =
        |v: f64| -> BTreeMap<String, f64> { budgets.iter().map(|b| (b.to_string(), v)).collect() };
    let nodes = |n: u64| -> BTreeMap<String, u64> {
        budgets.iter().map(|b| (b.to_string(), n * b)).collect()
    };
    BudgetCosts {
        engine: "e".into(),
        recorded: "r".into(),
        positions: vec!["p".into()],
        command: "c".into(),
        budgets: budgets.to_vec(),
        instructions_per_node: BTreeMap::from([
            ("linear".to_string(), per(100.0)),
            ("filo".to_string(), per(98.0)),
            ("axon".to_string(), per(90.0)),
        ]),
        nodes_searched: BTreeMap::from([
            ("linear".to_string(), nodes(1)),
            ("filo".to_string(), nodes(1)),
            ("axon".to_string(), nodes(2)),
        ]),
    }
}

#[test]
fn slopes_on_a_line_give_that_line_and_a_wider_interval_away_from_the_budgets() {
    // 200 at 10k falling 20 per doubling of the budget: 160 at 40k, 120 at 160k.
    let slopes = [
        slope(10_000, 200.0, 6.0),
        slope(40_000, 160.0, 7.0),
        slope(160_000, 120.0, 12.0),
    ];
    let fall = Fall::fit(&slopes).expect("three budgets");
    assert!((fall.per_doubling.value + 20.0).abs() < 1e-9, "{fall:?}");
    assert!(fall.chi_square < 1e-12);
    let at_1m = fall.at(1_000_000);
    let expected = 120.0 - 20.0 * (1_000_000f64 / 160_000.0).log2();
    assert!((at_1m.value - expected).abs() < 1e-9);
    let inside = fall.at(40_000);
    let width = |e: &Estimate| e.interval.hi - e.interval.lo;
    assert!(width(&at_1m) > width(&inside), "{at_1m:?} {inside:?}");
    assert!(Fall::fit(&slopes[..1]).is_none());
}

#[test]
fn the_falls_interval_covers_the_true_fall_95_percent_of_the_time() {
    // Slopes drawn around a true line with the recordings' errors: the fall's and the
    // extrapolated slope's intervals must cover the truth in 95% of draws (±1.5% for 4,000).
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(43);
    let mut gauss = || {
        let (u, v): (f64, f64) = (rng.random(), rng.random());
        (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    };
    let truth = |n: u64| 200.0 - 20.0 * (n as f64 / 10_000.0).log2();
    let errors = [(10_000, 6.5), (40_000, 7.5), (160_000, 12.5)];
    let trials = 4000;
    let (mut fall_in, mut far_in) = (0, 0);
    for _ in 0..trials {
        let slopes: Vec<BudgetSlope> = errors
            .iter()
            .map(|&(n, se)| slope(n, truth(n) + se * gauss(), se))
            .collect();
        let fall = Fall::fit(&slopes).unwrap();
        fall_in += usize::from(fall.per_doubling.interval.contains(-20.0));
        far_in += usize::from(fall.at(1_000_000).interval.contains(truth(1_000_000)));
    }
    for covered in [fall_in, far_in] {
        let share = covered as f64 / trials as f64;
        assert!((share - 0.95).abs() < 0.015, "coverage {share}");
    }
}

#[test]
fn a_budget_without_a_recording_takes_the_line_marked_as_interpolated_or_extrapolated() {
    let slopes = [slope(10_000, 200.0, 6.0), slope(160_000, 120.0, 12.0)];
    let fall = Fall::fit(&slopes);
    let origin = |n| slope_at(&slopes, fall.as_ref(), n).map(|(_, o)| o);
    assert_eq!(origin(10_000), Some(SlopeOrigin::Measured));
    assert_eq!(origin(40_000), Some(SlopeOrigin::Interpolated));
    assert_eq!(origin(1_000_000), Some(SlopeOrigin::Extrapolated));
    assert_eq!(slope_at(&slopes[..1], None, 40_000), None);
    assert_eq!(
        budget_text(1_000_000, SlopeOrigin::Extrapolated),
        "1,000,000 nodes a move (slope extrapolated)"
    );
}

#[test]
fn each_identical_play_detector_of_the_baselines_tree_gets_its_elo_at_every_budget() {
    let slopes = vec![slope(10_000, 200.0, 6.0), slope(40_000, 160.0, 8.0)];
    let times = BudgetTimes {
        engine: "e".into(),
        baseline: "linear".into(),
        budgets: vec![BudgetTime {
            nodes: 40_000,
            baseline_seconds_per_node: estimate(4e-7, 1e-9),
            ratios: BTreeMap::from([(
                "filo".to_string(),
                TimeRatio {
                    ratio: estimate(1.05, 0.005),
                    p_a_slower: 1.0,
                    pairs: 20,
                },
            )]),
        }],
        ..BudgetTimes::default()
    };
    let rows = ["filo", "axon"];
    let a = across((slopes, Vec::new()), Ok(costs()), Ok(times), &rows);
    assert_eq!(a.rows.len(), 1, "axon searched another tree: {a:?}");
    let filo = &a.rows[0];
    let nodes: Vec<u64> = filo.budgets.iter().map(|b| b.nodes).collect();
    assert_eq!(nodes, [10_000, 40_000, 1_000_000]);
    let doublings = (100.0f64 / 98.0).log2();
    assert!((filo.budgets[1].elo.value - 160.0 * doublings).abs() < 1e-9);
    assert_eq!(filo.budgets[2].origin, SlopeOrigin::Extrapolated);
    assert!(filo.budgets[2].budget().contains("slope extrapolated"));
    // The clock's ratio only where one is recorded: costlier by the clock, so negative.
    assert!(filo.budgets[0].elo_by_time.is_none());
    assert!(filo.budgets[1].elo_by_time.unwrap().value < 0.0);
    let page = html(&a);
    assert!(
        page.contains("1,000,000 nodes a move (slope extrapolated)"),
        "{page}"
    );
    assert!(page.contains("Fitted fall"), "{page}");
    let docs = markdown(&a, &costs());
    assert!(
        docs.contains("| axon (another tree) | 90.0 (×0.900)"),
        "{docs}"
    );
    assert!(
        docs.contains("1,000,000 nodes a move (slope extrapolated), slope +"),
        "{docs}"
    );
    let without = across(
        (Vec::new(), Vec::new()),
        Err("no costs".into()),
        Err("x".into()),
        &rows,
    );
    assert!(without.rows.is_empty());
    assert_eq!(without.notes, ["x", "no costs"]);
}

#[test]
fn every_slope_file_of_this_engine_is_read_by_budget_and_another_engines_is_named() {
    let dir = std::env::temp_dir().join(format!("replab-across-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, engine: &str, nodes: u64| {
        let s = serde_json::json!({
            "engine": engine,
            "nodes": nodes,
            "slopes": {"balanced": slope(nodes, 150.0, 8.0).slope},
        });
        std::fs::write(dir.join(name), s.to_string()).unwrap();
    };
    write("elo-slope.json", "e", 10_000);
    write("elo-slope-40000.json", "e", 40_000);
    write("elo-slope-160000.json", "other", 160_000);
    write("elo-slope-notes.json", "e", 5);
    let (slopes, notes) = read_slopes(&dir, "e").unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let nodes: Vec<u64> = slopes.iter().map(|s| s.nodes).collect();
    assert_eq!(nodes, [10_000, 40_000]);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("elo-slope-160000.json") && notes[0].contains("other"));
}

/// The repository's datasets folder.
fn datasets() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../datasets")
}

#[test]
fn the_docs_show_the_recordings_across_budgets_as_they_are() {
    // Every player that searched linear's tree in the cost recording: the docs cannot know a
    // run's identical-play rows, and a player of another tree has no Elo at equal time.
    let engine = replab_search::ENGINE_DIGEST;
    let costs = match BudgetCosts::built_in() {
        Ok(costs) => costs,
        Err(why) => {
            eprintln!("skipped: the cost recording is another engine's ({why})");
            return;
        }
    };
    let specs: Vec<&str> = costs
        .detectors()
        .into_iter()
        .filter(|s| costs.same_tree(s))
        .collect();
    let slopes = read_slopes(&datasets(), engine).unwrap();
    if slopes.0.len() < 3 {
        eprintln!(
            "skipped: slopes of this engine at fewer than 3 budgets ({:?})",
            slopes.1
        );
        return;
    }
    let times = read_budget_times(&datasets(), engine, crate::BASELINE).unwrap();
    let a = across(slopes, Ok(costs.clone()), times, &specs);
    let text = markdown(&a, &costs);
    let docs = std::fs::read_to_string(datasets().join("../docs/elo.md")).unwrap();
    assert!(
        docs.contains(&text),
        "docs/elo.md does not show the recordings across budgets as they are; they give:\n{text}"
    );
}

#[test]
fn a_verdicts_figure_claims_a_direction_only_where_both_cost_measures_give_it() {
    let at = |instructions: f64, time: f64| {
        let mut b = BudgetElo {
            nodes: 40_000,
            slope: estimate(190.0, 7.0),
            origin: SlopeOrigin::Measured,
            instructions_per_node: [instructions, 100.0],
            doublings: (100.0 / instructions).log2(),
            elo: estimate(190.0, 7.0).map(|x| x * (100.0 / instructions).log2()),
            time_per_node: None,
            elo_by_time: None,
        };
        let ratio = TimeRatio {
            ratio: estimate(time, 0.004),
            p_a_slower: 1.0,
            pairs: 20,
        };
        b.elo_by_time = Some(elo_by_time(&b.slope, &ratio));
        b.time_per_node = Some(ratio);
        b
    };
    // Cheaper by instructions, dearer by the clock: no direction.
    let parted = at(97.0, 1.04);
    let d = parted.decided();
    assert!(d.interval.lo < 0.0 && d.interval.hi > 0.0, "{d:?}");
    assert!((d.value - parted.elo_by_time.unwrap().value).abs() < 1e-12);
    assert!(parted.decided_text().contains("its interval spans both"));
    // Dearer by both: weaker.
    let d = at(106.0, 1.10).decided();
    assert!(d.interval.hi < 0.0, "{d:?}");
    // Without a time ratio, the instruction count's figure.
    let mut alone = at(106.0, 1.10);
    alone.elo_by_time = None;
    assert_eq!(alone.decided(), alone.elo);
}
