//! The recordings across budgets as `docs/elo.md` shows them: the slopes, their fall and each
//! detector's Elo at equal time by budget, as Markdown. A test checks the document holds this
//! text for the recordings in the repository, so its figures are the recordings'.

use replab_report::fmt_int;

use super::{AcrossBudgets, BudgetElo, BudgetTimes, slope_at};
use crate::budgets::Recorded as BudgetCosts;
use replab_harness::compare::Unit;

/// The instruction counts' table, the time table, the slopes' table, the fall and the
/// detectors' table.
pub fn markdown(a: &AcrossBudgets, costs: &BudgetCosts) -> String {
    let mut out = instructions_table(costs);
    out += &a.times.as_ref().map_or(String::new(), |t| {
        let (headers, rows) = times_table(t);
        let mut md = format!(
            "| {} |\n|{}\n",
            headers.join(" | "),
            "---|".repeat(headers.len())
        );
        for r in rows {
            md += &format!("| {} |\n", r.join(" | "));
        }
        md + "\n"
    });
    out += &String::from(
        "| B's nodes a move (A: twice) | games | Elo per doubling [95%] |\n|---|---|---|\n",
    );
    for s in &a.slopes {
        out += &format!(
            "| {} | {} | {} |\n",
            fmt_int(s.nodes),
            fmt_int(s.slope.games),
            s.slope.elo_per_doubling.text(|x| format!("{x:+.1}"))
        );
    }
    if let Some(fall) = &a.fall {
        out += &format!(
            "\nFitted fall: {} Elo per doubling for each doubling of the budget ({} budgets, \
             residual chi-square {:.2} on {} degrees of freedom).\n",
            fall.per_doubling.text(|x| format!("{x:+.1}")),
            fall.points,
            fall.chi_square,
            fall.points.saturating_sub(2)
        );
    }
    out + &detectors(a)
}

/// Every player's instructions per node at each budget, and its ratio to the baseline's.
fn instructions_table(costs: &BudgetCosts) -> String {
    let mut out = format!(
        "| instructions per node (÷ {}) | {} |\n|{}\n",
        crate::BASELINE,
        costs
            .budgets
            .iter()
            .map(|b| format!("{} nodes", fmt_int(*b)))
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(costs.budgets.len() + 1)
    );
    let mut players = costs.detectors();
    players.insert(0, crate::BASELINE);
    players.insert(0, crate::budgets::OFF);
    for p in players {
        let cells: Vec<String> = costs
            .budgets
            .iter()
            .map(
                |&b| match (costs.cost(p, b), costs.ratio(p, crate::BASELINE, b)) {
                    (Some(c), Some(r)) => format!("{c:.1} (×{r:.3})"),
                    _ => "—".into(),
                },
            )
            .collect();
        let tree = if costs.same_tree(p) || p == crate::BASELINE {
            ""
        } else {
            " (another tree)"
        };
        out += &format!("| {p}{tree} | {} |\n", cells.join(" | "));
    }
    out + "\n"
}

/// The time per node table: a row per player (its ratio to the baseline's at each budget),
/// then the baseline's nanoseconds per node.
pub(super) fn times_table(t: &BudgetTimes) -> (Vec<String>, Vec<Vec<String>>) {
    let mut headers = vec![format!("time per node ÷ {}'s", t.baseline)];
    headers.extend(
        t.budgets
            .iter()
            .map(|b| format!("{} nodes", fmt_int(b.nodes))),
    );
    let mut players: Vec<&String> = t.budgets.iter().flat_map(|b| b.ratios.keys()).collect();
    players.sort();
    players.dedup();
    let mut rows: Vec<Vec<String>> = players
        .iter()
        .map(|p| {
            let mut row = vec![p.to_string()];
            row.extend(t.budgets.iter().map(|b| {
                b.ratios
                    .get(*p)
                    .map_or("—".into(), |r| r.ratio.text(|x| format!("{x:.3}")))
            }));
            row
        })
        .collect();
    let mut ns = vec![format!("{}, ns per node", t.baseline)];
    ns.extend(t.budgets.iter().map(|b| {
        b.baseline_seconds_per_node
            .map(|x| x * 1e9)
            .text(|x| format!("{x:.1}"))
    }));
    rows.push(ns);
    (headers, rows)
}

/// One row per detector: at each budget the model's Elo, then the clock's.
fn detectors(a: &AcrossBudgets) -> String {
    let Some(first) = a.rows.first() else {
        return String::new();
    };
    let budgets: Vec<String> = first
        .budgets
        .iter()
        .map(|b| {
            let slope = slope_at(&a.slopes, a.fall.as_ref(), b.nodes)
                .map_or(String::new(), |(s, _)| {
                    format!(", slope {}", s.text(|x| format!("{x:+.1}")))
                });
            format!("{}{slope}", b.budget())
        })
        .collect();
    let mut out = format!(
        "\n| detector | {} |\n|---|{}\n",
        budgets.join(" | "),
        "---|".repeat(budgets.len())
    );
    for r in &a.rows {
        let cells: Vec<String> = r.budgets.iter().map(cell).collect();
        out += &format!("| {} | {} |\n", r.a, cells.join(" | "));
    }
    out
}

/// `−16.2 [−17.5, −14.9] (instructions ×1.060); clock −20.1 [−22.0, −18.2] (time ×1.101)`.
fn cell(b: &BudgetElo) -> String {
    let [a, base] = b.instructions_per_node;
    let mut text = format!(
        "{} (instructions ×{:.3})",
        b.elo.text(|x| Unit::Elo.bare(x)),
        a / base
    );
    if let (Some(t), Some(e)) = (&b.time_per_node, &b.elo_by_time) {
        text += &format!(
            "; clock {} (time ×{:.3})",
            e.text(|x| Unit::Elo.bare(x)),
            t.ratio.value
        );
    }
    text
}
