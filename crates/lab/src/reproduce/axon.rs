//! The Axon experiment (Vučković & Vidanović, §5 "Experimental data"): WAC.018 searched by
//! iterative deepening to depths 1–12 with detection off and with every detector, the paper's
//! Tables 2 and 3 beside ours; plus the paper's Figure 1 perpetual and the Diep–Axon game.
//!
//! [`run`] searches and returns the [`Results`]; [`write`] puts `results.json`, `index.html`
//! and the charts into a staged report directory; [`summary_table`] is what the command line
//! prints. The modules do not depend on each other in a circle: `results` is the vocabulary,
//! `run` searches, `page` and `table` present results.

mod page;
mod results;
mod run;
mod table;

use anyhow::{Context, Result};
use replab_report::ReportDir;

pub use results::{
    Adaptive, Case, Comparison, ConfigRecord, Paper, PaperCounts, PaperRecord, PaperRow,
    PaperTotals, Results, Run, Summary, runs_of,
};
pub use run::{
    ADAPTIVE_DETECTOR, Config, DIEP_AXON, FIGURE1, MAX_DEPTH, MAX_REPEAT, PROFILES, WAC018,
    comparison, configurations, contains_zero, fmt_change_ci, per_thousand, run, verdict,
};
pub use table::summary_table;

/// Writes `results.json`, `index.html` and the page's SVG charts into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_string_pretty(results)?)
        .context("writing results.json")?;
    page::write(results, dir).context("writing index.html")
}
