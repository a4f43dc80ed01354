//! In-process tests of the study at small depths.

use super::*;
use crate::Silent;

fn small() -> Config {
    Config {
        grid_depth: 4,
        repeat: 2,
        edge_factor: crate::resolution::EDGE_ROUNDS_FACTOR,
        set_rounds: 2,
        edge_max_seconds: crate::resolution::EDGE_SECONDS,
        time_resolution: crate::resolution::TIME_RESOLUTION,
        endgame_depth: 3,
        endgames: 6,
        wac_depth: 2,
        wac_records: 3,
        seed: 1,
        threads: 2,
        grid_threads: 2,
        fresh_searchers: true,
        shared_core: false,
        command: "replab study (test)".into(),
        instructions: None,
    }
}

/// One run of [`small`], shared by the tests that read it or alter a copy (each run took about
/// a second at the test profile's opt-level, nine times over); a test that compares two runs
/// makes its second itself.
fn small_run() -> Results {
    static RUN: std::sync::OnceLock<Results> = std::sync::OnceLock::new();
    RUN.get_or_init(|| run(&small(), &mut Silent).unwrap())
        .clone()
}

#[test]
fn grid_shape_and_names() {
    let configs = grid::configs(5);
    assert!(configs.len() >= 8);
    let names: Vec<&str> = configs.iter().map(|c| c.name.as_str()).collect();
    // Every named variant is searched, alone or under the name of the same search.
    let all: Vec<&str> = configs
        .iter()
        .flat_map(|c| std::iter::once(&c.name).chain(&c.coincides_with))
        .map(String::as_str)
        .collect();
    for want in [
        "default",
        "default/tt-off",
        "default/tt-no-path-scores",
        "default/null-off",
        "default/max-ply",
        "default/qsearch-checks",
        "default/material",
        "axon-like",
        "axon-like/twice-depth",
        "axon-like/no-qsearch-checks",
    ] {
        assert!(all.contains(&want), "{want} missing from {all:?}");
    }
    // Distinct searches only: no two configurations share their effective settings.
    for (i, a) in configs.iter().enumerate() {
        for b in &configs[i + 1..] {
            assert_ne!(a.search, b.search, "{} and {} coincide", a.name, b.name);
        }
    }
    let coinciding: usize = configs.iter().map(|c| c.coincides_with.len()).sum();
    assert!(coinciding >= 2, "the two known pairs are merged");
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "names are unique");
    assert!(configs.iter().all(|c| c.search.max_depth == 5));

    let r = small_run();
    assert_eq!(
        r.grid.len(),
        r.grid_configs.len() * grid::GRID_DETECTORS.len() * 4
    );
    assert_eq!(
        r.grid_totals.len(),
        r.grid_configs.len() * grid::GRID_DETECTORS.len()
    );
    for (i, g) in r.grid.iter().enumerate() {
        let c = i / (3 * 4);
        assert_eq!(g.config, r.grid_configs[c].name);
        assert_eq!(g.detector, grid::GRID_DETECTORS[(i / 4) % 3]);
        assert_eq!(g.depth, (i % 4) as u32 + 1);
    }
    assert_eq!(r.endgames.positions.len(), 6);
    // off, axon and linear first, then every other search detector twofold allows.
    assert_eq!(r.endgame_detectors[..3], grid::GRID_DETECTORS);
    for d in replab_registry::SEARCH_DETECTORS {
        let allowed = replab_registry::check_policy(d, replab_detect::DrawPolicy::Twofold).is_ok();
        assert_eq!(r.endgame_detectors.iter().any(|x| x == d), allowed, "{d}");
    }
    assert_eq!(
        r.endgames.aggregates.len(),
        2 * (r.endgame_detectors.len() - 1),
        "2 profiles x every detector but off"
    );
    assert_eq!(r.wac.positions.len(), 3);
    assert!(summary_table(&r).contains("Verdict"));
}

#[test]
fn references_are_rescoped_to_the_grid_depth() {
    let p8 = paper_claims(8).unwrap();
    assert!((p8.generated_reference.value - 0.5731).abs() < 1e-4);
    assert_eq!(p8.generated_reference.scope.depths, Some([1, 8]));
    assert_eq!(p8.generated_on_in_scope, 3_545_328);
    assert_eq!(p8.terminal_reference.scope.depths, Some([1, 12]));
    let p12 = paper_claims(12).unwrap();
    assert!((p12.generated_reference.value + 0.1498).abs() < 1e-4);
    use crate::compare::Decision;
    // The same −12% tree: agreeing at depth 12, opposite at depth 8, and the 1–12 totals
    // refused at depth 8.
    assert_eq!(
        grid::judge_count(-0.12, &p12.generated_reference, 12),
        Decision::SameDirectionSimilarSize
    );
    assert_eq!(
        grid::judge_count(-0.12, &p8.generated_reference, 8),
        Decision::Opposite
    );
    assert_eq!(
        grid::judge_count(-0.12, &p8.terminal_reference, 8),
        Decision::NotComparable
    );
}

#[test]
fn the_grid_verdict_follows_the_decisions() {
    use crate::compare::Decision;
    let base = small_run();
    let with = |d: Decision| {
        let mut r = base.clone();
        for t in r
            .grid_totals
            .iter_mut()
            .filter(|t| t.detector == grid::SUBJECT)
        {
            t.generated_vs_paper = d;
        }
        verdict::verdict(&r).claims[1].support.clone()
    };
    assert_eq!(with(Decision::SameDirectionSimilarSize), "supported");
    assert_eq!(with(Decision::SameDirection), "partly supported");
    assert_eq!(with(Decision::Opposite), "contradicted");
    assert_eq!(with(Decision::NoMeasurableDifference), "not supported");
    assert_eq!(with(Decision::NotComparable), "not comparable");
    assert_eq!(with(Decision::TooFewSamples), "too few repeats to decide");
    // The tree-size sentence is computed from the run, not typed.
    let reps = &base.verdict.claims[3].confidence;
    assert!(!reps.contains("20 times"), "{reps}");
    assert!(
        reps.contains("3,545,328") || reps.contains("depths 1–4"),
        "{reps}"
    );
}

#[test]
fn support_counts_only_decided_votes() {
    use crate::compare::Decision::*;
    assert_eq!(
        verdict::support(&[SameDirectionSimilarSize, NotComparable]),
        "supported"
    );
    assert_eq!(
        verdict::support(&[Opposite, Opposite, SameDirection]),
        "contradicted"
    );
    assert_eq!(
        verdict::support(&[Opposite, SameDirection]),
        "partly supported"
    );
    assert_eq!(
        verdict::support(&[TooFewSamples, NotComparable]),
        "too few repeats to decide"
    );
}

#[test]
fn counters_are_deterministic_and_json_round_trips() {
    let a = small_run();
    // Another thread count, one searcher per detector kept for every round, and (where threads
    // can be pinned) a round's searches at once on one core.
    let b = run(
        &Config {
            threads: 1,
            grid_threads: 1,
            fresh_searchers: false,
            shared_core: replab_workloads::one_core::available(),
            ..small()
        },
        &mut Silent,
    )
    .unwrap();
    let counts = |r: &Results| {
        let grid: Vec<_> = r
            .grid
            .iter()
            .map(|g| (g.config.clone(), g.detector, g.depth, g.counters))
            .collect();
        let sets: Vec<_> = [&r.endgames, &r.wac]
            .iter()
            .flat_map(|s| s.positions.iter())
            .flat_map(|p| {
                p.runs
                    .iter()
                    .map(|x| (p.id.clone(), x.detector, x.counters, x.best_move.clone()))
            })
            .collect();
        (grid, sets)
    };
    assert_eq!(counts(&a), counts(&b));

    let json = serde_json::to_string(&a).unwrap();
    let back: Results = serde_json::from_str(&json).unwrap_or_else(|e| {
        let c = e.column();
        panic!(
            "{e}: {}",
            &json[c.saturating_sub(30)..(c + 150).min(json.len())]
        )
    });
    // The command is recorded in `meta`, not among the settings.
    let mut recorded = a.clone();
    recorded.config.settings.command.clear();
    assert_eq!(back, recorded);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    for key in ["meta", "profiles", "grid", "endgames", "verdict"] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert!(v["grid"][0]["config"].is_string());
    assert!(v["grid"][0]["terminal_nodes"].is_u64());
    assert!(v["endgames"]["aggregates"][0]["generated"]["interval"]["lo"].is_number());
    // Every measured time carries an interval or is marked a single sample.
    let unmarked = crate::interval::unmarked_times(&v, &["config", "paper", "reference", "meta"]);
    assert_eq!(unmarked, Vec::<String>::new());

    // The page: a forest plot per grid claim, one row per axon configuration.
    let out = std::env::temp_dir().join(format!("replab-study-page-{}", std::process::id()));
    let html = page(&a, &out);
    for file in [
        "claims-terminal.svg",
        "claims-generated.svg",
        "claims-time.svg",
    ] {
        assert!(html.contains(file), "{file} not on the page");
        let svg = std::fs::read_to_string(out.join(file)).unwrap();
        for t in a.voting_axon_totals() {
            assert!(svg.contains(&t.config), "{file} lacks {}", t.config);
        }
        assert!(svg.contains("paper (rescoped)"), "{file}");
    }
    // The claims that keep their comparisons get a forest plot each, one row per comparison.
    for (i, c) in a.verdict.claims.iter().enumerate() {
        let file = format!("claim-{}.svg", i + 1);
        assert_eq!(html.contains(&file), !c.rows.is_empty(), "{file}");
        if let Ok(svg) = std::fs::read_to_string(out.join(&file)) {
            for row in &c.rows {
                assert!(svg.contains(&row.label), "{file} lacks {}", row.label);
            }
        }
    }
    assert!(
        a.verdict
            .false_draws
            .contains("confirmed by the exact oracle")
    );
    assert!(
        html.contains("confirmed by the exact oracle"),
        "the false-draw sentence is on the page"
    );
    // The grid's threads and searchers are on the page, from the settings, in both runs.
    assert!(a.config.settings.fresh_searchers && !b.config.settings.fresh_searchers);
    let html_b = page(&b, &out);
    for (r, html) in [(&a, &html), (&b, &html_b)] {
        let words = html.split_whitespace().collect::<Vec<_>>().join(" ");
        let threads = match r.config.settings.grid_threads {
            1 => "ran on 1 worker thread, so that no search ran beside".to_string(),
            n => format!("ran on {n} worker threads"),
        };
        assert!(words.contains(&threads), "{threads}");
        let fresh = r.config.settings.fresh_searchers;
        assert_eq!(
            words.contains("Every search has a searcher of its own"),
            fresh
        );
        assert_eq!(words.contains("Each detector keeps one searcher"), !fresh);
        let shared = r.config.settings.shared_core;
        assert_eq!(
            words.contains("each thread's CPU time, iteration by iteration"),
            shared
        );
        assert_eq!(words.contains("Times are wall-clock times"), !shared);
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// Writes the study page of `results` into `out` (replacing it) and returns its `index.html`.
fn page(results: &Results, out: &std::path::Path) -> String {
    let dir = replab_report::ReportDir::create(out).unwrap();
    write(results, &dir).unwrap();
    dir.commit().unwrap();
    std::fs::read_to_string(out.join("index.html")).unwrap()
}

#[test]
fn intervals_bracket_the_median() {
    let changes: Vec<f64> = (0..41).map(|i| f64::from(i - 20) / 100.0).collect();
    let d = sets::distribution(&changes);
    assert!(d.median.interval.lo <= d.median.value && d.median.value <= d.median.interval.hi);
    assert!(d.quartiles[0] <= d.median.value && d.median.value <= d.quartiles[1]);
    assert!((d.shrinks - 20.0 / 41.0).abs() < 1e-12);
    let r = small_run();
    for a in r.endgames.aggregates.iter().chain(&r.wac.aggregates) {
        for x in [&a.terminal, &a.generated, &a.time] {
            assert!(
                x.median.interval.lo <= x.median.value && x.median.value <= x.median.interval.hi
            );
        }
    }
    for t in &r.grid_totals {
        let e = &t.time_change;
        assert!(e.interval.lo <= e.value && e.value <= e.interval.hi);
    }
}

#[test]
fn endgame_generator_is_deterministic_and_small() {
    let a = endgames::generate(1, 240).unwrap();
    let b = endgames::generate(1, 240).unwrap();
    assert_eq!(a.len(), 240);
    let lines = |v: &[endgames::Endgame]| v.iter().map(|e| e.epd_line()).collect::<Vec<_>>();
    assert_eq!(lines(&a), lines(&b));
    assert_ne!(lines(&a), lines(&endgames::generate(2, 240).unwrap()));
    let mut keys = std::collections::HashSet::new();
    for e in &a {
        assert!(endgames::men(e.root()) <= endgames::MAX_MEN, "{}", e.id);
        assert!(e.root().legal_moves().len() >= 2);
        assert!(keys.insert(e.root().key()), "duplicate {}", e.id);
        assert_eq!(e.positions.len(), e.moves.len() + 1);
    }
    for class in ["rook", "pawn", "minor"] {
        assert!(
            a.iter().filter(|e| e.class == class).count() >= 40,
            "{class}"
        );
    }
    // The EPD lines read back through the suite's reader with their histories.
    let dir = std::env::temp_dir().join(format!("replab-study-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("endgames.epd");
    std::fs::write(&path, lines(&a[..20]).join("\n")).unwrap();
    let (records, skipped) = crate::records::read_records(&path, false).unwrap();
    assert!(skipped.is_empty());
    assert_eq!(records.len(), 20);
    assert!(
        records[0]
            .positions
            .last()
            .unwrap()
            .same_position(a[0].root())
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn false_draws_are_measured_and_stated_from_the_values() {
    use replab_search::Counters;
    let base = small_run();
    assert_eq!(base.false_draws.len(), base.grid_configs.len());
    for (f, c) in base.false_draws.iter().zip(&base.grid_configs) {
        assert_eq!(f.config, c.name);
        assert!(f.confirmed.repetitions <= f.confirmed.hits, "{f:?}");
        assert_eq!(f.refuted, f.confirmed.hits - f.confirmed.repetitions);
    }
    // Axon shrinks both counts by 10% against off. Confirmation keeps the whole change (its
    // draws were all true: share 0%) or removes it (all false: share 100%).
    let off = Counters {
        terminal_nodes: 1000,
        generated: 2000,
        ..Counters::default()
    };
    let axon = Counters {
        terminal_nodes: 900,
        generated: 1800,
        repetitions: 40,
        hits: 40,
        ..Counters::default()
    };
    let all_true = confirmed::false_draws("c", &off, &axon, axon);
    assert_eq!(all_true.generated_share, Some(0.0));
    assert_eq!(all_true.refuted, 0);
    let all_false = confirmed::false_draws(
        "c",
        &off,
        &axon,
        Counters {
            repetitions: 0,
            ..off
        }
        .with_hits(40),
    );
    assert_eq!(all_false.terminal_share, Some(1.0));
    assert_eq!(all_false.refuted, 40);
    let flat = confirmed::false_draws("c", &off, &off, off);
    assert_eq!(flat.generated_share, None);

    let sentence = |f: FalseDraws| {
        let mut r = base.clone();
        r.false_draws = vec![f];
        verdict::false_draws_sentence(&r)
    };
    let s = sentence(all_true);
    assert!(
        s.contains("Confirmation removes 0% of axon's terminal-node"),
        "{s}"
    );
    assert!(s.contains("refuse 0 false draws"), "{s}");
    let s = sentence(all_false);
    assert!(s.contains("removes 100% of axon's terminal-node"), "{s}");
    assert!(s.contains("refuse 40 false draws"), "{s}");
    let s = sentence(flat);
    assert!(s.contains("below the count noise"), "{s}");
    assert_eq!(
        base.verdict.false_draws,
        verdict::false_draws_sentence(&base)
    );
}

/// `counters` with `hits` candidate reports.
trait WithHits {
    fn with_hits(self, hits: u64) -> Self;
}

impl WithHits for replab_search::Counters {
    fn with_hits(self, hits: u64) -> Self {
        Self { hits, ..self }
    }
}

#[test]
fn the_rate_claim_is_decided_by_the_comparison_rule() {
    use crate::compare::Decision;
    let base = small_run();
    let rate = |v: &Verdict| {
        v.claims
            .iter()
            .find(|c| {
                !c.rows.is_empty()
                    && c.rows[0].comparison.measured.unit == crate::compare::Unit::PerThousand
            })
            .cloned()
            .expect("a rate claim")
    };
    // Depths 1–4 against the paper's 1–12 count: never compared.
    let c = rate(&base.verdict);
    assert_eq!(c.support, "not comparable");
    assert_eq!(c.rows.len(), base.voting_axon_totals().len());
    assert!(
        c.rows
            .iter()
            .all(|r| r.comparison.decision == Decision::NotComparable)
    );
    // At the paper's depths the size decides: the paper's rate, a quarter of it, none.
    let p = &base.paper;
    let paper_rate = p.repetitions as f64 / p.generated_on as f64;
    let with = |share: f64| {
        let mut r = base.clone();
        r.config.settings.grid_depth = 12;
        for t in r
            .grid_totals
            .iter_mut()
            .filter(|t| t.detector == grid::SUBJECT)
        {
            t.counters.generated = 10_000_000;
            t.counters.repetitions = (10_000_000.0 * paper_rate * share).round() as u64;
        }
        rate(&verdict::verdict(&r))
    };
    assert_eq!(with(1.0).support, "supported");
    assert_eq!(
        with(1.0).rows[0].comparison.decision,
        Decision::SameDirectionSimilarSize
    );
    assert_eq!(with(0.25).support, "partly supported");
    assert_eq!(with(0.0).support, "not supported");
}

/// The verdict's claim that move chains are faster than the matrix.
fn matrix_claim(r: &Results) -> ClaimVerdict {
    verdict::verdict(r)
        .claims
        .into_iter()
        .find(|c| c.claim.contains("matrix"))
        .expect("the matrix claim")
}

#[test]
fn the_matrix_claim_follows_the_times() {
    use crate::compare::Decision;
    let base = small_run();
    let with = |axon_ms: f64, matrix_ms: f64| {
        let mut r = base.clone();
        for set in [&mut r.endgames, &mut r.wac] {
            for p in &mut set.positions {
                for run in &mut p.runs {
                    run.rounds_ms.clear();
                    match run.detector {
                        grid::SUBJECT => run.time_ms = crate::stats::Estimate::single(axon_ms),
                        DetectorId::Matrix => {
                            run.time_ms = crate::stats::Estimate::single(matrix_ms)
                        }
                        _ => {}
                    }
                }
            }
        }
        matrix_claim(&r)
    };
    let faster = with(1.0, 2.0);
    assert!(!faster.rows.is_empty());
    // Six endgames decide (96.9%); three WAC records cannot (75%).
    for row in &faster.rows {
        let d = row.comparison.decision;
        if row.label.starts_with("endgames") {
            assert_eq!(d, Decision::SameDirection, "{}", row.label);
        } else {
            assert_eq!(d, Decision::TooFewSamples, "{}", row.label);
        }
    }
    assert_eq!(faster.support, "partly supported");
    let slower = with(2.0, 1.0);
    assert_eq!(slower.support, "contradicted");
    assert!(
        slower
            .rows
            .iter()
            .any(|r| r.comparison.decision == Decision::Opposite)
    );
}

/// The claim is judged over the paired rounds when there are some: every position's change
/// is +12% in the first pass, but rounds whose medians move from +2% to +12% leave it within
/// the timing's resolution, and rounds that agree give the direction.
#[test]
fn the_matrix_claim_is_judged_over_the_paired_rounds() {
    use crate::compare::Decision;
    let base = small_run();
    let with = |rounds: &[f64]| {
        let mut r = base.clone();
        r.config.settings.set_rounds = rounds.len();
        for set in [&mut r.endgames, &mut r.wac] {
            for (i, p) in set.positions.iter_mut().enumerate() {
                for run in &mut p.runs {
                    let ms = |x: f64| crate::stats::Estimate::single(x);
                    // Per position a little noise, the same in every round.
                    let noise = 0.001 * i as f64;
                    match run.detector {
                        grid::SUBJECT => {
                            run.time_ms = ms(112.0);
                            run.rounds_ms = rounds
                                .iter()
                                .map(|c| ms(100.0 * (1.0 + c + noise)))
                                .collect();
                        }
                        DetectorId::Matrix => {
                            run.time_ms = ms(100.0);
                            run.rounds_ms = vec![ms(100.0); rounds.len()];
                        }
                        _ => {}
                    }
                }
            }
        }
        matrix_claim(&r)
    };
    let endgame_rows = |c: &ClaimVerdict| -> Vec<Decision> {
        c.rows
            .iter()
            .filter(|row| row.label.starts_with("endgames"))
            .map(|row| row.comparison.decision)
            .collect()
    };
    let moving = with(&[0.12, 0.03, 0.08, 0.02, 0.10, 0.04]);
    assert_eq!(endgame_rows(&moving), [Decision::WithinResolution; 2]);
    assert!(
        moving.rows[0]
            .comparison
            .measured
            .scope
            .to_string()
            .contains("6 paired rounds")
    );
    assert!(
        moving.confidence.contains("in 6 paired rounds"),
        "{}",
        moving.confidence
    );
    let steady = with(&[0.12, 0.11, 0.13, 0.12, 0.12, 0.11]);
    assert_eq!(endgame_rows(&steady), [Decision::Opposite; 2]);
    let fast = with(&[-0.12, -0.11, -0.13, -0.12, -0.12, -0.11]);
    assert_eq!(endgame_rows(&fast), [Decision::SameDirection; 2]);
    // Two rounds cannot decide (50%), whatever the first pass says.
    assert_eq!(
        endgame_rows(&with(&[0.12, 0.12])),
        [Decision::TooFewSamples; 2]
    );
}

#[test]
fn every_interval_of_the_study_carries_its_coverage() {
    // With six repeats, six WAC records and six paired rounds every interval is a real 95%
    // interval.
    let enough = Config {
        repeat: 6,
        wac_records: 6,
        set_rounds: 6,
        ..small()
    };
    let r = run(&enough, &mut Silent).unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(crate::stats::uncovered_intervals(&v), Vec::<String>::new());
    // Two repeats and no round at the edge: every grid time interval is flagged with its path
    // and its 50% coverage.
    let two = Config {
        edge_factor: 1,
        ..small()
    };
    let r = run(&two, &mut Silent).unwrap();
    let flagged = crate::stats::uncovered_intervals(&serde_json::to_value(&r).unwrap());
    assert!(
        flagged
            .iter()
            .any(|p| p.starts_with("$.grid[0].time_ms.interval: coverage 0.5 ")),
        "{flagged:?}"
    );
    assert!(
        flagged
            .iter()
            .all(|p| p.contains("coverage 0.5 ") || p.contains("coverage 0.75 ")),
        "{flagged:?}"
    );
}

#[test]
fn identical_searches_vote_once() {
    let base = small_run();
    let voters = |r: &Results| r.voting_axon_totals().len();
    let mut r = base.clone();
    let mut configs = r.grid_configs.clone();
    // Make the second configuration's searches equal the first's: it stops voting.
    let (first, second) = (configs[0].name.clone(), configs[1].name.clone());
    let copied: Vec<GridRun> = r
        .grid
        .iter()
        .filter(|g| g.config == first)
        .map(|g| GridRun {
            config: second.clone(),
            ..g.clone()
        })
        .collect();
    r.grid.retain(|g| g.config != second);
    r.grid.extend(copied);
    for c in &mut configs {
        c.searches_as = None;
    }
    grid::mark_identical(&mut configs, &r.grid);
    assert_eq!(configs[1].searches_as.as_deref(), Some(first.as_str()));
    r.grid_configs = configs.clone();
    assert_eq!(
        voters(&r),
        voters(&base) - 1 + usize::from(!base.grid_configs[1].votes())
    );
    let (_, same_search) = r.one_search_groups();
    assert!(
        same_search
            .iter()
            .any(|(k, o)| *k == first && o.contains(&second))
    );
    // One counter apart, and it votes again.
    if let Some(g) = r.grid.iter_mut().find(|g| g.config == second) {
        g.counters.nodes += 1;
    }
    for c in &mut configs {
        c.searches_as = None;
    }
    let identical = voters(&r);
    let distinct = |r: &Results, n: usize| {
        let s = verdict::false_draws_sentence(r);
        assert!(
            s.contains(&format!("the {n} distinct configurations")),
            "{s}"
        );
    };
    distinct(&r, identical);
    let claim = verdict::verdict(&r).claims[0].claim.clone();
    assert!(
        claim.contains(&format!("{identical} distinct configurations")),
        "{claim}"
    );
    grid::mark_identical(&mut configs, &r.grid);
    assert!(configs[1].votes());
    r.grid_configs = configs;
    assert_eq!(voters(&r), identical + 1);
    distinct(&r, identical + 1);
    let claim = &verdict::verdict(&r).claims[0].claim;
    assert!(
        claim.contains(&format!("{} distinct configurations", identical + 1)),
        "{claim}"
    );
}

/// The grid's rounds: the fixed ones, plus rounds up to the settled count and at the edge up to
/// the factor's cap (none with a factor of 1; only up to the settled count with no seconds
/// left); the counters do not depend on them.
#[test]
fn grid_rounds_stay_within_the_edge_limits() {
    let root = Position::from_fen(crate::datasets::WAC018).unwrap();
    let configs = grid::configs(3);
    let paper = paper_claims(3).unwrap();
    let rounds = |settings: &Config| {
        let (_, totals) = grid::run(&root, &configs, settings, &paper, &mut Silent).unwrap();
        let n: Vec<usize> = totals.iter().map(|t| t.time_change.interval.n).collect();
        let counters: Vec<_> = totals.iter().map(|t| t.counters).collect();
        (n, counters)
    };
    let wide = small();
    let (n, counters) = rounds(&wide);
    let cap = crate::resolution::round_cap(2, wide.edge_factor);
    let settled = crate::resolution::SETTLED_ROUNDS.min(cap);
    assert!(n.iter().all(|&n| (settled..=cap).contains(&n)), "{n:?}");
    let none = Config {
        edge_factor: 1,
        ..small()
    };
    let no_seconds = Config {
        edge_max_seconds: 0.0,
        ..small()
    };
    for (limited, rounds_taken) in [(none, 2), (no_seconds, settled)] {
        let (n, same) = rounds(&limited);
        assert!(n.iter().all(|&n| n == rounds_taken), "{n:?}");
        assert_eq!(same, counters);
    }
}

#[test]
fn rounds_on_one_core_are_refused_beside_other_grid_threads() {
    let shared = Config {
        shared_core: true,
        grid_threads: 2,
        ..small()
    };
    let e = shared.check().unwrap_err().to_string();
    if replab_workloads::one_core::available() {
        assert!(
            e.contains("--shared-core true") && e.contains("--grid-threads 1, not 2"),
            "{e}"
        );
        assert!(
            Config {
                grid_threads: 1,
                ..shared.clone()
            }
            .check()
            .is_ok()
        );
    } else {
        assert!(e.contains("needs Linux"), "{e}");
    }
    assert!(
        Config {
            shared_core: false,
            ..shared
        }
        .check()
        .is_ok()
    );
}
