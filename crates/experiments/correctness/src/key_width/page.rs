//! The page of `replab key-width`: summary, charts, tables, method. Prose and markup are in
//! `templates/key-width/`.

use anyhow::Result;
use replab_report::{
    Cell, LineChart, Page, ReportDir, Series, fmt_int, render_fragment, table_html,
};
use replab_workloads::colours;
use serde_json::json;

use crate::stats::Interval;

use super::{
    TITLE,
    bound::detectors,
    results::{Rate, Results},
};

const SUMMARY: &str = include_str!("../../templates/key-width/summary.html");
const METHOD: &str = include_str!("../../templates/key-width/method.html");

/// A rate or probability in scientific notation (`0` for zero).
pub fn sci(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if !x.is_finite() {
        "—".into()
    } else {
        format!("{x:.2e}")
    }
}

/// `[low, high]` of an interval.
fn interval(i: &Interval) -> String {
    i.ends_text(sci)
}

/// Whether the bound lies in the measured interval, in words.
fn agreement(r: &Rate) -> &'static str {
    if r.agrees() {
        "contains the bound"
    } else if r.expected_rate > r.rate.interval.hi {
        "lies below the bound"
    } else {
        "lies above the bound"
    }
}

/// The sentence on 16-bit keys.
fn sixteen(results: &Results) -> String {
    let cells: Vec<String> = results
        .audit
        .iter()
        .filter(|c| c.bits == results.config.settings.widths[0])
        .map(|c| {
            format!(
                "{} {} ({} per probe, bound {}; {} of {} games)",
                c.detector,
                fmt_int(c.false_positive),
                sci(c.per_probe.rate.value),
                sci(c.per_probe.expected_rate),
                fmt_int(c.per_game.count),
                fmt_int(c.per_game.trials)
            )
        })
        .collect();
    let exact64: Vec<String> = results
        .audit
        .iter()
        .filter(|c| c.bits == 64)
        .map(|c| format!("{} {}", c.detector, c.false_positive))
        .collect();
    format!(
        "False positives with {}-bit keys: {}. With 64-bit keys: {}.",
        results.config.settings.widths[0],
        cells.join("; "),
        exact64.join(", ")
    )
}

/// The sentence on the searches.
fn search_sentence(results: &Results) -> String {
    let narrow = results.config.settings.widths[0];
    let cells: Vec<String> = results
        .search
        .iter()
        .filter(|c| c.bits == narrow)
        .map(|c| {
            format!(
                "{} {} false repetitions ({} false draws{}), best move changed in {} and score in {} of {} positions",
                c.detector,
                fmt_int(c.counts.false_repetitions),
                fmt_int(c.counts.false_draws),
                if c.counts.upcoming > 0 {
                    format!(", {} false upcoming cycles", fmt_int(c.counts.false_upcoming))
                } else {
                    String::new()
                },
                c.best_move_changes,
                c.score_changes,
                c.positions
            )
        })
        .collect();
    let wide: u64 = results
        .search
        .iter()
        .filter(|c| c.bits >= 32)
        .map(|c| c.counts.false_repetitions + c.counts.false_upcoming)
        .sum();
    let wide_changes: usize = results
        .search
        .iter()
        .filter(|c| c.bits >= 32 && c.bits < 64)
        .map(|c| c.changed.len())
        .sum();
    format!(
        "In search with {narrow}-bit keys: {}. From 32 bits up: {} false repetitions or cycles \
         and {} changed roots in all.",
        cells.join("; "),
        fmt_int(wide),
        wide_changes
    )
}

fn chart(title: &str, x: &str, y: &str, series: Vec<Series>) -> LineChart {
    LineChart {
        log_y: true,
        series,
        ..LineChart::new(title, x, y)
    }
}

/// One series per detector of `f` over the audit cells.
fn per_detector(results: &Results, f: &dyn Fn(&super::AuditCell) -> (f64, f64)) -> Vec<Series> {
    detectors()
        .into_iter()
        .map(|d| {
            colours::series(
                d.name(),
                results.audit.iter().filter(|c| c.detector == d).map(f),
            )
        })
        .collect()
}

/// False positives against key width: three charts written into `dir`.
fn width_section(results: &Results, dir: &ReportDir) -> Result<String> {
    let per = |f: &dyn Fn(&super::AuditCell) -> (f64, f64)| per_detector(results, f);
    let bits_fig = dir.write_chart(
        "fp-vs-bits.svg",
        &chart(
            "False positives per probe against key width (audit games)",
            "key bits",
            "false positives per probe",
            per(&|c| (f64::from(c.bits), c.per_probe.rate.value)),
        ),
        "False positives per probe against truth; zero counts (every detector at 64 bits, most \
         from 32 bits) cannot be drawn on the log scale and are left out: the table gives their \
         upper bounds",
    )?;
    let mem_fig = dir.write_chart(
        "fp-vs-memory.svg",
        &chart(
            "False positives per probe against bytes stored per key",
            "bytes per entry (packed)",
            "false positives per probe",
            per(&|c| (f64::from(c.bytes_per_entry), c.per_probe.rate.value)),
        ),
        "The same rates against memory per entry (key bytes plus what the detector stores beside \
         the key; see Method)",
    )?;
    let games_fig = dir.write_chart(
        "games-vs-bits.svg",
        &chart(
            "Games with a false positive against key width",
            "key bits",
            "fraction of games",
            per(&|c| (f64::from(c.bits), c.per_game.rate.value)),
        ),
        "Fraction of the audit games with at least one false positive",
    )?;
    Ok(format!("{bits_fig}{games_fig}{mem_fig}"))
}

/// The audit table: one row per detector and width.
fn audit_table(results: &Results) -> String {
    let audit_rows: Vec<Vec<Cell>> = results
        .audit
        .iter()
        .map(|c| {
            vec![
                c.detector.to_string().into(),
                c.bits.into(),
                c.bytes_per_entry.into(),
                c.false_positive.into(),
                format!("{:.2}", c.per_probe.expected).into(),
                sci(c.per_probe.rate.value).into(),
                interval(&c.per_probe.rate.interval).into(),
                sci(c.per_probe.expected_rate).into(),
                (if c.per_probe.agrees() { "yes" } else { "no" }).into(),
                c.per_game.count.into(),
                format!("{:.1}", c.per_game.expected).into(),
                interval(&c.per_game.rate.interval).into(),
                c.false_negative.into(),
                c.games_with_false_negative.into(),
            ]
        })
        .collect();
    table_html(
        &[
            "detector",
            "bits",
            "bytes/key",
            "FP",
            "expected FP",
            "FP/probe",
            "95% CI",
            "bound/probe",
            "bound in CI",
            "games with FP",
            "expected",
            "per game 95% CI",
            "FN",
            "games with FN",
        ],
        &audit_rows,
        true,
    )
}

/// linear at every width from 1 bit: measured against the bound.
fn tail_table(results: &Results) -> String {
    let tail = &results.linear_tail;
    let tail_rows: Vec<Vec<Cell>> = tail
        .iter()
        .map(|t| {
            vec![
                t.bits.into(),
                t.per_probe.count.into(),
                format!("{:.2}", t.per_probe.expected).into(),
                sci(t.per_probe.rate.value).into(),
                interval(&t.per_probe.rate.interval).into(),
                sci(t.per_probe.expected_rate).into(),
                (if t.per_probe.agrees() { "yes" } else { "no" }).into(),
            ]
        })
        .collect();
    table_html(
        &[
            "bits",
            "FP",
            "expected",
            "FP/probe",
            "95% CI",
            "bound/probe",
            "bound in CI",
        ],
        &tail_rows,
        true,
    )
}

/// Measured against the birthday bound: linear's chart (written into `dir`) and the tables.
fn bound_section(results: &Results, dir: &ReportDir) -> Result<String> {
    let tail = &results.linear_tail;
    let bound_fig = dir.write_chart(
        "bound.svg",
        &chart(
            "linear: measured false positives per probe and the birthday bound",
            "key bits",
            "false positives per probe",
            vec![
                colours::series(
                    "linear",
                    tail.iter()
                        .map(|t| (f64::from(t.bits), t.per_probe.rate.value)),
                ),
                colours::series(
                    "birthday bound",
                    tail.iter()
                        .map(|t| (f64::from(t.bits), t.per_probe.expected_rate)),
                )
                .dashed(),
            ],
        ),
        "linear at every width from 1 bit, counted from the keys of the same games (a probe is a \
         false positive at b bits when a compared key agrees with the current one in its low b \
         bits; identical to the detector's count at the widths run), against Σ(1 − (1 − 2^−b)^m)",
    )?;
    let audit_table = audit_table(results);
    let tail_table = tail_table(results);
    Ok(format!(
        "{bound_fig}<p>Per detector and width (FP: false positives against truth; \
         expected: the bound plus the 64-bit detector's own; CI: exact 95% interval; \
         FN: false negatives, which truncation should leave at the 64-bit baseline):</p>\
         {audit_table}<h3>linear at every width</h3>{tail_table}"
    ))
}

/// In search: one row per detector and width.
fn search_section(results: &Results) -> String {
    let search_rows: Vec<Vec<Cell>> = results
        .search
        .iter()
        .map(|c| {
            vec![
                c.detector.to_string().into(),
                c.bits.into(),
                c.bytes_per_entry.into(),
                c.nodes.into(),
                c.counts.probes.into(),
                c.counts.false_repetitions.into(),
                interval(&c.false_rate.interval).into(),
                c.counts.false_draws.into(),
                c.counts.missed_repetitions.into(),
                c.counts.false_upcoming.into(),
                c.best_move_changes.into(),
                c.score_changes.into(),
                c.changed.join(", ").into(),
            ]
        })
        .collect();
    let search_table = table_html(
        &[
            "detector",
            "bits",
            "bytes/key",
            "nodes",
            "probes",
            "false repetitions",
            "per probe 95% CI",
            "false draws",
            "missed repetitions",
            "false cycles",
            "best move changed",
            "score changed",
            "positions changed",
        ],
        &search_rows,
        true,
    );
    format!(
        "<p>Each detector at each width searched the same positions; changes are \
         against the same detector with 64-bit keys. Counts are exact (one \
         deterministic search each).</p>{search_table}"
    )
}

/// The summary: widths, games, Zarkov's figure, 16-bit keys, the clusters, search.
fn summary_section(results: &Results) -> Result<String> {
    let cfg = &results.config;
    let zarkov = results.zarkov.as_ref().map(|z| {
        json!({
            "count": fmt_int(z.per_probe.count),
            "trials": fmt_int(z.per_probe.trials),
            "rate": sci(z.per_probe.rate.value),
            "ci": interval(&z.per_probe.rate.interval),
            "expected_rate": sci(z.per_probe.expected_rate),
            "expected": format!("{:.4}", z.per_probe.expected),
            "compared": format!("{:.1}", z.mean_compared),
            "one_in": if z.per_probe.expected_rate > 0.0 {
                fmt_int((1.0 / z.per_probe.expected_rate).round() as u64)
            } else {
                "—".into()
            },
            "agreement": agreement(&z.per_probe),
        })
    });
    let widths: Vec<String> = cfg.settings.widths.iter().map(u32::to_string).collect();
    Ok(render_fragment(
        "key-width/summary.html",
        SUMMARY,
        &json!({
            "widths": widths.join(", "),
            "games": fmt_int(results.totals.games),
            "plies": fmt_int(results.totals.plies),
            "positions": results.search.first().map_or(0, |c| c.positions),
            "zarkov": zarkov,
            "sixteen": sixteen(results),
            "clusters": format!(
                "The {} false positives of linear at {} bits came from {} distinct key \
                 differences (current key ⊕ colliding key), the most frequent one behind {} of \
                 them: with fixed Zobrist keys the same two kinds of position collide every time \
                 they meet, so collisions cluster and the counts vary more than the binomial \
                 intervals assume (see the measured rates against the bound at every width).",
                fmt_int(results.clusters.false_positives),
                results.clusters.bits,
                fmt_int(results.clusters.distinct_differences),
                fmt_int(results.clusters.largest)
            ),
            "search": search_sentence(results),
        }),
    )?)
}

/// The method: every setting of the run.
fn method_section(results: &Results) -> Result<String> {
    let cfg = &results.config;
    Ok(render_fragment(
        "key-width/method.html",
        METHOD,
        &json!({
            "seed": cfg.settings.seed,
            "max_plies": cfg.settings.max_plies,
            "depth": cfg.settings.depth,
            "policy": cfg.policy.clone(),
            "tt_bits": cfg.tt_bits,
            "repetition_records": cfg.settings.repetition_records,
            "wac_records": cfg.settings.wac_records,
        }),
    )?)
}

/// Writes the charts and `index.html`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    let summary = summary_section(results)?;
    let widths = width_section(results, dir)?;
    let bound = bound_section(results, dir)?;
    let method = method_section(results)?;
    Page::new(TITLE, &results.meta)
        .nav([("Index", "../index.html"), ("Key width", "index.html")])
        .current("index.html")
        .section("Summary", summary)
        .section("False positives against key width", widths)
        .section("Measured against the birthday bound", bound)
        .section("In search", search_section(results))
        .section("Method", method)
        .write(dir, "index.html")?;
    Ok(())
}
