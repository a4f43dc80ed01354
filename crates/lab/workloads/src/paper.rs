//! The Axon paper's Tables 2 and 3 as typed in `datasets/paper/axon-tables.json`: read by the
//! reproduction (beside its own tables) and by the study (the claims it tests).

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::datasets;

/// The paper's tables, from the embedded dataset.
pub fn load() -> Result<Paper> {
    serde_json::from_str(datasets::AXON_TABLES.text).context(datasets::AXON_TABLES.path)
}

/// One row of the paper's Tables 2 and 3.
#[derive(Clone, Debug, Deserialize)]
pub struct PaperRow {
    /// Depth in plies.
    pub depth: u32,
    /// Key move, UCI.
    pub best_move: String,
    /// Key move, SAN.
    pub best_move_san: String,
    /// Evaluation in centipawns, White's view.
    pub eval_cp: i32,
    /// Node count as printed.
    pub nodes: u64,
}

/// The totals printed under the tables.
#[derive(Clone, Debug, Deserialize)]
pub struct PaperTotals {
    /// Terminal nodes and generated positions with detection off.
    pub off: PaperCounts,
    /// The same with detection on, plus repetitions.
    pub on: PaperCounts,
    /// Time change on vs off, percent (−10).
    pub time_change_percent: f64,
}

/// Printed totals of one modality.
#[derive(Clone, Debug, Deserialize)]
pub struct PaperCounts {
    /// Terminal nodes evaluated.
    pub terminal_nodes: u64,
    /// Positions generated.
    pub generated: u64,
    /// Repetitions noted (detection on only).
    #[serde(default)]
    pub repetitions: Option<u64>,
}

/// The paper's data, typed.
#[derive(Clone, Debug, Deserialize)]
pub struct Paper {
    /// Table 2 (detection off).
    pub off: Vec<PaperRow>,
    /// Table 3 (detection on).
    pub on: Vec<PaperRow>,
    /// Totals.
    pub totals: PaperTotals,
}

impl Paper {
    /// What the paper's printed totals cover: WAC.018 over depths 1 to its deepest table row.
    pub fn totals_scope(&self) -> crate::compare::Scope {
        let last = self.off.iter().map(|r| r.depth).max().unwrap_or(0);
        crate::compare::Scope::depths("WAC.018", 1, last)
    }

    /// The paper's change of generated positions (its tables' node counts) over depths 1 to
    /// `max_depth`, summed from the per-depth tables. Beyond the tables' last depth the
    /// reference keeps the tables' scope, so a deeper run is not comparable with it.
    pub fn generated_reference(&self, max_depth: u32) -> crate::compare::Reference {
        let sum = |rows: &[PaperRow], last: u32| -> u64 {
            rows.iter()
                .filter(|r| r.depth <= last)
                .map(|r| r.nodes)
                .sum()
        };
        let table_last = self.off.iter().map(|r| r.depth).max().unwrap_or(0);
        let last = max_depth.min(table_last);
        let (off, on) = (sum(&self.off, last), sum(&self.on, last));
        let change = if off > 0 {
            on as f64 / off as f64 - 1.0
        } else {
            0.0
        };
        crate::compare::Reference::change(
            "paper",
            change,
            crate::compare::Scope::depths("WAC.018", 1, last),
        )
    }

    /// Relative change on vs off of terminal nodes, generated positions and time.
    pub fn changes(&self) -> (f64, f64, f64) {
        let t = &self.totals;
        (
            t.on.terminal_nodes as f64 / t.off.terminal_nodes as f64 - 1.0,
            t.on.generated as f64 / t.off.generated as f64 - 1.0,
            t.time_change_percent / 100.0,
        )
    }
}
