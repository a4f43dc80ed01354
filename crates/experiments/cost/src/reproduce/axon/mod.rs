//! The Axon experiment (Vučković & Vidanović, §5 "Experimental data"): WAC.018 searched by
//! iterative deepening to depths 1–12 with detection off and with every detector, the paper's
//! Tables 2 and 3 beside ours; plus the paper's Figure 1 perpetual and the Diep–Axon game.
//!
//! [`run`] searches and returns the [`Results`]; [`write`] puts `results.json`, `index.html`
//! and the charts into a staged report directory; [`summary_table`] is what the command line
//! prints. The modules do not depend on each other in a circle: `results` is the vocabulary
//! (its `config` records `run`'s [`Config`]), `verdict` compares the results with the paper's
//! claims, `run` searches, `page` (with its `analysis`, `figures` and `cells`) and `table`
//! present results.

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

use crate::Progress;
use crate::contribution::{Better, Column, Contribution, Measured, Phrase, Role, Rows, Unit};
use crate::experiment::{Experiment, Headline, Takes};

pub use cells::fmt_change;
pub use results::{
    Adaptive, Case, Comparison, Paper, PaperCounts, PaperRecord, PaperRow, PaperTotals, Results,
    Run, Setup, Summary, runs_of,
};
pub use run::{
    ADAPTIVE_DETECTOR, Config, DIEP_AXON, FIGURE1, MAX_DEPTH, MAX_REPEAT, PROFILES, WAC018,
    configurations, run,
};
pub use table::summary_table;
pub use verdict::{comparison, per_thousand, verdict};

/// The page title.
pub const TITLE: &str = "Axon reproduction (WAC.018, the paper's experiment)";

/// Writes `results.json`, `index.html` and the page's SVG charts into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    crate::experiment::write_json(results, dir)?;
    page::write(results, dir).context("writing index.html")
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

/// In `bench`, the reproduction takes the instruction counts of `bench`'s own step into its
/// summary (`overhead_instructions`) instead of counting them again.
impl Takes for Axon {
    type Input = Option<crate::callgrind::InstructionCosts>;

    fn take(config: &mut Config, input: &Self::Input) {
        config.instructions.clone_from(input);
    }
}

/// In `bench` the instruction counts are measured once, by the bench's own step, and handed
/// over before the run ([`Takes`]): its settings name no binary (`exe` stays `None`).
impl Experiment for Axon {
    const NAME: &'static str = "reproduce axon";
    const DIR: &'static str = "axon";
    const TITLE: &'static str = TITLE;
    type Config = Config;
    type Results = Results;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
        run(config, progress)
    }

    fn write(results: &Results, dir: &ReportDir) -> Result<()> {
        write(results, dir)
    }

    fn summary(results: &Results) -> String {
        summary_table(results)
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
