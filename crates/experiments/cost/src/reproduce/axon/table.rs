//! The summary table `replab reproduce axon` prints on stdout.

use std::fmt::Write as _;

use replab_registry::DetectorId;
use replab_report::{fmt_delta_pct, fmt_int};

use super::results::{Paper, PaperRow, Results, Summary};
use crate::stats::Estimate;

/// The summary printed on stdout: one line per configuration with its totals (generated
/// positions first, the paper's unit), times and overheads with their 95% intervals and the
/// changes against `off`, the paper's two rows, then the verdict. Ends with a newline.
pub fn summary_table(results: &Results) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_table(&mut out, results);
    out
}

/// `median [low, high]` with `decimals` decimals (the interval as `Interval::text` says it).
fn ci(x: &Estimate, decimals: usize) -> String {
    format!(
        "{:.decimals$} {}",
        x.value,
        x.interval.text(|v| format!("{v:.decimals$}"))
    )
}

/// Writes the whole table into `out`: the header, one line per configuration, the paper's two
/// lines, the adaptive overhead measurement and the verdict.
fn write_table(out: &mut String, results: &Results) -> std::fmt::Result {
    let max_depth = results.config.settings.max_depth;
    writeln!(
        out,
        "WAC.018 ({}), depths 1-{max_depth}, policy {}, times: median [95% interval] of {} interleaved round(s)",
        results.position, results.config.policy, results.config.settings.repeat
    )?;
    row(
        out,
        [
            "detector",
            "generated",
            "Δgen",
            "terminal",
            "Δterm",
            "nodes",
            "reps",
            "time ms",
            "overhead (rounds)",
            "Δtime",
            "best",
            "eval",
        ],
    )?;
    for s in &results.summary {
        summary_line(out, s)?;
    }
    paper_lines(out, results.paper.tables())?;
    if let Some(a) = &results.overhead_adaptive {
        writeln!(
            out,
            "\n{} overhead: {} paired rounds ({} added in {:.0} s), half-width {:.2} pp (target {:.2} pp), stopped at the {}",
            a.detector,
            a.rounds,
            a.extra_rounds,
            a.seconds.value,
            a.half_width * 100.0,
            a.target * 100.0,
            a.stopped
        )?;
    }
    writeln!(out, "\n{}", results.verdict)
}

/// One line of the table: its twelve cells padded to the columns' widths.
fn row(out: &mut String, cells: [&str; 12]) -> std::fmt::Result {
    writeln!(
        out,
        "{:<16} {:>11} {:>7} {:>10} {:>7} {:>9} {:>6} {:>22} {:>23} {:>7} {:>6} {:>6}",
        cells[0],
        cells[1],
        cells[2],
        cells[3],
        cells[4],
        cells[5],
        cells[6],
        cells[7],
        cells[8],
        cells[9],
        cells[10],
        cells[11]
    )
}

/// The line of one configuration searched: totals, time, overhead and changes against `off`.
fn summary_line(out: &mut String, s: &Summary) -> std::fmt::Result {
    let off = s.detector == DetectorId::Off;
    row(
        out,
        [
            s.detector.name(),
            &fmt_int(s.counters.generated),
            &fmt_delta_pct(s.generated_change),
            &fmt_int(s.counters.terminal_nodes),
            &fmt_delta_pct(s.terminal_nodes_change),
            &fmt_int(s.counters.nodes),
            &fmt_int(s.counters.repetitions),
            &ci(&s.time_ms, 1),
            &if off {
                "1".to_string()
            } else {
                format!("{} ({})", ci(&s.overhead, 3), s.overhead.interval.n)
            },
            &fmt_delta_pct(s.time_change.value),
            &s.final_best_move,
            &format!("{:+.2}", f64::from(s.final_eval_cp) / 100.0),
        ],
    )
}

/// The paper's two lines, detection off and on, with its last best move and evaluation.
fn paper_lines(out: &mut String, paper: &Paper) -> std::fmt::Result {
    let (p_term, p_gen, p_time) = paper.changes();
    let last = |rows: &[PaperRow]| {
        rows.last().map_or(("-".to_string(), 0.0), |r| {
            (r.best_move.clone(), f64::from(r.eval_cp) / 100.0)
        })
    };
    let (off_move, off_eval) = last(&paper.off);
    let (on_move, on_eval) = last(&paper.on);
    let t = &paper.totals;
    row(
        out,
        [
            "paper off",
            &fmt_int(t.off.generated),
            "",
            &fmt_int(t.off.terminal_nodes),
            "",
            "-",
            "-",
            "-",
            "-",
            "",
            &off_move,
            &format!("{off_eval:+.2}"),
        ],
    )?;
    row(
        out,
        [
            "paper on",
            &fmt_int(t.on.generated),
            &fmt_delta_pct(p_gen),
            &fmt_int(t.on.terminal_nodes),
            &fmt_delta_pct(p_term),
            "-",
            &fmt_int(t.on.repetitions.unwrap_or(0)),
            "-",
            "-",
            &fmt_delta_pct(p_time),
            &on_move,
            &format!("{on_eval:+.2}"),
        ],
    )
}
