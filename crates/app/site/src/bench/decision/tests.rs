//! The decision table from hand-made contributions: rows, cells and the recommendation.

use replab_harness::contribution::{Better, Unit};

use super::*;

const LINEAR: DetectorId = DetectorId::reference();

/// The budget the made-up Elo values hold at.
const BUDGET: &str = "1,000 nodes a move";

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
        .at(BUDGET)
        .against(Choice::detector(LINEAR));
    Contribution::new(detector, elo_column(), value).under(policy)
}

fn errors(detector: DetectorId, false_draws: u64) -> Contribution {
    let column = Column::new("false-draws", "false draws", Unit::Count)
        .what("false draws")
        .decision(Role::Correctness, Better::Lower, Rows::EveryPolicy);
    Contribution::new(detector, column, Measured::value(false_draws as f64))
}

/// A conformance-like value: `failed` of 46 FIDE scenarios failed by `detector` under
/// `policy`, by name.
fn fide(detector: DetectorId, policy: DrawPolicy, failed: usize) -> Contribution {
    let column = Column::new("conformance", "FIDE scenarios", Unit::Failed { of: 46 })
        .what("FIDE conformance")
        .decision(Role::Shown, Better::Lower, Rows::ChoiceOrOwn);
    let names = (0..failed).map(|i| format!("scenario-{i}")).collect();
    let value = Measured::value(failed as f64).items(names);
    Contribution::new(detector, column, value).under(Some(policy))
}

/// The audit's false draws, none, for each of `detectors`: every rule check passed.
fn exact(detectors: &[DetectorId]) -> Vec<Contribution> {
    detectors.iter().map(|d| errors(*d, 0)).collect()
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

/// An Elo interval that contains 0, with a costlier cost; every rule check passed.
fn values_undecided() -> Vec<Contribution> {
    let mut values = vec![
        elo(cuckoo(), None, 3.0, [-5.0, 11.0]),
        instructions(cuckoo(), 1.2),
        instructions(LINEAR, 1.1),
    ];
    values.extend(exact(&[cuckoo(), LINEAR]));
    values
}

fn recommend(values: &[Contribution], choice: Choice) -> String {
    let table = table(values);
    recommendation(&table, table.row(choice).unwrap())
}

fn advice(values: &[Contribution], choice: Choice) -> Advice {
    let table = table(values);
    assess(&table, table.row(choice).unwrap()).advice
}

/// `values` with every rule check of linear and linear+cuckoo passed.
fn checked(values: &[Contribution]) -> Vec<Contribution> {
    let mut all = values.to_vec();
    all.extend(exact(&[cuckoo(), LINEAR]));
    all
}

#[test]
fn the_recommendation_follows_the_interval() {
    let c = Choice::detector(cuckoo());
    let text = recommend(&checked(&[elo(cuckoo(), None, 10.0, [2.0, 18.0])]), c);
    assert!(
        text.starts_with("recommended: stronger than linear at 1,000 nodes a move by +10.0"),
        "{text}"
    );
    let t = table(&checked(&[elo(cuckoo(), None, 10.0, [2.0, 18.0])]));
    let linear = t.row(Choice::detector(LINEAR)).unwrap();
    assert!(linear.baseline);
    assert_eq!(
        recommendation(&t, linear),
        "baseline: the Elo matches were played against it"
    );

    let text = recommend(&checked(&[elo(cuckoo(), None, -10.0, [-18.0, -2.0])]), c);
    assert!(
        text.starts_with("not recommended: weaker than linear at 1,000 nodes a move"),
        "{text}"
    );
    // An unresolved row is undecided, never "keep the baseline".
    for undecided in [values_undecided(), checked(&values_undecided()[..1])] {
        let text = recommend(&undecided, c);
        assert!(
            text.starts_with("undecided") && !text.contains("keep"),
            "{text}"
        );
    }

    let text = recommend(&checked(&[elo(cuckoo(), None, 10.0, [-2.0, 22.0])]), c);
    assert!(
        text.starts_with(
            "undecided: no measurable Elo difference from linear at 1,000 nodes a move (400 \
             games at 1000 nodes)"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("its cost against linear not measured"),
        "{text}"
    );
}

#[test]
fn without_a_strength_difference_the_cost_decides() {
    let values = |x: f64| {
        checked(&[
            elo(cuckoo(), None, 3.0, [-5.0, 11.0]),
            instructions(cuckoo(), x),
            instructions(LINEAR, 1.10),
        ])
    };
    let c = Choice::detector(cuckoo());
    let cheaper = recommend(&values(1.05), c);
    assert!(cheaper.starts_with("a candidate: "), "{cheaper}");
    assert!(
        cheaper.ends_with("exact and −4.5% instructions per node against linear"),
        "{cheaper}"
    );
    let costlier = recommend(&values(1.20), c);
    assert!(costlier.ends_with("costlier"), "{costlier}");
    let same = recommend(&values(1.10), c);
    assert!(same.ends_with("either"), "{same}");
}

/// The flip the rules make: the same row, the best Elo of the table, is recommended while it
/// passes every check and is not a candidate once it fails one FIDE scenario or makes one
/// false draw, the answer saying why from the values.
#[test]
fn a_choice_that_breaks_the_draw_rules_is_never_a_candidate_whatever_its_elo() {
    let c = Choice::detector(cuckoo());
    let default = default_policy(cuckoo());
    let strongest = |failed: usize, false_draws: u64| {
        vec![
            elo(cuckoo(), None, 50.0, [40.0, 60.0]),
            elo(DetectorId::Off, None, 10.0, [2.0, 18.0]),
            fide(cuckoo(), default, failed),
            fide(LINEAR, default, 0),
            errors(cuckoo(), false_draws),
            errors(LINEAR, 0),
        ]
    };
    assert_eq!(advice(&strongest(0, 0), c), Advice::Use);
    let passing = summary_html(&table(&strongest(0, 0)));
    assert!(
        passing.contains("Use (stronger at 1,000 nodes a move): "),
        "{passing}"
    );

    assert_eq!(advice(&strongest(2, 0), c), Advice::BreaksRules);
    assert_eq!(
        recommend(&strongest(2, 0), c),
        "not a candidate: FIDE conformance: fails 2 of 46"
    );
    let failing = summary_html(&table(&strongest(2, 0)));
    let link = format!("<a href=\"#{}\">linear+cuckoo</a>", anchor(c));
    assert!(
        failing.contains("Not candidates, whatever their strength: they break the draw rules: "),
        "{failing}"
    );
    assert!(
        failing.contains(&format!("{link} (FIDE conformance: fails 2 of 46)")),
        "{failing}"
    );
    assert!(!failing.contains("Use"), "{failing}");
    assert_eq!(
        recommend(&strongest(0, 3), c),
        "not a candidate: false draws: 3"
    );
    // Cheaper without a strength difference: a candidate only while it passes.
    let cheaper = |failed: usize| {
        let mut values = checked(&[
            elo(cuckoo(), None, 3.0, [-5.0, 11.0]),
            instructions(cuckoo(), 1.0),
            instructions(LINEAR, 1.1),
            fide(LINEAR, default, 0),
        ]);
        values.push(fide(cuckoo(), default, failed));
        values
    };
    assert_eq!(advice(&cheaper(0), c), Advice::Candidate);
    assert_eq!(advice(&cheaper(1), c), Advice::BreaksRules);
}

/// Detection off is no candidate even with the best Elo and every check passed, and says so;
/// as the full run finds it (the audit does not measure it, FIDE scenarios failed), both
/// reasons are given.
#[test]
fn detection_off_is_never_a_candidate() {
    let off = Choice::detector(DetectorId::Off);
    let default = default_policy(DetectorId::Off);
    let mut values = vec![
        elo(DetectorId::Off, None, 30.0, [20.0, 40.0]),
        fide(DetectorId::Off, default, 0),
        errors(DetectorId::Off, 0),
    ];
    values.extend(exact(&[LINEAR]));
    assert_eq!(advice(&values, off), Advice::BreaksRules);
    assert_eq!(
        recommend(&values, off),
        "not a candidate: no repetition detection"
    );
    let as_measured = checked(&[
        elo(DetectorId::Off, None, 30.0, [20.0, 40.0]),
        fide(DetectorId::Off, default, 19),
    ]);
    assert_eq!(
        recommend(&as_measured, off),
        "not a candidate: no repetition detection; FIDE conformance: fails 19 of 46"
    );
}

/// Correctness not measured is not correctness: a row a check of the rules did not measure
/// is no candidate (naming the check), and becomes one when the check measures it clean; a
/// table with no check at all recommends nothing.
#[test]
fn a_row_whose_correctness_was_not_measured_is_not_a_candidate() {
    let c = Choice::detector(cuckoo());
    let cheaper = vec![
        elo(cuckoo(), None, 3.0, [-5.0, 11.0]),
        instructions(cuckoo(), 1.0),
        instructions(LINEAR, 1.1),
        errors(LINEAR, 0),
    ];
    assert_eq!(advice(&cheaper, c), Advice::Unchecked);
    assert_eq!(
        recommend(&cheaper, c),
        "not a candidate: false draws not measured"
    );
    let html = summary_html(&table(&cheaper));
    assert!(
        html.contains("no check of the draw rules measured them: "),
        "{html}"
    );
    let mut measured = cheaper.clone();
    measured.push(errors(cuckoo(), 0));
    assert_eq!(advice(&measured, c), Advice::Candidate);
    let stronger = [elo(cuckoo(), None, 10.0, [2.0, 18.0])];
    assert_eq!(advice(&stronger, c), Advice::Unchecked);
    assert_eq!(
        recommend(&stronger, c),
        "not a candidate: no check of the draw rules measured it"
    );
}

/// Each strength verdict of the summary names the budget its values hold at, taken from the
/// values: another budget, another sentence; several budgets, each once.
#[test]
fn each_verdict_names_the_budget_it_holds_at() {
    let weaker = |at: &str| {
        let mut value = elo(cuckoo(), None, -10.0, [-18.0, -2.0]);
        value.value.at = Some(at.into());
        summary_html(&table(&checked(&[value])))
    };
    let html = weaker(BUDGET);
    assert!(
        html.contains("Avoid (weaker at 1,000 nodes a move): "),
        "{html}"
    );
    let html = weaker("40,000 nodes a move");
    assert!(
        html.contains("Avoid (weaker at 40,000 nodes a move): "),
        "{html}"
    );
    let mut clock = elo(cuckoo(), None, -12.0, [-20.0, -4.0]);
    clock.column.key = "elo-clock".into();
    clock.value.at = Some("a 0.5+0.005 s clock".into());
    let both = checked(&[elo(cuckoo(), None, -10.0, [-18.0, -2.0]), clock]);
    let html = summary_html(&table(&both));
    assert!(
        html.contains("Avoid (weaker at 1,000 nodes a move and a 0.5+0.005 s clock): "),
        "{html}"
    );
    let undecided = summary_html(&table(&values_undecided()));
    assert!(
        undecided.contains("Undecided (no measurable strength difference at 1,000 nodes a move): "),
        "{undecided}"
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
    let checked = checked(&[elo(cuckoo(), twofold, 1.0, [-3.0, 5.0])]);
    assert_eq!(
        recommend(&checked, Choice::detector(cuckoo())),
        "no recommendation: Elo not measured"
    );
}

#[test]
fn a_row_that_is_also_a_baseline_shows_its_own_matches() {
    let axon = DetectorId::from_name("axon").unwrap();
    let mut against_twofold = elo(axon, None, -10.0, [-28.0, 7.0]);
    against_twofold.value.against = Some(Choice::preset(LINEAR, DrawPolicy::Twofold));
    let twofold = elo(LINEAR, Some(DrawPolicy::Twofold), 0.0, [-20.0, 20.0]);
    let mut values = vec![against_twofold, twofold];
    values.extend(exact(&[LINEAR, axon]));
    let t = table(&values);
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
        errors(LINEAR, 0),
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
    let text = recommend(&[values[0].clone(), values[2].clone()], twofold);
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

/// A cell keeps a value's figure and short note in sight and folds a long note; the
/// recommendation folds its sentence under its verdict; the CSV keeps every word.
#[test]
fn cells_fold_long_notes_and_the_recommendations_sentence() {
    let c = Choice::detector(cuckoo());
    let mut value = elo(cuckoo(), None, 10.0, [2.0, 18.0]);
    let long = "60 games at 10000 nodes; better: passed the gain test [0, +5] nElo";
    value.value.note = Some(long.into());
    let t = table(&checked(&[value, tree(DrawPolicy::Twofold, -0.2)]));
    let (headers, rows) = cells(&t);
    let row = t.rows.iter().position(|r| r.choice == c).unwrap();
    let at = |key: &str| 1 + t.columns.iter().position(|c| c.key == key).unwrap();
    let html = |cell: &Cell| match cell {
        Cell::Html(h) | Cell::Text(h) => h.clone(),
    };
    assert_eq!(
        html(&rows[row][at("elo")]),
        format!("<details><summary>+10.0 [+2.0, +18.0]</summary>{long}</details>")
    );
    let preset = t
        .rows
        .iter()
        .position(|r| r.choice == Choice::preset(LINEAR, DrawPolicy::Twofold))
        .unwrap();
    assert_eq!(
        html(&rows[preset][at("tree")]),
        "−20.0% (repetition, depth 5, exact)"
    );
    let recommendation_cell = html(rows[row].last().unwrap());
    assert!(
        recommendation_cell.starts_with("<details><summary>recommended</summary>stronger than"),
        "{recommendation_cell}"
    );
    let (text_headers, text_rows) = text_cells(&t);
    assert_eq!(headers, text_headers);
    assert_eq!(
        html(&text_rows[row][at("elo")]),
        format!("+10.0 [+2.0, +18.0] ({long})")
    );
    assert_eq!(
        html(text_rows[row].last().unwrap()),
        recommendation(&t, t.row(c).unwrap())
    );
}

/// The landing page's summary puts each row in the group of its recommendation, and a row
/// moves from group to group as its interval moves: stronger → use, interval over 0 →
/// undecided, weaker → avoid; each name links to its row's anchor in the table.
/// A made-up value of one column at `at`.
fn elo_at(value: f64, bounds: [f64; 2], at: &str) -> Contribution {
    let mut c = elo(cuckoo(), None, value, bounds);
    c.value.at = Some(at.into());
    c
}

#[test]
fn a_row_whose_place_changes_between_budgets_is_named_with_where_it_holds() {
    let c = Choice::detector(cuckoo());
    let (small, large) = ("10,000 nodes a move", "160,000 nodes a move");
    let summary = |values: &[Contribution]| {
        let values = checked(values);
        let table = table(&values);
        (assess(&table, table.row(c).unwrap()), summary_html(&table))
    };
    // Weaker at the small budget, no measurable difference at the large one.
    let (a, html) = summary(&[
        elo_at(-10.0, [-18.0, -2.0], small),
        elo_at(-1.0, [-4.0, 2.0], large),
    ]);
    assert_eq!(a.advice, Advice::ByBudget, "{a:?}");
    assert_eq!(
        a.reason,
        "Elo: weaker than linear at 10,000 nodes a move (-10.0); no measurable difference \
         from linear at 160,000 nodes a move (-1.0)"
    );
    assert!(
        html.contains("Its place changes with the budget: <a href="),
        "{html}"
    );
    assert!(
        html.contains("(Elo: weaker than linear at 10,000"),
        "{html}"
    );
    // Both budgets weaker: it is avoided at both, and the heading names both.
    let (a, html) = summary(&[
        elo_at(-10.0, [-18.0, -2.0], small),
        elo_at(-6.0, [-9.0, -3.0], large),
    ]);
    assert_eq!(a.advice, Advice::Avoid);
    assert!(
        html.contains("Avoid (weaker at 10,000 nodes a move and 160,000 nodes a move): "),
        "{html}"
    );
    // Stronger at one, weaker at the other: both named.
    let (a, _) = summary(&[
        elo_at(3.0, [1.0, 5.0], small),
        elo_at(-3.0, [-5.0, -1.0], large),
    ]);
    assert_eq!(a.advice, Advice::ByBudget);
    assert!(a.reason.contains("stronger than linear at 10,000"), "{a:?}");
    // Another column at another budget is not set against this one (a clock is not a
    // budget of the fixed-node column).
    let mut clock = elo_at(-1.0, [-20.0, 18.0], "a 0.5+0.005 s clock");
    clock.column.key = "elo-clock".into();
    let (a, _) = summary(&[elo_at(-10.0, [-18.0, -2.0], small), clock]);
    assert_eq!(a.advice, Advice::Avoid, "{a:?}");
    // A cell with values at several budgets says each one's budget in sight.
    let values = checked(&[
        elo_at(-10.0, [-18.0, -2.0], small),
        elo_at(-6.0, [-9.0, -3.0], large),
    ]);
    let (_, rows) = cells(&table(&values));
    let html = table_html(&["x"], &rows, false);
    assert!(html.contains("160,000 nodes a move: -6.0"), "{html}");
}

#[test]
fn the_summary_groups_rows_as_their_recommendations_and_flips_with_them() {
    let c = Choice::detector(cuckoo());
    let group = |value: f64, bounds: [f64; 2]| {
        let values = checked(&[elo(cuckoo(), None, value, bounds)]);
        let table = table(&values);
        let assessment = assess(&table, table.row(c).unwrap());
        assert_eq!(
            assessment.text(),
            recommendation(&table, table.row(c).unwrap())
        );
        (assessment.advice, summary_html(&table))
    };
    let (advice, html) = group(10.0, [2.0, 18.0]);
    assert_eq!(advice, Advice::Use);
    let link = format!("<a href=\"#{}\">linear+cuckoo</a>", anchor(c));
    assert!(
        html.contains(&format!("Use (stronger at 1,000 nodes a move): {link}")),
        "{html}"
    );
    let (advice, html) = group(3.0, [-5.0, 11.0]);
    assert_eq!(advice, Advice::Undecided);
    assert!(html.contains(&format!("a move): {link}")), "{html}");
    let (advice, html) = group(-10.0, [-18.0, -2.0]);
    assert_eq!(advice, Advice::Avoid);
    assert!(
        html.contains(&format!("Avoid (weaker at 1,000 nodes a move): {link}")),
        "{html}"
    );
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
