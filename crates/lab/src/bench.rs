//! `replab bench [--quick]`: the main job behind `just bench`. Runs the Axon reproduction, the
//! audit, the suites and the detector micro-benchmarks with typed configurations, then writes
//! every report and the landing page `index.html` from their typed results.
//!
//! The site is many report directories, so [`write`] takes the site's root rather than one
//! [`ReportDir`]: each report is staged and committed atomically on its own, the landing page
//! last. Nothing is written until every experiment has run, so a failed run leaves the
//! previous site as it was.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use replab_detect::DrawPolicy;
use replab_registry::{DETECTORS, SEARCH_DETECTORS, check_policy, policy_matrix};
use replab_report::{
    Cell, LineChart, Meta, Page, ReportDir, Series, fmt_delta_pct, fmt_int, render_fragment,
    table_html,
};
use serde::{Deserialize, Serialize};

use crate::{
    Progress, audit, callgrind, conformance, ghi, key_width, microbench, policies, reproduce::axon,
    smp, study, suite,
};

/// The settings of the main job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The short run (under 2 minutes on 2 cores): shallower searches, fewer games and records.
    pub quick: bool,
    /// Where the datasets are (`datasets/` of the repository): the suites' EPD files.
    pub datasets: PathBuf,
    /// The command line that regenerates the site (`replab bench`, `replab bench --quick`).
    pub command: String,
    /// The replab binary, for the instruction counts under valgrind (each workload runs in a
    /// child process: `replab measure …`). `None`: no instruction counts (tests).
    pub exe: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            quick: false,
            datasets: PathBuf::from("datasets"),
            command: "replab bench".into(),
            exe: None,
        }
    }
}

/// One EPD suite of the main job: its report directory, file and depth.
struct SuitePlan {
    dir: &'static str,
    title: &'static str,
    file: &'static str,
    depth: u32,
    limit: Option<usize>,
    repeats: usize,
}

impl Config {
    /// The suites this run searches.
    fn suites(&self) -> Vec<SuitePlan> {
        // Depths and repeats keep the full run, with every other experiment, within its
        // 15-minute budget: 6 interleaved repeats, the fewest whose median interval reaches 95%
        // (96.9%), in both runs.
        let plan = |dir, title, file, depth, limit, repeats| SuitePlan {
            dir,
            title,
            file,
            depth,
            limit,
            repeats,
        };
        if self.quick {
            vec![
                plan("suite-repetition", REPETITION, "repetition.epd", 5, None, 6),
                plan("suite-wac", WAC, "wac.epd", 4, Some(60), 6),
            ]
        } else {
            vec![
                plan("suite-repetition", REPETITION, "repetition.epd", 7, None, 6),
                plan("suite-wac", WAC, "wac.epd", 5, None, 6),
                plan("suite-bk", BK, "bk.epd", 6, None, 6),
            ]
        }
    }

    /// The reproduction's settings.
    fn axon(&self) -> axon::Config {
        let max_depth = if self.quick { 10 } else { 12 };
        let base = if self.quick {
            axon::Config::quick()
        } else {
            axon::Config::default()
        };
        axon::Config {
            max_depth,
            command: if self.quick {
                format!("replab reproduce axon --max-depth {max_depth} --out reports/axon")
            } else {
                "replab reproduce axon --out reports/axon".into()
            },
            // The instruction counts are measured once, by the bench's own step, and copied
            // into the reproduction's summary.
            exe: None,
            ..base
        }
    }

    /// The study's settings (`--quick`: a shallower grid and endgame search, fewer WAC records).
    fn study(&self) -> study::Config {
        if self.quick {
            study::Config {
                command: "replab study --quick --out reports/study".into(),
                ..study::Config::quick()
            }
        } else {
            study::Config {
                command: "replab study --out reports/study".into(),
                ..study::Config::default()
            }
        }
    }

    /// The conformance run's settings: replab's engine once per search detector (`replab uci`
    /// in a child process when the binary is known, else in-process); the full run adds the
    /// Debian UCI engines installed on the machine (absent ones are listed as not run).
    fn conformance(&self) -> conformance::Config {
        let engines: Vec<Vec<String>> = if self.quick {
            Vec::new()
        } else {
            conformance::DEBIAN_ENGINES
                .iter()
                .map(|e| vec![e.to_string()])
                .collect()
        };
        let mut command = "replab conformance".to_string();
        for e in &engines {
            command += &format!(" --engine {}", e.join(" "));
        }
        command += " --out reports/conformance";
        conformance::Config {
            scenarios: self.datasets.join("conformance.json"),
            replab: match &self.exe {
                Some(exe) => {
                    conformance::Launch::Command(vec![exe.display().to_string(), "uci".into()])
                }
                None => conformance::Launch::InProcess,
            },
            engines,
            command,
            ..conformance::Config::default()
        }
    }

    /// The key-width experiment's settings (`--quick`: fewer games, shallower searches).
    fn key_width(&self) -> key_width::Config {
        let (base, command) = if self.quick {
            (key_width::Config::quick(), "replab key-width --quick")
        } else {
            (key_width::Config::default(), "replab key-width")
        };
        key_width::Config {
            command: command.into(),
            ..base
        }
    }

    /// The parallel-search experiment's settings (`--quick`: shallower, fewer positions).
    fn smp(&self) -> smp::Config {
        if self.quick {
            smp::Config {
                command: "replab smp --quick --out reports/smp".into(),
                ..smp::Config::quick()
            }
        } else {
            smp::Config {
                command: "replab smp --out reports/smp".into(),
                ..smp::Config::default()
            }
        }
    }

    /// The draw-policy experiment's settings (`--quick`: shallower, fewer WAC records).
    fn policies(&self) -> policies::Config {
        if self.quick {
            policies::Config {
                command: "replab policies --quick --out reports/policies".into(),
                ..policies::Config::quick()
            }
        } else {
            policies::Config {
                command: "replab policies --out reports/policies".into(),
                ..policies::Config::default()
            }
        }
    }

    /// The graph-history experiment's settings (`--quick`: shallower, fewer positions).
    fn ghi(&self) -> ghi::Config {
        if self.quick {
            ghi::Config {
                command: "replab ghi --quick --out reports/ghi".into(),
                ..ghi::Config::quick()
            }
        } else {
            ghi::Config {
                command: "replab ghi --out reports/ghi".into(),
                ..ghi::Config::default()
            }
        }
    }

    /// The audit's settings.
    fn audit(&self) -> audit::Config {
        let mut config = audit::Config {
            games: if self.quick { 1_000 } else { 10_000 },
            ..audit::Config::default()
        };
        config.command = audit::command_line(&config, Path::new("reports/audit"));
        config
    }

    /// The settings of one suite.
    fn suite(&self, plan: &SuitePlan) -> Result<suite::Config> {
        let policy = DrawPolicy::default();
        let epd = self.datasets.join(plan.file);
        let mut command = format!(
            "replab suite --epd {} --depth {} --out reports/{}",
            epd.display(),
            plan.depth,
            plan.dir
        );
        if let Some(n) = plan.limit {
            command += &format!(" --limit {n}");
        }
        command += &format!(" --repeats {}", plan.repeats);
        Ok(suite::Config {
            epd,
            depth: plan.depth,
            detectors: suite::parse_detectors("all", policy)?,
            policy,
            limit: plan.limit,
            repeats: plan.repeats,
            command,
            ..suite::Config::default()
        })
    }

    /// The micro-benchmarks' settings.
    fn microbench(&self) -> microbench::Config {
        let mut config = if self.quick {
            microbench::Config::quick()
        } else {
            microbench::Config::default()
        };
        config.command = self.command.clone();
        config
    }
}

const REPETITION: &str = "Repetition-rich suite";
const WAC: &str = "Win At Chess suite";
const BK: &str = "Bratko–Kopec suite";
const AXON_TITLE: &str = "Axon reproduction (WAC.018, the paper's experiment)";
const AUDIT_TITLE: &str = "Audit against exact FIDE identity";

/// One suite's results and where its report goes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteReport {
    /// Report directory under the site's root (`suite-wac`).
    pub dir: String,
    /// Page title on the landing page.
    pub title: String,
    /// The suite's results.
    pub results: suite::SuiteResults,
}

/// Everything the main job measured: every experiment's typed results.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Results {
    /// How the site was made.
    pub meta: Meta,
    /// A `--quick` run.
    pub quick: bool,
    /// The Axon reproduction.
    pub axon: axon::Results,
    /// The Axon experiment as a study.
    pub study: study::Results,
    /// Parallel search (Lazy SMP) and shared repetition structures.
    pub smp: smp::Results,
    /// The audit.
    pub audit: audit::Results,
    /// The UCI conformance scenarios against replab's engine and the engines installed.
    pub conformance: conformance::Results,
    /// Key width and false draws.
    pub key_width: key_width::Results,
    /// Engines' draw policies.
    pub policies: policies::Results,
    /// Graph-history interaction.
    pub ghi: ghi::Results,
    /// The suites, in landing-page order.
    pub suites: Vec<SuiteReport>,
    /// The micro-benchmarks.
    pub microbench: microbench::Results,
    /// Deterministic instruction counts under valgrind (`None` when not asked for; empty with
    /// `valgrind: null` when valgrind is absent).
    pub instructions: Option<callgrind::InstructionCosts>,
}

/// Runs every experiment of the main job, in order; nothing is written.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    let meta = Meta::collect(&config.command);
    let plans = config.suites();
    let suite_configs = plans
        .iter()
        .map(|p| config.suite(p))
        .collect::<Result<Vec<_>>>()?;
    for c in &suite_configs {
        if !c.epd.exists() {
            bail!(
                "{} not found: run replab bench from the repository root",
                c.epd.display()
            );
        }
    }
    let total = 9 + plans.len() + usize::from(config.exe.is_some());
    let mut step = 0;
    let mut announce = |progress: &mut dyn Progress, label: &str| {
        step += 1;
        progress.note(&format!("[{step}/{total}] {label}"));
    };
    announce(progress, "reproduce axon");
    let axon = axon::run(&config.axon(), progress).context("step `reproduce axon` failed")?;
    announce(progress, "study");
    let study = study::run(&config.study(), progress).context("step `study` failed")?;
    announce(progress, "smp");
    let smp = smp::run(&config.smp(), progress).context("step `smp` failed")?;
    announce(progress, "audit");
    let audit = audit::run(&config.audit(), progress).context("step `audit` failed")?;
    announce(progress, "conformance (UCI)");
    let conformance =
        conformance::run(&config.conformance(), progress).context("step `conformance` failed")?;
    announce(progress, "key-width");
    let key_width =
        key_width::run(&config.key_width(), progress).context("step `key-width` failed")?;
    announce(progress, "policies");
    let policies = policies::run(&config.policies(), progress).context("step `policies` failed")?;
    announce(progress, "ghi");
    let ghi = ghi::run(&config.ghi(), progress).context("step `ghi` failed")?;
    let mut suites = Vec::new();
    for (plan, suite_config) in plans.iter().zip(&suite_configs) {
        announce(progress, &format!("suite {}", plan.file));
        let results = suite::run(suite_config, progress)
            .with_context(|| format!("step `suite {}` failed", plan.file))?;
        suites.push(SuiteReport {
            dir: plan.dir.into(),
            title: plan.title.into(),
            results,
        });
    }
    announce(progress, "micro-benchmarks");
    let microbench = microbench::run(&config.microbench(), progress)
        .context("step `micro-benchmarks` failed")?;
    let instructions = match &config.exe {
        Some(exe) => {
            announce(progress, "instruction counts (valgrind)");
            // Quick: the search at depth 8, no cycle workloads; full: depth 10 and every run.
            let (depth, runs): (u32, &[usize]) = if config.quick {
                (8, &[])
            } else {
                (callgrind::DEFAULT_DEPTH, &callgrind::DEFAULT_RUNS)
            };
            Some(
                callgrind::measure(exe, &SEARCH_DETECTORS, depth, runs, progress)
                    .context("step `instruction counts` failed")?,
            )
        }
        None => None,
    };
    let mut axon = axon;
    if let Some(costs) = &instructions {
        for s in &mut axon.summary {
            s.overhead_instructions = costs.overhead(&s.detector);
        }
    }
    progress.finish();
    Ok(Results {
        meta,
        quick: config.quick,
        axon,
        study,
        smp,
        audit,
        conformance,
        key_width,
        policies,
        ghi,
        suites,
        microbench,
        instructions,
    })
}

/// The files the site writes at its root, beside the report directories.
pub const SITE_ROOT_FILES: [&str; 2] = ["scaling.svg", "index.html"];

/// Writes every report under `out` (one directory each, committed atomically) and then the
/// landing page `out/index.html`. Refuses, before writing anything, a root or report directory
/// that replab did not write; other files in `out` are left alone.
pub fn write(results: &Results, out: &Path) -> Result<()> {
    // Nothing is written unless every path replab would replace is its own (docs/contracts.md).
    let dirs: Vec<String> = pages(results).into_iter().map(|(dir, _)| dir).collect();
    let mut dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    dirs.push(".landing");
    replab_report::check_site_root(out, &SITE_ROOT_FILES, &dirs)
        .with_context(|| format!("cannot write the site to --out {}", out.display()))?;
    replab_report::create_site_root(out)?;
    let report = |name: &str, f: &dyn Fn(&ReportDir) -> Result<()>| -> Result<()> {
        let dir = ReportDir::create(out.join(name))?;
        f(&dir)?;
        dir.commit()?;
        Ok(())
    };
    report("axon", &|d| axon::write(&results.axon, d))?;
    report("study", &|d| study::write(&results.study, d))?;
    report("smp", &|d| smp::write(&results.smp, d))?;
    report("audit", &|d| audit::write(&results.audit, d))?;
    report("conformance", &|d| {
        conformance::write(&results.conformance, d)
    })?;
    report("key-width", &|d| key_width::write(&results.key_width, d))?;
    report("policies", &|d| policies::write(&results.policies, d))?;
    report("ghi", &|d| ghi::write(&results.ghi, d))?;
    report("microbench", &|d| microbench::write(&results.microbench, d))?;
    for s in &results.suites {
        report(&s.dir, &|d| suite::write(&s.results, d))?;
    }
    landing(results, out)
}

/// The reports of the site, in landing-page order: (directory, title).
fn pages(results: &Results) -> Vec<(String, String)> {
    let mut pages = vec![
        ("axon".to_string(), AXON_TITLE.to_string()),
        ("study".into(), study::TITLE.into()),
        ("smp".into(), smp::TITLE.into()),
        ("audit".into(), AUDIT_TITLE.into()),
        ("conformance".into(), conformance::TITLE.into()),
        ("key-width".into(), key_width::TITLE.into()),
        ("policies".into(), policies::TITLE.into()),
        ("ghi".into(), ghi::TITLE.into()),
        ("microbench".into(), microbench::TITLE.into()),
    ];
    pages.extend(
        results
            .suites
            .iter()
            .map(|s| (s.dir.clone(), s.title.clone())),
    );
    pages
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
    /// Time against `off`, per suite, and whether its interval excludes no change.
    suites: Vec<Option<(f64, bool)>>,
}

/// Gathers the ranking rows: every micro-benchmarked detector, then every search detector.
fn rows(results: &Results) -> Vec<Row> {
    let summary = &results.microbench.summary;
    let mut names: Vec<String> = summary.detectors.clone();
    for n in SEARCH_DETECTORS {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    }
    names
        .into_iter()
        .map(|detector| {
            let audited = results
                .audit
                .detectors
                .0
                .iter()
                .find(|(n, _)| *n == detector);
            Row {
                false_positive: audited.map(|(_, a)| a.false_positive),
                false_negative: audited.map(|(_, a)| a.false_negative),
                ns: summary
                    .runs
                    .iter()
                    .filter(|c| c.detector == detector && !c.hit)
                    .map(|c| (c.run, c.ns, c.ratio))
                    .collect(),
                overhead: results
                    .axon
                    .summary
                    .iter()
                    .find(|s| s.detector == detector)
                    .map(|s| s.overhead),
                instructions: results
                    .instructions
                    .as_ref()
                    .and_then(|c| c.overhead(&detector)),
                suites: results
                    .suites
                    .iter()
                    .map(|s| {
                        s.results
                            .aggregates
                            .iter()
                            .find(|a| a.detector == detector)
                            .and_then(|a| {
                                a.time_vs_off
                                    .map(|t| (t, a.time_differs_from_off().unwrap_or(false)))
                            })
                    })
                    .collect(),
                detector,
            }
        })
        .collect()
}

/// The headline context of the landing page.
#[derive(Serialize)]
struct Headlines<'a> {
    quick: bool,
    verdict: &'a str,
    study: &'a str,
    conformance: String,
    smp: &'a str,
    games: String,
    plies: String,
    exact: String,
    inexact: String,
    cheapest: &'a str,
    cost_in_search: String,
    policy: &'static str,
    refused: String,
    key_width: String,
    policies: String,
    ghi: String,
}

fn headlines<'a>(results: &'a Results, rows: &[Row]) -> Headlines<'a> {
    let exact: Vec<&str> = rows
        .iter()
        .filter(|r| r.false_positive == Some(0) && r.false_negative == Some(0))
        .map(|r| r.detector.as_str())
        .collect();
    let inexact: Vec<String> = rows
        .iter()
        .filter(|r| r.false_positive.unwrap_or(0) + r.false_negative.unwrap_or(0) > 0)
        .map(|r| {
            format!(
                "{} ({} false positives, {} false negatives)",
                r.detector,
                fmt_int(r.false_positive.unwrap_or(0)),
                fmt_int(r.false_negative.unwrap_or(0))
            )
        })
        .collect();
    let policy = DrawPolicy::default();
    let refused: Vec<String> = SEARCH_DETECTORS
        .iter()
        .filter_map(|n| check_policy(n, policy).err().map(|e| e.to_string()))
        .collect();
    Headlines {
        quick: results.quick,
        verdict: &results.axon.verdict,
        study: &results.study.verdict.summary,
        conformance: conformance::headline(&results.conformance),
        smp: &results.smp.headline,
        games: fmt_int(results.audit.totals.games),
        plies: fmt_int(results.audit.totals.plies),
        exact: exact.join(", "),
        inexact: if inexact.is_empty() {
            "none".into()
        } else {
            inexact.join("; ")
        },
        cheapest: &results.microbench.summary.cheapest_sentence,
        cost_in_search: rows
            .iter()
            .filter_map(|r| {
                let s = results
                    .axon
                    .summary
                    .iter()
                    .find(|s| s.detector == r.detector)?;
                Some(format!(
                    "{} {:.2}× [{:.2}, {:.2}]",
                    r.detector, s.overhead, s.overhead_ci[0], s.overhead_ci[1]
                ))
            })
            .collect::<Vec<_>>()
            .join(", "),
        policy: policy.name(),
        refused: refused.join("; "),
        key_width: key_width::headline(&results.key_width),
        policies: policies::headline(&results.policies),
        ghi: ghi::headline(&results.ghi),
    }
}

/// The ranking table as HTML.
fn ranking_table(results: &Results, rows: &[Row]) -> String {
    const SHOW_RUNS: [usize; 4] = [0, 8, 32, 100];
    let dash = || Cell::text("—");
    let mut headers: Vec<String> =
        vec!["detector".into(), "false pos.".into(), "false neg.".into()];
    headers.extend(SHOW_RUNS.iter().map(|r| format!("ns/cycle, run {r}")));
    headers.push("× copy-make, run 32".into());
    headers.push("NPS overhead (axon)".into());
    headers.push("instructions/node vs off".into());
    headers.extend(
        results
            .suites
            .iter()
            .map(|s| format!("time vs off ({})", s.dir)),
    );
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
        include_str!("../templates/bench/policies.html"),
        &Context {
            table: table_html(&headers, &rows, false),
            reasons,
        },
    )?)
}

/// Writes the landing page from the typed results.
fn landing(results: &Results, out: &Path) -> Result<()> {
    let rows = rows(results);
    let dir = ReportDir::create(out.join(".landing"))?;
    let chart = LineChart {
        log_y: true,
        series: rows
            .iter()
            .filter(|r| !r.ns.is_empty())
            .map(|r| {
                Series::new(
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
    };
    let figure = dir.write_chart("scaling.svg", &chart, "Scaling with the reversible run")?;
    let pages = pages(results);
    #[derive(Serialize)]
    struct Link<'a> {
        dir: &'a str,
        title: &'a str,
    }
    #[derive(Serialize)]
    struct Reports<'a> {
        reports: Vec<Link<'a>>,
    }
    #[derive(Serialize)]
    struct Ranking {
        table: String,
    }
    let reports = Reports {
        reports: pages
            .iter()
            .map(|(dir, title)| Link { dir, title })
            .collect(),
    };
    let nav: Vec<(String, String)> = pages
        .iter()
        .map(|(dir, title)| (title.clone(), format!("{dir}/index.html")))
        .collect();
    Page::new("replab: repetition detection compared", &results.meta)
        .nav(nav)
        .section(
            "Headlines",
            render_fragment(
                "bench/landing.html",
                include_str!("../templates/bench/landing.html"),
                &headlines(results, &rows),
            )?,
        )
        .section(
            "Ranking: correctness and cost",
            render_fragment(
                "bench/ranking.html",
                include_str!("../templates/bench/ranking.html"),
                &Ranking {
                    table: ranking_table(results, &rows),
                },
            )?,
        )
        .section("Scaling", figure)
        .section(
            "Instruction counts",
            results.instructions.as_ref().map_or_else(
                || {
                    "<p>Not measured in this run (instruction counts need the replab binary \
                     and valgrind: <code>replab bench</code> measures them when valgrind is \
                     installed).</p>"
                        .to_string()
                },
                callgrind::section_html,
            ),
        )
        .section("Detector × draw policy", policies_section()?)
        .section(
            "Reports",
            render_fragment(
                "bench/reports.html",
                include_str!("../templates/bench/reports.html"),
                &reports,
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
