//! Integration tests: atomic output, metadata, palette, charts and whole pages.

use std::{
    fs,
    path::{Path, PathBuf},
    process,
};

use replab_report::{
    BarChart, Cell, Chart, LineChart, Meta, Page, REPORT_MARKER, RGBColor, ReportDir, ReportError,
    SITE_MARKER, Series, check_site_root, colour, colour_hex, create_site_root, figure_html, hex,
    palette, table_html, write_atomic, write_atomic_with,
};

/// A fresh, empty directory under the system temp dir, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("replab-report-{}-{name}", process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Checks that `svg` is one `<svg>` element whose tags all balance.
fn assert_balanced_svg(svg: &str) {
    let body = svg.trim();
    let body = match body.strip_prefix("<?xml") {
        Some(rest) => rest[rest.find("?>").unwrap() + 2..].trim_start(),
        None => body,
    };
    assert!(body.starts_with("<svg"), "{}", &body[..body.len().min(80)]);
    assert!(body.ends_with("</svg>"));
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = body;
    let mut closed_root = false;
    while let Some(start) = rest.find('<') {
        assert!(!closed_root, "content after the root element");
        let end = start + rest[start..].find('>').unwrap();
        let tag = &rest[start + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "unbalanced </{name}>");
            closed_root = stack.is_empty();
        } else if !tag.ends_with('/') && !tag.starts_with('!') {
            stack.push(tag.split_whitespace().next().unwrap());
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty() && closed_root, "unclosed {stack:?}");
}

/// The trimmed contents of the `<text>` elements of `svg`.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_owned())
        })
        .collect()
}

// ---- atomic output ----

#[test]
fn write_atomic_replaces_file() {
    let scratch = Scratch::new("atomic-replace");
    let path = scratch.0.join("results.json");
    write_atomic(&path, "old").unwrap();
    write_atomic(&path, b"new").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    assert_eq!(listing(&scratch.0), ["results.json"]);
}

#[test]
fn failing_writer_leaves_old_file() {
    let scratch = Scratch::new("atomic-fail");
    let path = scratch.0.join("results.json");
    write_atomic(&path, "old").unwrap();
    let err = write_atomic_with(&path, |w| {
        w.write_all(b"half of the new")?;
        Err(std::io::Error::other("interrupted"))
    })
    .unwrap_err();
    assert!(err.to_string().contains("results.json"), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "old");
    assert_eq!(
        listing(&scratch.0),
        ["results.json"],
        "temp file left behind"
    );
}

#[test]
fn write_atomic_error_names_path() {
    let scratch = Scratch::new("atomic-missing");
    let path = scratch.0.join("no-such-dir").join("x.html");
    let err = write_atomic(&path, "x").unwrap_err();
    assert!(matches!(err, ReportError::Io { .. }));
    assert!(err.to_string().contains("no-such-dir"), "{err}");
}

#[test]
fn uncommitted_report_dir_leaves_old_report() {
    let scratch = Scratch::new("dir-drop");
    let target = scratch.0.join("axon");
    fs::create_dir(&target).unwrap();
    fs::write(target.join(REPORT_MARKER), "replab").unwrap();
    fs::write(target.join("index.html"), "old report").unwrap();
    {
        let dir = ReportDir::create(&target).unwrap();
        assert!(dir.staging().starts_with(&scratch.0));
        assert!(dir.staging().is_dir());
        dir.write("index.html", "half a new report").unwrap();
        dir.write("svg/nodes.svg", "<svg/>").unwrap();
        // Interrupted: dropped without commit.
    }
    assert_eq!(
        listing(&scratch.0),
        ["axon"],
        "staging directory left behind"
    );
    assert_eq!(listing(&target), [REPORT_MARKER, "index.html"]);
    assert_eq!(
        fs::read_to_string(target.join("index.html")).unwrap(),
        "old report"
    );
}

#[test]
fn commit_replaces_old_report() {
    let scratch = Scratch::new("dir-commit");
    let target = scratch.0.join("axon");
    fs::create_dir(&target).unwrap();
    fs::write(target.join(REPORT_MARKER), "replab").unwrap();
    fs::write(target.join("index.html"), "old report").unwrap();
    fs::write(target.join("stale.svg"), "<svg/>").unwrap();
    let dir = ReportDir::create(&target).unwrap();
    dir.write("index.html", "new report").unwrap();
    dir.write("results.json", "{}").unwrap();
    assert_eq!(dir.commit().unwrap(), target);
    assert_eq!(
        listing(&scratch.0),
        ["axon"],
        "old or staging directory left"
    );
    assert_eq!(
        listing(&target),
        [REPORT_MARKER, "index.html", "results.json"]
    );
    assert_eq!(
        fs::read_to_string(target.join("index.html")).unwrap(),
        "new report"
    );
}

#[test]
fn commit_creates_missing_target_and_parents() {
    let scratch = Scratch::new("dir-new");
    let target = scratch.0.join("reports").join("audit");
    let dir = ReportDir::create(&target).unwrap();
    dir.write("index.html", "first").unwrap();
    dir.commit().unwrap();
    assert_eq!(listing(&scratch.0.join("reports")), ["audit"]);
    assert_eq!(
        fs::read_to_string(target.join("index.html")).unwrap(),
        "first"
    );
}

/// Every file under `dir` with its bytes, sorted by path.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    if dir.is_file() {
        return vec![(dir.to_owned(), fs::read(dir).unwrap())];
    }
    for entry in fs::read_dir(dir).unwrap() {
        out.extend(snapshot(&entry.unwrap().path()));
    }
    out.sort();
    out
}

#[test]
fn report_dir_refuses_a_regular_file() {
    let scratch = Scratch::new("dir-onto-file");
    let target = scratch.0.join("afile");
    fs::write(&target, "the user's notes").unwrap();
    let before = snapshot(&scratch.0);
    let err = ReportDir::create(&target).unwrap_err();
    assert!(matches!(err, ReportError::NotOurs { .. }), "{err}");
    assert!(err.to_string().contains("afile"), "{err}");
    assert_eq!(snapshot(&scratch.0), before, "something was touched");
    assert_eq!(listing(&scratch.0), ["afile"]);
}

#[test]
fn report_dir_refuses_a_directory_with_user_files() {
    let scratch = Scratch::new("dir-onto-userdir");
    let target = scratch.0.join("userdir");
    fs::create_dir_all(target.join("sub")).unwrap();
    fs::write(target.join("thesis.tex"), "chapter 1").unwrap();
    fs::write(target.join("sub/data.csv"), "1,2").unwrap();
    let before = snapshot(&scratch.0);
    let err = ReportDir::create(&target).unwrap_err();
    assert!(err.to_string().contains("userdir"), "{err}");
    assert!(err.to_string().contains("did not write"), "{err}");
    assert_eq!(snapshot(&scratch.0), before, "something was touched");
    assert_eq!(listing(&scratch.0), ["userdir"]);
}

#[test]
fn commit_refuses_files_put_there_during_the_run() {
    let scratch = Scratch::new("dir-late-user");
    let target = scratch.0.join("r");
    let dir = ReportDir::create(&target).unwrap();
    dir.write("index.html", "new").unwrap();
    fs::create_dir(&target).unwrap();
    fs::write(target.join("mine.txt"), "keep me").unwrap();
    assert!(matches!(dir.commit(), Err(ReportError::NotOurs { .. })));
    assert_eq!(listing(&scratch.0), ["r"]);
    assert_eq!(listing(&target), ["mine.txt"]);
}

#[test]
fn rerun_into_own_report_and_empty_dir_works() {
    let scratch = Scratch::new("dir-rerun");
    let target = scratch.0.join("r");
    fs::create_dir(&target).unwrap(); // empty: nothing to destroy
    for text in ["first", "second"] {
        let dir = ReportDir::create(&target).unwrap();
        dir.write("index.html", text).unwrap();
        dir.commit().unwrap();
        assert_eq!(fs::read_to_string(target.join("index.html")).unwrap(), text);
    }
    let marker = fs::read_to_string(target.join(REPORT_MARKER)).unwrap();
    assert!(marker.contains("command: "), "{marker}");
}

#[test]
fn site_root_keeps_user_files_and_refuses_foreign_index() {
    let scratch = Scratch::new("site");
    let root = scratch.0.join("reports");
    fs::create_dir(&root).unwrap();
    fs::write(root.join(".gitkeep"), "").unwrap();
    fs::write(root.join("notes.txt"), "mine").unwrap();
    let files = ["index.html"];
    // A fresh root with only user files beside: allowed, and the files stay.
    check_site_root(&root, &files, &["axon"]).unwrap();
    create_site_root(&root).unwrap();
    assert!(root.join(SITE_MARKER).is_file());
    // Rerun into its own root: allowed, even with index.html there now.
    fs::write(root.join("index.html"), "landing").unwrap();
    check_site_root(&root, &files, &["axon"]).unwrap();
    // A user's directory where a report goes: refused.
    fs::create_dir(root.join("axon")).unwrap();
    fs::write(root.join("axon/mine.txt"), "x").unwrap();
    let err = check_site_root(&root, &files, &["axon"]).unwrap_err();
    assert!(err.to_string().contains("axon"), "{err}");
    assert_eq!(fs::read_to_string(root.join("notes.txt")).unwrap(), "mine");
    // Another directory holding a user's own index.html and no site marker: refused.
    let other = scratch.0.join("site2");
    fs::create_dir(&other).unwrap();
    fs::write(other.join("index.html"), "the user's page").unwrap();
    let err = check_site_root(&other, &files, &[]).unwrap_err();
    assert!(err.to_string().contains("index.html"), "{err}");
    // A regular file as the root: refused.
    let err = check_site_root(root.join("notes.txt"), &files, &[]).unwrap_err();
    assert!(matches!(err, ReportError::NotOurs { .. }), "{err}");
    // A missing root that cannot be made: refused before any run (below a file; in /proc,
    // where not even root makes directories), no probe left.
    assert!(check_site_root(root.join("notes.txt/site"), &files, &[]).is_err());
    if Path::new("/proc/self").exists() {
        let err = check_site_root("/proc/replab/site", &files, &[]).unwrap_err();
        assert!(
            err.to_string()
                .contains("cannot create a directory in /proc"),
            "{err}"
        );
    }
    check_site_root(scratch.0.join("new/site"), &files, &[]).unwrap();
    let left: Vec<_> = fs::read_dir(&scratch.0)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(
        !left.iter().any(|n| n.to_string_lossy().contains("probe")),
        "{left:?}"
    );
    assert!(!scratch.0.join("new").exists(), "the check makes nothing");
}

#[test]
fn report_dir_rejects_names_outside() {
    let scratch = Scratch::new("dir-names");
    let dir = ReportDir::create(scratch.0.join("r")).unwrap();
    for bad in ["../escape.html", "/tmp/abs.html", ""] {
        let err = dir.write(bad, "x").unwrap_err();
        assert!(
            matches!(err, ReportError::InvalidName { .. }),
            "{bad}: {err}"
        );
    }
    assert!(!scratch.0.join("escape.html").exists());
}

// ---- meta ----

#[test]
fn meta_fields_non_empty() {
    let meta = Meta::collect("replab audit --games 10");
    assert_eq!(meta.command, "replab audit --games 10");
    for (field, value) in [
        ("commit", &meta.commit),
        ("date", &meta.date),
        ("rustc", &meta.rustc),
        ("cpu", &meta.cpu),
        ("machine", &meta.machine),
    ] {
        assert!(!value.trim().is_empty(), "{field} is empty");
    }
    assert!(meta.rustc.starts_with("rustc "), "{}", meta.rustc);
    assert_eq!(
        meta.date.len(),
        "2026-04-20T12:34:56Z".len(),
        "{}",
        meta.date
    );
    assert!(meta.date.ends_with('Z'));
    assert!(meta.machine.contains("core"), "{}", meta.machine);
    let json = serde_json::to_string(&meta).unwrap();
    let back: Meta = serde_json::from_str(&json).unwrap();
    assert_eq!(back, meta);
}

// ---- palette ----

#[test]
fn palette_is_stable_and_distinct() {
    // The named series that are not detectors (detectors' colours are the caller's).
    let colours: Vec<String> = palette::OTHERS.iter().map(|(n, _)| colour_hex(n)).collect();
    for (i, a) in colours.iter().enumerate() {
        assert_eq!(a.len(), 7, "{a}");
        assert!(a.starts_with('#'));
        assert!(!colours[i + 1..].contains(a), "{a} is named twice");
    }
    assert_eq!(colour_hex("paper-on"), "#f4a582");
    // Unknown names: deterministic, from the fallback palette, never a named series' colour.
    for name in ["mystery", "linear-v2", "axon", ""] {
        assert_eq!(colour(name), colour(name));
        assert!(palette::FALLBACK.contains(&colour(name)));
    }
    for c in palette::FALLBACK {
        assert!(
            !colours.contains(&hex(c)),
            "fallback {c:?} repeats a named colour"
        );
    }
    let spread: std::collections::HashSet<_> = (0..50)
        .map(|i| colour_hex(&format!("detector-{i}")))
        .collect();
    assert!(spread.len() > 4, "fallback hash does not spread");
    // A colour given by the caller wins.
    let given = RGBColor(0xD5, 0x5E, 0x00);
    assert_eq!(Series::new("axon", []).coloured(given).colour(), given);
    assert_eq!(hex(given), "#d55e00");
}

// ---- charts ----

fn line_chart(log_y: bool) -> LineChart {
    LineChart {
        log_y,
        series: vec![
            Series::new("paper-on", [(1.0, 929.0), (2.0, 2_270.0), (3.0, 9_001.0)]).dashed(),
            Series::new("axon", [(1.0, 0.0), (2.0, 2_301.0), (3.0, 88_812.0)]),
            Series::new("custom", [(1.0, 950.0), (3.0, 70_000.0)]),
        ],
        ..LineChart::new("Nodes <per> depth", "depth (plies)", "nodes (count)")
    }
}

#[test]
fn line_chart_has_labels_and_legend() {
    for log_y in [false, true] {
        let svg = line_chart(log_y).to_svg().unwrap();
        assert_balanced_svg(&svg);
        let texts = svg_texts(&svg);
        let has = |t: &str| texts.iter().any(|x| x == t);
        assert!(
            has("Nodes &lt;per&gt; depth"),
            "title missing or not escaped: {texts:?}"
        );
        assert!(has("depth (plies)"));
        let y_label = if log_y {
            "nodes (count) (log scale)"
        } else {
            "nodes (count)"
        };
        assert!(has(y_label), "{texts:?}");
        for name in ["paper-on", "axon", "custom"] {
            assert!(has(name), "legend {name}");
        }
        assert!(svg.contains(&colour_hex("axon").to_uppercase()));
    }
}

#[test]
fn log_chart_drops_zeros() {
    let count = |svg: &str| svg.matches("<circle").count();
    // Markers: 3 dashed points × 2 circles + 1 legend marker ×2, solid: points + 1 legend.
    let linear = line_chart(false).to_svg().unwrap();
    let log = line_chart(true).to_svg().unwrap();
    assert_eq!(
        count(&linear) - count(&log),
        1,
        "the zero point is not dropped on log"
    );
    let empty = LineChart {
        log_y: true,
        series: vec![Series::new("off", [(1.0, 0.0)])],
        ..LineChart::new("Empty", "x", "y (ms)")
    };
    assert_balanced_svg(&empty.to_svg().unwrap());
}

#[test]
fn bar_chart_has_labels_and_legend() {
    let categories: Vec<String> = ["linear", "tt-open", "tt-thompson"]
        .map(String::from)
        .to_vec();
    let chart = BarChart {
        categories: categories.clone(),
        series: vec![
            Series::values("paper-off", [10.0, 20.0, 30.0]).dashed(),
            Series::values("off", [12.0, 0.0, 35.0]),
            Series::values("cuckoo", [1e3, 2e5, f64::NAN]),
        ],
        ..BarChart::new("Cost per detector", "detector", "time per call (ns)")
    };
    for log_y in [false, true] {
        let svg = BarChart {
            log_y,
            ..chart.clone()
        }
        .to_svg()
        .unwrap();
        assert_balanced_svg(&svg);
        let texts = svg_texts(&svg);
        let labels = [
            "Cost per detector",
            "detector",
            "paper-off",
            "off",
            "cuckoo",
        ];
        for text in labels
            .iter()
            .copied()
            .chain(categories.iter().map(String::as_str))
        {
            assert!(
                texts.iter().any(|t| t == text),
                "{text} missing (log {log_y}): {texts:?}"
            );
        }
        assert!(texts.iter().any(|t| t.starts_with("time per call (ns)")));
    }
    let wide = BarChart {
        categories: (0..30).map(|i| format!("category-{i}")).collect(),
        ..chart
    };
    assert!(wide.size().0 > 800);
}

// ---- pages ----

#[test]
fn page_renders_into_report_dir() {
    let scratch = Scratch::new("page");
    let target = scratch.0.join("reports").join("axon");
    let meta = Meta::collect("replab reproduce axon --max-depth 4");
    let dir = ReportDir::create(&target).unwrap();
    let figure = dir
        .write_chart("nodes.svg", &line_chart(true), "Nodes per depth")
        .unwrap();
    let rows = vec![
        vec![
            Cell::text("<script>alert('x')</script>"),
            1_234_567u64.into(),
            "−18.3%".into(),
            Cell::html("<a href=\"../suite/index.html\">suite</a>"),
        ],
        vec!["axon".into(), 929u64.into(), "5.0%".into(), "—".into()],
    ];
    let table = table_html(&["detector", "nodes", "change", "link"], &rows, true);
    let html = Page::new("Axon <reproduction>", &meta)
        .nav([("All reports", "../index.html"), ("Axon", "index.html")])
        .current("index.html")
        .section("Nodes", figure)
        .section("Runs & counters", table)
        .render()
        .unwrap();
    Page::new("x", &meta).write(&dir, "other.html").unwrap();
    dir.write("index.html", &html).unwrap();
    dir.commit().unwrap();

    assert_eq!(
        listing(&target),
        [REPORT_MARKER, "index.html", "nodes.svg", "other.html"]
    );
    let html = fs::read_to_string(target.join("index.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<title>Axon &lt;reproduction&gt;</title>"));
    assert!(
        html.contains(r#"<a href="../index.html">All reports</a>"#),
        "nav"
    );
    assert!(html.contains(r#"<a href="index.html" aria-current="page">Axon</a>"#));
    assert!(
        html.contains("<code>replab reproduce axon --max-depth 4</code>"),
        "footer command"
    );
    assert!(html.contains(&meta.commit) && html.contains(&meta.date));
    assert!(
        html.contains(&format!("<dd>{}</dd>", meta.machine)),
        "footer machine"
    );
    assert!(html.contains(r#"<table class="sortable">"#));
    assert!(html.contains(r#"<td class="num">1,234,567</td>"#));
    assert!(html.contains(r#"<td><a href="../suite/index.html">suite</a></td>"#));
    assert!(html.contains(r#"<h2>Runs &amp; counters</h2>"#));
    assert!(html.contains(r#"id="runs-counters""#));
    assert!(html.contains(&figure_html("nodes.svg", "Nodes per depth", (800, 450))));
    assert!(
        html.contains(r#"<img src="nodes.svg" width="800" height="450" alt="Nodes per depth""#)
    );
    assert_eq!(
        html.matches("<script").count(),
        1,
        "cell text became a script"
    );
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    assert_balanced_svg(&fs::read_to_string(target.join("nodes.svg")).unwrap());
}

#[test]
fn stale_staging_of_dead_process_is_removed() {
    let scratch = Scratch::new("dir-stale");
    let target = scratch.0.join("suite");
    // No process has pid u32::MAX - 1 (Linux pids stay below 2^22).
    let stale = scratch.0.join(format!(".suite.tmp-{}-0", u32::MAX - 1));
    let orphan_old = scratch.0.join(format!(".suite.old-{}-0", u32::MAX - 1));
    fs::create_dir(&stale).unwrap();
    fs::create_dir(&orphan_old).unwrap();
    let dir = ReportDir::create(&target).unwrap();
    drop(dir);
    if Path::new("/proc/self").exists() {
        assert!(!stale.exists(), "stale staging directory kept");
    }
    // Without the target, an old copy may be the only report left: keep it.
    assert!(orphan_old.exists());
}

/// A table written with `write_table`: its CSV file, read by Python's `csv` module, holds the
/// page's header and rows cell for cell, and the page links it. Skipped (said on stderr) where
/// python3 is not installed.
#[test]
fn a_table_is_also_its_csv_file_row_for_row() {
    let scratch = Scratch::new("csv");
    let dir = ReportDir::create(scratch.0.join("report")).unwrap();
    let headers = ["detector", "note, with a comma", "count"];
    let rows = vec![
        vec![
            Cell::text("linear"),
            Cell::text("said \"exact\""),
            Cell::text("1,024"),
        ],
        vec![
            Cell::html("off:<wbr>twofold"),
            Cell::html("<details><summary>fails 2 of 3</summary>a, b&lt;c</details>"),
            Cell::text("line\nbreak"),
        ],
    ];
    let html = dir.write_table("t.csv", &headers, &rows, true).unwrap();
    assert!(html.contains(&table_html(&headers, &rows, true)), "{html}");
    assert!(html.contains("<a href=\"t.csv\">t.csv</a>"), "{html}");
    let report = dir.commit().unwrap();
    let script = "import csv, json, sys\n\
                  print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))";
    let Ok(out) = process::Command::new("python3")
        .args(["-c", script])
        .arg(report.join("t.csv"))
        .output()
    else {
        eprintln!("skipped: python3 is not installed, the CSV was not parsed");
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let parsed: Vec<Vec<String>> = serde_json::from_slice(&out.stdout).unwrap();
    let expected: Vec<Vec<String>> = std::iter::once(headers.map(String::from).to_vec())
        .chain(
            rows.iter()
                .map(|r| r.iter().map(replab_report::csv::cell_text).collect()),
        )
        .collect();
    assert_eq!(parsed, expected);
    assert_eq!(parsed[2][1], "fails 2 of 3 a, b<c");
}
