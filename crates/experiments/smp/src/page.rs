//! The page of `replab smp`: summary with charts, the deterministic table, memory, the quantum
//! check, real threads, method. Prose and markup are in `templates/smp/`.

use anyhow::Result;
use replab_report::{
    Cell, LineChart, Page, ReportDir, Series, fmt_int, render_fragment, table_html,
};
use replab_workloads::colours;
use serde_json::json;

use super::{Results, TITLE, Variant};

const SUMMARY: &str = include_str!("../templates/smp/summary.html");
const DETERMINISTIC: &str = include_str!("../templates/smp/deterministic.html");
const REAL: &str = include_str!("../templates/smp/real.html");
const METHOD: &str = include_str!("../templates/smp/method.html");

/// Bytes as KiB or MiB.
fn bytes(n: usize) -> String {
    if n >= 1 << 20 {
        format!("{:.1} MiB", n as f64 / f64::from(1 << 20))
    } else if n >= 1 << 10 {
        format!("{:.1} KiB", n as f64 / 1024.0)
    } else {
        format!("{n} B")
    }
}

/// A per-million rate.
fn rate(x: f64) -> String {
    format!("{x:.0}")
}

/// The page's sentences from the aggregates.
fn sentences(results: &Results) -> (String, String, String, String, String) {
    let get = |v: Variant, t: usize| {
        results
            .aggregates
            .iter()
            .find(|a| a.variant == v.name() && a.threads == t)
    };
    let many: Vec<usize> = results
        .config
        .settings
        .thread_counts()
        .into_iter()
        .filter(|&t| t > 1)
        .collect();
    let n = results.positions.len();
    let list = |v: Variant| -> String {
        many.iter()
            .filter_map(|&t| get(v, t))
            .map(|a| {
                format!(
                    "{} at {} threads ({} per million probes, {} of {n} positions)",
                    fmt_int(a.false_repetitions),
                    a.threads,
                    rate(a.false_per_million),
                    a.positions_with_false
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let shared = if many.is_empty() {
        "Only one thread was run: nothing was shared.".to_string()
    } else {
        format!(
            "False repetitions with one tt-open table for all threads: {}. With one shared Gerbil \
             table: {}. With one thread, none.",
            list(Variant::TtOpenShared),
            list(Variant::FiloShared)
        )
    };
    let own_total: u64 = results
        .aggregates
        .iter()
        .filter(|a| Variant::from_name(&a.variant).is_some_and(|v| !v.shared()))
        .map(|a| a.false_repetitions)
        .sum();
    let own = format!(
        "linear, per-thread tt-open and per-thread Gerbil tables: {} false repetitions in all, at every \
         thread count (each thread's structure holds its own line only).",
        fmt_int(own_total)
    );
    let thompson: Vec<String> = many
        .iter()
        .filter_map(|&t| get(Variant::TtThompsonShared, t))
        .map(|a| {
            format!(
                "{} false and {} missed at {} threads",
                fmt_int(a.false_repetitions),
                fmt_int(a.missed_repetitions),
                a.threads
            )
        })
        .collect();
    let thompson = if thompson.is_empty() {
        "were not shared (one thread).".to_string()
    } else {
        format!(
            "check the line index a mark names against the probing thread's own line, so they \
             cannot invent a repetition, only hide one when another thread holds the slot's \
             mark: {}.",
            thompson.join("; ")
        )
    };
    let root = match many.last().copied() {
        Some(t) => {
            let pick = |v: Variant| {
                get(v, t).map_or("-".into(), |a| format!("{} of {n}", a.best_move_changed))
            };
            format!(
                "At {t} threads the main thread's best move differs from one thread's on {} \
                 positions with linear, {} with per-thread tt-open, {} with shared tt-open, {} \
                 with the shared Gerbil table: Lazy SMP moves results by itself, and shared open flags move \
                 them further, each false repetition being scored as a draw.",
                pick(Variant::Linear),
                pick(Variant::TtOpenPerThread),
                pick(Variant::TtOpenShared),
                pick(Variant::FiloShared)
            )
        }
        None => "Only one thread was run.".into(),
    };
    let r = &results.reproducibility;
    let repro = format!(
        "The deterministic scheduler interleaves threads node by node from a seed; {} groups \
         searched twice gave identical counts ({} differed).",
        r.groups, r.differing
    );
    (shared, own, thompson, root, repro)
}

/// The set-ups of the run, in the results' order.
fn variants(results: &Results) -> Vec<Variant> {
    results
        .variants
        .iter()
        .filter_map(|v| Variant::from_name(&v.name))
        .collect()
}

/// One series per set-up of `f` against the thread count, from the deterministic aggregates.
fn aggregate_series(results: &Results, f: &dyn Fn(&super::Aggregate) -> f64) -> Vec<Series> {
    variants(results)
        .iter()
        .map(|v| {
            colours::series(
                v.name(),
                results
                    .aggregates
                    .iter()
                    .filter(|a| a.variant == v.name())
                    .map(|a| (a.threads as f64, f(a))),
            )
        })
        .collect()
}

/// The summary: its two charts (written into `dir`) and the sentences.
fn summary_section(results: &Results, dir: &ReportDir) -> Result<String> {
    let c = &results.config;
    let series = |f: &dyn Fn(&super::Aggregate) -> f64| aggregate_series(results, f);
    let mut chart = LineChart::new(
        "False repetitions against threads (deterministic)",
        "threads",
        "false repetitions per million probes",
    );
    chart.series = series(&|a| a.false_per_million);
    let false_figure = dir.write_chart(
        "false-repetitions.svg",
        &chart,
        "False repetitions per million probes, all threads, against the number of threads: the \
         shared open-flag tables against per-thread structures",
    )?;
    let mut chart = LineChart::new(
        "Best move differs from one thread (deterministic)",
        "threads",
        "positions (count)",
    );
    chart.series = series(&|a| a.best_move_changed as f64);
    let moves_figure = dir.write_chart(
        "best-move-changes.svg",
        &chart,
        "Positions whose main-thread best move differs from the same set-up with one thread",
    )?;
    let (shared_sentence, own_sentence, thompson_sentence, root_sentence, repro_sentence) =
        sentences(results);
    Ok(render_fragment(
        "smp/summary.html",
        SUMMARY,
        &json!({
            "headline": results.headline.clone(),
            "positions": results.positions.len(),
            "depth": c.settings.depth,
            "shared_sentence": shared_sentence,
            "own_sentence": own_sentence,
            "thompson_sentence": thompson_sentence,
            "root_sentence": root_sentence,
            "repro_sentence": repro_sentence,
            "false_figure": false_figure,
            "moves_figure": moves_figure,
        }),
    )?)
}

/// The deterministic table: one row per set-up and thread count.
fn deterministic_table(results: &Results) -> String {
    let headers = [
        "set-up",
        "threads",
        "nodes (all threads)",
        "main-thread nodes",
        "false",
        "false / M probes",
        "positions with false",
        "missed",
        "draws scored",
        "Δ move",
        "Δ score",
        "mean |Δ score| cp",
        "≠ exact move",
    ];
    let rows: Vec<Vec<Cell>> = results
        .aggregates
        .iter()
        .map(|a| {
            vec![
                Cell::text(&a.variant),
                a.threads.into(),
                a.nodes.into(),
                a.main_nodes.into(),
                a.false_repetitions.into(),
                Cell::text(rate(a.false_per_million)),
                a.positions_with_false.into(),
                a.missed_repetitions.into(),
                a.repetitions.into(),
                a.best_move_changed.into(),
                a.score_changed.into(),
                Cell::text(format!("{:.1}", a.mean_score_change)),
                a.best_move_vs_exact.into(),
            ]
        })
        .collect();
    table_html(&headers, &rows, true)
}

/// The memory table: each set-up's own and shared bytes.
fn memory_table(results: &Results) -> String {
    let mem_rows: Vec<Vec<Cell>> = results
        .aggregates
        .iter()
        .map(|a| {
            vec![
                Cell::text(&a.variant),
                a.threads.into(),
                Cell::text(bytes(a.detector_bytes_per_thread)),
                Cell::text(bytes(a.detector_bytes_per_thread * a.threads)),
                Cell::text(bytes(a.shared_bytes)),
            ]
        })
        .collect();
    table_html(
        &[
            "set-up",
            "threads",
            "per thread",
            "all threads' own",
            "shared (table + detector)",
        ],
        &mem_rows,
        true,
    )
}

/// The quantum check's table ("Not run." without one).
fn quantum_table(results: &Results) -> String {
    let c = &results.config;
    let q_rows: Vec<Vec<Cell>> = results
        .quantum_check
        .iter()
        .map(|q| {
            let per = |n: u64, p: u64| {
                if p > 0 {
                    rate(n as f64 * 1e6 / p as f64)
                } else {
                    "-".into()
                }
            };
            vec![
                Cell::text(&q.variant),
                q.threads.into(),
                q.positions.into(),
                q.false_repetitions.into(),
                Cell::text(per(q.false_repetitions, q.probes)),
                q.false_repetitions_q1.into(),
                Cell::text(per(q.false_repetitions_q1, q.probes_q1)),
            ]
        })
        .collect();
    if q_rows.is_empty() {
        "<p>Not run.</p>".to_string()
    } else {
        table_html(
            &[
                "set-up",
                "threads",
                "positions",
                format!("false (quantum {})", c.settings.quantum).as_str(),
                "per M probes",
                "false (quantum 1)",
                "per M probes",
            ],
            &q_rows,
            false,
        )
    }
}

/// The positions with the most false repetitions of the shared tt-open set-up at the smallest
/// thread count above one: `(variant, threads, table)`.
fn worst_table(results: &Results) -> (&'static str, usize, String) {
    let c = &results.config;
    let worst_threads = c
        .settings
        .thread_counts()
        .iter()
        .copied()
        .find(|&t| t > 1)
        .unwrap_or(1);
    let worst_variant = Variant::TtOpenShared.name();
    let mut worst: Vec<&super::DeterministicRun> = results
        .runs
        .iter()
        .filter(|r| r.variant == worst_variant && r.threads == worst_threads)
        .collect();
    worst.sort_by(|a, b| {
        b.false_repetitions
            .cmp(&a.false_repetitions)
            .then(a.position.cmp(&b.position))
    });
    let one = |p: usize| {
        results
            .runs
            .iter()
            .find(|r| r.variant == worst_variant && r.threads == 1 && r.position == p)
    };
    let worst_rows: Vec<Vec<Cell>> = worst
        .iter()
        .take(10)
        .map(|r| {
            let pos = &results.positions[r.position];
            let base = one(r.position);
            vec![
                Cell::text(&pos.id),
                Cell::text(&pos.set),
                pos.history_plies.into(),
                r.probes.into(),
                r.false_repetitions.into(),
                r.main_false_repetitions.into(),
                Cell::text(base.map_or("-".into(), |b| format!("{} ({})", b.best_move, b.score))),
                Cell::text(format!("{} ({})", r.best_move, r.score)),
            ]
        })
        .collect();
    let table = table_html(
        &[
            "position",
            "set",
            "history plies",
            "probes",
            "false",
            "false in main thread",
            "1 thread: move (score)",
            "shared: move (score)",
        ],
        &worst_rows,
        false,
    );
    (worst_variant, worst_threads, table)
}

/// The deterministic threads' section: the table, memory, quantum check and worst positions.
fn deterministic_section(results: &Results) -> Result<String> {
    let c = &results.config;
    let (worst_variant, worst_threads, worst) = worst_table(results);
    Ok(render_fragment(
        "smp/deterministic.html",
        DETERMINISTIC,
        &json!({
            "quantum": c.settings.quantum,
            "tt_bits": c.settings.tt_bits,
            "table": deterministic_table(results),
            "memory": memory_table(results),
            "check_positions": c.settings.quantum_check_positions,
            "quantum_table": quantum_table(results),
            "worst_variant": worst_variant,
            "worst_threads": worst_threads,
            "worst": worst,
        }),
    )?)
}

/// The real threads' section: the nodes-per-second chart (written into `dir`) and the table,
/// or a note that they were not run.
fn real_section(results: &Results, dir: &ReportDir) -> Result<String> {
    let c = &results.config;
    let variants = variants(results);
    Ok(if results.real.is_empty() {
        format!(
            "<p>Not run (<code>{} 0</code>).</p>",
            crate::Config::REAL_POSITIONS
        )
    } else {
        let mut chart = LineChart::new(
            "Nodes per second against threads (real threads)",
            "threads",
            "million nodes per second, all threads",
        );
        chart.series = variants
            .iter()
            .map(|v| {
                colours::series(
                    v.name(),
                    results
                        .real
                        .iter()
                        .filter(|r| r.variant == v.name())
                        .map(|r| (r.threads as f64, r.mnps.value)),
                )
            })
            .collect();
        let nps_figure = dir.write_chart(
            "nps.svg",
            &chart,
            &format!(
                "Nodes per second of all threads together (medians of {} rounds) on {} cores",
                c.settings.repeats, c.cores
            ),
        )?;
        let est = |e: &crate::stats::Estimate, digits: usize| e.text(|x| format!("{x:.digits$}"));
        let rows: Vec<Vec<Cell>> = results
            .real
            .iter()
            .map(|r| {
                vec![
                    Cell::text(&r.variant),
                    r.threads.into(),
                    Cell::text(est(&r.time_ms, 1)),
                    Cell::text(est(&r.mnps, 2)),
                    Cell::text(est(&r.speedup, 2)),
                    Cell::text(fmt_int(r.nodes.round() as u64)),
                    r.false_repetitions.into(),
                    r.probes.into(),
                    r.best_move_changed.into(),
                ]
            })
            .collect();
        let table = table_html(
            &[
                "set-up",
                "threads",
                "main-thread time ms [95% CI]",
                "M nodes/s [95% CI]",
                "speedup [95% CI]",
                "nodes (median)",
                "false (checked round)",
                "probes (checked round)",
                "Δ move (checked round)",
            ],
            &rows,
            true,
        );
        render_fragment(
            "smp/real.html",
            REAL,
            &json!({
                "depth": c.settings.real_depth,
                "positions": c.real_position_ids.len(),
                "ids": c.real_position_ids.join(", "),
                "repeats": c.settings.repeats,
                "cores": c.cores,
                "nps_figure": nps_figure,
                "table": table,
            }),
        )?
    })
}

/// The method: the set-ups and every setting of the run.
fn method_section(results: &Results) -> Result<String> {
    let c = &results.config;
    let variant_rows: Vec<Vec<Cell>> = results
        .variants
        .iter()
        .map(|v| {
            vec![
                Cell::text(&v.name),
                Cell::text(v.detector.name()),
                Cell::text(if v.shared { "shared" } else { "per thread" }),
                Cell::text(&v.description),
            ]
        })
        .collect();
    Ok(render_fragment(
        "smp/method.html",
        METHOD,
        &json!({
            "tt_bits": c.settings.tt_bits,
            "depth": c.settings.depth,
            "extra": c.helper_extra_depth,
            "variants": table_html(
                &["set-up", "detector", "structure", "what is shared"],
                &variant_rows,
                false,
            ),
            "quantum": c.settings.quantum,
            "quantum_max": 2 * c.settings.quantum - 1,
            "seed": c.settings.seed,
            "repro_groups": results.reproducibility.groups,
            "repro_differing": results.reproducibility.differing,
            "workers": c.settings.workers,
            "repetition": c.settings.repetition_records,
            "wac": c.settings.wac_records,
            "tt_open_bits": c.tt_open_bits,
            "filo_slots": c.filo_slots,
        }),
    )?)
}

/// Writes the charts and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    let c = &results.config;
    let summary = summary_section(results, dir)?;
    let deterministic = deterministic_section(results)?;
    let real = real_section(results, dir)?;
    let method = method_section(results)?;
    Page::new(TITLE, &results.meta)
        .nav([("All reports", "../index.html")])
        .section("Summary", summary)
        .section(
            format!(
                "Deterministic threads: {} positions, depth {}",
                results.positions.len(),
                c.settings.depth
            ),
            deterministic,
        )
        .section("Real threads", real)
        .section("Method", method)
        .write(dir, "index.html")?;
    Ok(())
}
