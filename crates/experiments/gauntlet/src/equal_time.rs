//! Elo at equal time for the rows whose players play identically at fixed nodes. What separates
//! such a player from the baseline is only what a node costs, so its Elo when both get the same
//! time is the engine's Elo per doubling of nodes (the slope, recorded by
//! `tools/record_slope.py` in `datasets/elo-slope.json`) times log2 of the nodes the same cost
//! buys (the baseline's instructions per node over the player's, from the row's equal-cost
//! match). This is the field's rule for a pure speedup (Stockfish: an x% speedup is worth
//! about x Elo at its short control), with the cost side exact; the interval is the slope's,
//! scaled by the exact log ratio, so its coverage is the slope's.

use std::{collections::BTreeMap, path::Path};

use anyhow::{Context, Result};
use replab_harness::interval::Interval;
use serde::{Deserialize, Serialize};

use crate::{Measure, RowResult};

/// The slope dataset's file under the datasets folder.
pub const SLOPE_FILE: &str = "elo-slope.json";

/// The book whose slope the gauntlet's fixed-node and equal-cost rows use.
pub const SLOPE_BOOK: &str = "balanced";

/// One book's recorded slope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slope {
    /// Elo per doubling of nodes.
    pub elo_per_doubling: f64,
    /// Its 95% interval (and the game pairs behind it).
    pub interval: Interval,
    /// Games behind it.
    pub games: u64,
    /// The node ratios of its matches (A's nodes over B's).
    pub ratios: Vec<f64>,
}

/// The recorded dataset, as far as the gauntlet reads it.
#[derive(Deserialize)]
struct Recorded {
    engine: String,
    nodes: u64,
    slopes: BTreeMap<String, Option<Slope>>,
}

/// The slope used, and where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlopeSource {
    /// The balanced book's slope.
    pub slope: Slope,
    /// The dataset it was read from.
    pub file: String,
    /// The engine digest it was recorded with (this build's: others are not used).
    pub engine: String,
    /// B's nodes per move in its matches (the gauntlet's: others are not used).
    pub nodes: u64,
}

/// Every identical-play row's Elo at equal time, or why there is none.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EqualTimes {
    /// The slope, when one applies to this engine and budget.
    pub slope: Option<SlopeSource>,
    /// Why no row has an Elo at equal time (no dataset, another engine or budget).
    pub none_because: Option<String>,
    /// One per identical-play row with a counted cost, in the rows' order.
    pub rows: Vec<EqualTime>,
}

/// One row's Elo at equal time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EqualTime {
    /// What is compared, in words (the row's label).
    pub label: String,
    /// Player A.
    pub a: String,
    /// Player B, the baseline.
    pub b: String,
    /// A's and B's instructions per node.
    pub instructions_per_node: [f64; 2],
    /// Where the counts come from (callgrind, or the recorded table).
    pub cost_source: String,
    /// log2 of B's cost over A's: the doublings of nodes A gets for B's time.
    pub doublings: f64,
    /// The Elo at equal time, and its interval (the slope's, scaled).
    pub elo: f64,
    /// Its interval.
    pub interval: Interval,
}

/// The balanced book's slope in `datasets`, if one is recorded for this build's engine
/// (`engine`, [`replab_search::ENGINE_DIGEST`]) at `nodes` per move; otherwise why not.
pub fn read_slope(
    datasets: &Path,
    engine: &str,
    nodes: u64,
) -> Result<std::result::Result<SlopeSource, String>> {
    let path = datasets.join(SLOPE_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Err(format!(
                "no slope is recorded ({} does not exist: tools/record_slope.py records it)",
                path.display()
            )));
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let recorded: Recorded = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a slope dataset", path.display()))?;
    let Some(Some(slope)) = recorded.slopes.get(SLOPE_BOOK).cloned() else {
        return Ok(Err(format!("{} has no {SLOPE_BOOK} slope", path.display())));
    };
    if recorded.engine != engine {
        return Ok(Err(format!(
            "the slope in {} was recorded with engine {}, not this build's {engine}: record it \
             again with tools/record_slope.py",
            path.display(),
            recorded.engine
        )));
    }
    if recorded.nodes != nodes {
        return Ok(Err(format!(
            "the slope in {} was recorded at {} nodes per move, the gauntlet plays {nodes}",
            path.display(),
            recorded.nodes
        )));
    }
    Ok(Ok(SlopeSource {
        slope,
        file: path.display().to_string(),
        engine: recorded.engine,
        nodes: recorded.nodes,
    }))
}

/// The Elo at equal time of a player costing `a` instructions per node against a baseline
/// costing `b`: (log2(b ÷ a), slope × log2(b ÷ a), the slope's interval scaled by the same
/// factor).
pub fn elo_at_equal_time(slope: &Slope, a: f64, b: f64) -> (f64, f64, Interval) {
    let doublings = (b / a).log2();
    let interval = slope.interval.map(|x| x * doublings);
    (doublings, slope.elo_per_doubling * doublings, interval)
}

/// Every row that played identically at fixed nodes on the balanced book and has a counted cost
/// (its equal-cost match), with its Elo at equal time under `slope`.
pub fn equal_times(
    slope: std::result::Result<SlopeSource, String>,
    rows: &[RowResult],
) -> EqualTimes {
    let slope = match slope {
        Ok(slope) => slope,
        Err(why) => {
            return EqualTimes {
                none_because: Some(why),
                ..EqualTimes::default()
            };
        }
    };
    let costed = |r: &RowResult| {
        rows.iter()
            // The same row (its players carry their scaled budgets at equal cost).
            .find(|c| c.measure == Measure::EqualCost && c.label == r.label && c.group == r.group)
            .and_then(|c| c.cost_scaling.clone())
    };
    let out: Vec<EqualTime> = rows
        .iter()
        .filter(|r| r.measure == Measure::Balanced && r.deterministic && r.games_identical)
        .filter_map(|r| {
            let cost = costed(r)?;
            let (a, b) = (cost.a_instructions_per_node, cost.b_instructions_per_node);
            let (doublings, elo, interval) = elo_at_equal_time(&slope.slope, a, b);
            Some(EqualTime {
                label: r.label.clone(),
                a: r.a.clone(),
                b: r.b.clone(),
                instructions_per_node: [a, b],
                cost_source: cost.source,
                doublings,
                elo,
                interval,
            })
        })
        .collect();
    EqualTimes {
        none_because: out.is_empty().then(|| {
            "no row played identically at fixed nodes with its cost counted (its equal-cost \
             match)"
                .to_string()
        }),
        slope: Some(slope),
        rows: out,
    }
}

impl EqualTime {
    /// How it was computed, in words: the slope with its interval and games, the doublings and
    /// the costs behind them.
    pub fn derivation(&self, slope: &SlopeSource) -> String {
        let s = &slope.slope;
        format!(
            "slope {} Elo per doubling of nodes ({} games, {}) × {:+.3} doublings (instructions \
             per node {:.1} against {:.1}, {})",
            s.interval
                .with_value(s.elo_per_doubling, |x| format!("{x:+.1}")),
            s.games,
            slope.file,
            self.doublings,
            self.instructions_per_node[0],
            self.instructions_per_node[1],
            self.cost_source
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slope(s: f64, lo: f64, hi: f64) -> Slope {
        Slope {
            elo_per_doubling: s,
            interval: Interval {
                lo,
                hi,
                coverage: 0.95,
                n: 1000,
            },
            games: 2000,
            ratios: vec![2.0, 1.25],
        }
    }

    #[test]
    fn a_costlier_player_loses_what_its_lost_nodes_are_worth() {
        // 35% more instructions per node: log2(1/1.35) doublings of nodes, times 100 Elo.
        let (doublings, elo, i) = elo_at_equal_time(&slope(100.0, 90.0, 110.0), 1.35, 1.0);
        assert!((doublings - (1.0f64 / 1.35).log2()).abs() < 1e-12);
        assert!((elo - 100.0 * doublings).abs() < 1e-9 && elo < -43.0 && elo > -44.0);
        // The interval is the slope's, scaled: its ends swap with a negative factor.
        assert!((i.lo - 110.0 * doublings).abs() < 1e-9, "{i:?}");
        assert!((i.hi - 90.0 * doublings).abs() < 1e-9, "{i:?}");
        assert_eq!((i.coverage, i.n), (0.95, 1000));
        // A cheaper player gains; an equal one is exactly 0.
        assert!(elo_at_equal_time(&slope(100.0, 90.0, 110.0), 0.9, 1.0).1 > 0.0);
        assert_eq!(
            elo_at_equal_time(&slope(100.0, 90.0, 110.0), 1.0, 1.0).1,
            0.0
        );
    }

    #[test]
    fn a_slope_of_another_engine_or_budget_or_none_is_not_used() {
        let dir = std::env::temp_dir().join(format!("replab-slope-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = read_slope(&dir, "e1", 10_000).unwrap().unwrap_err();
        assert!(missing.contains("tools/record_slope.py"), "{missing}");
        let file = serde_json::json!({
            "engine": "e1", "nodes": 10_000,
            "slopes": {"balanced": slope(100.0, 90.0, 110.0), "repetition-rich": null},
        });
        std::fs::write(dir.join(SLOPE_FILE), file.to_string()).unwrap();
        let used = read_slope(&dir, "e1", 10_000).unwrap().unwrap();
        assert_eq!(used.slope.elo_per_doubling, 100.0);
        let other = read_slope(&dir, "e2", 10_000).unwrap().unwrap_err();
        assert!(other.contains("engine e1, not this build's e2"), "{other}");
        let budget = read_slope(&dir, "e1", 20_000).unwrap().unwrap_err();
        assert!(budget.contains("10000 nodes"), "{budget}");
        std::fs::write(dir.join(SLOPE_FILE), "{").unwrap();
        assert!(read_slope(&dir, "e1", 10_000).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
