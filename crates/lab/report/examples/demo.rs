//! Writes a demo report with both chart kinds and a sortable table, to look at in a browser:
//! `cargo run -p replab-report --example demo [OUT_DIR]` (default: a `replab-report-demo`
//! folder in the system temp directory).

use replab_report::{
    BarChart, Cell, LineChart, Meta, Page, ReportDir, ReportError, Series, colour_hex, escape_html,
    fmt_ms, fmt_pct,
};

/// Some series names (the palette's colours: this crate knows no detector).
fn detectors() -> Vec<&'static str> {
    vec!["off", "linear", "tt-open", "axon", "cuckoo", "truth"]
}

/// `scale * growth^depth` for depths 1..=12, with a zero at depth 3 if `gap`.
fn growth(name: &str, scale: f64, growth: f64, gap: bool) -> Series {
    Series::new(
        name,
        (1..=12).map(|d| {
            let y = if gap && d == 3 {
                0.0
            } else {
                scale * growth.powi(d)
            };
            (f64::from(d), y)
        }),
    )
}

fn main() -> Result<(), ReportError> {
    let out = std::env::args_os().nth(1).map_or_else(
        || std::env::temp_dir().join("replab-report-demo"),
        Into::into,
    );
    let meta = Meta::collect("cargo run -p replab-report --example demo");
    let dir = ReportDir::create(&out)?;

    let nodes = LineChart {
        log_y: true,
        series: vec![
            growth("paper-off", 900.0, 2.1, false).dashed(),
            growth("paper-on", 900.0, 1.9, false).dashed(),
            growth("off", 950.0, 2.1, false),
            growth("axon", 950.0, 1.85, true),
            growth("linear+cuckoo", 950.0, 1.7, false),
        ],
        ..LineChart::new("Nodes per depth", "depth (plies)", "nodes (count)")
    };
    let nodes = dir.write_chart("nodes.svg", &nodes, "Nodes searched per depth (log scale)")?;

    let names = detectors();
    let index = || (0..names.len()).map(|i| i as f64);
    let cost = BarChart {
        categories: names.iter().map(|n| n.to_string()).collect(),
        series: vec![
            Series::values("push+pop", index().map(|i| 3.0 + i * 1.7)),
            Series::values("probe", index().map(|i| 10.0 + (i * 3.3) % 7.0)).dashed(),
        ],
        ..BarChart::new("Cost per detector", "detector", "time per call (ns)")
    };
    let cost = dir.write_chart("cost.svg", &cost, "Cost per detector")?;

    let rows: Vec<Vec<Cell>> = names
        .iter()
        .zip(0u64..)
        .map(|(name, i)| {
            let swatch = format!(
                "<span style=\"color:{}\">&#9632;</span> {}",
                colour_hex(name),
                escape_html(name)
            );
            let x = i as f64;
            vec![
                Cell::html(swatch),
                (i * 7919 * 1013 % 10_000_000).into(),
                fmt_pct((x - 5.0) / 27.0).into(),
                fmt_ms(x * 13.7 + 0.004).into(),
                if i % 3 == 0 { "—" } else { "g1f1" }.into(),
            ]
        })
        .collect();
    let headers = ["detector", "nodes", "change", "time", "best move"];
    let table = replab_report::table_html(&headers, &rows, true);

    Page::new("Demo report", &meta)
        .nav([("All reports", "../index.html"), ("Demo", "index.html")])
        .current("index.html")
        .section("Nodes", nodes)
        .section("Cost", cost)
        .section("Runs", table)
        .write(&dir, "index.html")?;
    let target = dir.commit()?;
    println!("{}", target.join("index.html").display());
    Ok(())
}
