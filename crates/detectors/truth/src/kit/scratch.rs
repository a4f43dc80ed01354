//! Scratch directories for tests that write reports.

use std::path::{Path, PathBuf};

/// A fresh, empty directory for one test under the system temp dir, removed when dropped.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl Scratch {
    /// A new scratch directory; `name` keeps tests running in parallel apart (the process id
    /// keeps test binaries apart).
    ///
    /// # Panics
    /// If the directory cannot be created.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("replab-test-{}-{name}", std::process::id()));
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
