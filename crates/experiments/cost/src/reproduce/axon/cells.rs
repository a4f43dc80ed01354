//! The axon page's small table cells: times, ratios and changes with their intervals, a
//! detector's colour swatch, rendered from the snippets of `cells.html`.

use anyhow::Result;
use replab_report::{Cell, fmt_delta_pct, fmt_ms, render_fragment, template};
use replab_workloads::colours;
use serde_json::json;

use super::results::Run;
use crate::stats::{Estimate, Quantity};

/// The small HTML table cells.
const CELLS: (&str, &str) = template!("reproduce/axon/cells.html");

/// A table cell from `cells.html` (the context's `kind` picks the snippet).
pub(super) fn cell(context: &serde_json::Value) -> Result<Cell> {
    Ok(Cell::html(render_fragment(CELLS.0, CELLS.1, context)?))
}

/// A time with its interval: `41.2 ms [40.1, 43.0]`, "too noisy to rank" where the interval is
/// too wide to mean anything, `(single sample)` for a single run.
pub(super) fn fmt_time(ms: &Estimate) -> String {
    ms.cell(Quantity::Level, fmt_ms)
}

/// NPS(off) / NPS with its interval: `1.052 [1.041, 1.063]`, "too noisy to rank" where the
/// interval contains 1 (no change) or is wider than the noise limit.
pub(super) fn fmt_ratio(x: &Estimate) -> String {
    x.map(|r| r - 1.0)
        .cell(Quantity::Change, |c| format!("{:.3}", c + 1.0))
}

/// A relative change with its interval: `+28.6% [+20.1%, +33.0%]`, or "too noisy to rank"
/// when the interval contains zero or is wider than the noise limit
/// ([`crate::interval::noise`]).
pub fn fmt_change(change: &Estimate) -> String {
    change.cell(Quantity::Change, fmt_delta_pct)
}

/// A detector name with its chart colour.
pub(super) fn swatch(name: &str) -> Result<Cell> {
    cell(&json!({ "kind": "swatch", "colour": colours::colour_hex(name), "name": name }))
}

/// A run's time interval without the unit ([`crate::interval::interval_part`]): `[1.20, 1.31]`.
pub(super) fn interval_text(run: &Run) -> String {
    let t = &run.time_ms;
    let bare = |x: f64| fmt_ms(x).trim_end_matches(" ms").to_string();
    crate::interval::interval_part(t.value, &t.interval, Quantity::Level, bare)
}

/// A run's median time with its interval below it.
pub(super) fn time_cell(run: &Run) -> Result<Cell> {
    cell(&json!({ "kind": "time", "time": fmt_ms(run.time_ms.value), "ci": interval_text(run) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_render_their_snippets() {
        let html = |c: Cell| match c {
            Cell::Html(h) => h,
            Cell::Text(t) => panic!("text cell {t}"),
        };
        let swatch = html(swatch("a<b").unwrap());
        assert!(swatch.starts_with("<span style=\"color:#"), "{swatch}");
        assert!(swatch.ends_with("</span> a&lt;b"), "{swatch}");
        let label = html(cell(&json!({ "kind": "label", "label": "x" })).unwrap());
        assert_eq!(label, "<strong>x</strong>");
    }
}
