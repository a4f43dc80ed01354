//! Equal-cost matches (`replab match --nodes N --scale-by-cost`): each player's node budget
//! scaled by what its nodes cost, so that both spend the same instructions per move. Player B
//! is the baseline and searches `N` nodes; player A searches `N × cost(B) ÷ cost(A)`, the
//! cost being the instructions per node its searcher executes on one fixed workload, counted
//! by callgrind (exact and the same on every run of a build; the caller measures it, this
//! module only applies it). OpenBench scales a test's clock by each worker's measured speed;
//! this scales by each technique's exact cost.

use serde::{Deserialize, Serialize};

/// How the two budgets of an equal-cost match were set, recorded with its results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostScaling {
    /// The match's `--nodes`: player B's budget.
    pub baseline_nodes: u64,
    /// The workload whose instructions per node are the cost (`player:<spec>` of
    /// `replab_workloads::callgrind`, described).
    pub workload: String,
    /// Where the counts come from: callgrind with its version, or the recorded table.
    pub source: String,
    /// Player A's instructions per node.
    pub a_instructions_per_node: f64,
    /// Player B's instructions per node.
    pub b_instructions_per_node: f64,
    /// Player A's nodes per move: `baseline_nodes × b ÷ a`, rounded, at least 1.
    pub a_nodes: u64,
    /// Player B's nodes per move: `baseline_nodes`.
    pub b_nodes: u64,
}

impl CostScaling {
    /// The budgets for costs `a` and `b` (instructions per node, both positive).
    pub fn new(baseline_nodes: u64, a: f64, b: f64, workload: String, source: String) -> Self {
        let scaled = (baseline_nodes as f64 * b / a).round().max(1.0) as u64;
        CostScaling {
            baseline_nodes,
            workload,
            source,
            a_instructions_per_node: a,
            b_instructions_per_node: b,
            a_nodes: scaled,
            b_nodes: baseline_nodes,
        }
    }

    /// Player A's budget relative to B's (`a_nodes ÷ b_nodes`).
    pub fn ratio(&self) -> f64 {
        self.a_nodes as f64 / self.b_nodes as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dearer_player_gets_fewer_nodes_in_proportion() {
        let s = CostScaling::new(1000, 1500.0, 1200.0, "w".into(), "s".into());
        assert_eq!((s.a_nodes, s.b_nodes), (800, 1000));
        let s = CostScaling::new(1000, 1200.0, 1500.0, "w".into(), "s".into());
        assert_eq!((s.a_nodes, s.b_nodes), (1250, 1000));
        let s = CostScaling::new(1, 1e9, 1.0, "w".into(), "s".into());
        assert_eq!(s.a_nodes, 1);
    }
}
