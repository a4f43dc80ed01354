//! The Axon experiment (Vučković & Vidanović, §5 "Experimental data"): WAC.018 searched by
//! iterative deepening to depths 1–12 with detection off and with every detector, the paper's
//! Tables 2 and 3 beside ours; plus the paper's Figure 1 perpetual and the Diep–Axon game.
//!
//! [`run`] searches and returns the [`Results`]; [`write`] puts `results.json`, `index.html`
//! and the charts into a staged report directory; [`summary_table`] is what the command line
//! prints. The modules do not depend on each other in a circle: `results` is the vocabulary,
//! `verdict` compares the results with the paper's claims, `run` searches, `page` (with its
//! `analysis`, `figures` and `cells`) and `table` present results.

mod analysis;
mod cells;
mod figures;
mod page;
mod results;
mod run;
mod table;
mod verdict;

use anyhow::{Context, Result};
use replab_report::ReportDir;

use crate::contribution::{Better, Column, Contribution, Measured, Phrase, Role, Rows, Unit};
use crate::experiment::{Experiment, Headline, Site, Takes};

pub use cells::fmt_change;
pub use results::{
    Adaptive, Case, Comparison, ConfigRecord, Paper, PaperCounts, PaperRecord, PaperRow,
    PaperTotals, Results, Run, Summary, runs_of,
};
pub use run::{
    ADAPTIVE_DETECTOR, Config, DIEP_AXON, FIGURE1, MAX_DEPTH, MAX_REPEAT, PROFILES, WAC018,
    configurations, run,
};
pub use table::summary_table;
pub use verdict::{comparison, per_thousand, verdict};

replab_settings::declare! {
    /// Every declared setting of `replab reproduce axon`.
    pub SETTINGS for Config = [
        DEPTH: max_depth, 1, MAX_DEPTH as u64,
            "Deepest iteration in plies ({range}); the paper went to 12.";
        REPEAT: repeat, 1, MAX_REPEAT as u64,
            "Search each WAC.018 configuration this many times in interleaved rounds ({range}); times are the median with a 95% interval (the runs' counters must agree).";
        OVERHEAD_MAX_ROUNDS: overhead_max_rounds, 1, 100_000,
            "Cap on the paired rounds behind linear's overhead (fixed rounds included).";
    ]
}

/// The page title.
pub const TITLE: &str = "Axon reproduction (WAC.018, the paper's experiment)";

/// Writes `results.json`, `index.html` and the page's SVG charts into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    crate::experiment::write_json(results, dir)?;
    page::write(results, dir).context("writing index.html")
}

/// Parses `--overhead-target`: a fraction from 0 (off: `None`) to below 1.
pub fn parse_overhead_target(text: &str) -> Result<Option<f64>, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..1.0).contains(&x) => Ok((x > 0.0).then_some(x)),
        _ => Err(format!(
            "{text} is not a fraction from 0 to below 1 (0.01 = 1 percentage point)"
        )),
    }
}

/// Parses `--overhead-max-seconds`: a non-negative number of seconds.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("{text} is not a number of seconds")),
    }
}

/// The reproduction as an experiment of the table.
pub struct Axon;

crate::settings!(Config, check, SETTINGS);

/// In `bench`, the reproduction takes the instruction counts of `bench`'s own step into its
/// summary (`overhead_instructions`) instead of counting them again.
impl Takes for Axon {
    type Input = Option<crate::callgrind::InstructionCosts>;

    fn take(config: &mut Config, input: &Self::Input) {
        config.instructions.clone_from(input);
    }
}

impl Experiment for Axon {
    crate::experiment_items!("reproduce axon", "axon", summary);

    fn bench_config(site: &Site) -> Result<Config> {
        let mut config = site.settings::<Self>();
        if site.quick {
            config.command = format!(
                "replab reproduce axon --max-depth {} --out reports/axon",
                config.max_depth
            );
        }
        // The instruction counts are measured once, by the bench's own step, and handed over
        // before the run ([`Takes`]).
        config.exe = None;
        Ok(config)
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        let cost: Vec<String> = results
            .summary
            .iter()
            .map(|s| {
                format!(
                    "{} {:.2}× {}",
                    s.detector,
                    s.overhead.value,
                    s.overhead.interval.text(|x| format!("{x:.2}"))
                )
            })
            .collect();
        vec![
            Headline {
                label: "The paper's claims vs ours.".into(),
                context: Vec::new(),
                text: results.verdict.clone(),
            },
            Headline {
                label: "Cost in a search".into(),
                context: vec![Phrase::text(
                    " (WAC.018, NPS of detection off ÷ NPS with the detector, same searches; \
                     below 1 means the detector's search ran faster)",
                )],
                text: cost.join(", "),
            },
        ]
    }

    /// NPS of detection off ÷ NPS with the detector: shown in the decision table with its
    /// interval (sampled: not a cost the recommendation decides on) and as a ratio in the
    /// ranking.
    fn contributions(results: &Results) -> Vec<Contribution> {
        let overhead = Column::new("nps-overhead", "NPS overhead vs off", Unit::Ratio)
            .what("NPS overhead")
            .decision(Role::Shown, Better::Lower, Rows::Detector);
        let ratio = Column::new(
            "nps-overhead-ratio",
            "NPS off ÷ with",
            Unit::Number { decimals: 3 },
        );
        results
            .summary
            .iter()
            .flat_map(|s| {
                [
                    Contribution::new(
                        s.detector,
                        overhead.clone(),
                        Measured::value(s.overhead.value).interval(s.overhead.interval),
                    ),
                    Contribution::new(s.detector, ratio.clone(), Measured::value(s.overhead.value)),
                ]
            })
            .collect()
    }
}
