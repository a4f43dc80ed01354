//! The engine digest (`ENGINE_DIGEST`): FNV-1a 64 over the sources that decide how replab's
//! searcher plays and what a node costs — this crate's `src`, the board's and every detector
//! crate's — each file's path (relative to `crates/`) then its bytes, in path order. Recorded
//! datasets measured with the engine carry it, so a recording older than the engine is seen.
//! It depends on the files' contents only (not on times or the checkout's place).

use std::{
    fs,
    path::{Path, PathBuf},
};

/// The source folders, relative to this crate; every `*/src` folder under `detectors` joins.
const SOURCES: &[&str] = &["src", "../../chess/board/src"];

/// The folder whose crates' `src` folders join.
const DETECTORS: &str = "../../detectors";

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let crates = here.join("../..").canonicalize().expect("crates/ exists");
    let mut folders: Vec<PathBuf> = SOURCES.iter().map(|s| here.join(s)).collect();
    folders.extend(detector_sources(&here.join(DETECTORS)));
    println!("cargo:rerun-if-changed={}", here.join(DETECTORS).display());
    let mut files = Vec::new();
    for folder in &folders {
        println!("cargo:rerun-if-changed={}", folder.display());
        collect(&folder.canonicalize().expect("a source folder"), &mut files);
    }
    files.sort();
    let mut hash = FNV_OFFSET;
    for file in &files {
        let name = file.strip_prefix(&crates).unwrap_or(file);
        hash = fnv(hash, name.to_string_lossy().as_bytes());
        hash = fnv(hash, &fs::read(file).expect("a readable source file"));
    }
    println!("cargo:rustc-env=REPLAB_ENGINE_DIGEST={hash:016x}");
}

/// The `src` folder of every crate under `detectors`.
fn detector_sources(detectors: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(detectors)
        .expect("crates/detectors exists")
        .filter_map(|e| Some(e.ok()?.path().join("src")))
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

/// Every `.rs` file under `dir`, recursively.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a 64 of `bytes`, continued from `hash`.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
