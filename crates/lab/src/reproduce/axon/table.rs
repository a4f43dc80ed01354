//! The summary table `replab reproduce axon` prints on stdout.

use std::fmt::Write as _;

use replab_report::{fmt_delta_pct, fmt_int};

use super::results::{PaperRow, Results};

/// The summary printed on stdout: one line per configuration with its totals and changes
/// against `off`, the paper's two rows, then the verdict. Ends with a newline.
pub fn summary_table(results: &Results) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_table(&mut out, results);
    out
}

fn write_table(out: &mut String, results: &Results) -> std::fmt::Result {
    let paper = results.paper.tables();
    let max_depth = results.config.max_depth;
    writeln!(
        out,
        "WAC.018 ({}), depths 1-{max_depth}, policy {}, fastest of {} run(s)",
        results.position, results.config.policy, results.config.repeat
    )?;
    writeln!(
        out,
        "{:<16} {:>11} {:>11} {:>12} {:>6} {:>9} {:>6} {:>8} {:>8} {:>8} {:>8} {:>6} {:>7}",
        "detector",
        "nodes",
        "terminal",
        "generated",
        "reps",
        "time ms",
        "Mnps",
        "overhead",
        "Δterm",
        "Δgen",
        "Δtime",
        "best",
        "eval"
    )?;
    for s in &results.summary {
        writeln!(
            out,
            "{:<16} {:>11} {:>11} {:>12} {:>6} {:>9.1} {:>6.2} {:>8.3} {:>8} {:>8} {:>8} {:>6} {:>+7.2}",
            s.detector,
            fmt_int(s.counters.nodes),
            fmt_int(s.counters.terminal_nodes),
            fmt_int(s.counters.generated),
            fmt_int(s.counters.repetitions),
            s.time_ms,
            s.nps / 1e6,
            s.overhead,
            fmt_delta_pct(s.terminal_nodes_change),
            fmt_delta_pct(s.generated_change),
            fmt_delta_pct(s.time_change),
            s.final_best_move,
            f64::from(s.final_eval_cp) / 100.0,
        )?;
    }
    let (p_term, p_gen, p_time) = paper.changes();
    let last = |rows: &[PaperRow]| {
        rows.last().map_or(("-".to_string(), 0.0), |r| {
            (r.best_move.clone(), f64::from(r.eval_cp) / 100.0)
        })
    };
    let (off_move, off_eval) = last(&paper.off);
    let (on_move, on_eval) = last(&paper.on);
    let t = &paper.totals;
    writeln!(
        out,
        "{:<16} {:>11} {:>11} {:>12} {:>6} {:>9} {:>6} {:>8} {:>8} {:>8} {:>8} {:>6} {:>+7.2}",
        "paper off",
        "-",
        fmt_int(t.off.terminal_nodes),
        fmt_int(t.off.generated),
        "-",
        "-",
        "-",
        "-",
        "",
        "",
        "",
        off_move,
        off_eval
    )?;
    writeln!(
        out,
        "{:<16} {:>11} {:>11} {:>12} {:>6} {:>9} {:>6} {:>8} {:>8} {:>8} {:>8} {:>6} {:>+7.2}",
        "paper on",
        "-",
        fmt_int(t.on.terminal_nodes),
        fmt_int(t.on.generated),
        fmt_int(t.on.repetitions.unwrap_or(0)),
        "-",
        "-",
        "-",
        fmt_delta_pct(p_term),
        fmt_delta_pct(p_gen),
        fmt_delta_pct(p_time),
        on_move,
        on_eval
    )?;
    writeln!(out, "\n{}", results.verdict)
}
