//! `replab bench --smoke` builds the whole report site; every page's links and images resolve.
//! (`tools/check_pages.sh` additionally renders the pages in headless Chromium.)

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::Command,
};

/// Every `href="…"` and `src="…"` value in `html`.
fn references(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            let end = rest.find('"').unwrap_or(rest.len());
            out.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    out
}

/// Checks that every relative link and image of every page reachable from `index` exists.
fn check_site(index: &Path) -> usize {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<PathBuf> = vec![index.to_path_buf()];
    while let Some(page) = todo.pop() {
        let page = page
            .canonicalize()
            .unwrap_or_else(|_| panic!("missing {}", page.display()));
        if !seen.insert(page.clone()) {
            continue;
        }
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            html.contains("Regenerate this page with"),
            "{} lacks its command",
            page.display()
        );
        for r in references(&html) {
            if r.starts_with('#') || r.starts_with("http") || r.starts_with("data:") {
                continue;
            }
            let target = page.parent().unwrap().join(r.split('#').next().unwrap());
            assert!(target.exists(), "{} links to missing {r}", page.display());
            if r.ends_with(".html") {
                todo.push(target);
            }
        }
    }
    seen.len()
}

#[test]
fn smoke_bench_writes_a_linked_site() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    let out = std::env::temp_dir().join(format!("replab-bench-{}", std::process::id()));
    let status = Command::new(env!("CARGO_BIN_EXE_replab"))
        .args(["bench", "--smoke", "--out"])
        .arg(&out)
        .current_dir(root)
        .status()
        .unwrap();
    assert!(status.success());
    let pages = check_site(&out.join("index.html"));
    assert!(pages >= 5, "only {pages} pages");
    let landing = std::fs::read_to_string(out.join("index.html")).unwrap();
    for needle in [
        // The label as the page escapes it (`The paper&#39;s claims vs ours.`).
        "claims vs ours",
        "Exact under FIDE identity",
        "Cheapest per probe",
        "Cost in a search",
        "Conformance with the rules",
        "conformance/index.html",
        "study/index.html",
        "scaling.svg",
        "smoke (<code>--smoke</code>)",
    ] {
        assert!(landing.contains(needle), "landing page lacks {needle:?}");
    }
    every_time_is_marked(&out);
    std::fs::remove_dir_all(&out).unwrap();
}

/// Every `results.json` under `dir`: each measured time carries an interval or is marked a
/// single sample (settings, provenance and the paper's reference figures left out).
fn every_time_is_marked(dir: &Path) {
    let mut files = 0;
    for entry in walk(dir) {
        if entry.file_name().is_some_and(|n| n == "results.json") {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&entry).unwrap()).unwrap();
            let skip = ["config", "meta", "match", "paper", "reference"];
            let unmarked = replab_interval::unmarked_times(&v, &skip);
            assert!(unmarked.is_empty(), "{}: {unmarked:?}", entry.display());
            files += 1;
        }
    }
    assert!(files >= 10, "only {files} results.json files");
}

/// Every file below `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn bench_refuses_a_root_it_did_not_write_before_running() {
    let scratch = std::env::temp_dir().join(format!("replab-bench-refuse-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(scratch.join("site")).unwrap();
    std::fs::write(scratch.join("site/index.html"), "the user's page").unwrap();
    std::fs::write(scratch.join("afile"), "notes").unwrap();
    for target in ["site", "afile"] {
        let o = Command::new(env!("CARGO_BIN_EXE_replab"))
            .args(["bench", "--quick", "--quiet", "--out"])
            .arg(scratch.join(target))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{target}: {err}");
        assert!(err.contains("refusing to replace"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(scratch.join("site/index.html")).unwrap(),
        "the user's page"
    );
    assert_eq!(
        std::fs::read_to_string(scratch.join("afile")).unwrap(),
        "notes"
    );
    std::fs::remove_dir_all(&scratch).unwrap();
}
