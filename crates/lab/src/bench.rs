//! `replab bench [--quick] [--out DIR]`: the main job behind `just bench`. Runs the Axon
//! reproduction, the suites, the audit and the detector micro-benchmarks, each into its own
//! report directory, then writes the landing page `DIR/index.html` from their results.
//!
//! Each step runs the same code as its own subcommand (parsed from an argument list), so every
//! report is exactly what the subcommand would write; the landing page reads their
//! `results.json` files back.

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

use anyhow::{Context, Result, bail};
use clap::Args;
use replab_report::{
    Cell, LineChart, Meta, Page, ReportDir, Series, escape_html, fmt_delta_pct, fmt_int, table_html,
};
use serde_json::Value;

use crate::{microbench, util::command_line};

/// Arguments of `replab bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// The short run (under 2 minutes on 2 cores): shallower searches, fewer games and records.
    #[arg(long)]
    pub quick: bool,
    /// Root directory of the report site.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
}

/// The report pages, in landing-page order: (directory, title).
const PAGES: [(&str, &str); 6] = [
    (
        "axon",
        "Axon reproduction (WAC.018, the paper's experiment)",
    ),
    ("audit", "Audit against exact FIDE identity"),
    ("microbench", "Detector micro-benchmarks"),
    ("suite-repetition", "Repetition-rich suite"),
    ("suite-wac", "Win At Chess suite"),
    ("suite-bk", "Bratko–Kopec suite"),
];

/// One step of the main job: a subcommand line and where it writes.
struct Step {
    label: &'static str,
    args: Vec<String>,
}

fn steps(quick: bool, out: &Path) -> Vec<Step> {
    let dir = |name: &str| out.join(name).display().to_string();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let mut steps = vec![Step {
        label: "reproduce axon",
        args: {
            let mut a = s(&["reproduce", "axon", "--out", &dir("axon")]);
            if quick {
                a.extend(s(&["--max-depth", "10"]));
            }
            a
        },
    }];
    steps.push(Step {
        label: "audit",
        args: s(&[
            "audit",
            "--games",
            if quick { "1000" } else { "10000" },
            "--out",
            &dir("audit"),
        ]),
    });
    let suite = |label: &'static str, epd: &str, name: &str, depth: &str, limit: Option<&str>| {
        let mut a = s(&["suite", "--epd", epd, "--depth", depth, "--out", &dir(name)]);
        if let Some(n) = limit {
            a.extend(s(&["--limit", n]));
        }
        Step { label, args: a }
    };
    if quick {
        steps.push(suite(
            "suite repetition",
            "datasets/repetition.epd",
            "suite-repetition",
            "5",
            None,
        ));
        steps.push(suite(
            "suite wac",
            "datasets/wac.epd",
            "suite-wac",
            "4",
            Some("60"),
        ));
    } else {
        steps.push(suite(
            "suite repetition",
            "datasets/repetition.epd",
            "suite-repetition",
            "8",
            None,
        ));
        steps.push(suite(
            "suite wac",
            "datasets/wac.epd",
            "suite-wac",
            "6",
            None,
        ));
        steps.push(suite("suite bk", "datasets/bk.epd", "suite-bk", "7", None));
    }
    steps
}

/// Writes the micro-benchmark report into `out/microbench` and returns its summary.
fn microbench_step(quick: bool, out: &Path, meta: &Meta) -> Result<microbench::MicrobenchSummary> {
    let summary = microbench::run_microbench(quick)?;
    let dir = ReportDir::create(out.join("microbench"))?;
    let report = microbench::write_microbench(&summary, &dir)?;
    // Provenance beside the figures: every JSON result records command, commit, rustc and CPU.
    dir.write(
        "results.json",
        serde_json::to_vec_pretty(&serde_json::json!({ "meta": meta, "summary": &summary }))?,
    )?;
    let mut page = Page::new(PAGES[2].1, meta).nav([("All reports", "../index.html")]);
    page = page.section(
        "Summary",
        format!("<p>{}</p>", escape_html(&report.headline)),
    );
    for (heading, html) in report.sections {
        page = page.section(heading, html);
    }
    page.write(&dir, "index.html")?;
    dir.commit()?;
    Ok(summary)
}

fn read_json(path: &Path) -> Result<Value> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("invalid JSON in {}", path.display()))
}

/// Per-detector facts gathered from every report, for the ranking table.
#[derive(Default, Clone)]
struct Row {
    detector: String,
    false_positive: Option<u64>,
    false_negative: Option<u64>,
    ns: Vec<(usize, f64, f64)>,
    overhead: Option<f64>,
    suites: Vec<(String, Option<f64>)>,
}

/// Builds the landing page from the reports under `out`.
fn landing(
    out: &Path,
    summary: &microbench::MicrobenchSummary,
    meta: &Meta,
    quick: bool,
) -> Result<()> {
    let axon = read_json(&out.join("axon/results.json"))?;
    let audit = read_json(&out.join("audit/results.json"))?;
    let suites: Vec<(String, Value)> = PAGES[3..]
        .iter()
        .filter_map(|(name, _)| {
            let p = out.join(name).join("results.json");
            p.exists()
                .then(|| read_json(&p).map(|v| (name.to_string(), v)))
        })
        .collect::<Result<_>>()?;

    // Rows: every search detector plus cuckoo and truth where they appear.
    let mut names: Vec<String> = summary.detectors.clone();
    for n in replab_registry::SEARCH_DETECTORS {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    }
    let mut rows: Vec<Row> = names
        .iter()
        .map(|n| Row {
            detector: n.clone(),
            ..Row::default()
        })
        .collect();
    for row in &mut rows {
        if let Some(a) = audit["detectors"].get(&row.detector) {
            row.false_positive = a["false_positive"].as_u64();
            row.false_negative = a["false_negative"].as_u64();
        }
        row.ns = summary
            .runs
            .iter()
            .filter(|c| c.detector == row.detector && !c.hit)
            .map(|c| (c.run, c.ns, c.ratio))
            .collect();
        if let Some(s) = axon["summary"]
            .as_array()
            .and_then(|a| a.iter().find(|s| s["detector"] == row.detector.as_str()))
        {
            row.overhead = s["overhead"].as_f64();
        }
        for (name, v) in &suites {
            let change = v["aggregates"]
                .as_array()
                .and_then(|a| a.iter().find(|s| s["detector"] == row.detector.as_str()))
                .and_then(|s| s["time_vs_off"].as_f64());
            row.suites.push((name.clone(), change));
        }
    }

    // Headlines.
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
    let games = audit["totals"]["games"].as_u64().unwrap_or(0);
    let plies = audit["totals"]["plies"].as_u64().unwrap_or(0);
    let verdict = axon["verdict"]
        .as_str()
        .unwrap_or("(no verdict in axon/results.json)");
    let mut headline = String::from("<ul>");
    headline += &format!(
        "<li><strong>The paper's claims vs ours.</strong> {}</li>",
        escape_html(verdict)
    );
    headline += &format!(
        "<li><strong>Exact under FIDE identity</strong> on {} seeded random games ({} plies): {}. \
         Not exact: {}.</li>",
        fmt_int(games),
        fmt_int(plies),
        escape_html(&exact.join(", ")),
        escape_html(&if inexact.is_empty() {
            "none".into()
        } else {
            inexact.join("; ")
        })
    );
    headline += &format!(
        "<li><strong>Cheapest per probe.</strong> {}</li>",
        escape_html(&summary.cheapest_sentence)
    );
    let cost_in_search: Vec<String> = rows
        .iter()
        .filter_map(|r| r.overhead.map(|o| format!("{} {:.2}×", r.detector, o)))
        .collect();
    headline += &format!(
        "<li><strong>Cost in a search</strong> (WAC.018, NPS of detection off ÷ NPS with the \
         detector, same searches; below 1 means the detector's search ran faster): {}.</li>",
        escape_html(&cost_in_search.join(", "))
    );
    headline += "</ul>";

    // Ranking table.
    let show_runs = [0usize, 8, 32, 100];
    let mut headers: Vec<String> =
        vec!["detector".into(), "false pos.".into(), "false neg.".into()];
    for r in show_runs {
        headers.push(format!("ns/cycle, run {r}"));
    }
    headers.push("× copy-make, run 32".into());
    headers.push("NPS overhead (axon)".into());
    for (name, _) in &suites {
        headers.push(format!("time vs off ({name})"));
    }
    let table_rows: Vec<Vec<Cell>> = rows
        .iter()
        .map(|r| {
            let mut row = vec![
                Cell::text(&r.detector),
                r.false_positive.map_or(Cell::text("—"), Cell::from),
                r.false_negative.map_or(Cell::text("—"), Cell::from),
            ];
            for run in show_runs {
                row.push(
                    r.ns.iter()
                        .find(|(n, _, _)| *n == run)
                        .map_or(Cell::text("—"), |(_, ns, _)| {
                            Cell::text(format!("{ns:.1}"))
                        }),
                );
            }
            row.push(
                r.ns.iter()
                    .find(|(n, _, _)| *n == 32)
                    .map_or(Cell::text("—"), |(_, _, x)| Cell::text(format!("{x:.2}"))),
            );
            row.push(
                r.overhead
                    .map_or(Cell::text("—"), |o| Cell::text(format!("{o:.3}"))),
            );
            for (_, change) in &r.suites {
                row.push(change.map_or(Cell::text("—"), |c| Cell::text(fmt_delta_pct(c))));
            }
            row
        })
        .collect();

    // Scaling chart: ns per cycle vs run length, every detector.
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

    let mut links = String::from("<ul>");
    for (name, title) in PAGES {
        if out.join(name).join("index.html").exists() {
            links += &format!(
                "<li><a href=\"{name}/index.html\">{}</a></li>",
                escape_html(title)
            );
        }
    }
    links += "</ul>";
    let intro = format!(
        "<p>replab compares how chess programs detect repeated positions: every technique of the \
         sources behind one trait, one deterministic searcher, and an exact FIDE oracle. This is \
         the {} run of the main job; every figure below was measured by it.</p>",
        if quick {
            "quick (<code>--quick</code>)"
        } else {
            "full"
        }
    );
    let nav: Vec<(String, String)> = PAGES
        .iter()
        .filter(|(name, _)| out.join(name).join("index.html").exists())
        .map(|(name, title)| (title.to_string(), format!("{name}/index.html")))
        .collect();
    Page::new("replab: repetition detection compared", meta)
        .nav(nav)
        .section("Headlines", format!("{intro}{headline}"))
        .section(
            "Ranking: correctness and cost",
            format!(
                "<p>False positives and negatives from the audit; ns per enter+probe+leave cycle \
                 from the micro-benchmarks (median, this machine); NPS overhead from the Axon \
                 reproduction; search time against detection off from the suites. Click a header \
                 to sort.</p>{}",
                table_html(&headers, &table_rows, true)
            ),
        )
        .section("Scaling", figure)
        .section("Reports", links)
        .write(&dir, "index.html")?;
    // The landing page lives at the root of `out`, beside the report directories: move its
    // staged files there one by one (each an atomic rename).
    let staged = dir.commit()?;
    for name in ["scaling.svg", "index.html"] {
        std::fs::rename(staged.join(name), out.join(name))
            .with_context(|| format!("cannot write {}", out.join(name).display()))?;
    }
    std::fs::remove_dir_all(&staged).ok();
    Ok(())
}

/// Runs the main job.
pub fn run(args: &BenchArgs) -> Result<()> {
    let started = Instant::now();
    let meta = Meta::collect(&command_line());
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create --out {}", args.out.display()))?;
    for needed in [
        "datasets/wac.epd",
        "datasets/repetition.epd",
        "datasets/bk.epd",
    ] {
        if !Path::new(needed).exists() {
            bail!("{needed} not found: run replab bench from the repository root");
        }
    }
    let steps = steps(args.quick, &args.out);
    let total = steps.len() + 2;
    for (i, step) in steps.iter().enumerate() {
        eprintln!(
            "[{}/{total}] {} ({:.0} s so far)",
            i + 1,
            step.label,
            started.elapsed().as_secs_f64()
        );
        crate::cli::run_args(&step.args)
            .with_context(|| format!("step `{}` failed", step.label))?;
    }
    eprintln!(
        "[{}/{total}] micro-benchmarks ({:.0} s so far)",
        total - 1,
        started.elapsed().as_secs_f64()
    );
    let summary = microbench_step(args.quick, &args.out, &meta)?;
    eprintln!("[{total}/{total}] landing page");
    landing(&args.out, &summary, &meta, args.quick)?;
    println!(
        "wrote {} in {:.0} s",
        args.out.join("index.html").display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
