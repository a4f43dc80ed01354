//! `replab bench [--quick]`: the main job behind `just bench`. It runs every experiment of the
//! table below, in order, with typed configurations, then writes every report and the landing
//! page `index.html` from their typed results. The table ([`Measured`]):
//!
//! | field | experiment | report directory |
//! |---|---|---|
//! | `instructions` | instruction counts under valgrind ([`callgrind`], [`Instructions`]) | none: a landing section |
//! | `axon` | the Axon reproduction ([`axon`]), taking the instruction counts | `axon` |
//! | `study` | the Axon experiment as a study ([`study`]) | `study` |
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
use replab_registry::{DETECTORS, SEARCH_DETECTORS, check_policy, policy_matrix};
use replab_report::{
    Cell, LineChart, Meta, Page, ReportDir, fmt_delta_pct, render_fragment, table_html,
};
use serde::{Deserialize, Serialize};

use replab_experiments::{
    microbench::Microbench, reproduce::axon::Axon, smp::Smp, study::Study, suite::Suites,
};
pub use replab_harness::experiment::Site as Config;
use replab_harness::{Progress, experiment::*, experiments};
use replab_rules::{
    audit::Audit, conformance::Conformance, elo::Elo, ghi::Ghi, key_width::KeyWidth,
    policies::Policies,
};
use replab_workloads::{callgrind, colours};

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
        /// The Axon experiment as a study.
        study: Study,
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
        /// The micro-benchmarks.
        microbench: Microbench,
    }
}

/// The settings of the instruction counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstructionsConfig {
    /// The replab binary (each workload runs in a child process: `replab measure …`);
    /// `None`: nothing is counted.
    pub exe: Option<PathBuf>,
    /// Depth of the searches.
    pub depth: u32,
    /// Reversible runs of the cycle workloads.
    pub runs: Vec<usize>,
}

impl Default for InstructionsConfig {
    fn default() -> Self {
        Self {
            exe: None,
            depth: callgrind::DEFAULT_DEPTH,
            runs: callgrind::DEFAULT_RUNS.to_vec(),
        }
    }
}

impl Settings for InstructionsConfig {
    /// The search at depth 8, no cycle workloads.
    fn quick() -> Self {
        Self {
            depth: 8,
            runs: Vec::new(),
            ..Self::default()
        }
    }
    fn set_command(&mut self, _command: String) {}
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
            .map(|exe| {
                callgrind::measure(exe, &SEARCH_DETECTORS, config.depth, &config.runs, progress)
            })
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

    fn ranking(results: &Self::Results) -> Vec<Ranked> {
        let Some(costs) = results else {
            return Vec::new();
        };
        costs
            .search
            .iter()
            .filter_map(|s| {
                Some(Ranked {
                    detector: s.detector.to_string(),
                    fact: Fact::Instructions(costs.overhead(s.detector.name())?),
                })
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
    /// A `--quick` run.
    pub quick: bool,
    /// Every experiment's results.
    #[serde(flatten)]
    pub experiments: S,
}

/// The experiments of the main job, for `replab bench --help`: one line each, in order.
pub fn experiments_help() -> String {
    let lines: Vec<String> = Measured::experiments()
        .iter()
        .map(|(name, title)| format!("  {name:<30} {title}"))
        .collect();
    format!("Experiments, in order:\n{}", lines.join("\n"))
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
        experiments,
    })
}

/// The files the site writes at its root, beside the report directories.
pub const SITE_ROOT_FILES: [&str; 2] = ["scaling.svg", "index.html"];

/// Writes every report under `out` (one directory each, committed atomically) and then the
/// landing page `out/index.html`. Refuses, before writing anything, a root or report directory
/// that replab did not write; other files in `out` are left alone.
pub fn write<S: ExperimentSet>(results: &Results<S>, out: &Path) -> Result<()> {
    // Nothing is written unless every path replab would replace is its own (docs/contracts.md).
    let pages = results.experiments.pages();
    let mut dirs: Vec<&str> = pages.iter().map(|l| l.dir.as_str()).collect();
    dirs.push(".landing");
    replab_report::check_site_root(out, &SITE_ROOT_FILES, &dirs)
        .with_context(|| format!("cannot write the site to --out {}", out.display()))?;
    replab_report::create_site_root(out)?;
    results.experiments.write(out)?;
    landing(results, out)
}

/// Per-detector facts gathered from every experiment, for the ranking table.
#[derive(Default, Clone)]
struct Row {
    detector: String,
    false_positive: Option<u64>,
    false_negative: Option<u64>,
    /// (run length, ns per cycle, ratio to a copy-make), no repetition.
    ns: Vec<(usize, f64, f64)>,
    overhead: Option<f64>,
    /// Instructions per node relative to `off` (valgrind).
    instructions: Option<f64>,
    /// Time against `off`, per suite column, and whether its interval excludes no change.
    suites: Vec<Option<(f64, bool)>>,
}

/// The ranking: the suite columns and one row per registry detector with a fact, in the
/// registry's order.
fn rows(facts: &[Ranked]) -> (Vec<String>, Vec<Row>) {
    let mut columns: Vec<String> = Vec::new();
    for f in facts {
        if let Fact::SuiteTime { suite, .. } = &f.fact
            && !columns.contains(suite)
        {
            columns.push(suite.clone());
        }
    }
    let rows = DETECTORS
        .iter()
        .filter(|d| {
            facts.iter().any(|f| {
                f.detector == d.name
                    && !matches!(
                        f.fact,
                        Fact::Conformance { .. } | Fact::Elo(_) | Fact::PolicyTree { .. }
                    )
            })
        })
        .map(|d| {
            let mut row = Row {
                detector: d.name.to_string(),
                suites: vec![None; columns.len()],
                ..Row::default()
            };
            for f in facts.iter().filter(|f| f.detector == d.name) {
                match &f.fact {
                    Fact::Errors {
                        false_positive,
                        false_negative,
                    } => {
                        row.false_positive.get_or_insert(*false_positive);
                        row.false_negative.get_or_insert(*false_negative);
                    }
                    Fact::Cycle { run, ns, ratio } => row.ns.push((*run, *ns, *ratio)),
                    Fact::SearchOverhead { ratio, .. } => {
                        row.overhead.get_or_insert(*ratio);
                    }
                    Fact::Instructions(i) => {
                        row.instructions.get_or_insert(*i);
                    }
                    Fact::SuiteTime { suite, change } => {
                        if let Some(i) = columns.iter().position(|c| c == suite) {
                            row.suites[i] = row.suites[i].or(*change);
                        }
                    }
                    // The decision table's facts, not the ranking's.
                    Fact::Conformance { .. } | Fact::Elo(_) | Fact::PolicyTree { .. } => {}
                }
            }
            row
        })
        .collect();
    (columns, rows)
}

/// One headline as the landing page shows it.
#[derive(Serialize)]
struct Line {
    label: String,
    context: String,
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
        lines,
        policy: policy.name(),
        refused: refused.join("; "),
    }
}

/// The ranking table as HTML.
fn ranking_table(columns: &[String], rows: &[Row]) -> String {
    const SHOW_RUNS: [usize; 4] = [0, 8, 32, 100];
    let dash = || Cell::text("—");
    let mut headers: Vec<String> =
        vec!["detector".into(), "false pos.".into(), "false neg.".into()];
    headers.extend(SHOW_RUNS.iter().map(|r| format!("ns/cycle, run {r}")));
    headers.push("× copy-make, run 32".into());
    headers.push("NPS overhead (axon)".into());
    headers.push("instructions/node vs off".into());
    headers.extend(columns.iter().map(|s| format!("time vs off ({s})")));
    let table_rows: Vec<Vec<Cell>> = rows
        .iter()
        .map(|r| {
            let mut row = vec![
                Cell::text(&r.detector),
                r.false_positive.map_or_else(dash, Cell::from),
                r.false_negative.map_or_else(dash, Cell::from),
            ];
            let at = |run: usize| r.ns.iter().find(|(n, _, _)| *n == run);
            row.extend(SHOW_RUNS.iter().map(|&run| {
                at(run).map_or_else(dash, |(_, ns, _)| Cell::text(format!("{ns:.1}")))
            }));
            row.push(at(32).map_or_else(dash, |(_, _, x)| Cell::text(format!("{x:.2}"))));
            row.push(
                r.overhead
                    .map_or_else(dash, |o| Cell::text(format!("{o:.3}"))),
            );
            row.push(
                r.instructions
                    .map_or_else(dash, |o| Cell::text(format!("{o:.3}"))),
            );
            row.extend(r.suites.iter().map(|c| {
                c.map_or_else(dash, |(c, differs)| {
                    if differs {
                        Cell::text(fmt_delta_pct(c))
                    } else {
                        Cell::text(format!("{} (n.s.)", fmt_delta_pct(c)))
                    }
                })
            }));
            row
        })
        .collect();
    table_html(&headers, &table_rows, true)
}

/// The detector × draw-policy matrix: allowed or refused, and why (from the registry).
fn policies_section() -> Result<String> {
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
    }
    let cells = policy_matrix();
    let mut headers = vec!["detector".to_string()];
    headers.extend(DrawPolicy::ALL.iter().map(|p| p.name().to_string()));
    let mut rows = Vec::new();
    let mut reasons: Vec<Reason> = Vec::new();
    for d in DETECTORS
        .iter()
        .filter(|d| d.caps.probes || d.caps.upcoming)
    {
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
        },
    )?)
}

/// The scaling chart: cost of a cycle by reversible run, one series per detector.
fn scaling_chart(rows: &[Row]) -> LineChart {
    LineChart {
        log_y: true,
        series: rows
            .iter()
            .filter(|r| !r.ns.is_empty())
            .map(|r| {
                colours::series(
                    r.detector.clone(),
                    r.ns.iter().map(|&(run, ns, _)| (run as f64, ns)),
                )
            })
            .collect(),
        ..LineChart::new(
            "Cost of one enter + probe + leave vs reversible run behind the position",
            "reversible run (plies)",
            "time (ns per cycle)",
        )
    }
}

/// Writes the landing page from the typed results.
fn landing<S: ExperimentSet>(results: &Results<S>, out: &Path) -> Result<()> {
    let facts = results.experiments.ranking();
    let (columns, rows) = rows(&facts);
    let dir = ReportDir::create(out.join(".landing"))?;
    let figure = dir.write_chart(
        "scaling.svg",
        &scaling_chart(&rows),
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
        .section(
            "Which choice: the decision table",
            render_fragment(
                "bench/decision.html",
                include_str!("../../templates/bench/decision.html"),
                &DecisionContext {
                    table: decision::table(&decision::choices(&facts)),
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
                    table: ranking_table(&columns, &rows),
                },
            )?,
        )
        .section("Scaling", figure);
    for (title, html) in results.experiments.sections() {
        page = page.section(&title, html);
    }
    page.section("Detector × draw policy", policies_section()?)
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
