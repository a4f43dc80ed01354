//! The decision table from hand-made contributions: rows, cells and the recommendation.

use replab_harness::contribution::{Better, Unit};

use super::*;

const LINEAR: DetectorId = DetectorId::reference();

fn cuckoo() -> DetectorId {
    DetectorId::from_name("linear+cuckoo").unwrap()
}

fn elo_column() -> Column {
    Column::new("elo", "Elo", Unit::Elo).what("Elo").decision(
        Role::Strength,
        Better::Higher,
        Rows::Choice,
    )
}

fn elo(
    detector: DetectorId,
    policy: Option<DrawPolicy>,
    value: f64,
    bounds: [f64; 2],
) -> Contribution {
    let value = Measured::value(value)
        .interval(replab_harness::interval::Interval {
            lo: bounds[0],
            hi: bounds[1],
            coverage: 0.95,
            n: 400,
        })
        .note("400 games at 1000 nodes")
        .against(Choice::detector(LINEAR));
    Contribution::new(detector, elo_column(), value).under(policy)
}

fn errors(detector: DetectorId, false_draws: u64) -> Contribution {
    let column = Column::new("false-draws", "false draws", Unit::Count)
        .what("false draws")
        .decision(Role::Correctness, Better::Lower, Rows::EveryPolicy);
    Contribution::new(detector, column, Measured::value(false_draws as f64))
}

fn instructions(detector: DetectorId, ratio: f64) -> Contribution {
    let column = Column::new("instructions", "instr./node", Unit::Ratio)
        .what("instructions per node")
        .decision(Role::Cost, Better::Lower, Rows::Detector);
    Contribution::new(detector, column, Measured::exact(ratio))
}

fn tree(policy: DrawPolicy, change: f64) -> Contribution {
    let column = Column::new("tree", "nodes to depth", Unit::Change)
        .what("nodes to a fixed depth")
        .decision(Role::Effect, Better::Neither, Rows::Presets);
    let value = Measured::exact(change).note("repetition, depth 5");
    Contribution::new(LINEAR, column, value).under(Some(policy))
}

/// An Elo interval that contains 0, with a costlier cost and an inexact count.
fn values_undecided() -> Vec<Contribution> {
    vec![
        elo(cuckoo(), None, 3.0, [-5.0, 11.0]),
        errors(cuckoo(), 2),
        instructions(cuckoo(), 1.2),
        instructions(LINEAR, 1.1),
    ]
}

fn recommend(values: &[Contribution], choice: Choice) -> String {
    let table = table(values);
    recommendation(&table, table.row(choice).unwrap())
}

#[test]
fn the_recommendation_follows_the_interval() {
    let c = Choice::detector(cuckoo());
    let text = recommend(
        &[elo(cuckoo(), None, 10.0, [2.0, 18.0]), errors(cuckoo(), 0)],
        c,
    );
    assert!(text.starts_with("recommended over linear"), "{text}");
    let t = table(&[elo(cuckoo(), None, 10.0, [2.0, 18.0])]);
    let linear = t.row(Choice::detector(LINEAR)).unwrap();
    assert!(linear.baseline);
    assert_eq!(
        recommendation(&t, linear),
        "the baseline of the Elo matches"
    );

    let text = recommend(&[elo(cuckoo(), None, -10.0, [-18.0, -2.0])], c);
    assert!(text.starts_with("not recommended: weaker"), "{text}");
    // An unresolved row is undecided, never "keep the baseline".
    for undecided in [&values_undecided(), &values_undecided()[..1]] {
        let text = recommend(undecided, c);
        assert!(
            text.starts_with("undecided") && !text.contains("keep"),
            "{text}"
        );
    }

    let text = recommend(
        &[elo(cuckoo(), None, 10.0, [-2.0, 22.0]), errors(cuckoo(), 0)],
        c,
    );
    assert!(
        text.starts_with("undecided: no measurable Elo difference from linear at 400 games"),
        "{text}"
    );
    assert!(
        text.ends_with("its cost against linear not measured"),
        "{text}"
    );

    let text = recommend(
        &[elo(cuckoo(), None, 10.0, [2.0, 18.0]), errors(cuckoo(), 3)],
        c,
    );
    assert!(text.contains("but inexact (3 false draws)"), "{text}");
}

#[test]
fn without_a_strength_difference_correctness_and_cost_decide() {
    let values = |x: f64, fp: u64| {
        vec![
            elo(cuckoo(), None, 3.0, [-5.0, 11.0]),
            errors(cuckoo(), fp),
            instructions(cuckoo(), x),
            instructions(LINEAR, 1.10),
        ]
    };
    let c = Choice::detector(cuckoo());
    let cheaper = recommend(&values(1.05, 0), c);
    assert!(cheaper.ends_with("a candidate"), "{cheaper}");
    assert!(
        cheaper.contains("exact and −4.5% instructions per node"),
        "{cheaper}"
    );
    let costlier = recommend(&values(1.20, 0), c);
    assert!(costlier.ends_with("costlier"), "{costlier}");
    let same = recommend(&values(1.10, 0), c);
    assert!(same.ends_with("either"), "{same}");
    let inexact = recommend(&values(1.05, 3), c);
    assert!(inexact.ends_with("inexact (3 false draws)"), "{inexact}");
    // Without the correctness column, the cost decides but exactness is not claimed.
    let mut without_errors = values(1.05, 0);
    without_errors.remove(1);
    let unchecked = recommend(&without_errors, c);
    assert!(
        unchecked.ends_with("a candidate") && !unchecked.contains("exact and"),
        "{unchecked}"
    );
}

#[test]
fn missing_values_show_as_not_measured_and_policy_rows_take_their_own() {
    let twofold = Some(DrawPolicy::Twofold);
    let t = table(&[
        elo(cuckoo(), twofold, 1.0, [-3.0, 5.0]),
        instructions(LINEAR, 1.1),
    ]);
    let c = t.row(Choice::detector(cuckoo())).unwrap();
    assert!(c.cells.iter().all(|v| v.measured().is_empty()));
    assert_eq!(recommendation(&t, c), "no recommendation: Elo not measured");
    let html = html(&t);
    assert!(html.contains(NOT_MEASURED), "{html}");
    assert!(
        t.rows
            .iter()
            .all(|r| r.choice.to_string() != "linear:policy=stockfish")
    );
    // The value names linear+cuckoo, so no linear policy row takes it; a detector's cost does
    // not apply to a policy row.
    let preset = t.row(Choice::preset(LINEAR, DrawPolicy::Twofold)).unwrap();
    assert!(preset.cells.iter().all(|v| v.measured().is_empty()));
    assert!(preset.cells.contains(&Values::NotApplicable));
}

#[test]
fn a_row_that_is_also_a_baseline_shows_its_own_matches() {
    let axon = DetectorId::from_name("axon").unwrap();
    let mut against_twofold = elo(axon, None, -10.0, [-28.0, 7.0]);
    against_twofold.value.against = Some(Choice::preset(LINEAR, DrawPolicy::Twofold));
    let twofold = elo(LINEAR, Some(DrawPolicy::Twofold), 0.0, [-20.0, 20.0]);
    let t = table(&[against_twofold, twofold]);
    let row = t.row(Choice::preset(LINEAR, DrawPolicy::Twofold)).unwrap();
    assert!(!row.baseline);
    let text = recommendation(&t, row);
    assert!(
        text.starts_with("undecided: no measurable Elo difference from linear"),
        "{text}"
    );
    assert!(t.row(Choice::detector(LINEAR)).unwrap().baseline);
}

#[test]
fn policy_rows_cite_their_effect_where_no_cost_decides() {
    let twofold = Choice::preset(LINEAR, DrawPolicy::Twofold);
    let values = [
        elo(LINEAR, twofold.policy, 1.0, [-3.0, 5.0]),
        tree(DrawPolicy::Twofold, -0.1),
    ];
    let text = recommend(&values, twofold);
    assert!(text.contains("the same detector as linear"), "{text}");
    assert!(
        text.contains("−10.0% (repetition, depth 5, exact)"),
        "{text}"
    );
    let t = table(&values);
    // A detector's own row has no policy effect: the column does not apply.
    let linear = t.row(Choice::detector(LINEAR)).unwrap();
    assert_eq!(
        linear.cells[t.columns.iter().position(|c| c.key == "tree").unwrap()],
        Values::NotApplicable
    );
    let text = recommend(&values[..1], twofold);
    assert!(
        text.ends_with("its cost against linear not measured"),
        "{text}"
    );
}

#[test]
fn a_run_under_a_policy_without_a_row_fills_the_detectors_own_row_folded() {
    let column = Column::new("checks", "FIDE", Unit::Failed { of: 3 }).decision(
        Role::Shown,
        Better::Lower,
        Rows::ChoiceOrOwn,
    );
    let failed = |detector, policy| {
        let value = Measured::value(2.0)
            .note("twofold")
            .items(vec!["a-scenario".into(), "b<c".into()]);
        Contribution::new(detector, column.clone(), value).under(Some(policy))
    };
    let axon = DetectorId::from_name("axon").unwrap();
    let t = table(&[
        failed(axon, DrawPolicy::Twofold),
        failed(LINEAR, DrawPolicy::Stockfish),
    ]);
    let html = html(&t);
    assert!(
        html.contains(
            "<details><summary>fails 2 of 3 (twofold)</summary>a-scenario, b&lt;c</details>"
        ),
        "{html}"
    );
    // linear's own row takes its default policy's run; its twofold row has none.
    assert_eq!(
        t.row(Choice::detector(LINEAR)).unwrap().cells[0]
            .measured()
            .len(),
        1
    );
    assert!(
        t.row(Choice::preset(LINEAR, DrawPolicy::Twofold))
            .unwrap()
            .cells[0]
            .measured()
            .is_empty()
    );
    assert_eq!(
        t.row(Choice::detector(axon)).unwrap().cells[0]
            .measured()
            .len(),
        1
    );
}

/// The landing page's summary puts each row in the group of its recommendation, and a row
/// moves from group to group as its interval moves: stronger → use, interval over 0 →
/// undecided, weaker → avoid; each name links to its row's anchor in the table.
#[test]
fn the_summary_groups_rows_as_their_recommendations_and_flips_with_them() {
    let c = Choice::detector(cuckoo());
    let group = |value: f64, bounds: [f64; 2]| {
        let values = [elo(cuckoo(), None, value, bounds), errors(cuckoo(), 0)];
        let table = table(&values);
        let (advice, text) = assess(&table, table.row(c).unwrap());
        assert_eq!(text, recommendation(&table, table.row(c).unwrap()));
        (advice, summary_html(&table))
    };
    let (advice, html) = group(10.0, [2.0, 18.0]);
    assert_eq!(advice, Advice::Use);
    let link = format!("<a href=\"#{}\">linear+cuckoo</a>", anchor(c));
    assert!(html.contains(&format!("Use: {link}")), "{html}");
    let (advice, html) = group(3.0, [-5.0, 11.0]);
    assert_eq!(advice, Advice::Undecided);
    assert!(html.contains(&format!("Undecided: {link}")), "{html}");
    let (advice, html) = group(-10.0, [-18.0, -2.0]);
    assert_eq!(advice, Advice::Avoid);
    assert!(html.contains(&format!("Avoid (weaker): {link}")), "{html}");
    // The baseline is in no group; rows nothing measured are said to be so.
    assert!(
        !html.contains(&format!("#{}\"", anchor(Choice::detector(LINEAR)))),
        "{html}"
    );
    assert!(html.contains("Strength not measured"), "{html}");
    // Two questions: the detectors, then the draw policies played with linear.
    assert!(
        html.find("Which detector?") < html.find("Which draw policy"),
        "{html}"
    );
    // The row the link names carries the anchor.
    let values = [elo(cuckoo(), None, 10.0, [2.0, 18.0])];
    let (_, rows) = cells(&table(&values));
    let html = table_html(&["choice"], &rows, false);
    assert!(html.contains(&format!("id=\"{}\"", anchor(c))), "{html}");
}

/// A row with no strength difference but an exact, cheaper cost is a candidate; an inexact
/// one stays undecided, and a stronger inexact one is mixed.
#[test]
fn candidates_and_mixed_rows_are_their_own_groups() {
    let c = Choice::detector(cuckoo());
    let advice = |values: &[Contribution]| {
        let table = table(values);
        assess(&table, table.row(c).unwrap()).0
    };
    let cheaper = [
        elo(cuckoo(), None, 3.0, [-5.0, 11.0]),
        errors(cuckoo(), 0),
        instructions(cuckoo(), 1.0),
        instructions(LINEAR, 1.1),
    ];
    assert_eq!(advice(&cheaper), Advice::Candidate);
    assert_eq!(advice(&values_undecided()), Advice::Undecided);
    let mixed = [elo(cuckoo(), None, 10.0, [2.0, 18.0]), errors(cuckoo(), 2)];
    assert_eq!(advice(&mixed), Advice::Mixed);
}
