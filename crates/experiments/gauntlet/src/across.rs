//! Elo at equal time across search budgets. The slope (Elo per doubling of nodes) is recorded
//! at several budgets (`tools/record_slope.py --nodes N`: `datasets/elo-slope.json` at the
//! gauntlet's 10,000 nodes, `datasets/elo-slope-N.json` at the others); its fall with the
//! budget is the weighted least-squares line of the slopes against log2(nodes). Each
//! identical-play detector's Elo at equal time at a budget N is slope(N) × log2 of `linear`'s
//! instructions per node over the detector's at N (`datasets/budget-costs.json`: real-game
//! positions with their history), the interval the slope's scaled by that exact factor. A
//! budget without a recorded slope takes the fitted line's value there, marked as interpolated
//! or extrapolated. The clock's time ratio at the same budget (`datasets/budget-times.json`)
//! gives a second figure beside it.

use std::path::Path;

use anyhow::Result;
use replab_harness::interval::{Estimate, Interval};
use replab_selfplay::stats::EloEstimate;
use serde::{Deserialize, Serialize};

mod html;
mod markdown;

pub use html::html;
pub use markdown::markdown;

use crate::budgets::Recorded as BudgetCosts;
use crate::equal_time::{Slope, TimeRatio, elo_by_time, read_slope_file};

/// The time-per-node dataset across budgets, under the datasets folder.
pub const BUDGET_TIMES_FILE: &str = "budget-times.json";

/// The z of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// A slope recorded at one budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BudgetSlope {
    /// B's nodes per move in its matches (A played twice as many).
    pub nodes: u64,
    /// The balanced book's slope there.
    pub slope: Slope,
    /// The dataset it was read from.
    pub file: String,
}

/// How a budget's slope was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlopeOrigin {
    /// Recorded by node-odds matches at that budget.
    Measured,
    /// The fitted line's value between recorded budgets.
    Interpolated,
    /// The fitted line's value beyond the recorded budgets.
    Extrapolated,
}

impl SlopeOrigin {
    /// The mark a figure from this slope carries (empty for a measured one).
    pub fn mark(self) -> &'static str {
        match self {
            SlopeOrigin::Measured => "",
            SlopeOrigin::Interpolated => "slope interpolated",
            SlopeOrigin::Extrapolated => "slope extrapolated",
        }
    }
}

/// The fall of the slope with the budget: Elo per doubling = `at_center` +
/// `per_doubling` × (log2(nodes) − `center`), weighted by each slope's inverse variance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fall {
    /// The change in Elo per doubling of nodes per doubling of the budget, with its 95%
    /// interval (normal, from the slopes' standard errors).
    pub per_doubling: Estimate,
    /// The weighted mean of log2(nodes) of the recorded budgets.
    pub center: f64,
    /// The fitted slope at `center`, and its standard error.
    pub at_center: [f64; 2],
    /// The residuals' chi-square (weighted), with `points − 2` degrees of freedom: a large one
    /// says the line does not describe the slopes within their errors.
    pub chi_square: f64,
    /// The budgets it was fitted to.
    pub points: usize,
}

impl Fall {
    /// The line through `slopes` (at least two budgets), or `None`.
    pub fn fit(slopes: &[BudgetSlope]) -> Option<Fall> {
        let points: Vec<(f64, f64, f64)> = slopes
            .iter()
            .filter_map(|s| {
                let se = standard_error(&s.slope.elo_per_doubling)?;
                let x = (s.nodes as f64).log2();
                Some((x, s.slope.elo_per_doubling.value, 1.0 / (se * se)))
            })
            .collect();
        if points.len() < 2 {
            return None;
        }
        let sw: f64 = points.iter().map(|p| p.2).sum();
        let center = points.iter().map(|p| p.2 * p.0).sum::<f64>() / sw;
        let mean = points.iter().map(|p| p.2 * p.1).sum::<f64>() / sw;
        let sxx: f64 = points.iter().map(|p| p.2 * (p.0 - center).powi(2)).sum();
        let sxy: f64 = points
            .iter()
            .map(|p| p.2 * (p.0 - center) * (p.1 - mean))
            .sum();
        let b = sxy / sxx;
        let se_b = 1.0 / sxx.sqrt();
        let chi_square = points
            .iter()
            .map(|p| p.2 * (p.1 - mean - b * (p.0 - center)).powi(2))
            .sum();
        Some(Fall {
            per_doubling: normal(b, se_b, points.len()),
            center,
            at_center: [mean, 1.0 / sw.sqrt()],
            chi_square,
            points: points.len(),
        })
    }

    /// The fitted Elo per doubling at `nodes`, with its 95% interval (the line's prediction
    /// error: the mean's and the fall's, which are independent at the weighted center).
    pub fn at(&self, nodes: u64) -> Estimate {
        let dx = (nodes as f64).log2() - self.center;
        let se_b = standard_error(&self.per_doubling).unwrap_or(0.0);
        let value = self.at_center[0] + self.per_doubling.value * dx;
        let se = (self.at_center[1].powi(2) + (dx * se_b).powi(2)).sqrt();
        normal(value, se, self.points)
    }
}

/// A normal 95% estimate from a value and its standard error.
fn normal(value: f64, se: f64, n: usize) -> Estimate {
    Estimate {
        value,
        interval: Interval {
            lo: value - Z95 * se,
            hi: value + Z95 * se,
            coverage: 0.95,
            n,
        },
    }
}

/// The standard error behind a 95% interval (`None` for a zero-width one).
fn standard_error(e: &Estimate) -> Option<f64> {
    let se = (e.interval.hi - e.interval.lo) / (2.0 * Z95);
    (se > 0.0).then_some(se)
}

/// One detector's Elo at equal time at one budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BudgetElo {
    /// Nodes per search.
    pub nodes: u64,
    /// Elo per doubling there, and how it was obtained.
    pub slope: Estimate,
    /// Measured, interpolated or extrapolated.
    pub origin: SlopeOrigin,
    /// The detector's and the baseline's instructions per node there (exact).
    pub instructions_per_node: [f64; 2],
    /// log2 of the baseline's cost over the detector's.
    pub doublings: f64,
    /// slope × doublings, with the slope's interval scaled.
    pub elo: Estimate,
    /// The detector's time per node over the baseline's there, by the clock.
    pub time_per_node: Option<TimeRatio>,
    /// The Elo the time ratio gives under the same slope.
    pub elo_by_time: Option<EloEstimate>,
}

impl BudgetElo {
    /// The budget in words, with its mark: `1,000,000 nodes a move (slope extrapolated)`.
    pub fn budget(&self) -> String {
        budget_text(self.nodes, self.origin)
    }

    /// The figure a verdict reads: the clock's Elo where a time ratio is recorded (equal time
    /// is what the clock measures), its interval widened to hold the instruction count's too,
    /// so a direction is claimed only where both cost measures give it; the instruction
    /// count's alone otherwise. Where the two agree the interval is about the wider one's;
    /// where they part (a table's cache misses, a scan's cheap instructions) it spans both.
    pub fn decided(&self) -> Estimate {
        let Some(clock) = self.elo_by_time.and_then(|e| Some((e.value, e.interval?))) else {
            return self.elo;
        };
        let (value, interval) = clock;
        Estimate {
            value,
            interval: Interval {
                lo: interval.lo.min(self.elo.interval.lo),
                hi: interval.hi.max(self.elo.interval.hi),
                ..interval
            },
        }
    }

    /// [`decided`](Self::decided) in words: both figures and how the interval was made.
    pub fn decided_text(&self) -> String {
        let by_count = format!(
            "by instructions {} Elo",
            self.elo.text(|x| format!("{x:+.1}"))
        );
        let Some(clock) = self.elo_by_time.filter(|e| e.interval.is_some()) else {
            return format!("{by_count}: {}", self.derivation());
        };
        format!(
            "by the clock {} Elo (time per node ×{:.3}), {by_count}; the value is the clock's, its interval spans both: {}",
            clock.text(|x| format!("{x:+.1}")),
            self.time_per_node
                .as_ref()
                .map_or(f64::NAN, |t| t.ratio.value),
            self.derivation()
        )
    }

    /// How it was computed, in words.
    pub fn derivation(&self) -> String {
        format!(
            "slope {} Elo per doubling of nodes at {} ({}) × {:+.4} doublings (instructions per \
             node {:.1} against {:.1} on real-game positions, {})",
            self.slope.text(|x| format!("{x:+.1}")),
            replab_report::fmt_int(self.nodes),
            match self.origin {
                SlopeOrigin::Measured => "recorded",
                other => other.mark(),
            },
            self.doublings,
            self.instructions_per_node[0],
            self.instructions_per_node[1],
            crate::budgets::RECORDED_FILE
        )
    }
}

/// `40,000 nodes a move`, with the slope's mark where it was not measured.
pub fn budget_text(nodes: u64, origin: SlopeOrigin) -> String {
    let text = format!("{} nodes a move", replab_report::fmt_int(nodes));
    match origin {
        SlopeOrigin::Measured => text,
        other => format!("{text} ({})", other.mark()),
    }
}

/// One identical-play detector across the budgets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DetectorAcross {
    /// The detector's player.
    pub a: String,
    /// The baseline's.
    pub b: String,
    /// One figure per budget of the cost recording, in order.
    pub budgets: Vec<BudgetElo>,
}

/// Elo at equal time across the budgets, or why there is none.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AcrossBudgets {
    /// The slopes recorded for this build's engine, by budget.
    pub slopes: Vec<BudgetSlope>,
    /// Their fitted fall (two budgets or more).
    pub fall: Option<Fall>,
    /// One per identical-play row whose player searched the baseline's tree in the cost
    /// recording.
    pub rows: Vec<DetectorAcross>,
    /// What was not used, and why (another engine's recording, a missing file).
    pub notes: Vec<String>,
    /// The time ratios across budgets, when they are of this build's engine.
    #[serde(default)]
    pub times: Option<BudgetTimes>,
}

/// The time ratios across budgets, as recorded.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BudgetTimes {
    /// The engine digest timed.
    pub engine: String,
    /// Player B of every ratio.
    pub baseline: String,
    /// The machine and the date.
    pub recorded: String,
    /// The command that recorded it.
    pub command: String,
    /// One entry per budget.
    pub budgets: Vec<BudgetTime>,
}

/// The time ratios at one budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BudgetTime {
    /// Nodes per search.
    pub nodes: u64,
    /// The baseline's seconds per node on the recording machine (median of its runs).
    pub baseline_seconds_per_node: Estimate,
    /// Each player's time per node over the baseline's.
    pub ratios: std::collections::BTreeMap<String, TimeRatio>,
}

impl BudgetTimes {
    /// The time ratios at `nodes`.
    pub fn at(&self, nodes: u64) -> Option<&BudgetTime> {
        self.budgets.iter().find(|b| b.nodes == nodes)
    }

    /// `spec`'s time ratio at `nodes`.
    pub fn ratio(&self, spec: &str, nodes: u64) -> Option<TimeRatio> {
        self.at(nodes)?.ratios.get(spec).cloned()
    }
}

/// Every slope recorded in `datasets` (`elo-slope.json`, `elo-slope-N.json`) for `engine`,
/// by budget, and a note for each file not used.
pub fn read_slopes(datasets: &Path, engine: &str) -> Result<(Vec<BudgetSlope>, Vec<String>)> {
    let mut slopes: Vec<BudgetSlope> = Vec::new();
    let mut notes = Vec::new();
    for path in slope_files(datasets)? {
        match read_slope_file(&path, engine)? {
            Ok(s) if slopes.iter().any(|k| k.nodes == s.nodes) => notes.push(format!(
                "{}: a second slope at {} nodes (not used)",
                path.display(),
                s.nodes
            )),
            Ok(s) => slopes.push(BudgetSlope {
                nodes: s.nodes,
                slope: s.slope,
                file: s.file,
            }),
            Err(why) => notes.push(why),
        }
    }
    slopes.sort_by_key(|s| s.nodes);
    Ok((slopes, notes))
}

/// The slope datasets in `datasets`, in name order.
fn slope_files(datasets: &Path) -> Result<Vec<std::path::PathBuf>> {
    let Ok(entries) = std::fs::read_dir(datasets) else {
        return Ok(Vec::new());
    };
    let mut files: Vec<std::path::PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name == crate::SLOPE_FILE
                || name
                    .strip_prefix("elo-slope-")
                    .and_then(|rest| rest.strip_suffix(".json"))
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The time ratios across budgets in `datasets` for `engine` against `baseline`, or why
/// there are none.
pub fn read_budget_times(
    datasets: &Path,
    engine: &str,
    baseline: &str,
) -> Result<std::result::Result<BudgetTimes, String>> {
    let path = datasets.join(BUDGET_TIMES_FILE);
    let tool = "tools/paired_speed.py --record --budgets";
    let times: BudgetTimes =
        match crate::equal_time::read_recorded(&path, "time per node across budgets", tool)? {
            Ok(t) => t,
            Err(why) => return Ok(Err(why)),
        };
    if times.engine != engine || times.baseline != baseline {
        return Ok(Err(format!(
            "the times in {} were recorded with engine {} against {}, not this build's {engine} \
             against {baseline}: record them again ({tool})",
            path.display(),
            times.engine,
            times.baseline
        )));
    }
    Ok(Ok(times))
}

/// The slope at `nodes`: the recorded one, else the fitted line's, marked.
pub fn slope_at(
    slopes: &[BudgetSlope],
    fall: Option<&Fall>,
    nodes: u64,
) -> Option<(Estimate, SlopeOrigin)> {
    if let Some(s) = slopes.iter().find(|s| s.nodes == nodes) {
        return Some((s.slope.elo_per_doubling, SlopeOrigin::Measured));
    }
    let fall = fall?;
    let inside = slopes.first()?.nodes < nodes && nodes < slopes.last()?.nodes;
    let origin = if inside {
        SlopeOrigin::Interpolated
    } else {
        SlopeOrigin::Extrapolated
    };
    Some((fall.at(nodes), origin))
}

/// Elo at equal time across the budgets of `costs` for every player of `specs` (the
/// identical-play rows' players A, each against the baseline) that searched the baseline's
/// tree there.
pub fn across(
    (slopes, mut notes): (Vec<BudgetSlope>, Vec<String>),
    costs: std::result::Result<BudgetCosts, String>,
    times: std::result::Result<BudgetTimes, String>,
    specs: &[&str],
) -> AcrossBudgets {
    let fall = Fall::fit(&slopes);
    let times = times.map_err(|why| notes.push(why)).ok();
    let costs = match costs {
        Ok(costs) => costs,
        Err(why) => {
            notes.push(why);
            return AcrossBudgets {
                slopes,
                fall,
                rows: Vec::new(),
                notes,
                times,
            };
        }
    };
    if slopes.is_empty() {
        notes.push("no slope is recorded for this build's engine at any budget".into());
    }
    let rows = specs
        .iter()
        .filter(|a| costs.same_tree(a))
        .map(|a| DetectorAcross {
            a: a.to_string(),
            b: crate::BASELINE.into(),
            budgets: costs
                .budgets
                .iter()
                .filter_map(|&n| {
                    let slope = slope_at(&slopes, fall.as_ref(), n)?;
                    budget_elo(&costs, times.as_ref(), a, n, slope)
                })
                .collect(),
        })
        .filter(|d| !d.budgets.is_empty())
        .collect();
    AcrossBudgets {
        slopes,
        fall,
        rows,
        notes,
        times,
    }
}

/// `spec`'s Elo at equal time at `nodes` under `slope`.
fn budget_elo(
    costs: &BudgetCosts,
    times: Option<&BudgetTimes>,
    spec: &str,
    nodes: u64,
    (slope, origin): (Estimate, SlopeOrigin),
) -> Option<BudgetElo> {
    let a = costs.cost(spec, nodes)?;
    let b = costs.cost(crate::BASELINE, nodes)?;
    let doublings = (b / a).log2();
    let time_per_node = times.and_then(|t| t.ratio(spec, nodes));
    Some(BudgetElo {
        nodes,
        slope,
        origin,
        instructions_per_node: [a, b],
        doublings,
        elo: slope.map(|x| x * doublings),
        elo_by_time: time_per_node.as_ref().map(|t| elo_by_time(&slope, t)),
        time_per_node,
    })
}

#[cfg(test)]
mod tests;
