//! Elo at equal time for the rows whose players play identically at fixed nodes. What separates
//! such a player from the baseline is only what a node costs, so its Elo when both get the same
//! time is the engine's Elo per doubling of nodes (the slope, recorded by
//! `tools/record_slope.py` in `datasets/elo-slope.json`) times log2 of the nodes the same cost
//! buys (the baseline's instructions per node over the player's, from the row's equal-cost
//! match). This is the field's rule for a pure speedup (Stockfish: an x% speedup is worth
//! about x Elo at its short control), with the cost side exact; the interval is the slope's,
//! scaled by the exact log ratio, so its coverage is the slope's.
//!
//! Two checks stand beside it: the time per node by the clock (recorded by
//! `tools/paired_speed.py --record` in `datasets/time-per-node.json`, alternating runs of both
//! players), the second cost ratio, with the Elo it would give; and the row's equal-cost match,
//! played to its game count, whose Elo must agree with the model's ([`Difference`]).

use std::{collections::BTreeMap, path::Path};

use anyhow::{Context, Result};
use replab_harness::{compare::Unit, interval::Estimate};
use serde::{Deserialize, Serialize};

use replab_selfplay::stats::EloEstimate;

use crate::{Measure, RowResult, validation::Difference};

/// The slope dataset's file under the datasets folder.
pub const SLOPE_FILE: &str = "elo-slope.json";

/// The time-per-node dataset's file under the datasets folder.
pub const TIME_FILE: &str = "time-per-node.json";

/// The book whose slope the gauntlet's fixed-node and equal-cost rows use.
pub const SLOPE_BOOK: &str = "balanced";

/// One book's recorded slope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slope {
    /// Elo per doubling of nodes, with its 95% interval (and the game pairs behind it).
    pub elo_per_doubling: Estimate,
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
    /// The engine digest it was recorded with: this build's, or one this build plays as
    /// ([`crate::lineage`]; others are not used).
    pub engine: String,
    /// B's nodes per move in its matches (the gauntlet's: others are not used).
    pub nodes: u64,
}

/// A player's time per node over the baseline's, from alternating runs of both on the same
/// workload (`tools/paired_speed.py`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeRatio {
    /// The geometric mean of the pairs' ratios, with its 95% interval (Student-t over the
    /// pairs' log ratios).
    pub ratio: Estimate,
    /// The probability that the player is slower per node (normal approximation).
    pub p_a_slower: f64,
    /// Pairs of runs behind it.
    pub pairs: u64,
}

/// The recorded time ratios, as far as the gauntlet reads them.
#[derive(Deserialize)]
struct RecordedTimes {
    engine: String,
    baseline: String,
    ratios: BTreeMap<String, TimeRatio>,
}

/// The time ratios used, and where they come from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeSource {
    /// The dataset.
    pub file: String,
    /// Player B of every ratio.
    pub baseline: String,
    /// Each player's ratio against the baseline, by specification.
    pub ratios: BTreeMap<String, TimeRatio>,
}

/// The equal-cost match that checks a row's Elo at equal time: the model's figure against the
/// one played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelCheck {
    /// The equal-cost match's Elo (played to its game count).
    pub played: EloEstimate,
    /// Its games.
    pub games: u64,
    /// Its control (`A : B nodes`).
    pub control: String,
    /// Played minus the model's figure, and whether they agree.
    pub difference: Difference,
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
    /// The recorded time ratios, when they are of this build's engine.
    pub time: Option<TimeSource>,
    /// Why there are none.
    pub time_none_because: Option<String>,
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
    /// The Elo at equal time, with its interval (the slope's, scaled).
    pub elo: Estimate,
    /// A's time per node over B's, by the clock (`None` when none is recorded for A).
    pub time_per_node: Option<TimeRatio>,
    /// The Elo the time ratio gives under the same slope, its interval from both (the delta
    /// method: the slope's and the ratio's errors as independent).
    pub elo_by_time: Option<EloEstimate>,
    /// The row's equal-cost match against the model (`None` without one with an interval).
    pub check: Option<ModelCheck>,
}

/// A recorded dataset of `what` at `path`, or why there is none (no file: `tool` records
/// it); an unreadable or malformed file is an error naming it.
pub(crate) fn read_recorded<T: serde::de::DeserializeOwned>(
    path: &Path,
    what: &str,
    tool: &str,
) -> Result<std::result::Result<T, String>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Err(format!(
                "no {what} is recorded ({} does not exist: {tool} records it)",
                path.display()
            )));
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    serde_json::from_str(&text)
        .map(Ok)
        .with_context(|| format!("{}: not a {what} dataset", path.display()))
}

/// The balanced book's slope in `datasets`, if one is recorded for this build's engine
/// (`engine`, [`replab_search::ENGINE_DIGEST`]) at `nodes` per move (in `elo-slope-N.json`, or
/// in [`SLOPE_FILE`]); otherwise why not.
pub fn read_slope(
    datasets: &Path,
    engine: &str,
    nodes: u64,
) -> Result<std::result::Result<SlopeSource, String>> {
    // A budget's own recording (`elo-slope-40000.json`), else the gauntlet's.
    let own = datasets.join(format!("elo-slope-{nodes}.json"));
    let path = if own.exists() {
        own
    } else {
        datasets.join(SLOPE_FILE)
    };
    Ok(read_slope_file(&path, engine)?.and_then(|s| {
        if s.nodes == nodes {
            Ok(s)
        } else {
            Err(format!(
                "the slope in {} was recorded at {} nodes per move, the gauntlet plays {nodes}",
                path.display(),
                s.nodes
            ))
        }
    }))
}

/// The balanced book's slope in the slope dataset at `path`, if it was recorded for `engine`
/// or an engine it plays as ([`crate::lineage`]: a slope is play alone); otherwise why not.
pub(crate) fn read_slope_file(
    path: &Path,
    engine: &str,
) -> Result<std::result::Result<SlopeSource, String>> {
    let recorded: Recorded = match read_recorded(path, "slope", "tools/record_slope.py")? {
        Ok(recorded) => recorded,
        Err(why) => return Ok(Err(why)),
    };
    let Some(Some(slope)) = recorded.slopes.get(SLOPE_BOOK).cloned() else {
        return Ok(Err(format!("{} has no {SLOPE_BOOK} slope", path.display())));
    };
    if !crate::lineage::plays_as(&crate::lineage::steps(), engine, &recorded.engine) {
        return Ok(Err(format!(
            "the slope in {} was recorded with engine {}, not this build's {engine} (nor one \
             it plays as, {}): record it again with tools/record_slope.py",
            path.display(),
            recorded.engine,
            crate::lineage::LINEAGE_FILE
        )));
    }
    Ok(Ok(SlopeSource {
        slope,
        file: path.display().to_string(),
        engine: recorded.engine,
        nodes: recorded.nodes,
    }))
}

/// The time ratios recorded in `datasets` for this build's engine against the gauntlet's
/// baseline `baseline`, or why there are none.
pub fn read_time_ratios(
    datasets: &Path,
    engine: &str,
    baseline: &str,
) -> Result<std::result::Result<TimeSource, String>> {
    let path = datasets.join(TIME_FILE);
    let tool = "tools/paired_speed.py --record";
    let recorded: RecordedTimes = match read_recorded(&path, "time per node", tool)? {
        Ok(recorded) => recorded,
        Err(why) => return Ok(Err(why)),
    };
    if recorded.engine != engine || recorded.baseline != baseline {
        return Ok(Err(format!(
            "the time per node in {} was recorded with engine {} against {}, not this build's \
             {engine} against {baseline}: record it again with tools/paired_speed.py --record",
            path.display(),
            recorded.engine,
            recorded.baseline
        )));
    }
    Ok(Ok(TimeSource {
        file: path.display().to_string(),
        baseline: recorded.baseline,
        ratios: recorded.ratios,
    }))
}

/// What `bench` says before it starts about the recorded slope and time ratios in `datasets`:
/// why either will not be used with this build at `nodes` per move (none when both apply).
pub fn recorded_notes(datasets: &Path, nodes: u64) -> Vec<String> {
    let engine = replab_search::ENGINE_DIGEST;
    let slope = read_slope(datasets, engine, nodes).map(|r| r.err());
    let time = read_time_ratios(datasets, engine, crate::BASELINE).map(|r| r.err());
    [slope, time]
        .into_iter()
        .filter_map(|note| note.unwrap_or_else(|e| Some(format!("{e:#}"))))
        .collect()
}

/// The Elo at equal time that a time ratio (A's time per node over B's) gives under `slope`,
/// with an interval from both the slope's and the ratio's (delta method, independent errors,
/// each standard error read from its 95% interval).
pub fn elo_by_time(slope: &Estimate, time: &TimeRatio) -> EloEstimate {
    let z = 1.96;
    let (s, t) = (*slope, time.ratio);
    let doublings = -t.value.log2();
    let se_slope = (s.interval.hi - s.interval.lo) / (2.0 * z);
    let se_doublings = (t.interval.hi / t.interval.lo).log2() / (2.0 * z);
    let elo = s.value * doublings;
    let se = ((doublings * se_slope).powi(2) + (s.value * se_doublings).powi(2)).sqrt();
    EloEstimate::new(elo, elo - z * se, elo + z * se, 0.95, time.pairs)
}

/// The Elo at equal time of a player costing `a` instructions per node against a baseline
/// costing `b`: log2(b ÷ a), and slope × log2(b ÷ a) with the slope's interval scaled by the
/// same factor.
pub fn elo_at_equal_time(slope: &Slope, a: f64, b: f64) -> (f64, Estimate) {
    let doublings = (b / a).log2();
    (doublings, slope.elo_per_doubling.map(|x| x * doublings))
}

/// Every row that played identically at fixed nodes on the balanced book and has a counted cost
/// (its equal-cost match), with its Elo at equal time under `slope`.
pub fn equal_times(
    slope: std::result::Result<SlopeSource, String>,
    time: std::result::Result<TimeSource, String>,
    rows: &[RowResult],
) -> EqualTimes {
    let (time, time_none_because) = match time {
        Ok(t) => (Some(t), None),
        Err(why) => (None, Some(why)),
    };
    let slope = match slope {
        Ok(slope) => slope,
        Err(why) => {
            return EqualTimes {
                none_because: Some(why),
                time,
                time_none_because,
                ..EqualTimes::default()
            };
        }
    };
    // The same row at equal cost (its players carry their scaled budgets there).
    let equal_cost = |r: &RowResult| {
        rows.iter()
            .find(|c| c.measure == Measure::EqualCost && c.label == r.label && c.group == r.group)
    };
    let out: Vec<EqualTime> = rows
        .iter()
        .filter(|r| r.measure == Measure::Balanced && r.deterministic && r.games_identical)
        .filter_map(|r| {
            let played = equal_cost(r)?;
            // A ratio measured against the row's own baseline only.
            let ratio = time
                .as_ref()
                .filter(|t| t.baseline == r.b)
                .and_then(|t| t.ratios.get(&r.a))
                .cloned();
            equal_time(&slope.slope, r, played, ratio)
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
        time,
        time_none_because,
    }
}

/// Row `r`'s Elo at equal time from its equal-cost match `played` (which counted both costs,
/// or `None`), with the time ratio's figure and the played match's check beside it.
fn equal_time(
    slope: &Slope,
    r: &RowResult,
    played: &RowResult,
    time: Option<TimeRatio>,
) -> Option<EqualTime> {
    let cost = played.cost_scaling.clone()?;
    let (a, b) = (cost.a_instructions_per_node, cost.b_instructions_per_node);
    let (doublings, elo) = elo_at_equal_time(slope, a, b);
    let model = EloEstimate::from(elo);
    let check = played.elo.interval.map(|_| ModelCheck {
        played: played.elo,
        games: played.games,
        control: played.control.clone(),
        difference: Difference::of(&played.elo, &model, played.games + slope.games),
    });
    Some(EqualTime {
        label: r.label.clone(),
        a: r.a.clone(),
        b: r.b.clone(),
        instructions_per_node: [a, b],
        cost_source: cost.source,
        doublings,
        elo,
        elo_by_time: time
            .as_ref()
            .map(|t| elo_by_time(&slope.elo_per_doubling, t)),
        time_per_node: time,
        check,
    })
}

impl EqualTime {
    /// How it was computed, in words: the slope with its interval and games, the doublings and
    /// the costs behind them.
    pub fn derivation(&self, slope: &SlopeSource) -> String {
        let s = &slope.slope;
        format!(
            "slope {} Elo per doubling of nodes ({} games, {}) × {:+.3} doublings (instructions \
             per node {:.1} against {:.1}, {})",
            s.elo_per_doubling.text(|x| format!("{x:+.1}")),
            s.games,
            slope.file,
            self.doublings,
            self.instructions_per_node[0],
            self.instructions_per_node[1],
            self.cost_source
        ) + &self.time_text()
            + &self.check_text()
    }

    /// The played equal-cost match against the model (empty without one).
    fn check_text(&self) -> String {
        let Some(c) = &self.check else {
            return String::new();
        };
        format!(
            "; its equal-cost match played {} Elo over {} games (played − model {}: they {})",
            c.played.text(|x| Unit::Elo.bare(x)),
            c.games,
            c.difference.text(),
            c.difference.agreement.phrase()
        )
    }

    /// The second cost ratio, by the clock, and the Elo it gives (empty without one).
    fn time_text(&self) -> String {
        let (Some(t), Some(e)) = (&self.time_per_node, &self.elo_by_time) else {
            return String::new();
        };
        format!(
            "; by the clock, time per node {} of B's ({} alternating pairs, P(slower) {:.0}%), \
             which gives {} Elo; {}",
            t.ratio.text(|x| format!("{x:.3}")),
            t.pairs,
            100.0 * t.p_a_slower,
            e.text(|x| Unit::Elo.bare(x)),
            self.cost_ratios_text().unwrap_or_default()
        )
    }

    /// Whether the exact instruction ratio (A's over B's) lies in the time ratio's 95%
    /// interval: where it does not, the clock sees a cost the count misses (cache misses of a
    /// large table) or the reverse. `None` without a time ratio.
    pub fn cost_ratios_agree(&self) -> Option<bool> {
        let [a, b] = self.instructions_per_node;
        self.time_per_node
            .as_ref()
            .map(|t| t.ratio.interval.contains(a / b))
    }

    /// [`cost_ratios_agree`](Self::cost_ratios_agree) as a phrase.
    pub fn cost_ratios_text(&self) -> Option<String> {
        let [a, b] = self.instructions_per_node;
        let agree = self.cost_ratios_agree()?;
        Some(if agree {
            format!("the instruction ratio {:.3} lies within it", a / b)
        } else {
            format!(
                "the instruction ratio {:.3} lies outside it: the clock sees a cost the \
                 instruction count does not",
                a / b
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use replab_harness::interval::Interval;

    fn slope(s: f64, lo: f64, hi: f64) -> Slope {
        Slope {
            elo_per_doubling: Estimate {
                value: s,
                interval: Interval {
                    lo,
                    hi,
                    coverage: 0.95,
                    n: 1000,
                },
            },
            games: 2000,
            ratios: vec![2.0, 1.25],
        }
    }

    #[test]
    fn a_costlier_player_loses_what_its_lost_nodes_are_worth() {
        // 35% more instructions per node: log2(1/1.35) doublings of nodes, times 100 Elo.
        let (doublings, e) = elo_at_equal_time(&slope(100.0, 90.0, 110.0), 1.35, 1.0);
        let (elo, i) = (e.value, e.interval);
        assert!((doublings - (1.0f64 / 1.35).log2()).abs() < 1e-12);
        assert!((elo - 100.0 * doublings).abs() < 1e-9 && elo < -43.0 && elo > -44.0);
        // The interval is the slope's, scaled: its ends swap with a negative factor.
        assert!((i.lo - 110.0 * doublings).abs() < 1e-9, "{i:?}");
        assert!((i.hi - 90.0 * doublings).abs() < 1e-9, "{i:?}");
        assert_eq!((i.coverage, i.n), (0.95, 1000));
        // A cheaper player gains; an equal one is exactly 0.
        assert!(
            elo_at_equal_time(&slope(100.0, 90.0, 110.0), 0.9, 1.0)
                .1
                .value
                > 0.0
        );
        assert_eq!(
            elo_at_equal_time(&slope(100.0, 90.0, 110.0), 1.0, 1.0)
                .1
                .value,
            0.0
        );
    }

    /// A time ratio over 30 pairs with the interval [lo, hi].
    fn time(ratio: f64, lo: f64, hi: f64) -> TimeRatio {
        TimeRatio {
            ratio: Estimate {
                value: ratio,
                interval: Interval {
                    lo,
                    hi,
                    coverage: 0.95,
                    n: 30,
                },
            },
            p_a_slower: 1.0,
            pairs: 30,
        }
    }

    #[test]
    fn a_time_ratio_gives_its_elo_with_both_errors() {
        // Twice the time per node is one doubling lost: −100 Elo at 100 per doubling.
        let e = elo_by_time(
            &slope(100.0, 90.0, 110.0).elo_per_doubling,
            &time(2.0, 2.0, 2.0),
        );
        assert!((e.value + 100.0).abs() < 1e-9, "{e:?}");
        let i = e.interval.unwrap();
        // An exact ratio leaves the slope's error alone: ±10.
        assert!((i.hi - i.lo - 20.0).abs() < 1e-9, "{i:?}");
        // The ratio's own error widens it.
        let wide = elo_by_time(
            &slope(100.0, 90.0, 110.0).elo_per_doubling,
            &time(2.0, 1.8, 2.2),
        );
        assert!(
            wide.interval.unwrap().hi - wide.interval.unwrap().lo > 20.0,
            "{wide:?}"
        );
    }

    #[test]
    fn the_cost_ratios_agree_until_the_instruction_ratio_leaves_the_time_interval() {
        let row = |lo: f64, hi: f64| EqualTime {
            label: "x".into(),
            a: "x".into(),
            b: "linear".into(),
            instructions_per_node: [1.10, 1.0],
            cost_source: "callgrind".into(),
            doublings: -(1.1f64).log2(),
            elo: Estimate::exact(-30.0),
            time_per_node: Some(time((lo + hi) / 2.0, lo, hi)),
            elo_by_time: None,
            check: None,
        };
        assert_eq!(row(1.09, 1.11).cost_ratios_agree(), Some(true));
        assert_eq!(row(1.11, 1.13).cost_ratios_agree(), Some(false));
        assert!(
            row(1.11, 1.13)
                .cost_ratios_text()
                .unwrap()
                .contains("lies outside")
        );
        let none = EqualTime {
            time_per_node: None,
            ..row(1.0, 1.2)
        };
        assert_eq!(none.cost_ratios_agree(), None);
    }

    #[test]
    fn the_played_match_agrees_with_the_model_until_their_difference_excludes_zero() {
        // The model: −20 ± 4 (slope 100 ± 20 per doubling, −0.2 doublings).
        let model = EloEstimate::new(-20.0, -24.0, -16.0, 0.95, 1000);
        let played = |value: f64| EloEstimate::new(value, value - 10.0, value + 10.0, 0.95, 500);
        // The difference's half-width: √(10² + 4²) = 10.77.
        let agreement = |v: f64| Difference::of(&played(v), &model, 1500).agreement;
        assert_eq!(agreement(-20.0 + 10.7), crate::Agreement::Agrees);
        assert_eq!(agreement(-20.0 + 10.8), crate::Agreement::Disagrees);
        assert_eq!(agreement(-20.0 - 10.8), crate::Agreement::Disagrees);
        let none = Difference::of(&EloEstimate::without_interval(0.0), &model, 1000);
        assert_eq!(none.agreement, crate::Agreement::NoInterval);
    }

    #[test]
    fn time_ratios_of_another_engine_or_baseline_or_none_are_not_used() {
        let dir = std::env::temp_dir().join(format!("replab-time-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = read_time_ratios(&dir, "e1", "linear").unwrap().unwrap_err();
        assert!(missing.contains("paired_speed.py --record"), "{missing}");
        let file = serde_json::json!({
            "engine": "e1", "baseline": "linear",
            "ratios": {"matrix": {"p_a_slower": 0.99, "pairs": 30, "ratio": {"value": 1.1,
                "interval": {"lo": 1.05, "hi": 1.15, "coverage": 0.95, "n": 30}}}},
        });
        std::fs::write(dir.join(TIME_FILE), file.to_string()).unwrap();
        let used = read_time_ratios(&dir, "e1", "linear").unwrap().unwrap();
        assert_eq!(used.ratios["matrix"].ratio.value, 1.1);
        let other = read_time_ratios(&dir, "e2", "linear").unwrap().unwrap_err();
        assert!(other.contains("engine e1 against linear"), "{other}");
        assert!(read_time_ratios(&dir, "e1", "off").unwrap().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bench_notes_each_recording_it_cannot_use() {
        let dir = std::env::temp_dir().join(format!("replab-notes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(recorded_notes(&dir, 10_000).len(), 2);
        let engine = replab_search::ENGINE_DIGEST;
        let slope = serde_json::json!({"engine": engine, "nodes": 10_000,
            "slopes": {"balanced": slope(100.0, 90.0, 110.0)}});
        std::fs::write(dir.join(SLOPE_FILE), slope.to_string()).unwrap();
        let time = serde_json::json!({"engine": engine, "baseline": crate::BASELINE,
            "ratios": {}});
        std::fs::write(dir.join(TIME_FILE), time.to_string()).unwrap();
        assert!(recorded_notes(&dir, 10_000).is_empty());
        let other = recorded_notes(&dir, 20_000);
        assert!(
            other.len() == 1 && other[0].contains("10000 nodes"),
            "{other:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
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
        assert_eq!(used.slope.elo_per_doubling.value, 100.0);
        let other = read_slope(&dir, "e2", 10_000).unwrap().unwrap_err();
        assert!(
            other.contains("engine e1, not this build's e2 (nor one"),
            "{other}"
        );
        let budget = read_slope(&dir, "e1", 20_000).unwrap().unwrap_err();
        assert!(budget.contains("10000 nodes"), "{budget}");
        std::fs::write(dir.join(SLOPE_FILE), "{").unwrap();
        assert!(read_slope(&dir, "e1", 10_000).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
