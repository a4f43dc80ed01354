//! `replab bench [--quick]`: the main job behind `just bench`. It runs every experiment of the
//! table below, in order, with typed configurations, then writes every report and the landing
//! page `index.html` from their typed results. The table ([`Measured`]):
//!
//! | field | experiment | report directory |
//! |---|---|---|
//! | `instructions` | instruction counts under valgrind ([`callgrind`], [`Instructions`]) | none: a landing section |
//! | `axon` | the Axon reproduction ([`axon`]), taking the instruction counts | `axon` |
//! | `study` | the Axon experiment as a study ([`study`]), taking the instruction counts | `study` |
//! | `smp` | parallel search, Lazy SMP ([`smp`]) | `smp` |
//! | `audit` | the audit against exact FIDE identity ([`audit`]) | `audit` |
//! | `conformance` | UCI conformance scenarios ([`conformance`]) | `conformance` |
//! | `key_width` | key width and false draws ([`key_width`]) | `key-width` |
//! | `policies` | engines' draw policies ([`policies`]) | `policies` |
//! | `ghi` | graph-history interaction ([`ghi`]) | `ghi` |
//! | `elo` | the self-play gauntlet in Elo ([`elo`]) | `elo` |
//! | `suites` | the EPD suites ([`suite::Suites`]) | `suite-repetition`, `suite-wac`, `suite-bk` |
//! | `microbench` | detector micro-benchmarks ([`microbench`]) | `microbench` |
//!
//! The step list, its count, the report writes and the landing page's report list, headlines,
//! decision table ([`decision`], first on the page), ranking rows and sections are all
//! generated from the table ([`experiments!`]).
//!
//! The site is many report directories, so [`write`] takes the site's root rather than one
//! [`ReportDir`]: each report is staged and committed atomically on its own, the landing page
//! last. Nothing is written until every experiment has run, so a failed run leaves the
//! previous site as it was.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use replab_detect::DrawPolicy;
use replab_registry::{DETECTORS, DetectorId, SEARCH_DETECTORS, check_policy, policy_matrix};
use replab_report::{Cell, LineChart, Meta, Page, ReportDir, render_fragment, table_html};
use serde::{Deserialize, Serialize};

use replab_conformance::Conformance;
use replab_correctness::{audit::Audit, ghi::Ghi, key_width::KeyWidth, policies::Policies};
use replab_cost::{microbench::Microbench, reproduce::axon::Axon, study::Study, suite::Suites};
use replab_gauntlet::Elo;
use replab_harness::contribution::{
    self, Better, Column, Contribution, Phrase, Plot, Role, Rows, Table, Unit,
};
pub use replab_harness::experiment::Site as Config;
use replab_harness::{Progress, experiment::*, experiments};
use replab_smp::Smp;
use replab_workloads::{callgrind, colours, scenarios};

pub mod decision;

experiments! {
    /// Every experiment's typed results, in step order; `results.json` holds each under its
    /// field's name.
    pub struct Measured {
        /// Deterministic instruction counts under valgrind (`None` when not asked for; empty
        /// with `valgrind: null` when valgrind is absent); first, so that the reproduction
        /// takes them.
        instructions: Instructions,
        /// The Axon reproduction, with the instruction counts in its summary.
        axon: Axon = takes(instructions),
        /// The Axon experiment as a study, judging the speed of move chains on the
        /// instruction counts too.
        study: Study = takes(instructions),
        /// Parallel search (Lazy SMP) and shared repetition structures.
        smp: Smp,
        /// The audit.
        audit: Audit,
        /// The UCI conformance scenarios against replab's engine and the engines installed.
        conformance: Conformance,
        /// Key width and false draws.
        key_width: KeyWidth,
        /// Engines' draw policies.
        policies: Policies,
        /// Graph-history interaction.
        ghi: Ghi,
        /// Elo of each choice by self-play.
        elo: Elo,
        /// The suites, in landing-page order.
        suites: Suites,
        /// The micro-benchmarks, ranked by the instruction counts where they were counted.
        microbench: Microbench = takes(instructions),
    }
}

/// The options of `replab bench`, declared on their fields (the doc comment is the help).
#[derive(Clone, Debug, PartialEq, Eq, clap::Args, replab_settings::Settings)]
pub struct Options {
    /// The short run (about a minute on 2 cores): shallower searches, fewer games and records.
    #[arg(long)]
    pub quick: bool,
    /// The smallest run: every step and page on samples too small to decide anything, a check
    /// that the site builds (the tests' end-to-end run). Implies --quick where a step has no
    /// smaller run.
    #[arg(long)]
    pub smoke: bool,
    /// Root directory of the report site.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Hide the progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// The settings of the instruction counts (bench's own step: no options).
#[derive(Clone, Debug, PartialEq, Eq, clap::Args, replab_settings::Settings)]
pub struct InstructionsConfig {
    /// The replab binary (each workload runs in a child process: `replab measure …`);
    /// `None`: nothing is counted.
    #[arg(skip)]
    pub exe: Option<PathBuf>,
    /// Depth of the searches.
    #[arg(skip)]
    pub depth: u32,
    /// Reversible runs of the cycle workloads.
    #[arg(skip)]
    pub runs: Vec<usize>,
    /// Cycles of each cycle workload.
    #[arg(skip)]
    pub cycles: u64,
}

impl Default for InstructionsConfig {
    fn default() -> Self {
        Self {
            exe: None,
            depth: callgrind::DEFAULT_DEPTH,
            runs: callgrind::DEFAULT_RUNS.to_vec(),
            cycles: callgrind::CYCLES,
        }
    }
}

impl Configuration for InstructionsConfig {
    /// The search at depth 8 and every cycle workload: the micro-benchmarks' ranking is by
    /// exact counts in the short run too (by the clock, two short runs of one build tied
    /// different detectors with the cheapest). [`callgrind::QUICK_CYCLES`] cycles each, a fifth
    /// of the full run's: a detector's count per cycle is the same whole number in every cycle
    /// but for a few dozen instructions of the whole workload, so it moves in the second
    /// decimal, and the cycles were most of the step (the truth detector's alone 0.5 billion
    /// instructions of 1.9 under valgrind).
    fn quick() -> Self {
        Self {
            depth: 8,
            cycles: callgrind::QUICK_CYCLES,
            ..Self::default()
        }
    }
    /// The search at depth 4, no cycle workloads.
    fn smoke() -> Self {
        Self {
            depth: 4,
            runs: Vec::new(),
            ..Self::default()
        }
    }
    fn set_command(&mut self, _command: String) {}
}

/// The search detectors' searches and the cycles of every detector the micro-benchmarks time
/// (the others are not searchable, so [`callgrind::measure`] only counts their cycles): every
/// run length of the micro-benchmarks' ranking is counted for each of its detectors, so the
/// ranking is exact there.
fn count(
    exe: &Path,
    config: &InstructionsConfig,
    progress: &mut dyn Progress,
) -> Result<callgrind::InstructionCosts> {
    let names: Vec<&str> = scenarios::CYCLE_IDS.iter().map(|d| d.name()).collect();
    let plan = callgrind::Plan {
        depth: config.depth,
        runs: &config.runs,
        cycles: config.cycles,
    };
    callgrind::measure(exe, &names, &plan, progress)
}

/// Instruction counts under valgrind: a step of `bench` with a landing section, no report
/// directory and no subcommand of its own.
pub struct Instructions;

impl Experiment for Instructions {
    const NAME: &'static str = "instruction counts (valgrind)";
    const DIR: &'static str = "instructions";
    const TITLE: &'static str = "Instruction counts";
    type Config = InstructionsConfig;
    type Results = Option<callgrind::InstructionCosts>;

    fn run(
        config: &InstructionsConfig,
        progress: &mut dyn Progress,
    ) -> Result<Option<callgrind::InstructionCosts>> {
        config
            .exe
            .as_ref()
            .map(|exe| count(exe, config, progress))
            .transpose()
    }

    fn write(results: &Self::Results, dir: &ReportDir) -> Result<()> {
        write_json(results, dir)
    }

    fn bench_config(site: &Site) -> Result<InstructionsConfig> {
        Ok(InstructionsConfig {
            exe: site.exe.clone(),
            ..site.settings::<Self>()
        })
    }

    fn steps(config: &InstructionsConfig) -> Vec<String> {
        config.exe.iter().map(|_| Self::NAME.to_string()).collect()
    }

    fn run_steps(
        config: &InstructionsConfig,
        progress: &mut dyn Progress,
        steps: &mut Steps,
    ) -> Result<Self::Results> {
        if config.exe.is_none() {
            return Ok(None);
        }
        let label = steps.next(progress);
        Self::run(config, progress).with_context(|| format!("step `{label}` failed"))
    }

    fn pages(_: &Self::Results) -> Vec<Link> {
        Vec::new()
    }

    fn write_site(_: &Self::Results, _: &Path) -> Result<()> {
        Ok(())
    }

    /// Instructions per node relative to detection off: a cost of the decision table
    /// (exact) and a ratio of the ranking.
    fn contributions(results: &Self::Results) -> Vec<Contribution> {
        let Some(costs) = results else {
            return Vec::new();
        };
        let cost = Column::new("instructions", "instr./node vs off", Unit::Ratio)
            .what("instructions per node")
            .decision(Role::Cost, Better::Lower, Rows::Detector);
        let ratio = Column::new(
            "instructions-ratio",
            "instr./node ÷ off",
            Unit::Number { decimals: 3 },
        );
        costs
            .search
            .iter()
            .filter_map(|s| Some((s.detector, costs.overhead(s.detector.name())?)))
            .flat_map(|(detector, x)| {
                [
                    Contribution::new(detector, cost.clone(), contribution::Measured::exact(x)),
                    Contribution::new(detector, ratio.clone(), contribution::Measured::value(x)),
                ]
            })
            .collect()
    }

    fn sections(results: &Self::Results) -> Vec<(String, String)> {
        let html = results.as_ref().map_or_else(
            || {
                "<p>Not measured in this run (instruction counts need the replab binary \
                 and valgrind: <code>replab bench</code> measures them when valgrind is \
                 installed).</p>"
                    .to_string()
            },
            callgrind::section_html,
        );
        vec![(Self::TITLE.to_string(), html)]
    }
}

/// Everything the main job measured: how, and every experiment's typed results (flattened:
/// `{"meta": …, "quick": …, "axon": …, …}`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "S: ExperimentSet")]
pub struct Results<S = Measured> {
    /// How the site was made.
    pub meta: Meta,
    /// A `--quick` run (or a `--smoke` run).
    pub quick: bool,
    /// A `--smoke` run.
    #[serde(default)]
    pub smoke: bool,
    /// Every experiment's results.
    #[serde(flatten)]
    pub experiments: S,
}

/// What `replab bench --help` says after the options: what the optional programs add, the
/// progress lines of a long run, and the experiments in order ([`experiments_help`]).
pub fn help() -> String {
    format!(
        "Three programs add to it when installed; without them every other figure is still \
         reported and each page says what is missing. valgrind (callgrind) adds the instruction \
         counts (each detector's instructions per node, the landing page's instruction section, \
         the measured costs of the gauntlet's equal-cost rows; without it they use the costs \
         recorded in datasets/player-costs.json). The Debian UCI engines \
         (tools/install_engines.sh: stockfish, ethereal-chess, toga2, glaurung, fairy-stockfish) \
         add their rows to the conformance page (absent ones are listed as not run; the short \
         run tests replab's engine only). Chromium is not used by bench: `just check-pages` \
         renders the pages it wrote.\n\nWhere stderr is not a terminal (a log, CI), each step and \
         stage is a line when it starts and then at least every 30 s: what it is doing, how far, \
         how long so far.\n\n{}",
        experiments_help()
    )
}

/// The experiments of the main job, for `replab bench --help`: one line each, in order.
pub fn experiments_help() -> String {
    let lines: Vec<String> = Measured::experiments()
        .iter()
        .map(|(name, title)| format!("  {name:<30} {title}"))
        .collect();
    format!("Experiments, in order:\n{}", lines.join("\n"))
}

/// What `bench` notes before it starts about the recorded datasets that stand in for a
/// measurement: the instruction counts' table when it may not hold this build's costs, and the
/// gauntlet's recorded slope and time ratios when they do not apply.
pub fn notes() -> Vec<String> {
    let table = replab_gauntlet::matches::cost::recorded_staleness()
        .map(|stale| format!("{stale} (the table stands in for valgrind's counts)"));
    let gauntlet = replab_gauntlet::Config::default();
    let recorded = replab_gauntlet::recorded_notes(&gauntlet.datasets, gauntlet.nodes)
        .into_iter()
        .map(|note| format!("{note} (the gauntlet gives no Elo at equal time from it)"));
    table.into_iter().chain(recorded).collect()
}

/// The labels of the steps `bench` runs with `config`, in order.
pub fn steps<S: ExperimentSet>(config: &Config) -> Result<Vec<String>> {
    S::steps(config)
}

/// Runs every experiment of the main job, in order; nothing is written.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    run_set(config, progress)
}

/// Runs every experiment of the table `S`, in order; nothing is written.
pub fn run_set<S: ExperimentSet>(
    config: &Config,
    progress: &mut dyn Progress,
) -> Result<Results<S>> {
    let meta = Meta::collect(&config.command);
    let experiments = S::run(config, progress)?;
    progress.finish();
    Ok(Results {
        meta,
        quick: config.quick,
        smoke: config.smoke,
        experiments,
    })
}

/// The files the site writes at its root, beside the report directories.
pub const SITE_ROOT_FILES: [&str; 3] = ["scaling.svg", "decision.csv", "index.html"];

/// Refuses a site root `out` that replab may not write into: root files or report directories
/// (`dirs`) that replab did not write.
pub fn check_out(out: &Path, dirs: &[&str]) -> Result<()> {
    replab_report::check_site_root(out, &SITE_ROOT_FILES, dirs).with_context(|| {
        format!(
            "cannot write the site to {} {}",
            Options::OUT,
            out.display()
        )
    })
}

/// Writes every report under `out` (one directory each, committed atomically) and then the
/// landing page `out/index.html`. Refuses, before writing anything, a root or report directory
/// that replab did not write; other files in `out` are left alone.
pub fn write<S: ExperimentSet>(results: &Results<S>, out: &Path) -> Result<()> {
    // Nothing is written unless every path replab would replace is its own (docs/contracts.md).
    let pages = results.experiments.pages();
    let mut dirs: Vec<&str> = pages.iter().map(|l| l.dir.as_str()).collect();
    dirs.push(".landing");
    check_out(out, &dirs)?;
    replab_report::create_site_root(out)?;
    results.experiments.write(out)?;
    landing(results, out)
}

/// The ranking table: one row per registry detector with a value in a ranking column (registry
/// order), one column per key the contributions name for it.
fn ranking_table(values: &[Contribution]) -> String {
    let columns = decision::columns(values, Table::Ranking);
    let mut headers = vec!["detector".to_string()];
    headers.extend(columns.iter().map(|c| c.heading.clone()));
    let cell = |detector: DetectorId, column: &Column| {
        let texts: Vec<String> = values
            .iter()
            .filter(|c| c.detector == detector && c.column.key == column.key)
            .map(|c| c.value.text(column.unit))
            .collect();
        Cell::text(if texts.is_empty() {
            "—".to_string()
        } else {
            texts.join("; ")
        })
    };
    let rows: Vec<Vec<Cell>> = DETECTORS
        .iter()
        .map(|d| d.id)
        .filter(|d| {
            values
                .iter()
                .any(|c| c.detector == *d && c.column.shows_in(Table::Ranking))
        })
        .map(|d| {
            std::iter::once(Cell::text(d.name()))
                .chain(columns.iter().map(|c| cell(d, c)))
                .collect()
        })
        .collect();
    table_html(&headers, &rows, true)
}

/// The landing page's chart: every plotted value, one series per detector (registry order),
/// titled as the first plotted column says.
fn chart(values: &[Contribution]) -> LineChart {
    let plotted: Vec<(&Contribution, &Plot)> = values
        .iter()
        .filter_map(|c| Some((c, c.column.plot.as_ref()?)))
        .collect();
    let series = DetectorId::ALL
        .iter()
        .filter_map(|d| {
            let points: Vec<(f64, f64)> = plotted
                .iter()
                .filter(|(c, _)| c.detector == *d)
                .map(|(c, p)| (p.x, c.value.estimate.value))
                .collect();
            (!points.is_empty()).then(|| colours::series(d.name(), points))
        })
        .collect();
    let plot = plotted.first().map(|(_, p)| *p);
    LineChart {
        log_y: plot.is_some_and(|p| p.log_y),
        series,
        ..LineChart::new(
            plot.map_or("", |p| p.title.as_str()),
            plot.map_or("", |p| p.x_label.as_str()),
            plot.map_or("", |p| p.y_label.as_str()),
        )
    }
}

/// One headline as the landing page shows it.
#[derive(Serialize)]
struct Line {
    label: String,
    /// Words and links, escaped by the template.
    context: Vec<Phrase>,
    /// `": "` after the context, or `" "` after a label that ends a sentence.
    sep: &'static str,
    text: String,
    /// `"."` unless the text ends a sentence.
    end: &'static str,
}

/// The headline context of the landing page.
#[derive(Serialize)]
struct Headlines {
    quick: bool,
    smoke: bool,
    lines: Vec<Line>,
    policy: &'static str,
    refused: String,
}

fn headlines<S: ExperimentSet>(results: &Results<S>) -> Headlines {
    let policy = DrawPolicy::default();
    let refused: Vec<String> = SEARCH_DETECTORS
        .iter()
        .filter_map(|n| check_policy(n, policy).err().map(|e| e.to_string()))
        .collect();
    let lines = results
        .experiments
        .headlines()
        .into_iter()
        .map(|h| Line {
            sep: if h.label.ends_with('.') { " " } else { ": " },
            end: if h.text.ends_with('.') { "" } else { "." },
            label: h.label,
            context: h.context,
            text: h.text,
        })
        .collect();
    Headlines {
        quick: results.quick,
        smoke: results.smoke,
        lines,
        policy: policy.name(),
        refused: refused.join("; "),
    }
}

/// The detectors some correctness value of `values` (the audit's false draws and missed
/// repetitions) finds wrong, in the order they come; `None` when nothing measured correctness.
fn inexact_detectors(values: &[Contribution]) -> Option<Vec<&'static str>> {
    let checks: Vec<&Contribution> = values
        .iter()
        .filter(|c| c.column.role == Role::Correctness)
        .collect();
    if checks.is_empty() {
        return None;
    }
    let mut wrong: Vec<&'static str> = Vec::new();
    for c in checks.iter().filter(|c| c.value.estimate.value != 0.0) {
        if !wrong.contains(&c.detector.name()) {
            wrong.push(c.detector.name());
        }
    }
    Some(wrong)
}

/// The detector × draw-policy matrix: allowed or refused, and why (from the registry), with
/// the detectors the correctness values of `values` find inexact.
fn policies_section(values: &[Contribution]) -> Result<String> {
    #[derive(Serialize)]
    struct Reason {
        detector: &'static str,
        policies: String,
        reason: String,
    }
    #[derive(Serialize)]
    struct Context {
        table: String,
        reasons: Vec<Reason>,
        allowed: usize,
        refused: usize,
        audited: bool,
        inexact: String,
    }
    let cells = policy_matrix();
    let mut headers = vec!["detector".to_string()];
    headers.extend(DrawPolicy::ALL.iter().map(|p| p.name().to_string()));
    let mut rows = Vec::new();
    let mut reasons: Vec<Reason> = Vec::new();
    let shown = DETECTORS
        .iter()
        .filter(|d| d.caps.probes || d.caps.upcoming);
    let listed: Vec<_> = cells
        .iter()
        .filter(|c| shown.clone().any(|d| d.name == c.detector))
        .collect();
    let inexact = inexact_detectors(values);
    for d in shown {
        let mut row = vec![Cell::text(d.name)];
        for c in cells.iter().filter(|c| c.detector == d.name) {
            row.push(Cell::text(if c.refusal.is_some() {
                "refused"
            } else {
                "allowed"
            }));
            if let Some(r) = &c.refusal {
                // One line per detector and reason, naming the policies it covers.
                match reasons
                    .iter_mut()
                    .find(|x| x.detector == d.name && x.reason == r.reason)
                {
                    Some(x) => x.policies += &format!(", {}", c.policy.name()),
                    None => reasons.push(Reason {
                        detector: d.name,
                        policies: c.policy.name().to_string(),
                        reason: r.reason.clone(),
                    }),
                }
            }
        }
        rows.push(row);
    }
    Ok(render_fragment(
        "bench/policies.html",
        include_str!("../../templates/bench/policies.html"),
        &Context {
            table: table_html(&headers, &rows, false),
            reasons,
            allowed: listed.iter().filter(|c| c.refusal.is_none()).count(),
            refused: listed.iter().filter(|c| c.refusal.is_some()).count(),
            audited: inexact.is_some(),
            inexact: inexact.unwrap_or_default().join(", "),
        },
    )?)
}

/// The decision table of `values` as HTML, also written as `decision.csv` into `dir` (as
/// plain text, with every value's note and the recommendation's whole sentence).
fn decision_table(dir: &ReportDir, values: &[Contribution]) -> Result<String> {
    let table = decision::table(values);
    let (headers, rows) = decision::text_cells(&table);
    dir.write(
        "decision.csv",
        replab_report::csv::table_csv(&headers, &rows),
    )?;
    let (headers, rows) = decision::cells(&table);
    Ok(table_html(&headers, &rows, false) + &replab_report::csv::csv_link("decision.csv"))
}

/// The landing page's opening: one sentence per question, grouped as the decision table's
/// recommendations are, each name linked to its row.
fn summary_section(values: &[Contribution]) -> String {
    format!(
        "{}<p>Each group is the decision table's recommendation, computed from its columns; \
         a name links to its row, where the figures and what would decide an undecided row \
         are. A choice that breaks the draw rules (no repetition detection, a failed FIDE \
         scenario, a false draw or a missed repetition) or that a check of them did not \
         measure is never a candidate, whatever its strength.</p>\n",
        decision::summary_html(&decision::table(values))
    )
}

/// Writes the landing page from the typed results.
fn landing<S: ExperimentSet>(results: &Results<S>, out: &Path) -> Result<()> {
    let values = results.experiments.contributions();
    let dir = ReportDir::create(out.join(".landing"))?;
    let figure = dir.write_chart(
        "scaling.svg",
        &chart(&values),
        "Scaling with the reversible run",
    )?;
    let pages = results.experiments.pages();
    #[derive(Serialize)]
    struct Reports<'a> {
        reports: &'a [Link],
    }
    #[derive(Serialize)]
    struct Ranking {
        table: String,
    }
    let nav: Vec<(String, String)> = pages
        .iter()
        .map(|l| (l.title.clone(), format!("{}/index.html", l.dir)))
        .collect();
    #[derive(Serialize)]
    struct DecisionContext {
        table: String,
    }
    let mut page = Page::new("replab: repetition detection compared", &results.meta)
        .nav(nav)
        .section("What the numbers say", summary_section(&values))
        .section(
            "Which choice: the decision table",
            render_fragment(
                "bench/decision.html",
                include_str!("../../templates/bench/decision.html"),
                &DecisionContext {
                    table: decision_table(&dir, &values)?,
                },
            )?,
        )
        .section(
            "Headlines",
            render_fragment(
                "bench/landing.html",
                include_str!("../../templates/bench/landing.html"),
                &headlines(results),
            )?,
        )
        .section(
            "Ranking: correctness and cost",
            render_fragment(
                "bench/ranking.html",
                include_str!("../../templates/bench/ranking.html"),
                &Ranking {
                    table: ranking_table(&values),
                },
            )?,
        )
        .section("Scaling", figure);
    for (title, html) in results.experiments.sections() {
        page = page.section(&title, html);
    }
    page.section("Detector × draw policy", policies_section(&values)?)
        .section(
            "Reports",
            render_fragment(
                "bench/reports.html",
                include_str!("../../templates/bench/reports.html"),
                &Reports { reports: &pages },
            )?,
        )
        .write(&dir, "index.html")?;
    // The landing page lives at the root of `out`, beside the report directories: move its
    // staged files there one by one (each an atomic rename).
    let staged = dir.commit()?;
    for name in SITE_ROOT_FILES {
        std::fs::rename(staged.join(name), out.join(name))
            .with_context(|| format!("cannot write {}", out.join(name).display()))?;
    }
    std::fs::remove_dir_all(&staged).ok();
    Ok(())
}

#[cfg(test)]
mod tests {
    use replab_harness::contribution::Measured;

    use super::*;

    /// An audit-like correctness value: `n` false draws of `detector`.
    fn false_draws(detector: &str, n: f64) -> Contribution {
        let column = Column::new("false-draws", "false draws", Unit::Count)
            .what("false draws")
            .decision(Role::Correctness, Better::Lower, Rows::EveryPolicy);
        let detector = DetectorId::from_name(detector).unwrap();
        Contribution::new(detector, column, Measured::value(n))
    }

    #[test]
    fn the_policy_matrix_says_which_allowed_detectors_the_audit_finds_inexact() {
        let values = [
            false_draws("linear", 0.0),
            false_draws("tt-open", 3.0),
            false_draws("tt-thompson", 1.0),
        ];
        let html = policies_section(&values).unwrap();
        assert!(!html.contains("either correct or refused"), "{html}");
        assert!(
            html.contains("the audit finds tt-open, tt-thompson\ninexact"),
            "{html}"
        );
        assert!(html.contains(" are allowed and "), "{html}");
        let unaudited = policies_section(&[]).unwrap();
        assert!(unaudited.contains("did not run"), "{unaudited}");
    }
}
