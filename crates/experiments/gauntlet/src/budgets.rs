//! What a detector costs per node across search budgets: instructions per node by callgrind at
//! 10k, 40k, 160k and 1M nodes a search, on positions of the real games with their history
//! (`datasets/budget-costs.json`, `tools/record_budget_costs.py`), as ratios to `linear` and to
//! `off`, and the pairs of detectors whose order by cost changes between budgets. The counts are
//! exact; a player that searches another tree (`off`, or a detector that changes the play) has
//! its tree's shape in its ratio too, which the page says.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::BASELINE;

/// The recording, built into the binary.
pub const RECORDED: &str = include_str!("../../../../datasets/budget-costs.json");

/// The recording's file, as users see it.
pub const RECORDED_FILE: &str = "datasets/budget-costs.json";

/// The player without repetition detection, the other reference of the ratios.
pub const OFF: &str = "off";

/// The recording, as the page reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    /// The engine digest counted.
    pub engine: String,
    /// valgrind, the machine and the date.
    pub recorded: String,
    /// The positions searched.
    pub positions: Vec<String>,
    /// The command that recorded it.
    pub command: String,
    /// Nodes per search, in order.
    pub budgets: Vec<u64>,
    /// Instructions per node by player, then by budget (as text).
    pub instructions_per_node: BTreeMap<String, BTreeMap<String, f64>>,
    /// Nodes searched by player, then by budget: equal to `linear`'s where the player searches
    /// the same tree.
    pub nodes_searched: BTreeMap<String, BTreeMap<String, u64>>,
}

impl Recorded {
    /// The recording built into the binary when it is of this build's engine, else why not.
    pub fn built_in() -> Result<Recorded, String> {
        let r: Recorded =
            serde_json::from_str(RECORDED).map_err(|e| format!("{RECORDED_FILE}: {e}"))?;
        if r.engine != replab_search::ENGINE_DIGEST {
            return Err(format!(
                "{RECORDED_FILE} was counted with engine {}, not this build's {}: count it \
                 again ({})",
                r.engine,
                replab_search::ENGINE_DIGEST,
                r.command
            ));
        }
        Ok(r)
    }

    /// `spec`'s instructions per node at `budget`.
    pub(crate) fn cost(&self, spec: &str, budget: u64) -> Option<f64> {
        self.instructions_per_node
            .get(spec)?
            .get(&budget.to_string())
            .copied()
    }

    /// `spec`'s cost over `reference`'s at `budget`.
    pub fn ratio(&self, spec: &str, reference: &str, budget: u64) -> Option<f64> {
        Some(self.cost(spec, budget)? / self.cost(reference, budget)?)
    }

    /// Whether `spec` searched `linear`'s tree at every budget (its ratio is then pure cost).
    pub fn same_tree(&self, spec: &str) -> bool {
        let nodes = |s: &str| self.nodes_searched.get(s);
        nodes(spec).is_some() && nodes(spec) == nodes(BASELINE)
    }

    /// The detectors (not `off`, not the baseline), in name order.
    pub fn detectors(&self) -> Vec<&str> {
        self.instructions_per_node
            .keys()
            .map(String::as_str)
            .filter(|s| *s != OFF && *s != BASELINE)
            .collect()
    }
}

/// Every pair of players that search `linear`'s tree (`linear` included: their ratios are
/// cost alone) where one costs less than the other at the first budget and more at a later
/// one: `filo costs less than linear at 10000 nodes, more at 160000`.
pub fn ranking_changes(r: &Recorded) -> Vec<String> {
    let mut players: Vec<&str> = r
        .detectors()
        .into_iter()
        .filter(|s| r.same_tree(s))
        .collect();
    players.push(BASELINE);
    players.sort_unstable();
    let mut out = Vec::new();
    for (i, a) in players.iter().enumerate() {
        for b in &players[i + 1..] {
            let signs: Vec<(u64, f64)> = r
                .budgets
                .iter()
                .filter_map(|&n| Some((n, r.ratio(a, b, n)? - 1.0)))
                .collect();
            let Some(&(first, d0)) = signs.first() else {
                continue;
            };
            if let Some(&(later, _)) = signs.iter().find(|(_, d)| d * d0 < 0.0) {
                let (cheap, dear) = if d0 < 0.0 { (a, b) } else { (b, a) };
                out.push(format!(
                    "{cheap} costs less than {dear} at {first} nodes, more at {later}"
                ));
            }
        }
    }
    out
}

/// The Elo page's table: each detector's instructions per node over `linear`'s and over
/// `off`'s at every budget, then the pairs whose order changes.
pub fn html(r: &Recorded) -> String {
    let mut headers = vec!["player".to_string()];
    for b in &r.budgets {
        headers.push(format!("÷ {BASELINE}, {b} nodes"));
    }
    for b in &r.budgets {
        headers.push(format!("÷ {OFF}, {b} nodes"));
    }
    let ratio = |spec: &str, reference: &str, b: u64| {
        r.ratio(spec, reference, b)
            .map_or_else(|| "—".to_string(), |x| format!("{x:.4}"))
    };
    let mut players = r.detectors();
    players.insert(0, BASELINE);
    players.insert(0, OFF);
    let rows: Vec<Vec<replab_report::Cell>> = players
        .iter()
        .map(|spec| {
            let mut name = spec.to_string();
            if !r.same_tree(spec) && *spec != BASELINE {
                name += " (another tree)";
            }
            let mut row = vec![replab_report::Cell::text(name)];
            for reference in [BASELINE, OFF] {
                row.extend(
                    r.budgets
                        .iter()
                        .map(|&b| replab_report::Cell::text(ratio(spec, reference, b))),
                );
            }
            row
        })
        .collect();
    let changes = ranking_changes(r);
    format!(
        "<p>Instructions per node by callgrind (exact) at each budget, on {} positions of the \
         real games with their history ({}), over <code>{BASELINE}</code>'s and over \
         <code>{OFF}</code>'s ({}; engine {}). A player marked \"another tree\" searched other \
         nodes than <code>{BASELINE}</code> (it plays differently), so its ratio holds its \
         tree's shape as well as its cost; the others searched the same nodes, and theirs is \
         cost alone. Time per node (cache misses) is not in these counts: see the clock's \
         ratio beside the Elo at equal time.</p>{}<p>Order by cost changing with the budget, \
         among the players of <code>{BASELINE}</code>'s tree: {}.</p>",
        r.positions.len(),
        replab_report::escape_html(&r.positions.join("; ")),
        replab_report::escape_html(&r.recorded),
        r.engine,
        replab_report::table_html(&headers, &rows, false),
        if changes.is_empty() {
            "none".to_string()
        } else {
            replab_report::escape_html(&changes.join("; "))
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made_up(filo: [f64; 2]) -> Recorded {
        let costs = |v: [f64; 2]| {
            BTreeMap::from([("10000".to_string(), v[0]), ("160000".to_string(), v[1])])
        };
        let nodes = BTreeMap::from([("10000".to_string(), 1), ("160000".to_string(), 2)]);
        Recorded {
            engine: "e".into(),
            recorded: "r".into(),
            positions: vec!["p".into()],
            command: "c".into(),
            budgets: vec![10_000, 160_000],
            instructions_per_node: BTreeMap::from([
                ("off".to_string(), costs([90.0, 80.0])),
                ("linear".to_string(), costs([100.0, 100.0])),
                ("filo".to_string(), costs(filo)),
            ]),
            nodes_searched: BTreeMap::from([
                ("linear".to_string(), nodes.clone()),
                ("filo".to_string(), nodes),
            ]),
        }
    }

    #[test]
    fn an_order_that_flips_between_budgets_is_named_and_one_that_holds_is_not() {
        let flips = made_up([99.0, 101.0]);
        assert_eq!(
            ranking_changes(&flips),
            ["filo costs less than linear at 10000 nodes, more at 160000"]
        );
        assert!(ranking_changes(&made_up([99.0, 99.5])).is_empty());
        let page = html(&flips);
        assert!(page.contains("filo costs less than linear"), "{page}");
        assert!(page.contains("off (another tree)"), "{page}");
        assert!(!page.contains("filo (another tree)"), "{page}");
        assert!(page.contains("1.0100"), "{page}");
    }
}
