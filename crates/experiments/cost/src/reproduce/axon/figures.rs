//! The axon page's SVG charts, each written into the report directory with its figure.

use anyhow::Result;
use replab_registry::DetectorId;
use replab_report::{BarChart, LineChart, ReportDir, fmt_int};
use replab_workloads::colours;

use super::analysis::{generated_change_series, paper_series, series};
use super::results::{Paper, Results, Run};

/// Writes `change.svg`, the totals' change against detection off beside the paper's, and returns
/// its figure.
pub(super) fn change_chart(r: &Results, paper: &Paper, dir: &ReportDir) -> Result<String> {
    let max_depth = r.config.settings.max_depth;
    let (p_term, p_gen, p_time) = paper.changes();
    let change_chart = BarChart {
        categories: vec![
            "terminal nodes".into(),
            "generated positions".into(),
            "time".into(),
        ],
        series: std::iter::once(
            colours::values("paper-on", [p_term * 100.0, p_gen * 100.0, p_time * 100.0]).dashed(),
        )
        .chain(
            r.summary
                .iter()
                .filter(|s| s.detector != DetectorId::Off)
                .map(|s| {
                    colours::values(
                        s.detector.name(),
                        [
                            s.terminal_nodes_change * 100.0,
                            s.generated_change * 100.0,
                            s.time_change.value * 100.0,
                        ],
                    )
                }),
        )
        .collect(),
        ..BarChart::new(
            format!("Change against detection off, totals over depths 1–{max_depth}"),
            "total",
            "change vs off (%)",
        )
    };
    Ok(dir.write_chart(
        "change.svg",
        &change_chart,
        "Change of the totals against detection off; the paper's Axon (on vs off) is the light \
         bar with the dashed outline",
    )?)
}

/// Writes `claims.svg`, the forest plot of the paper's claims against ours, and returns its
/// figure.
pub(super) fn claims_chart(r: &Results, dir: &ReportDir) -> Result<String> {
    let max_depth = r.config.settings.max_depth;
    Ok(dir.write_chart(
        "claims.svg",
        &crate::compare::forest(
            format!("The paper's claims against ours, depths 1–{max_depth}"),
            "change of axon against off",
            r.claims.iter().map(|c| (c.what.clone(), c)),
        ),
        "Each claim's change with its interval (exact counts have none), the paper's value \
         rescoped to the same depths as the dashed mark, the decision as the colour",
    )?)
}

/// Writes the chart of generated positions per depth, the paper's beside ours; returns its
/// figure.
pub(super) fn generated_figure(
    r: &Results,
    paper: &Paper,
    names: &[&str],
    dir: &ReportDir,
) -> Result<String> {
    Ok(dir.write_chart(
        "generated.svg",
        &depth_chart(
            r,
            Some(paper),
            names,
            "Generated positions per depth (the paper's unit)",
            "positions generated (count)",
            true,
            |r| r.counters.generated as f64,
        ),
        "Positions generated per iteration (log scale). Dashed: the paper's Axon, its per-depth \
         node count from Table 2 (off) and Table 3 (on), which sums to its positions generated",
    )?)
}

/// Writes the chart of generated positions against detection off per depth; returns its
/// figure.
pub(super) fn generated_change_figure(
    r: &Results,
    paper: &Paper,
    names: &[&str],
    dir: &ReportDir,
) -> Result<String> {
    Ok(dir.write_chart(
        "generated-change.svg",
        &LineChart {
            series: generated_change_series(r, paper, names),
            ..LineChart::new(
                "Generated positions against detection off, per depth",
                "depth (plies)",
                "change vs off (%)",
            )
        },
        "Generated positions of each detector relative to detection off at the same depth; \
         dashed: the paper's Table 3 node count against its Table 2",
    )?)
}

/// Writes the chart of terminal nodes per depth; returns its figure.
pub(super) fn terminal_figure(r: &Results, names: &[&str], dir: &ReportDir) -> Result<String> {
    Ok(dir.write_chart(
        "terminal.svg",
        &depth_chart(
            r,
            None,
            names,
            "Terminal nodes per depth",
            "static evaluations (count)",
            true,
            |r| r.counters.terminal_nodes as f64,
        ),
        "Terminal nodes (static evaluations) per iteration (log scale); the paper printed only totals",
    )?)
}

/// Writes the chart of nodes entered per depth; returns its figure.
pub(super) fn nodes_figure(r: &Results, names: &[&str], dir: &ReportDir) -> Result<String> {
    Ok(dir.write_chart(
        "nodes.svg",
        &depth_chart(
            r,
            None,
            names,
            "Nodes entered per depth",
            "positions entered (count)",
            true,
            |r| r.counters.nodes as f64,
        ),
        "Positions the search entered per iteration, quiescence included (log scale); the paper \
         has no such count",
    )?)
}

/// Writes the chart of repetitions scored as draws per depth (detection off left out); returns
/// its figure.
pub(super) fn repetitions_figure(
    r: &Results,
    paper: &Paper,
    names: &[&str],
    dir: &ReportDir,
) -> Result<String> {
    let mut rep_chart = depth_chart(
        r,
        None,
        names,
        "Repetitions scored as draws per depth",
        "repetitions (count)",
        false,
        |r| r.counters.repetitions as f64,
    );
    rep_chart.series.retain(|s| s.name != "off");
    Ok(dir.write_chart(
        "repetitions.svg",
        &rep_chart,
        &format!(
            "Repetitions found and scored as draws per iteration (detection off finds none); the \
             paper noted {} in total",
            fmt_int(paper.totals.on.repetitions.unwrap_or(0))
        ),
    )?)
}

/// `f(run)` against depth for every configuration, with the paper's node counts (its generated
/// positions) when `paper` is given.
pub(super) fn depth_chart(
    r: &Results,
    paper: Option<&Paper>,
    names: &[&str],
    title: &str,
    y: &str,
    log: bool,
    f: fn(&Run) -> f64,
) -> LineChart {
    let mut s = Vec::new();
    if let Some(paper) = paper {
        s.push(paper_series("paper-off", &paper.off));
        s.push(paper_series("paper-on", &paper.on));
    }
    s.extend(names.iter().map(|n| series(&r.runs, n, f)));
    LineChart {
        log_y: log,
        series: s,
        ..LineChart::new(title, "depth (plies)", y)
    }
}
