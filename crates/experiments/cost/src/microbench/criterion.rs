//! criterion's own estimates beside replab's loop: what `cargo bench -p replab-benches --bench
//! detectors` leaves in `<target>/criterion/<group>/<function>/<parameter>/new/estimates.json`
//! (with the ids in `benchmark.json` beside it), read back so the page can show both.
//!
//! criterion times each benchmark with its own sampling and bootstraps a 95% interval of the
//! median; replab's loop ([`super::measure`]) times the same scenarios round-robin. Two
//! independent methods agreeing is the check; they need not agree to the last nanosecond (the
//! runs happened at different times, possibly on a differently loaded machine).

use std::{
    fs,
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};

use super::summary::{CycleCost, MicrobenchSummary, WalkCost};
use crate::stats::Estimate;

/// One criterion benchmark's median estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CriterionEstimate {
    /// criterion's group (`run-miss`, `run-hit`, `history`, `walk`, `table-size`,
    /// `make-unmake`).
    pub group: String,
    /// The function: a detector name, or `copy-make`.
    pub function: String,
    /// The parameter: run or history length, walk nodes, table entries, `quiet`.
    pub parameter: String,
    /// criterion's median point estimate, nanoseconds per iteration (for `walk` and
    /// `table-size` one iteration replays the whole walk), with criterion's bootstrap interval:
    /// its coverage is criterion's confidence level (0.95 by default), its `n` the samples in
    /// `sample.json` beside the estimates (0 when that file is missing).
    pub ns: Estimate,
}

/// The part of criterion's `estimates.json` read here.
#[derive(Deserialize)]
struct Estimates {
    median: Statistic,
}

#[derive(Deserialize)]
struct Statistic {
    confidence_interval: CriterionInterval,
    point_estimate: f64,
}

#[derive(Deserialize)]
struct CriterionInterval {
    confidence_level: f64,
    lower_bound: f64,
    upper_bound: f64,
}

/// The part of criterion's `sample.json` read here: one iteration count per sample.
#[derive(Deserialize)]
struct Samples {
    iters: Vec<f64>,
}

/// The samples criterion's estimates come from (`sample.json` in `new`); 0 when unknown.
fn sample_count(new: &Path) -> usize {
    fs::read_to_string(new.join("sample.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Samples>(&t).ok())
        .map_or(0, |s| s.iters.len())
}

/// The part of criterion's `benchmark.json` read here: the benchmark's ids.
#[derive(Deserialize)]
struct BenchmarkIds {
    group_id: String,
    function_id: Option<String>,
    value_str: Option<String>,
}

/// Where criterion writes its results for this workspace: `$CARGO_TARGET_DIR/criterion` when
/// that variable is set, else `<root>/target/criterion` (`root`: the repository root).
pub fn criterion_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(target) if !target.is_empty() => PathBuf::from(target).join("criterion"),
        _ => root.join("target").join("criterion"),
    }
}

/// Every `new/estimates.json` under `dir`, as estimates sorted by group, function and
/// parameter; `None` when the directory does not exist or holds none. Files that cannot be read
/// or parsed are skipped (they are criterion's, not replab's).
pub fn read_criterion(dir: &Path) -> Option<Vec<CriterionEstimate>> {
    let mut found = Vec::new();
    collect(dir, dir, &mut found, 0);
    found.sort_by(|a, b| {
        (&a.group, &a.function, numeric(&a.parameter), &a.parameter).cmp(&(
            &b.group,
            &b.function,
            numeric(&b.parameter),
            &b.parameter,
        ))
    });
    (!found.is_empty()).then_some(found)
}

/// A parameter's numeric value for sorting (non-numbers after numbers).
fn numeric(parameter: &str) -> u64 {
    parameter.parse().unwrap_or(u64::MAX)
}

/// Walks `dir` (at most a few levels: group/function/parameter/new) for estimates.
fn collect(root: &Path, dir: &Path, out: &mut Vec<CriterionEstimate>, depth: usize) {
    if depth > 5 {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut subdirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    subdirs.sort();
    for sub in subdirs {
        let name = sub.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name == "report" || name == "base" || name == "change" {
            continue;
        }
        if name == "new" {
            if let Some(e) = read_one(root, &sub) {
                out.push(e);
            }
        } else {
            collect(root, &sub, out, depth + 1);
        }
    }
}

/// One benchmark's estimate from its `new` directory.
fn read_one(root: &Path, new: &Path) -> Option<CriterionEstimate> {
    let text = fs::read_to_string(new.join("estimates.json")).ok()?;
    let estimates: Estimates = serde_json::from_str(&text).ok()?;
    // The ids: benchmark.json when present, else the directory names.
    let ids = fs::read_to_string(new.join("benchmark.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<BenchmarkIds>(&t).ok());
    let parts: Vec<String> = new
        .parent()?
        .strip_prefix(root)
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let (group, function, parameter) = match ids {
        Some(ids) => (
            ids.group_id,
            ids.function_id.unwrap_or_default(),
            ids.value_str.unwrap_or_default(),
        ),
        None => match parts.as_slice() {
            [g, f, p] => (g.clone(), f.clone(), p.clone()),
            [g, f] => (g.clone(), f.clone(), String::new()),
            _ => return None,
        },
    };
    let m = estimates.median;
    let ci = m.confidence_interval;
    Some(CriterionEstimate {
        group,
        function,
        parameter,
        ns: Estimate {
            value: m.point_estimate,
            interval: crate::stats::Interval {
                lo: ci.lower_bound,
                hi: ci.upper_bound,
                coverage: ci.confidence_level,
                n: sample_count(new),
            },
        },
    })
}

/// replab's figure for the same benchmark, in criterion's unit reduced to replab's: returns
/// `(criterion's, replab's)` nanoseconds per cycle with their intervals (per walk node for
/// `walk` and `table-size`, per copy-make for `make-unmake`), or `None` for a benchmark
/// replab's loop does not time. replab's copy-make is compared as its median alone (its
/// interval spans the groups' medians, the drift of the machine, not the spread of one
/// benchmark): its interval here is the point.
pub fn pair(e: &CriterionEstimate, s: &MicrobenchSummary) -> Option<(Estimate, Estimate)> {
    let param: Option<usize> = e.parameter.parse().ok();
    let cycle = |list: &[CycleCost], key: fn(&CycleCost) -> usize| {
        list.iter()
            .find(|c| c.detector == e.function.as_str() && Some(key(c)) == param)
            .map(|c| c.ns)
    };
    let walk = |list: &[WalkCost], by_entries: bool| {
        list.iter()
            .find(|w| {
                w.detector == e.function.as_str() && (!by_entries || Some(w.entries) == param)
            })
            .map(|w| w.ns_per_node)
    };
    // criterion times one replay of the whole walk: per node, divide by its nodes.
    let nodes = s.walk_nodes.max(1) as f64;
    let (ours, divisor) = match e.group.as_str() {
        "make-unmake" if e.function == "copy-make" => {
            let make = s.make_unmake_ns.value;
            (Some(Estimate::single(make)), 1.0)
        }
        "run-miss" => (cycle(&s.runs, |c| c.run), 1.0),
        "run-hit" => (cycle(&s.hits, |c| c.run), 1.0),
        "history" => (cycle(&s.histories, |c| c.history), 1.0),
        "walk" => (walk(&s.walk, false), nodes),
        "table-size" => (walk(&s.tables, true), nodes),
        _ => (None, 1.0),
    };
    ours.map(|ours| (e.ns.map(|v| v / divisor), ours))
}
