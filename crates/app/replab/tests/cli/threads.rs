//! docs/architecture.md's thread rule against the code: work that runs on several threads runs
//! on a rayon pool; only the UCI crate (the engine's I/O and search threads, the client's reader
//! threads, their tests) and the SMP experiment's real threads start threads of their own.

use std::path::{Path, PathBuf};

use crate::common::repo_root;

/// The directories under `crates/` allowed to start threads of their own.
const ALLOWED: [&str; 2] = ["engine/uci", "experiments/smp"];

/// Every `.rs` file under `dir`, depth first.
fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for path in entries.map(|e| e.expect("a directory entry").path()) {
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|x| x == "rs") {
            files.push(path);
        }
    }
}

/// The lines of `text` that start a thread of their own (`thread::` then `spawn` or `scope`),
/// as `line: text`.
fn own_threads(text: &str) -> Vec<String> {
    let calls = ["spawn", "scope"].map(|w| format!("thread::{w}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| calls.iter().any(|c| l.contains(c.as_str())))
        .map(|(i, l)| format!("{}: {}", i + 1, l.trim()))
        .collect()
}

#[test]
fn only_the_uci_crate_and_the_smp_experiment_start_threads() {
    let crates = repo_root().join("crates");
    let mut files = Vec::new();
    rust_files(&crates, &mut files);
    assert!(files.len() > 100, "{} files under crates/", files.len());
    let hits: Vec<String> = files
        .iter()
        .filter(|f| !ALLOWED.iter().any(|a| f.starts_with(crates.join(a))))
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            let name = f.strip_prefix(&crates).unwrap_or(f).display().to_string();
            own_threads(&text)
                .into_iter()
                .map(move |h| format!("crates/{name}:{h}"))
        })
        .collect();
    assert!(
        hits.is_empty(),
        "threads of their own outside {ALLOWED:?} (use rayon, or replab_uci::client):\n{}",
        hits.join("\n")
    );
}

#[test]
fn a_thread_of_its_own_is_found() {
    let text = ["let a = 1;", "std::thread::", "spawn(|| ());"].join("\n");
    assert!(
        own_threads(&text).is_empty(),
        "split over lines: not a call"
    );
    let text = format!("let a = 1;\nstd::thread::{}(|| ());", "spawn");
    assert_eq!(
        own_threads(&text),
        [format!("2: std::thread::{}(|| ());", "spawn")]
    );
}
