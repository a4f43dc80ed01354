//! The landing page's decision table, built from whatever [`Contribution`]s the experiments of
//! the run give: one row per choice (detection off, every searchable detector, the reference
//! detector under each draw policy other than its default), one column per key the
//! contributions name for the decision table ([`Table::Decision`]), and a recommendation
//! written from the columns' roles ([`Role`]) through the lab's comparison type
//! ([`Comparison`]): a comparison the intervals do not support is not made. Nothing here
//! knows which experiment gave a column. A value no experiment of the run gave shows as
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
    /// Stronger than the baseline (its interval excludes 0), and exact where measured.
    Use,
    /// No measurable strength difference, and cheaper than the baseline.
    Candidate,
    /// Weaker than the baseline.
    Avoid,
    /// Stronger but inexact: the two findings pull apart.
    Mixed,
    /// No measurable strength difference, and nothing else decides.
    Undecided,
    /// Strength not measured.
    NotMeasured,
    /// The baseline the strength was measured against.
    Baseline,
}

impl Advice {
    /// The summary's word for the group, with what it means.
    pub fn heading(self) -> &'static str {
        match self {
            Advice::Use => "use",
            Advice::Candidate => "candidates (no measurable strength difference, and cheaper)",
            Advice::Avoid => "avoid (weaker)",
            Advice::Mixed => "stronger but inexact",
            Advice::Undecided => "undecided",
            Advice::NotMeasured => "strength not measured",
            Advice::Baseline => "the baseline",
        }
    }
}

/// The recommendation the numbers support, in words.
pub fn recommendation(table: &DecisionTable, row: &Row) -> String {
    assess(table, row).1
}

/// What the numbers support for `row`: its group and its recommendation in words.
pub fn assess(table: &DecisionTable, row: &Row) -> (Advice, String) {
    let strength_column = table.columns.iter().find(|c| c.role == Role::Strength);
    let what = strength_column.map_or("strength", |c| c.what.as_str());
    if row.baseline {
        return (
            Advice::Baseline,
            format!("the baseline of the {what} matches"),
        );
    }
    let strength = table.values(row, Role::Strength);
    let Some(base) = strength.iter().find_map(|(_, m)| m.against) else {
        let text = format!("no recommendation: {what} not measured");
        return (Advice::NotMeasured, text);
    };
    let decided: Vec<(&Column, &Measured, Decision)> = strength
        .iter()
        .map(|&(c, m)| (c, m, strength_comparison(c, m).decision))
        .collect();
    let clauses = |keep: &dyn Fn(Decision) -> bool| -> String {
        let parts: Vec<String> = decided
            .iter()
            .filter(|(_, _, d)| keep(*d))
            .map(|(c, m, _)| m.text_with(c.unit, Some(&c.what)))
            .collect();
        parts.join("; ")
    };
    let inexact = inexact(table, row);
    if decided.iter().any(|(_, _, d)| *d == Decision::Opposite) {
        let weaker = clauses(&|d| d == Decision::Opposite);
        return (
            Advice::Avoid,
            format!("not recommended: weaker than {base} by {weaker}"),
        );
    }
    if decided.iter().any(|(_, _, d)| d.same_direction()) {
        let stronger = clauses(&|d| d.same_direction());
        return match inexact {
            Some(errors) => (
                Advice::Mixed,
                format!("stronger than {base} by {stronger} but inexact ({errors})"),
            ),
            None => (
                Advice::Use,
                format!("recommended over {base}: stronger by {stronger}"),
            ),
        };
    }
    let scopes: Vec<&str> = strength
        .iter()
        .filter_map(|(_, m)| m.note.as_deref())
        .collect();
    let (advice, tie) = tie_break(table, row, base, inexact);
    let text = format!(
        "undecided: no measurable {what} difference from {base} at {}{tie}",
        scopes.join(" or ")
    );
    (advice, text)
}

/// The id of a choice's row in the decision table (`choice-linear-policy-twofold`), which the
/// summary's names link to.
pub fn anchor(choice: Choice) -> String {
    format!("choice-{}", choice.to_string().replace([':', '='], "-"))
}

/// The landing page's opening sentences: one per question (which detector, which draw policy),
/// the rows grouped by what the numbers support, each name linked to its row of the decision
/// table, where the evidence and what would decide an undecided row are.
pub fn summary_html(table: &DecisionTable) -> String {
    // Each question and whether its rows are the draw-policy presets.
    let questions = [
        ("Which detector?", false),
        ("Which draw policy (with linear)?", true),
    ];
    questions
        .iter()
        .map(|&(question, presets)| {
            let rows: Vec<(Advice, &Row)> = table
                .rows
                .iter()
                .filter(|r| r.choice.policy.is_some() == presets)
                .map(|r| (assess(table, r).0, r))
                .filter(|(a, _)| *a != Advice::Baseline)
                .collect();
            format!(
                "<p><strong>{question}</strong> {}</p>\n",
                groups_html(&rows)
            )
        })
        .collect()
}

/// The groups of `rows` in the order of [`Advice`], each `heading: name, name.`
fn groups_html(rows: &[(Advice, &Row)]) -> String {
    let mut advices: Vec<Advice> = rows.iter().map(|(a, _)| *a).collect();
    advices.sort();
    advices.dedup();
    if advices.is_empty() {
        return "No row was measured.".into();
    }
    let group = |advice: Advice| {
        let names: Vec<String> = rows
            .iter()
            .filter(|(a, _)| *a == advice)
            .map(|(_, r)| {
                let name = escape_html(&r.choice.to_string());
                format!("<a href=\"#{}\">{name}</a>", anchor(r.choice))
            })
            .collect();
        let heading = advice.heading();
        let heading = heading[..1].to_uppercase() + &heading[1..];
        format!("{heading}: {}.", names.join(", "))
    };
    let parts: Vec<String> = advices.into_iter().map(group).collect();
    parts.join(" ")
}

/// The row's correctness values when any is nonzero: `3 false draws, 0 missed repetitions`.
fn inexact(table: &DecisionTable, row: &Row) -> Option<String> {
    let values = table.values(row, Role::Correctness);
    values
        .iter()
        .any(|(_, m)| m.estimate.value != 0.0)
        .then(|| {
            let parts: Vec<String> = values
                .iter()
                .map(|(c, m)| format!("{} {}", c.unit.text(m.estimate.value), c.what))
                .collect();
            parts.join(", ")
        })
}

/// Where strength does not differ: correctness, then the first cost both have, then the
/// effects, decide.
fn tie_break(
    table: &DecisionTable,
    row: &Row,
    base: Choice,
    inexact: Option<String>,
) -> (Advice, String) {
    if let Some(errors) = inexact {
        return (Advice::Undecided, format!("; inexact ({errors})"));
    }
    if let Some((change, column, cmp)) = cost(table, row, base) {
        let what = &column.what;
        let change = fmt_delta_pct(change);
        // "Exact" only where correctness columns measured the row, every one of them.
        let checks: Vec<&Values> = table
            .columns
            .iter()
            .zip(&row.cells)
            .filter(|(c, _)| c.role == Role::Correctness)
            .map(|(_, v)| v)
            .collect();
        let checked = !checks.is_empty() && checks.iter().all(|v| !v.measured().is_empty());
        let exact = if checked { "exact and " } else { "" };
        return match cmp.decision {
            d if d.same_direction() => (
                Advice::Candidate,
                format!("; {exact}{change} {what} against {base}: a candidate"),
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

/// The decision table's headers and cells: the choice, every column, the recommendation.
pub fn cells(table: &DecisionTable) -> (Vec<String>, Vec<Vec<Cell>>) {
    let mut headers = vec!["choice".to_string()];
    headers.extend(table.columns.iter().map(|c| c.heading.clone()));
    headers.push("recommendation".into());
    let rows: Vec<Vec<Cell>> = table
        .rows
        .iter()
        .map(|r| {
            // A policy row's choice may break after its colon.
            let choice = escape_html(&r.choice.to_string()).replace(':', ":<wbr>");
            let choice = format!("<span id=\"{}\">{choice}</span>", anchor(r.choice));
            let mut cells = vec![Cell::html(choice)];
            cells.extend(
                table
                    .columns
                    .iter()
                    .zip(&r.cells)
                    .map(|(c, v)| cell_html(c, v, r.baseline)),
            );
            cells.push(Cell::text(recommendation(table, r)));
            cells
        })
        .collect();
    (headers, rows)
}

/// One cell: its values joined by `; `, the names they count folded into a `<details>`.
pub fn cell_html(column: &Column, values: &Values, baseline: bool) -> Cell {
    let measured = match values {
        Values::NotApplicable => return Cell::text(NOT_APPLICABLE),
        Values::Measured(m) => m,
    };
    if measured.is_empty() {
        let text = if baseline && column.role == Role::Strength {
            "baseline"
        } else {
            NOT_MEASURED
        };
        return Cell::text(text);
    }
    let texts: Vec<String> = measured.iter().map(|m| m.text(column.unit)).collect();
    let items: Vec<&str> = measured
        .iter()
        .flat_map(|m| m.items.iter().map(String::as_str))
        .collect();
    if items.is_empty() {
        return Cell::text(texts.join("; "));
    }
    Cell::html(format!(
        "<details><summary>{}</summary>{}</details>",
        escape_html(&texts.join("; ")),
        escape_html(&items.join(", "))
    ))
}

#[cfg(test)]
mod tests;
