//! Helpers shared by every command-line test: running the binary and scratch directories.

use std::{
    path::{Path, PathBuf},
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
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A fresh, empty directory for one test under the system temp dir, removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    /// A new scratch directory; `name` keeps tests running in parallel apart.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("replab-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch directory");
        Scratch(dir)
    }

    /// The directory itself.
    pub fn dir(&self) -> &Path {
        &self.0
    }

    /// A path inside the directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
