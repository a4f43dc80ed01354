//! The landing page's decision table, built from whatever [`Contribution`]s the experiments of
//! the run give: one row per choice (detection off, every searchable detector, the reference
//! detector under each draw policy other than its default), one column per key the
//! contributions name for the decision table ([`Table::Decision`]), and a recommendation
//! written from the columns' roles ([`Role`]) through the lab's comparison type
//! ([`Comparison`]): a comparison the intervals do not support is not made, and a choice that
//! breaks the draw rules, or that no check of them measured, is never recommended ([`assess`],
//! the one place the advice is decided). Nothing here knows which experiment gave a column. A value no experiment of the run gave shows as
//! [`NOT_MEASURED`]; a column that does not apply to a row (a detector's cost on a policy
//! row) as [`NOT_APPLICABLE`].

use replab_detect::DrawPolicy;
use replab_registry::{DetectorId, SEARCH_DETECTORS};
use replab_report::{Cell, escape_html, fmt_delta_pct, table_html};
use replab_selfplay::PlayerSpec;

use replab_harness::compare::{self, Comparison, Decision, Reference, Scope};
use replab_harness::contribution::{Choice, Column, Contribution, Measured, Role, Rows, Table};
use replab_harness::interval::{Estimate, Interval};

/// What a cell says when no experiment of the run measured it.
pub const NOT_MEASURED: &str = "not measured";

/// What a cell says when its column does not apply to the row.
pub const NOT_APPLICABLE: &str = "—";

/// A cell of the decision table.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// The column does not apply to the row.
    NotApplicable,
    /// The values measured (none: not measured).
    Measured(Vec<Measured>),
}

impl Values {
    /// The values measured (none where the column does not apply).
    pub fn measured(&self) -> &[Measured] {
        match self {
            Values::NotApplicable => &[],
            Values::Measured(v) => v,
        }
    }
}

/// One row of the decision table: a choice and its cells, one per column.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The choice.
    pub choice: Choice,
    /// One cell per column of the table.
    pub cells: Vec<Values>,
    /// Whether the choice is the baseline strength was measured against (and has no strength
    /// value of its own).
    pub baseline: bool,
}

/// The decision table: its columns, in order, and its rows.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionTable {
    /// Every decision column the contributions name: correctness first, strength last.
    pub columns: Vec<Column>,
    /// One row per choice.
    pub rows: Vec<Row>,
}

impl DecisionTable {
    /// The row of `choice`, if the table has one.
    pub fn row(&self, choice: Choice) -> Option<&Row> {
        self.rows.iter().find(|r| r.choice == choice)
    }

    /// The values of `row` in the columns of `role`, with their column.
    fn values<'a>(&'a self, row: &'a Row, role: Role) -> Vec<(&'a Column, &'a Measured)> {
        self.columns
            .iter()
            .zip(&row.cells)
            .filter(|(c, _)| c.role == role)
            .flat_map(|(c, v)| v.measured().iter().map(move |m| (c, m)))
            .collect()
    }
}

/// The columns the contributions name for `table`, each as its first contribution defines it,
/// ordered by role (correctness, cost, shown, effect, strength), then as they arrived.
pub fn columns(values: &[Contribution], table: Table) -> Vec<Column> {
    let mut columns: Vec<Column> = Vec::new();
    for c in values.iter().filter(|c| c.column.shows_in(table)) {
        if !columns.iter().any(|k| k.key == c.column.key) {
            columns.push(c.column.clone());
        }
    }
    columns.sort_by_key(|c| c.role);
    columns
}

/// The draw policy a choice plays by default (as the self-play players do).
fn default_policy(detector: DetectorId) -> DrawPolicy {
    PlayerSpec::named(detector.name()).policy
}

/// `choice` with its default policy spelled as no policy: the detector's own row.
fn normal(choice: Choice) -> Choice {
    match choice.policy {
        Some(p) if p == default_policy(choice.detector) => Choice::detector(choice.detector),
        _ => choice,
    }
}

/// The rows' choices, in a fixed order: detection off and the searchable detectors (registry
/// order), then the reference detector under each draw policy other than its default.
pub fn choices() -> Vec<Choice> {
    let linear = DetectorId::reference();
    let default = default_policy(linear);
    std::iter::once(DetectorId::Off)
        .chain(
            SEARCH_DETECTORS
                .iter()
                .filter_map(|d| DetectorId::from_name(d)),
        )
        .map(Choice::detector)
        .chain(
            DrawPolicy::ALL
                .into_iter()
                .filter(|p| *p != default)
                .map(|p| Choice::preset(linear, p)),
        )
        .collect()
}

/// The decision table of the contributions `values`.
pub fn table(values: &[Contribution]) -> DecisionTable {
    let columns = columns(values, Table::Decision);
    let choices = choices();
    let of_column = |column: &Column| -> Vec<&Contribution> {
        values
            .iter()
            .filter(|c| c.column.key == column.key)
            .collect()
    };
    let by_column: Vec<Vec<&Contribution>> = columns.iter().map(of_column).collect();
    let against: Vec<Choice> = columns
        .iter()
        .zip(&by_column)
        .filter(|(c, _)| c.role == Role::Strength)
        .flat_map(|(_, v)| v.iter().filter_map(|c| c.value.against.map(normal)))
        .collect();
    let rows = choices
        .iter()
        .map(|&choice| {
            let cells: Vec<Values> = columns
                .iter()
                .zip(&by_column)
                .map(|(column, values)| cell(values, column, choice, &choices))
                .collect();
            let strength = columns
                .iter()
                .zip(&cells)
                .any(|(c, v)| c.role == Role::Strength && !v.measured().is_empty());
            Row {
                choice,
                baseline: !strength && against.contains(&choice),
                cells,
            }
        })
        .collect();
    DecisionTable { columns, rows }
}

/// The cell of `choice` in `column` from the column's contributions `values` (`rows`: every
/// row's choice), as the column's [`Rows`] says.
fn cell(values: &[&Contribution], column: &Column, choice: Choice, rows: &[Choice]) -> Values {
    let detector = |c: &&&Contribution| c.detector == choice.detector;
    let at = |want: Choice| -> Vec<Measured> {
        values
            .iter()
            .filter(|c| normal(c.choice()) == want)
            .map(|c| c.value.clone())
            .collect()
    };
    let measured = match (column.rows, choice.policy) {
        (Rows::Detector, Some(_)) | (Rows::Presets, None) => return Values::NotApplicable,
        (Rows::EveryPolicy | Rows::Detector, _) => values
            .iter()
            .filter(detector)
            .map(|c| c.value.clone())
            .collect(),
        (Rows::Presets, Some(_)) => at(choice),
        (Rows::Choice, _) => at(choice),
        (Rows::ChoiceOrOwn, policy) => {
            let direct = at(choice);
            if direct.is_empty() && policy.is_none() {
                // A run under a policy without a row of its own.
                values
                    .iter()
                    .filter(detector)
                    .filter(|c| !rows.contains(&normal(c.choice())))
                    .map(|c| c.value.clone())
                    .collect()
            } else {
                direct
            }
        }
    };
    Values::Measured(measured)
}

/// A value's comparison with its reference in the better direction of its column: "the same
/// direction" is better.
fn comparison(column: &Column, change: f64, m: &Measured, against: String) -> Comparison {
    let scope = Scope::positions(column.heading.clone());
    let measured = compare::Measured {
        estimate: Estimate {
            value: change,
            interval: m
                .estimate
                .interval
                .map_or(Interval::exact(change), |i| Interval {
                    lo: column.unit.as_change(i.lo),
                    hi: column.unit.as_change(i.hi),
                    ..i
                }),
        },
        exact: m.estimate.interval.is_none(),
        unit: compare::Unit::Change,
        scope: scope.clone(),
    };
    Comparison::new(
        column.what.clone(),
        measured,
        Reference::direction(against, column.better.sign(), scope),
    )
}

/// A strength value's comparison with the choice it was measured against.
pub fn strength_comparison(column: &Column, m: &Measured) -> Comparison {
    let against = m.against.map(|c| c.to_string()).unwrap_or_default();
    comparison(column, column.unit.as_change(m.estimate.value), m, against)
}

/// The first cost the row and its baseline both have an exact value of: (the change against
/// the baseline's, its column, the comparison).
fn cost<'a>(
    table: &'a DecisionTable,
    row: &Row,
    base: Choice,
) -> Option<(f64, &'a Column, Comparison)> {
    table.columns.iter().enumerate().find_map(|(i, column)| {
        if column.role != Role::Cost {
            return None;
        }
        // A detector's cost is its own: the baseline's is its detector's.
        let base = match column.rows {
            Rows::Detector => Choice::detector(base.detector),
            _ => base,
        };
        let exact = |r: &Row| r.cells[i].measured().iter().find(|m| m.exact).cloned();
        let ours = exact(row)?;
        let theirs = exact(table.row(base)?)?;
        let change = column
            .unit
            .change(ours.estimate.value, theirs.estimate.value)?;
        let cmp = comparison(column, change, &Measured::exact(change), base.to_string());
        Some((change, column, cmp))
    })
}

/// What the numbers support for a row, as the landing page's summary groups the rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Advice {
    /// Stronger than the baseline (its interval excludes 0).
    Use,
    /// No measurable strength difference, and cheaper than the baseline.
    Candidate,
    /// Breaks the draw rules (no repetition detection, or a rule check it fails): never
    /// recommended, whatever its strength.
    BreaksRules,
    /// A check of the draw rules did not measure it: never recommended, whatever its strength.
    Unchecked,
    /// Weaker than the baseline.
    Avoid,
    /// Its strength against the baseline differs between budgets (weaker at one, no
    /// measurable difference or stronger at another): its place changes with the budget.
    ByBudget,
    /// No measurable strength difference, and nothing else decides.
    Undecided,
    /// Strength not measured.
    NotMeasured,
    /// The baseline the strength was measured against.
    Baseline,
}

impl Advice {
    /// The word the recommendation's sentence starts with and its cell shows.
    pub fn verdict(self) -> &'static str {
        match self {
            Advice::Use => "recommended",
            Advice::Candidate => "a candidate",
            Advice::BreaksRules | Advice::Unchecked => "not a candidate",
            Advice::Avoid => "not recommended",
            Advice::ByBudget => "depends on the budget",
            Advice::Undecided => "undecided",
            Advice::NotMeasured => "no recommendation",
            Advice::Baseline => "baseline",
        }
    }

    /// The summary's words for the group, with what it means, naming the budgets its
    /// strength verdicts hold at (`at 10,000 nodes a move`; empty where none is stated).
    pub fn heading(self, at: &str) -> String {
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" {at}")
        };
        match self {
            Advice::Use => format!("use (stronger{at})"),
            Advice::Candidate => {
                format!("candidates (no measurable strength difference{at}, and cheaper)")
            }
            Advice::BreaksRules => "not candidates, whatever their strength: they break the \
                                    draw rules"
                .into(),
            Advice::Unchecked => "not candidates, whatever their strength: no check of the \
                                  draw rules measured them"
                .into(),
            Advice::Avoid => format!("avoid (weaker{at})"),
            Advice::ByBudget => "its place changes with the budget".into(),
            Advice::Undecided => format!("undecided (no measurable strength difference{at})"),
            Advice::NotMeasured => "strength not measured".into(),
            Advice::Baseline => "the baseline".into(),
        }
    }

    /// Whether a row's reason is said beside its name in the summary (the rules it breaks or
    /// the checks that did not measure it).
    fn says_why(self) -> bool {
        matches!(
            self,
            Advice::BreaksRules | Advice::Unchecked | Advice::ByBudget
        )
    }
}

/// What the numbers support for a row: its group, why, and the budgets of the strength
/// values it rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    /// The row's group.
    pub advice: Advice,
    /// Why, in words computed from the values (`weaker than linear at 10,000 nodes a move by
    /// …`, `FIDE conformance: fails 19 of 46`).
    pub reason: String,
    /// The budgets the strength values it rests on hold at ([`Measured::at`]), in order.
    pub budgets: Vec<String>,
}

impl Assessment {
    fn new(advice: Advice, reason: String) -> Self {
        Self {
            advice,
            reason,
            budgets: Vec::new(),
        }
    }

    /// The recommendation in words: `not a candidate: no repetition detection`.
    pub fn text(&self) -> String {
        format!("{}: {}", self.advice.verdict(), self.reason)
    }
}

/// `at A and B`: the budgets the strength values hold at, each once; empty where none is
/// stated.
fn at_budgets(budgets: &[String]) -> String {
    if budgets.is_empty() {
        return String::new();
    }
    format!("at {}", budgets.join(" and "))
}

/// The budgets of `values`, each once, in order.
fn budgets_of<'a>(values: impl Iterator<Item = &'a Measured>) -> Vec<String> {
    each_once(values.filter_map(|m| m.at.clone()))
}

/// `texts`, each once, in order.
fn each_once(texts: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut once: Vec<String> = Vec::new();
    for text in texts {
        if !once.contains(&text) {
            once.push(text);
        }
    }
    once
}

/// The recommendation the numbers support, in words.
pub fn recommendation(table: &DecisionTable, row: &Row) -> String {
    assess(table, row).text()
}

/// What the numbers support for `row`. The draw rules decide first: a choice that breaks
/// them, or that no check of them measured, is never recommended, whatever its strength
/// ([`rules`]). Then strength against the baseline, then (where strength does not differ)
/// the cost.
pub fn assess(table: &DecisionTable, row: &Row) -> Assessment {
    if let Some(excluded) = rules(table, row) {
        return excluded;
    }
    let strength_column = table.columns.iter().find(|c| c.role == Role::Strength);
    let what = strength_column.map_or("strength", |c| c.what.as_str());
    if row.baseline {
        let reason = format!("the {what} matches were played against it");
        return Assessment::new(Advice::Baseline, reason);
    }
    let strength = table.values(row, Role::Strength);
    let Some(base) = strength.iter().find_map(|(_, m)| m.against) else {
        return Assessment::new(Advice::NotMeasured, format!("{what} not measured"));
    };
    let decided: Vec<(&Column, &Measured, Decision)> = strength
        .iter()
        .map(|&(c, m)| (c, m, strength_comparison(c, m).decision))
        .collect();
    if let Some(changes) = place_by_budget(&decided, base) {
        return changes;
    }
    // The values that decide in `keep`'s direction: their budgets and their texts.
    let deciding = |keep: &dyn Fn(Decision) -> bool| -> (Vec<String>, String) {
        let kept: Vec<&(&Column, &Measured, Decision)> =
            decided.iter().filter(|(_, _, d)| keep(*d)).collect();
        let texts: Vec<String> = kept
            .iter()
            .map(|(c, m, _)| m.text_with(c.unit, Some(&c.what)))
            .collect();
        (
            budgets_of(kept.iter().map(|(_, m, _)| *m)),
            texts.join("; "),
        )
    };
    let (advice, direction, (budgets, by)) =
        if decided.iter().any(|(_, _, d)| *d == Decision::Opposite) {
            let weaker = deciding(&|d| d == Decision::Opposite);
            (Advice::Avoid, "weaker than", weaker)
        } else if decided.iter().any(|(_, _, d)| d.same_direction()) {
            let stronger = deciding(&|d| d.same_direction());
            (Advice::Use, "stronger than", stronger)
        } else {
            return undecided(table, row, base, what, &strength);
        };
    let at = at_budgets(&budgets);
    let at = if at.is_empty() { at } else { format!(" {at}") };
    Assessment {
        advice,
        reason: format!("{direction} {base}{at} by {by}"),
        budgets,
    }
}

/// Where a row is at one budget against the baseline: its values there decide weaker if any
/// does, else stronger if any does, else no measurable difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Weaker,
    Stronger,
    Even,
}

impl Place {
    /// The place the decisions at one budget give.
    fn of(decisions: impl Iterator<Item = Decision> + Clone) -> Place {
        if decisions.clone().any(|d| d == Decision::Opposite) {
            Place::Weaker
        } else if decisions.into_iter().any(|d| d.same_direction()) {
            Place::Stronger
        } else {
            Place::Even
        }
    }

    /// In words, against `base`.
    fn words(self, base: Choice) -> String {
        match self {
            Place::Weaker => format!("weaker than {base}"),
            Place::Stronger => format!("stronger than {base}"),
            Place::Even => format!("no measurable difference from {base}"),
        }
    }
}

/// The row's assessment when one strength column's values put it in different places at
/// different budgets (`Elo at equal time: weaker than linear at 10,000 nodes a move; no
/// measurable difference from linear at 160,000 nodes a move`); `None` where each column's
/// budgets agree. Columns are not set against each other: a clock match and a fixed-node one
/// measure different things.
fn place_by_budget(decided: &[(&Column, &Measured, Decision)], base: Choice) -> Option<Assessment> {
    let mut keys: Vec<&str> = decided.iter().map(|(c, _, _)| c.key.as_str()).collect();
    keys.dedup();
    keys.into_iter().find_map(|key| {
        let column: Vec<(&Column, &Measured, Decision)> = decided
            .iter()
            .filter(|(c, _, _)| c.key == key)
            .copied()
            .collect();
        column_places(&column, base)
    })
}

/// [`place_by_budget`] for one column's values.
fn column_places(decided: &[(&Column, &Measured, Decision)], base: Choice) -> Option<Assessment> {
    let (column, _, _) = decided.first()?;
    let budgets = budgets_of(decided.iter().map(|(_, m, _)| *m));
    let at = |budget: &String| -> Vec<(&Column, &Measured, Decision)> {
        decided
            .iter()
            .filter(|(_, m, _)| m.at.as_ref() == Some(budget))
            .copied()
            .collect()
    };
    let place_at = |budget: &String| Place::of(at(budget).into_iter().map(|(_, _, d)| d));
    // The budget with its values: `40,000 nodes a move (−16.2)`.
    let with_values = |budget: &String| {
        let values: Vec<String> = at(budget)
            .iter()
            .map(|(c, m, _)| c.unit.bare(m.estimate.value))
            .collect();
        format!("{budget} ({})", values.join(", "))
    };
    let places: Vec<(String, Place)> = budgets
        .iter()
        .map(|b| (with_values(b), place_at(b)))
        .collect();
    let first = places.first()?.1;
    if places.iter().all(|(_, p)| *p == first) {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    for place in each_once_places(places.iter().map(|(_, p)| *p).collect()) {
        let at: Vec<String> = places
            .iter()
            .filter(|(_, p)| *p == place)
            .map(|(b, _)| b.clone())
            .collect();
        parts.push(format!("{} {}", place.words(base), at_budgets(&at)));
    }
    Some(Assessment {
        advice: Advice::ByBudget,
        reason: format!("{}: {}", column.what, parts.join("; ")),
        budgets,
    })
}

/// `places`, each once, in order.
fn each_once_places(places: Vec<Place>) -> Vec<Place> {
    let mut once: Vec<Place> = Vec::new();
    for p in places {
        if !once.contains(&p) {
            once.push(p);
        }
    }
    once
}

/// A row whose strength does not differ measurably from `base`'s: the cost, then the
/// effects, decide ([`tie_break`]).
fn undecided(
    table: &DecisionTable,
    row: &Row,
    base: Choice,
    what: &str,
    strength: &[(&Column, &Measured)],
) -> Assessment {
    let budgets = budgets_of(strength.iter().map(|(_, m)| *m));
    let at = at_budgets(&budgets);
    let at = if at.is_empty() { at } else { format!(" {at}") };
    let notes: Vec<&str> = strength
        .iter()
        .filter_map(|(_, m)| m.note.as_deref())
        .collect();
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    };
    let (advice, tie) = tie_break(table, row, base);
    Assessment {
        advice,
        reason: format!("no measurable {what} difference from {base}{at}{notes}{tie}"),
        budgets,
    }
}

/// Why `row` is never recommended, whatever its strength, if it is not: it breaks the draw
/// rules (no repetition detection, a nonzero value of a column that checks them,
/// [`Column::checks_rules`]), or a column that checks them did not measure it (or none
/// did). Correctness not measured never counts as correct.
fn rules(table: &DecisionTable, row: &Row) -> Option<Assessment> {
    let mut broken: Vec<String> = Vec::new();
    if !row.choice.detector.caps().probes {
        broken.push("no repetition detection".into());
    }
    let checks: Vec<(&Column, &[Measured])> = table
        .columns
        .iter()
        .zip(&row.cells)
        .filter(|(c, v)| c.checks_rules() && **v != Values::NotApplicable)
        .map(|(c, v)| (c, v.measured()))
        .collect();
    let failures = checks.iter().flat_map(|(c, values)| {
        values
            .iter()
            .filter(|m| m.estimate.value != 0.0)
            .map(move |m| format!("{}: {}", c.what, m.text(c.unit)))
    });
    broken.extend(failures);
    if !broken.is_empty() {
        return Some(Assessment::new(Advice::BreaksRules, broken.join("; ")));
    }
    let unmeasured: Vec<&str> = checks
        .iter()
        .filter(|(_, values)| values.is_empty())
        .map(|(c, _)| c.what.as_str())
        .collect();
    if checks.is_empty() {
        let reason = "no check of the draw rules measured it".to_string();
        return Some(Assessment::new(Advice::Unchecked, reason));
    }
    (!unmeasured.is_empty()).then(|| {
        let reason = format!("{} not measured", unmeasured.join(", "));
        Assessment::new(Advice::Unchecked, reason)
    })
}

/// The id of a choice's row in the decision table (`choice-linear-policy-twofold`), which the
/// summary's names link to.
pub fn anchor(choice: Choice) -> String {
    format!("choice-{}", choice.to_string().replace([':', '='], "-"))
}

/// The landing page's opening sentences: one per question (which detector, which draw policy),
/// the rows grouped by what the numbers support, each name linked to its row of the decision
/// table, where the evidence and what would decide an undecided row are. A group decided by
/// strength names the budgets it holds at; a row never recommended says why beside its name.
pub fn summary_html(table: &DecisionTable) -> String {
    // Each question and whether its rows are the draw-policy presets.
    let questions = [
        ("Which detector?", false),
        ("Which draw policy (with linear)?", true),
    ];
    questions
        .iter()
        .map(|&(question, presets)| {
            let rows: Vec<(Assessment, &Row)> = table
                .rows
                .iter()
                .filter(|r| r.choice.policy.is_some() == presets)
                .map(|r| (assess(table, r), r))
                .filter(|(a, _)| a.advice != Advice::Baseline)
                .collect();
            format!(
                "<p><strong>{question}</strong> {}</p>\n",
                groups_html(&rows)
            )
        })
        .collect()
}

/// The groups of `rows` in the order of [`Advice`], each `heading: name, name.`
fn groups_html(rows: &[(Assessment, &Row)]) -> String {
    let mut advices: Vec<Advice> = rows.iter().map(|(a, _)| a.advice).collect();
    advices.sort();
    advices.dedup();
    if advices.is_empty() {
        return "No row was measured.".into();
    }
    let parts: Vec<String> = advices
        .into_iter()
        .flat_map(|advice| {
            let members: Vec<&(Assessment, &Row)> =
                rows.iter().filter(|(a, _)| a.advice == advice).collect();
            by_budgets(advice, &members)
                .into_iter()
                .map(move |(budgets, members)| group_html(advice, &budgets, &members))
        })
        .collect();
    parts.join(" ")
}

/// A row of the summary with its assessment.
type Assessed<'a> = &'a (Assessment, &'a Row);

/// The members of one group split by the budgets their verdicts hold at (first appearance
/// first), so a heading names only budgets each of its members holds at; a group that says
/// each member's reason stays whole.
fn by_budgets<'a>(
    advice: Advice,
    members: &[Assessed<'a>],
) -> Vec<(Vec<String>, Vec<Assessed<'a>>)> {
    let mut out: Vec<(Vec<String>, Vec<Assessed<'a>>)> = Vec::new();
    for m in members {
        let key = if advice.says_why() {
            Vec::new()
        } else {
            m.0.budgets.clone()
        };
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(m),
            None => out.push((key, vec![m])),
        }
    }
    out
}

/// One group's sentence: `Heading (at budgets): name, name.`
fn group_html(advice: Advice, budgets: &[String], members: &[&(Assessment, &Row)]) -> String {
    let names: Vec<String> = members
        .iter()
        .map(|(a, r)| {
            let name = escape_html(&r.choice.to_string());
            let why = if advice.says_why() {
                format!(" ({})", escape_html(&a.reason))
            } else {
                String::new()
            };
            format!("<a href=\"#{}\">{name}</a>{why}", anchor(r.choice))
        })
        .collect();
    let heading = advice.heading(&at_budgets(budgets));
    let heading = heading[..1].to_uppercase() + &heading[1..];
    format!("{}: {}.", escape_html(&heading), names.join(", "))
}

/// Where strength does not differ: the first cost both have, then the effects, decide (the
/// row passed every check of the draw rules, [`rules`]).
fn tie_break(table: &DecisionTable, row: &Row, base: Choice) -> (Advice, String) {
    if let Some((change, column, cmp)) = cost(table, row, base) {
        let what = &column.what;
        let change = fmt_delta_pct(change);
        return match cmp.decision {
            d if d.same_direction() => (
                Advice::Candidate,
                format!("; exact and {change} {what} against {base}"),
            ),
            Decision::Opposite => (
                Advice::Undecided,
                format!("; {change} {what} against {base}: costlier"),
            ),
            _ => (
                Advice::Undecided,
                format!("; the same {what} as {base}: either"),
            ),
        };
    }
    let effects = table.values(row, Role::Effect);
    if let Some((column, _)) = effects.first() {
        let texts: Vec<String> = effects.iter().map(|(c, m)| m.text(c.unit)).collect();
        let same = if row.choice.detector == base.detector {
            format!("the same detector as {base}, ")
        } else {
            String::new()
        };
        let text = format!("; {same}{} {}: either", column.what, texts.join("; "));
        return (Advice::Undecided, text);
    }
    let text = format!("; its cost against {base} not measured");
    (Advice::Undecided, text)
}

/// The decision table as HTML: the choice, every column, the recommendation.
pub fn html(table: &DecisionTable) -> String {
    let (headers, rows) = cells(table);
    table_html(&headers, &rows, false)
}

/// The decision table's headers: the choice, every column, the recommendation.
pub fn headers(table: &DecisionTable) -> Vec<String> {
    let mut headers = vec!["choice".to_string()];
    headers.extend(table.columns.iter().map(|c| c.heading.clone()));
    headers.push("recommendation".into());
    headers
}

/// The decision table's headers and cells as the page shows them, narrow by construction:
/// every cell HTML that wraps between words (no cell is long text, which the page would give
/// a minimum width), each value's figure in sight and its long note and the names it counts
/// folded, the recommendation's sentence folded under its verdict.
pub fn cells(table: &DecisionTable) -> (Vec<String>, Vec<Vec<Cell>>) {
    let rows: Vec<Vec<Cell>> = table
        .rows
        .iter()
        .map(|r| {
            // A choice may break after its colon, equals sign and hyphens.
            let choice = escape_html(&r.choice.to_string())
                .replace(':', ":<wbr>")
                .replace('=', "=<wbr>")
                .replace('-', "-<wbr>");
            let choice = format!("<span id=\"{}\">{choice}</span>", anchor(r.choice));
            let mut cells = vec![Cell::html(choice)];
            cells.extend(
                table
                    .columns
                    .iter()
                    .zip(&r.cells)
                    .map(|(c, v)| cell_html(c, v, r.baseline)),
            );
            let assessment = assess(table, r);
            let verdict = assessment.advice.verdict();
            cells.push(Cell::html(folded(verdict, &assessment.reason)));
            cells
        })
        .collect();
    (headers(table), rows)
}

/// The decision table as plain text, for `decision.csv`: every value with all it says, the
/// recommendation's whole sentence.
pub fn text_cells(table: &DecisionTable) -> (Vec<String>, Vec<Vec<Cell>>) {
    let rows: Vec<Vec<Cell>> = table
        .rows
        .iter()
        .map(|r| {
            let mut cells = vec![Cell::text(r.choice.to_string())];
            cells.extend(
                table
                    .columns
                    .iter()
                    .zip(&r.cells)
                    .map(|(c, v)| Cell::text(cell_text(c, v, r.baseline))),
            );
            cells.push(Cell::text(recommendation(table, r)));
            cells
        })
        .collect();
    (headers(table), rows)
}

/// What a cell says where it has no value: "—", "baseline" or "not measured".
fn missing_text(column: &Column, values: &Values, baseline: bool) -> &'static str {
    match values {
        Values::NotApplicable => NOT_APPLICABLE,
        _ if baseline && column.role == Role::Strength => "baseline",
        _ => NOT_MEASURED,
    }
}

/// One cell as plain text: its values with all they say, joined by `; `, then the names they
/// count.
fn cell_text(column: &Column, values: &Values, baseline: bool) -> String {
    let measured = values.measured();
    if measured.is_empty() {
        return missing_text(column, values, baseline).into();
    }
    let texts: Vec<String> = measured.iter().map(|m| m.text(column.unit)).collect();
    let items: Vec<&str> = measured
        .iter()
        .flat_map(|m| m.items.iter().map(String::as_str))
        .collect();
    [texts.join("; "), items.join(", ")]
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A note this long or shorter stays in sight beside its value (`twofold`, `repetition, depth
/// 5`); a longer one (games, control and verdict) is folded under the value.
pub const SHORT_NOTE_CHARS: usize = 24;

/// One cell: each value's figure (with its short note and `exact`) in sight, its long note and
/// the names it counts folded into a `<details>`; several values one under the other.
pub fn cell_html(column: &Column, values: &Values, baseline: bool) -> Cell {
    let measured = values.measured();
    if measured.is_empty() {
        return Cell::text(missing_text(column, values, baseline));
    }
    // Values at several budgets say each one's in sight.
    let budgets = budgets_of(measured.iter());
    let show_at = budgets.len() > 1;
    let shown: Vec<String> = measured
        .iter()
        .map(|m| value_html(column, m, show_at))
        .collect();
    match shown.as_slice() {
        [one] => Cell::html(one.clone()),
        _ => Cell::html(
            shown
                .iter()
                .map(|v| format!("<div>{v}</div>"))
                .collect::<String>(),
        ),
    }
}

/// One value as a cell shows it: `+3.0 [−5.0, +11.0]` folding `400 games at 1000 nodes`,
/// `fails 2 of 3 (twofold)` folding the scenarios' names, `−20.0% (repetition, depth 5,
/// exact)` alone; with `show_at`, the budget it holds at before it (`40,000 nodes a move:
/// −16.2 [−17.5, −14.9]`).
fn value_html(column: &Column, m: &Measured, show_at: bool) -> String {
    let (short, long) = match m.note.as_deref() {
        Some(n) if n.chars().count() > SHORT_NOTE_CHARS => (None, Some(n)),
        note => (note, None),
    };
    let qualifiers: Vec<&str> = short
        .into_iter()
        .chain(m.exact.then_some("exact"))
        .collect();
    let mut figure = m.figure(column.unit);
    if let Some(at) = m.at.as_ref().filter(|_| show_at) {
        // `1,000,000 nodes a move: −16.2 [−17.5, −14.9], slope extrapolated`: the budget's
        // mark after the figure, so no word of the cell is longer than the mark's.
        figure = match at.split_once(" (") {
            Some((budget, mark)) => {
                format!("{budget}: {figure}, {}", mark.trim_end_matches(')'))
            }
            None => format!("{at}: {figure}"),
        };
    }
    if !qualifiers.is_empty() {
        figure += &format!(" ({})", qualifiers.join(", "));
    }
    let items = m.items.join(", ");
    let hidden: Vec<&str> = long
        .into_iter()
        .chain((!items.is_empty()).then_some(items.as_str()))
        .collect();
    if hidden.is_empty() {
        return escape_html(&figure);
    }
    folded(&figure, &hidden.join(": "))
}

/// `summary` in sight, `detail` folded under it (both escaped).
fn folded(summary: &str, detail: &str) -> String {
    format!(
        "<details><summary>{}</summary>{}</details>",
        escape_html(summary),
        escape_html(detail)
    )
}

#[cfg(test)]
mod tests;
