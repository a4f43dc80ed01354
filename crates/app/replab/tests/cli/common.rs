//! Helpers shared by every command-line test: running the binary and scratch directories.

use std::{
    path::Path,
    process::{Command, Output},
};

/// The `replab` binary under test, as a command to add arguments to.
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_replab"))
}

/// Runs `replab args…` from the package directory (so `tests/data/…` paths resolve) and
/// returns its output.
pub fn replab(args: &[&str]) -> Output {
    command()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run replab")
}

/// Standard output or error as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The repository root.
pub fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."))
}

pub use replab_truth::kit::Scratch;
