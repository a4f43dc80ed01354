//! Tests of the gauntlet: every row's players parse, and a tiny run reports each row.

use super::*;
use crate::running::{Books, jobs};
use replab_harness::Silent;
use replab_harness::interval::{Estimate, Interval};
use replab_selfplay::{Book, book::REPETITION_NAME, stats::NoInterval};

#[test]
fn every_row_parses_and_has_a_baseline() {
    assert!(ROWS.len() >= 20);
    for r in ROWS.iter() {
        PlayerSpec::parse(&r.a).unwrap();
        PlayerSpec::parse(&r.b).unwrap();
        assert_ne!(r.a, r.b);
    }
    assert!(ROWS.iter().any(|r| r.a == "off"));
    assert!(ROWS.iter().any(|r| r.a.contains("jitter=on")));
}

#[test]
fn a_tiny_gauntlet_reports_every_row() {
    let config = Config {
        nodes: 50,
        games: 2,
        rep_games: 2,
        cost_games: 2,
        tc_games: 0,
        threads: 2,
        smoke_run: false,
        ..Config::quick()
    };
    let results = run(&config, &mut Silent).unwrap();
    assert_eq!(results.config.settings, config);
    assert_eq!(
        results.config.settings.adjudication,
        Adjudication::rules_draw()
    );
    let technique = ROWS.iter().filter(|r| r.technique_differs()).count();
    assert!(technique >= 10, "{technique}");
    assert_eq!(results.rows.len(), 2 * ROWS.len() + technique);
    assert!(results.rows.iter().all(|r| r.games == 2 && r.deterministic));
    let of = |m: Measure| results.rows.iter().filter(move |r| r.measure == m);
    assert_eq!(of(Measure::Balanced).count(), ROWS.len());
    assert!(of(Measure::RepetitionRich).all(|r| r.book.ends_with("replab-repetition.pgn")));
    assert!(of(Measure::Balanced).all(|r| r.book.ends_with("8moves_v3.pgn")));
    // Equal cost: B keeps the nodes, A gets the nodes B's instructions buy at its own cost
    // (the recorded table: no binary to count with).
    let table = crate::matches::cost::recorded().unwrap();
    for r in of(Measure::EqualCost) {
        let s = r
            .cost_scaling
            .as_ref()
            .expect("equal-cost rows record their budgets");
        assert_eq!(s.b_nodes, 50, "{}", r.label);
        // The row's specs (the results' specs carry the scaled `nodes=`).
        let row = ROWS.iter().find(|x| x.label == r.label).unwrap();
        assert!(
            r.a.contains("nodes=") && r.b.contains("nodes=50"),
            "{} {}",
            r.a,
            r.b
        );
        let (ca, cb) = (table.costs[&row.a], table.costs[&row.b]);
        assert_eq!(s.a_nodes, (50.0 * cb / ca).round() as u64, "{}", r.label);
        assert!(r.control.contains(" : "), "{}", r.control);
    }
    for r in &results.rows {
        // Every searched move has a depth, and a pair is counted at most once.
        assert!(r.median_depth.iter().all(Option::is_some), "{}", r.label);
        assert!(r.draw_rule_pairs <= r.games / 2, "{}", r.label);
        assert!(r.median_plies.is_some_and(|p| p > 0.0), "{}", r.label);
    }
    assert!(headline(&results).contains("choices differ"));
    // Every measured time carries an interval or is marked a single sample; every Elo its
    // interval.
    let v = serde_json::to_value(&results).unwrap();
    let unmarked = replab_harness::interval::unmarked_times(&v, &["config", "meta"]);
    assert_eq!(unmarked, Vec::<String>::new());
    assert_eq!(v["totals"]["wall_s"]["interval"]["n"], 1);
    // One pair is too few for an interval: none is given, and each row says why.
    assert!(v["rows"][0]["elo"]["interval"].is_null());
    assert_eq!(v["config"]["adjudication"]["draw"], serde_json::Value::Null);
    // The settings written flat beside what the run set up, the bounds as `[ELO0, ELO1]`;
    // read back the same.
    assert_eq!(v["config"]["bounds"], serde_json::json!([-5.0, 5.0]));
    assert_eq!(v["config"]["nodes"], 50);
    assert_eq!(v["config"]["baseline"], BASELINE);
    assert!(v["config"].get("command").is_none());
    let back: Results = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(back.config, results.config);
    assert!(summary_table(&results).contains("off (vs linear)"));
    let table = summary_table(&results);
    for reason in [
        NoInterval::IdenticalPlay,
        NoInterval::EveryPairOneOne,
        NoInterval::EveryPairSameScore,
        NoInterval::TooFewGames,
    ] {
        // Named in place of each interval (Elo and nElo), and identical play as the verdict
        // too.
        let times = if reason == NoInterval::IdenticalPlay {
            3
        } else {
            2
        };
        let rows = results
            .rows
            .iter()
            .filter(|r| r.no_interval == Some(reason));
        assert_eq!(
            table.matches(reason.text()).count(),
            times * rows.count(),
            "{reason:?}"
        );
    }
    assert!(results.rows.iter().all(|r| r.no_interval.is_some()));
    for r in &results.rows {
        // One game played twice scores 1 (a win and a loss, or two draws) in every pair: no
        // variance.
        let [ll, ld, _, wd, ww] = r.pentanomial;
        assert!(!r.games_identical || ll + ld + wd + ww == 0, "{}", r.label);
        assert_eq!(r.zero_variance, ll + ld + wd + ww == 0, "{}", r.label);
        // No interval, so no game count to plan from and no "measurably" anything.
        assert_eq!(r.games_to_resolve, None, "{}", r.label);
        assert_eq!(r.games_for_2_elo, None, "{}", r.label);
        assert!(r.no_measurable_difference, "{}", r.label);
        assert_eq!(r.test.verdict, replab_selfplay::stats::Verdict::Continue);
    }

    // The decision table's values: the detector rows and the policy presets, nothing else.
    use replab_harness::contribution::Choice;
    use replab_harness::experiment::Experiment;
    let values = Elo::contributions(&results);
    let elo = |detector: &str, policy: Option<&str>| {
        values
            .iter()
            .any(|c| c.detector == detector && c.policy.map(|p| p.name()) == policy)
    };
    // At one pair per row only identical play gives a value (exact 0: the same games).
    for c in &values {
        assert!(c.value.exact && c.value.estimate.value == 0.0, "{c:?}");
        // Each value names the budget it holds at, from the settings.
        assert_eq!(c.value.at.as_deref(), Some("50 nodes a move"), "{c:?}");
    }
    let settings = Config {
        nodes: 10_000,
        ..results.config.settings.clone()
    };
    assert_eq!(settings.nodes_budget(), "10,000 nodes a move");
    assert_eq!(
        settings.clock_budget(),
        format!("a {} s clock", settings.tc)
    );
    let identical = |r: &&RowResult| r.games_identical && r.measure == Measure::Balanced;
    assert!(results.rows.iter().filter(identical).count() > 0);
    assert!(
        !elo(BASELINE, None),
        "the bits, GHI and jitter rows are not detector rows"
    );
    // Fixed nodes first, each against the baseline it was played against; the
    // repetition-rich and equal-cost rows are their own tables, not decision values.
    assert!(values.iter().all(|c| c.column.key == "elo-fixed-nodes"));
    let balanced = results
        .rows
        .iter()
        .filter(|r| {
            r.measure == Measure::Balanced && decision_value(r, &results.config.settings).is_some()
        })
        .count();
    assert_eq!(values.len(), balanced);
    let linear = Choice::detector(replab_registry::DetectorId::reference());
    assert!(values.iter().any(|c| c.value.against == Some(linear)));
    // The decision table's rows from these values: `crates/app/site/tests/elo_rows.rs`.

    // A row's value flips with its interval: none without one, a sampled value with one, an
    // exact 0 for identical play.
    let mut off = results
        .rows
        .iter()
        .find(|r| r.a == "off" && r.measure == Measure::Balanced)
        .unwrap()
        .clone();
    off.games_identical = false;
    assert!(decision_value(&off, &results.config.settings).is_none());
    off.elo = EloEstimate::new(-50.0, -80.0, -20.0, 0.95, 30);
    let sampled = decision_value(&off, &results.config.settings)
        .unwrap()
        .1
        .value;
    assert!(!sampled.exact && sampled.estimate.interval.is_some());
    off.elo = EloEstimate::without_interval(0.0);
    off.games_identical = true;
    assert!(
        decision_value(&off, &results.config.settings)
            .unwrap()
            .1
            .value
            .exact
    );

    // The same rows as a smoke run: no values, and every row and the headline say so.
    let mut smoke = results.clone();
    smoke.config.settings.smoke_run = true;
    assert!(Elo::contributions(&smoke).is_empty());
    assert!(
        headline(&smoke).starts_with("Smoke run"),
        "{}",
        headline(&smoke)
    );
    let rows = smoke.rows.len();
    assert_eq!(
        summary_table(&smoke)
            .matches("smoke run: not evidence")
            .count(),
        rows
    );
}

#[test]
fn bad_settings_are_refused_by_name() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (c, says) in [
        (
            Config {
                games: 3,
                ..Config::quick()
            },
            "--games 3: an even number of games",
        ),
        (
            Config {
                tc_games: 5,
                ..Config::quick()
            },
            "--tc-games 5: an even number of games",
        ),
        (
            Config {
                tc: "x".into(),
                ..Config::quick()
            },
            "--tc",
        ),
        (
            Config {
                nodes: 0,
                ..Config::quick()
            },
            "--nodes 0 is out of range (1 to 10,000,000)",
        ),
        (
            Config {
                threads: 0,
                ..Config::quick()
            },
            "--threads 0 is out of range (1 to 256)",
        ),
        // Clock rows with more threads than cores: refused before any game.
        (
            Config {
                threads: cores + 1,
                ..Config::quick()
            },
            "--tc-games 2: this machine has",
        ),
        (
            Config {
                bounds: (0.0, 5.0).into(),
                ..Config::quick()
            },
            "--bounds 0,5: ELO0 below 0 and ELO1 above",
        ),
        (
            Config {
                bounds: (-300.0, 300.0).into(),
                ..Config::quick()
            },
            "--bounds -300,300",
        ),
    ] {
        let e = c.check().unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
    }
    assert!(Config::quick().check().is_ok());
    assert!(Config::default().check().is_ok());
    // Without clock rows the same threads are fine (fixed nodes do not depend on them).
    let fixed_only = Config {
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()) + 1,
        tc_games: 0,
        ..Config::quick()
    };
    assert!(fixed_only.check().is_ok());
}

#[test]
fn each_search_detector_has_one_row_against_the_reference() {
    use replab_detect::DrawPolicy;
    use replab_registry::DetectorId;
    assert_eq!(DetectorId::reference().name(), BASELINE);
    for id in DetectorId::select(|c| c.searchable) {
        let rows: Vec<(PlayerSpec, PlayerSpec)> = ROWS
            .iter()
            .filter(|r| matches!(r.group, "detector" | "upcoming"))
            .map(|r| {
                (
                    PlayerSpec::parse(&r.a).unwrap(),
                    PlayerSpec::parse(&r.b).unwrap(),
                )
            })
            .filter(|(a, _)| a.detector == id.name())
            .collect();
        if id.name() == BASELINE {
            assert!(rows.is_empty(), "the baseline plays itself");
            continue;
        }
        assert_eq!(rows.len(), 1, "{id}");
        let (a, b) = &rows[0];
        assert_eq!(b.detector, BASELINE);
        // A detector that cannot count occurrences plays, as its baseline, twofold.
        let twofold = !id.caps().counts_occurrences;
        assert_eq!(a.policy == DrawPolicy::Twofold, twofold, "{id}");
        assert_eq!(b.policy == DrawPolicy::Twofold, twofold, "{id}");
    }
}

#[test]
fn more_than_one_percent_of_games_lost_on_time_is_a_busy_machine() {
    assert!(!super::too_busy(0, 100));
    assert!(!super::too_busy(1, 100));
    assert!(super::too_busy(2, 100));
    assert!(super::too_busy(1, 16));
    assert!(!super::too_busy(0, 0));
}

#[test]
fn a_published_figure_states_where_scale_and_control_differ_from_the_row() {
    let cuckoo = ROWS
        .iter()
        .find_map(|r| r.published.clone().filter(|p| p.source.contains("#1575")))
        .unwrap();
    let differs = cuckoo.caveat("10000 nodes");
    assert!(
        differs.starts_with("played at fishtest STC and LTC"),
        "{differs}"
    );
    assert!(
        differs.contains("where the row plays 10000 nodes"),
        "{differs}"
    );
    assert!(!differs.contains("logistic Elo"), "{differs}");
    // The same control and scale: nothing to say.
    assert_eq!(cuckoo.caveat(&cuckoo.control), "");
    let pass_fail = Published {
        scale: Scale::PassFail,
        ..cuckoo.clone()
    };
    assert!(pass_fail.caveat(&cuckoo.control).contains("pass/fail"));
    // Every published figure names its scale and control.
    for p in ROWS.iter().filter_map(|r| r.published.as_ref()) {
        assert!(!p.control.is_empty() && !p.source.is_empty(), "{p:?}");
    }
}

#[test]
fn a_row_agrees_with_a_published_direction_only_when_its_interval_leaves_zero_on_that_side() {
    use replab_harness::compare::Decision;
    let cuckoo = ROWS
        .iter()
        .find_map(|r| r.published.clone().filter(|p| p.source.contains("#1575")))
        .unwrap();
    assert_eq!(cuckoo.direction, Some(1.0));
    let decide = |value: f64, lo: f64, hi: f64| {
        let elo = EloEstimate::new(value, lo, hi, 0.95, 600);
        cuckoo
            .comparison("linear+cuckoo", "linear", &elo)
            .unwrap()
            .decision
    };
    assert_eq!(decide(5.0, 1.0, 9.0), Decision::SameDirection);
    assert_eq!(decide(2.0, -3.0, 7.0), Decision::NoMeasurableDifference);
    assert_eq!(decide(-5.0, -9.0, -1.0), Decision::Opposite);
    // No interval, or a figure without a direction: no comparison at all.
    let bare = EloEstimate::without_interval(5.0);
    assert!(
        cuckoo
            .comparison("linear+cuckoo", "linear", &bare)
            .is_none()
    );
    let pass_fail = Published {
        direction: None,
        ..cuckoo
    };
    let elo = EloEstimate::new(5.0, 1.0, 9.0, 0.95, 600);
    assert!(pass_fail.comparison("a", "b", &elo).is_none());
}

#[test]
fn a_repetition_rich_match_larger_than_its_book_is_refused() {
    let openings = Book::read(std::path::Path::new(REPETITION_NAME))
        .unwrap()
        .openings
        .len() as u64;
    let too_many = Config {
        rep_games: 2 * openings + 2,
        ..Config::quick()
    };
    let err = Books::read(&too_many).err().unwrap().to_string();
    let at_most = format!("at most --rep-games {}", 2 * openings);
    assert!(
        err.starts_with("--rep-games ") && err.contains(&at_most),
        "{err}"
    );
    let enough = Config {
        rep_games: 2 * openings,
        ..Config::quick()
    };
    assert!(Books::read(&enough).is_ok());
}

#[test]
fn the_recorded_costs_cover_every_equal_cost_row() {
    let table = crate::matches::cost::recorded().unwrap();
    for r in ROWS.iter().filter(|r| r.technique_differs()) {
        for spec in [&r.a, &r.b] {
            assert!(
                table.costs.contains_key(spec),
                "{}: no recorded cost for {spec}",
                r.label
            );
        }
    }
}

#[test]
fn only_keeps_the_rows_of_the_players_named_and_refuses_others() {
    let only = |names: &[&str]| Config {
        only: names.iter().map(|s| s.to_string()).collect(),
        ..Config::default()
    };
    // `off` differs in technique and is played at the clock: all four measurements.
    let config = only(&["off"]);
    assert!(config.check().is_ok());
    let measures: Vec<Measure> = jobs(&config).iter().map(|j| j.measure).collect();
    assert_eq!(measures, Measure::ALL.to_vec());
    assert_eq!(jobs(&only(&[])).len(), jobs(&Config::default()).len());
    assert!(jobs(&Config::default()).len() > 2 * ROWS.len());
    let err = only(&["off", "nosuch"]).check().unwrap_err().to_string();
    assert!(err.contains("only \"nosuch\""), "{err}");
}

/// A row measured on both books is two dots on the chart, each labelled as its own
/// measurement, drawn with its Elo and its interval.
#[test]
fn each_measurement_of_a_row_has_its_own_chart_label() {
    let config = Config {
        nodes: 50,
        games: 2,
        rep_games: 2,
        cost_games: 0,
        tc_games: 0,
        threads: 2,
        only: vec!["off".into()],
        ..Config::quick()
    };
    let results = run(&config, &mut Silent).unwrap();
    assert!(results.rows.len() >= 2, "{}", results.rows.len());
    let labels: std::collections::BTreeSet<String> =
        results.rows.iter().map(page::chart_label).collect();
    assert_eq!(labels.len(), results.rows.len(), "{labels:?}");
    let chart = page::chart(&results.rows);
    assert_eq!(chart.rows.len(), results.rows.len());
    for (drawn, r) in chart.rows.iter().zip(&results.rows) {
        assert_eq!(drawn.label, page::chart_label(r));
        assert_eq!(drawn.estimate, r.elo.value);
        let ends = r.elo.interval.map_or([r.elo.value; 2], |i| [i.lo, i.hi]);
        assert_eq!(drawn.interval, ends);
        assert_eq!(drawn.hollow, !r.deterministic);
    }
    let svg = replab_report::Chart::to_svg(&chart).unwrap();
    assert!(labels.iter().all(|l| svg.contains(l.as_str())), "{svg}");
}

/// With a slope that applies, each identical-play row whose equal-cost match counted the costs
/// gets an Elo at equal time (slope × log2 of B's cost over A's) in the decision table; a
/// smoke run gets none.
#[test]
fn identical_play_rows_get_an_elo_at_equal_time_from_the_slope() {
    let config = Config {
        nodes: 50,
        games: 2,
        rep_games: 0,
        cost_games: 2,
        tc_games: 0,
        threads: 2,
        smoke_run: false,
        only: ["tt-open", "filo", "rookie", "matrix", "matrix-checksum"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ..Config::quick()
    };
    let results = run(&config, &mut Silent).unwrap();
    let slope = SlopeSource {
        slope: Slope {
            elo_per_doubling: Estimate {
                value: 100.0,
                interval: Interval {
                    lo: 80.0,
                    hi: 120.0,
                    coverage: 0.95,
                    n: 1000,
                },
            },
            games: 2000,
            ratios: vec![2.0],
        },
        file: "datasets/elo-slope.json".into(),
        engine: replab_search::ENGINE_DIGEST.into(),
        nodes: 50,
    };
    let clock = TimeSource {
        file: "datasets/time-per-node.json".into(),
        baseline: "linear".into(),
        ratios: [(
            "matrix-checksum".to_string(),
            TimeRatio {
                ratio: Estimate {
                    value: 1.2,
                    interval: Interval {
                        lo: 1.1,
                        hi: 1.3,
                        coverage: 0.95,
                        n: 30,
                    },
                },
                p_a_slower: 1.0,
                pairs: 30,
            },
        )]
        .into(),
    };
    let times = equal_times(Ok(slope.clone()), Ok(clock), &results.rows);
    let identical = |r: &&RowResult| r.measure == Measure::Balanced && r.games_identical;
    let expected = results.rows.iter().filter(identical).count();
    assert!(expected > 0, "no identical play among the exact detectors");
    assert_eq!(times.rows.len(), expected);
    for t in &times.rows {
        let [a, b] = t.instructions_per_node;
        assert!((t.elo.value - 100.0 * (b / a).log2()).abs() < 1e-9, "{t:?}");
        assert!(t.elo.interval.contains(t.elo.value), "{t:?}");
        assert_eq!(
            t.elo.value < 0.0,
            a > b,
            "a costlier player loses Elo: {t:?}"
        );
        let value = equal_time_value(t, &slope, &results.config.settings).unwrap();
        assert_eq!(value.column.key, "elo-equal-time");
        let note = value.value.note.as_deref().unwrap();
        assert!(note.contains("slope +100.0"), "{note}");
        // The clock's ratio is cited where one is recorded, and only there.
        assert_eq!(
            note.contains("by the clock"),
            t.a == "matrix-checksum",
            "{note}"
        );
        // Two games give the equal-cost match no interval: no check of the model.
        assert!(t.check.is_none(), "{t:?}");
    }
    let with = Results {
        equal_time: times,
        ..results.clone()
    };
    let keys = |r: &Results| -> Vec<String> {
        use replab_harness::experiment::Experiment;
        Elo::contributions(r)
            .into_iter()
            .map(|c| c.column.key)
            .collect()
    };
    let equal_time = |r: &Results| keys(r).iter().filter(|k| *k == "elo-equal-time").count();
    assert_eq!(equal_time(&with), expected);
    // Without a slope (or in a smoke run) no row has one, and the reason is kept.
    let none = equal_times(
        Err("no slope is recorded".into()),
        Err("no time".into()),
        &results.rows,
    );
    assert!(none.rows.is_empty() && none.slope.is_none());
    assert_eq!(none.none_because.as_deref(), Some("no slope is recorded"));
    assert_eq!(equal_time(&results), 0);
}

/// `replab elo`'s options as the binary builds them from the declaration: each option given
/// replaces its default (the bounds with a leading minus, the rows' list trimmed), the others
/// keep theirs, and a malformed value is refused by clap.
#[test]
fn the_options_parse_into_the_settings() {
    use clap::{Args as _, FromArgMatches as _};
    let command = || {
        Config::augment_args(clap::Command::new("elo"))
            .mut_args(|a| a.required(false))
            .no_binary_name(true)
    };
    let parse = |args: &[&str]| -> Result<Config, clap::Error> {
        let matches = command().try_get_matches_from(args)?;
        let mut config = Config::quick();
        config.update_from_arg_matches(&matches)?;
        Ok(config)
    };
    let config = parse(&[
        "--bounds",
        "-3,4",
        "--only",
        "off, linear+cuckoo",
        "--adjudicate",
        "resign=off",
        "--games",
        "8",
    ])
    .unwrap();
    assert_eq!(config.bounds.pair(), (-3.0, 4.0));
    assert_eq!(config.only, ["off", "linear+cuckoo"]);
    assert_eq!(config.adjudication.resign, None);
    assert_eq!(config.games, 8);
    assert_eq!(
        Config {
            bounds: DEFAULT_BOUNDS,
            only: Vec::new(),
            adjudication: Adjudication::rules_draw(),
            games: 2,
            ..config
        },
        Config::quick()
    );
    assert_eq!(parse(&[]).unwrap(), Config::quick());
    for bad in [
        &["--bounds", "5"][..],
        &["--only", "off,,linear"],
        &["--adjudicate", "draw=x"],
    ] {
        assert!(parse(bad).is_err(), "{bad:?}");
    }
    assert_eq!(Config::BOUNDS.to_string(), "--bounds");
    assert_eq!(Config::ADJUDICATION.to_string(), "--adjudicate");
    assert_eq!(
        Config::range_text("tc_games").as_deref(),
        Some("0 to 10,000,000")
    );
}
