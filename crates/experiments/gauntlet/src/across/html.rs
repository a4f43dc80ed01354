//! The Elo page's section on Elo at equal time across budgets: the slopes by budget with their
//! fitted fall, then each identical-play detector's figure at every budget (instructions and
//! clock), every fitted slope marked.

use replab_report::{Cell, escape_html, fmt_int, table_html};

use super::{AcrossBudgets, BudgetElo, SlopeOrigin, budget_text, slope_at};
use replab_harness::compare::Unit;

/// The section: the clock's cost by budget, slopes, fall, the detectors' table and the notes.
pub fn html(a: &AcrossBudgets) -> String {
    [
        times_html(a),
        slopes_html(a),
        rows_html(a),
        notes_html(&a.notes),
    ]
    .concat()
}

/// Every player's time per node over `linear`'s at each budget, and `linear`'s own
/// nanoseconds per node on the recording machine.
fn times_html(a: &AcrossBudgets) -> String {
    let Some(t) = &a.times else {
        return String::new();
    };
    let (headers, rows) = super::markdown::times_table(t);
    let rows: Vec<Vec<Cell>> = rows
        .into_iter()
        .map(|r| r.into_iter().map(Cell::text).collect())
        .collect();
    format!(
        "<p>Time per node by the clock at each budget, each player's over <code>linear</code>'s (geometric mean of {} alternating pairs of runs, a Student-t 95% interval over their log ratios), on the same real-game positions as the instruction counts above; the last row is <code>linear</code>'s own nanoseconds per node (the median of its runs, an order-statistic interval) on {}: an engine-independent figure to carry (section below). Recorded with <code>{}</code>.</p>{}",
        t.budgets
            .first()
            .and_then(|b| b.ratios.values().next())
            .map_or(0, |r| r.pairs),
        escape_html(&t.recorded),
        escape_html(&t.command),
        table_html(&headers, &rows, false)
    )
}

/// The recorded slopes, the fitted fall and the slope at each budget of the table.
fn slopes_html(a: &AcrossBudgets) -> String {
    if a.slopes.is_empty() {
        return "<p>No slope is recorded for this build's engine: no Elo at equal time across \
                budgets.</p>"
            .into();
    }
    let headers = [
        "B's nodes a move (A: twice)",
        "Elo per doubling [95%]",
        "games",
        "dataset",
    ]
    .map(String::from);
    let rows: Vec<Vec<Cell>> = a
        .slopes
        .iter()
        .map(|s| {
            vec![
                Cell::text(fmt_int(s.nodes)),
                Cell::text(s.slope.elo_per_doubling.text(|x| format!("{x:+.1}"))),
                Cell::text(fmt_int(s.slope.games)),
                Cell::text(&s.file),
            ]
        })
        .collect();
    format!(
        "<p>Elo per doubling of nodes by node-odds matches of <code>linear</code> against \
         itself (A twice B's nodes, the balanced book), one recording per budget \
         (<code>tools/record_slope.py</code> at each budget).</p>{}<p>{}</p>",
        table_html(&headers, &rows, false),
        fall_text(a)
    )
}

/// The fitted fall in words, with the slope it gives at each budget of the detectors'
/// table.
fn fall_text(a: &AcrossBudgets) -> String {
    let Some(fall) = &a.fall else {
        return "One budget only: no fall is fitted, and no budget without a recording gets a \
                slope."
            .into();
    };
    let budgets: Vec<u64> = a
        .rows
        .first()
        .map(|r| r.budgets.iter().map(|b| b.nodes).collect())
        .unwrap_or_default();
    let at: Vec<String> = budgets
        .iter()
        .filter_map(|&n| {
            let (s, origin) = slope_at(&a.slopes, Some(fall), n)?;
            Some(format!(
                "{} at {}",
                s.text(|x| format!("{x:+.1}")),
                escape_html(&budget_text(n, origin))
            ))
        })
        .collect();
    let df = fall.points.saturating_sub(2);
    format!(
        "Fitted fall (weighted least squares of the slopes against log2 of the budget, each \
         slope weighted by its inverse variance; a normal 95% interval from their errors): \
         {} Elo per doubling for each doubling of the budget, over {} budgets (residual \
         chi-square {:.2} on {df} degrees of freedom{}). The slope used at each budget below: \
         {}. A slope beyond the recorded budgets is the line's extrapolation, and every figure \
         that uses one says so.",
        fall.per_doubling.text(|x| format!("{x:+.1}")),
        fall.points,
        fall.chi_square,
        if df == 0 {
            ": two points fit any line exactly"
        } else {
            ""
        },
        if at.is_empty() {
            "none".to_string()
        } else {
            at.join("; ")
        }
    )
}

/// One row per identical-play detector, one column per budget.
fn rows_html(a: &AcrossBudgets) -> String {
    let Some(first) = a.rows.first() else {
        return "<p>No identical-play detector has an Elo at equal time across budgets (it \
                needs a full run's identical-play rows, a cost recording of this engine and a \
                slope).</p>"
            .into();
    };
    let mut headers = vec!["detector (against linear)".to_string()];
    headers.extend(first.budgets.iter().map(|b| escape_html(&b.budget())));
    let rows: Vec<Vec<Cell>> = a
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![Cell::text(&r.a)];
            row.extend(r.budgets.iter().map(budget_cell));
            row
        })
        .collect();
    format!(
        "<p>Each detector that plays identically to <code>linear</code> at fixed nodes (the \
         run's games) and searched its tree on the real-game positions of the cost recording: \
         its Elo at equal time at each budget, the slope there × log2 of <code>linear</code>'s \
         instructions per node over its own (exact), the interval the slope's scaled by that \
         factor; under it, the same from the clock's time ratio at that budget (its error \
         added), where one is recorded. The run's own figure at its budget (above) counts on \
         the Bratko–Kopec positions without history, these on positions with their games' \
         history: where the two differ, history length is what a key scan pays for.</p>{}<p>{}</p>",
        table_html(&headers, &rows, false),
        measures_part(a)
    )
}

/// How often the two cost measures part: the detector-budget figures whose instruction ratio
/// lies outside the clock's 95% interval, and in which direction.
fn measures_part(a: &AcrossBudgets) -> String {
    let timed: Vec<&BudgetElo> = a
        .rows
        .iter()
        .flat_map(|r| &r.budgets)
        .filter(|b| b.time_per_node.is_some())
        .collect();
    let ratio = |b: &BudgetElo| b.instructions_per_node[0] / b.instructions_per_node[1];
    let interval = |b: &BudgetElo| b.time_per_node.as_ref().map(|t| t.ratio.interval);
    let above = timed
        .iter()
        .filter(|b| interval(b).is_some_and(|i| i.lo > ratio(b)))
        .count();
    let below = timed
        .iter()
        .filter(|b| interval(b).is_some_and(|i| i.hi < ratio(b)))
        .count();
    format!(
        "Of the {} detector-and-budget figures with a time ratio, the clock's 95% interval lies \
         above the instruction ratio in {above} (the clock sees a cost the count does not) and \
         below it in {below}. The landing page decides on both: the clock's figure, its \
         interval widened to hold the count's, so a detector is weaker or stronger at a budget \
         only where both cost measures say so.",
        timed.len()
    )
}

/// One detector at one budget: the model's Elo, then the clock's.
fn budget_cell(b: &BudgetElo) -> Cell {
    let elo = |e: String| format!("{e} Elo");
    let mut lines = vec![elo(b.elo.text(|x| Unit::Elo.bare(x)))];
    if b.origin != SlopeOrigin::Measured {
        lines[0] += &format!(" ({})", b.origin.mark());
    }
    if let (Some(t), Some(e)) = (&b.time_per_node, &b.elo_by_time) {
        lines.push(format!(
            "clock: time ratio {}, {}",
            t.ratio.text(|x| format!("{x:.3}")),
            elo(e.text(|x| Unit::Elo.bare(x)))
        ));
    }
    Cell::html(
        lines
            .iter()
            .map(|l| format!("<div>{}</div>", escape_html(l)))
            .collect::<String>(),
    )
}

/// What was not used, and why.
fn notes_html(notes: &[String]) -> String {
    if notes.is_empty() {
        return String::new();
    }
    let items: String = notes
        .iter()
        .map(|n| format!("<li>{}</li>", escape_html(n)))
        .collect();
    format!("<p>Not used:</p><ul>{items}</ul>")
}
