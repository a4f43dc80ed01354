//! Atomic output: single files with [`write_atomic`], whole report directories with [`ReportDir`].

use std::{
    ffi::OsString,
    fs::{self, File},
    io::{self, BufWriter, Write},
    path::{Component, Path, PathBuf},
    process,
    sync::atomic::{AtomicU64, Ordering},
};

use crate::ReportError;

type Result<T, E = ReportError> = std::result::Result<T, E>;

/// Distinguishes temporary names made by one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A hidden sibling of `path`: `dir/.name.<kind>-<pid>-<n>`.
fn sibling(path: &Path, kind: &str) -> Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| ReportError::InvalidName {
        path: path.to_owned(),
    })?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut hidden = OsString::from(".");
    hidden.push(name);
    hidden.push(format!(".{kind}-{}-{n}", process::id()));
    Ok(path.with_file_name(hidden))
}

/// The directory holding `path`, `.` for a bare file name.
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Flushes a directory entry to disk. Best effort: some file systems cannot sync directories.
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Writes `bytes` to `path` atomically: readers see either the old file or the whole new one.
///
/// The bytes go to a hidden temporary file in the same directory, which is synced and then
/// renamed over `path`. The parent directory must exist.
pub fn write_atomic(path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes.as_ref()))
}

/// Like [`write_atomic`], but the content is produced by `write`. If `write` fails, `path` is left
/// untouched, the temporary file is removed, and the error names `path`.
pub fn write_atomic_with<F>(path: impl AsRef<Path>, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    let path = path.as_ref();
    let tmp = sibling(path, "tmp")?;
    let res = (|| {
        let file = File::create_new(&tmp).map_err(ReportError::io("create", &tmp))?;
        let mut w = BufWriter::new(file);
        write(&mut w).map_err(ReportError::io("write", path))?;
        let file = w
            .into_inner()
            .map_err(|e| ReportError::io("write", path)(e.into_error()))?;
        file.sync_all().map_err(ReportError::io("sync", &tmp))?;
        fs::rename(&tmp, path).map_err(|source| ReportError::Rename {
            from: tmp.clone(),
            to: path.to_owned(),
            source,
        })
    })();
    if res.is_err() {
        let _ = fs::remove_file(&tmp);
    } else {
        sync_dir(parent_dir(path));
    }
    res
}

/// Checks that `name` is a non-empty relative path that stays inside its directory.
fn check_name(name: &Path) -> Result<()> {
    let ok = name.components().any(|c| matches!(c, Component::Normal(_)))
        && name
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if ok {
        Ok(())
    } else {
        Err(ReportError::InvalidName {
            path: name.to_owned(),
        })
    }
}

/// The marker file every report directory written by [`ReportDir`] carries. It holds the
/// command that wrote the report. An existing path is replaced only when it is a directory
/// holding this file, or an empty directory: anything else (a regular file, a link, a directory
/// with files replab did not write) is refused with [`ReportError::NotOurs`], untouched.
pub const REPORT_MARKER: &str = ".replab-report";

/// The marker file at the root of a report site written by `replab bench` (report directories
/// plus `index.html`). Its presence allows the site's own root files to be replaced; other
/// files in the root are never touched.
pub const SITE_MARKER: &str = ".replab-site";

/// The command line of this process, as written into the marker files.
fn this_command() -> String {
    let mut args = std::env::args();
    let program = args
        .next()
        .and_then(|p| {
            Path::new(&p)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "replab".into());
    std::iter::once(program)
        .chain(args)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The marker's text: what wrote the directory and what that allows.
fn marker_text(what: &str) -> String {
    format!(
        "This {what} was written by replab; its next run may replace it.\ncommand: {}\n",
        this_command()
    )
}

/// The command line recorded in the [`REPORT_MARKER`] of the report directory `dir`
/// (`replab bench --quick`), or `None` when `dir` carries no readable marker.
pub fn written_by(dir: impl AsRef<Path>) -> Option<String> {
    let text = fs::read_to_string(dir.as_ref().join(REPORT_MARKER)).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix("command: "))
        .map(str::to_owned)
}

/// Checks that replab may replace `target` with a report directory: it is missing, an empty
/// directory, or a directory carrying [`REPORT_MARKER`]. Otherwise returns
/// [`ReportError::NotOurs`] naming `target` and what it is.
pub fn check_replaceable(target: impl AsRef<Path>) -> Result<()> {
    let target = target.as_ref();
    let meta = match fs::symlink_metadata(target) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(ReportError::io("inspect", target)(e)),
        Ok(meta) => meta,
    };
    let why = if meta.file_type().is_symlink() {
        "it is a symbolic link"
    } else if !meta.is_dir() {
        "it is a file, not a report directory"
    } else if target.join(REPORT_MARKER).is_file()
        || fs::read_dir(target)
            .map_err(ReportError::io("read directory", target))?
            .next()
            .is_none()
    {
        // replab's own report, or an empty directory: nothing of anyone else's to lose.
        return Ok(());
    } else {
        "it is a directory holding files replab did not write (it has no .replab-report marker)"
    };
    Err(ReportError::NotOurs {
        path: target.to_owned(),
        why: why.into(),
    })
}

/// Checks that `root` can take a report site: it is missing or a directory; the files
/// `root_files` the site writes at its root (e.g. `index.html`) exist only if `root` carries
/// [`SITE_MARKER`]; and each of `report_dirs` (names under `root`) passes
/// [`check_replaceable`]. Nothing else in `root` is ever touched.
pub fn check_site_root(
    root: impl AsRef<Path>,
    root_files: &[&str],
    report_dirs: &[&str],
) -> Result<()> {
    let root = root.as_ref();
    match fs::symlink_metadata(root) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return check_creatable(root),
        Err(e) => return Err(ReportError::io("inspect", root)(e)),
        Ok(meta) if !meta.is_dir() => {
            return Err(ReportError::NotOurs {
                path: root.to_owned(),
                why: "it is not a directory".into(),
            });
        }
        Ok(_) => {}
    }
    if !root.join(SITE_MARKER).is_file() {
        for name in root_files {
            let path = root.join(name);
            if fs::symlink_metadata(&path).is_ok() {
                return Err(ReportError::NotOurs {
                    path,
                    why: "the directory around it has no .replab-site marker, so replab did not \
                          write it"
                        .into(),
                });
            }
        }
    }
    report_dirs
        .iter()
        .try_for_each(|name| check_replaceable(root.join(name)))
}

/// Checks that the missing directory `path` can be made: its nearest existing ancestor is a
/// directory in which a directory can be created (tried, and removed at once), so that a long
/// run does not end unable to write.
fn check_creatable(path: &Path) -> Result<()> {
    let Some(parent) = path
        .ancestors()
        .skip(1)
        .find(|a| fs::symlink_metadata(a).is_ok())
    else {
        return Ok(());
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let probe = parent.join(format!(".replab-probe-{}", process::id()));
    fs::create_dir(&probe).map_err(ReportError::io("create a directory in", parent))?;
    fs::remove_dir(&probe).map_err(ReportError::io("remove directory", probe))
}

/// Creates the site root `root` (after [`check_site_root`]) and writes its [`SITE_MARKER`].
pub fn create_site_root(root: impl AsRef<Path>) -> Result<()> {
    let root = root.as_ref();
    fs::create_dir_all(root).map_err(ReportError::io("create directory", root))?;
    write_atomic(root.join(SITE_MARKER), marker_text("report site"))
}

/// Stages a whole report directory and swaps it in on [`commit`](ReportDir::commit).
///
/// Files are written into a fresh hidden directory beside the target
/// (`reports/.axon.tmp-<pid>-<n>` for `reports/axon`). `commit` renames the old target away,
/// renames the staged directory in and removes the old one, so the target is at every moment
/// either the complete old report or the complete new one. Dropping a `ReportDir` without
/// committing removes the staging directory and leaves the target untouched; staging
/// directories left by killed processes are removed by the next `create` for that target.
///
/// Every report carries [`REPORT_MARKER`]; an existing target is replaced only when it carries
/// one too or is an empty directory (checked by `create` and again by `commit`).
#[derive(Debug)]
pub struct ReportDir {
    target: PathBuf,
    staging: PathBuf,
    committed: bool,
}

impl ReportDir {
    /// Starts staging a report that will replace `target`. Creates the parent of `target`
    /// if needed. Refuses ([`ReportError::NotOurs`]) a target replab may not replace, see
    /// [`check_replaceable`].
    pub fn create(target: impl Into<PathBuf>) -> Result<Self> {
        let target = target.into();
        check_replaceable(&target)?;
        let parent = parent_dir(&target);
        fs::create_dir_all(parent).map_err(ReportError::io("create directory", parent))?;
        remove_stale(&target);
        let staging = sibling(&target, "tmp")?;
        match fs::remove_dir_all(&staging) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(ReportError::io("remove stale directory", &staging)(e));
            }
            _ => {}
        }
        fs::create_dir(&staging).map_err(ReportError::io("create directory", &staging))?;
        let dir = Self {
            target,
            staging,
            committed: false,
        };
        dir.write(REPORT_MARKER, marker_text("report directory"))?;
        Ok(dir)
    }

    /// The directory the report will replace.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The staging directory files are written to until [`commit`](Self::commit).
    pub fn staging(&self) -> &Path {
        &self.staging
    }

    /// Writes `bytes` to the file `name` (a relative path, e.g. `index.html` or `svg/nodes.svg`)
    /// in the staged report, creating subdirectories as needed.
    pub fn write(&self, name: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> Result<()> {
        let name = name.as_ref();
        check_name(name)?;
        let path = self.staging.join(name);
        let dir = parent_dir(&path);
        fs::create_dir_all(dir).map_err(ReportError::io("create directory", dir))?;
        let mut file = File::create(&path).map_err(ReportError::io("create", &path))?;
        file.write_all(bytes.as_ref())
            .and_then(|()| file.sync_all())
            .map_err(ReportError::io("write", &path))
    }

    /// Replaces the target directory with the staged one and returns the target's path.
    ///
    /// On failure the previous report is restored if it had been moved away. If only removing
    /// the previous report fails, the new report is in place and the error names the old copy.
    pub fn commit(mut self) -> Result<PathBuf> {
        // The run may have taken long: someone may have put files at the target meanwhile.
        check_replaceable(&self.target)?;
        sync_dir(&self.staging);
        let old = sibling(&self.target, "old")?;
        let had_old = match fs::rename(&self.target, &old) {
            Ok(()) => true,
            Err(e) if e.kind() == io::ErrorKind::NotFound => false,
            Err(source) => {
                return Err(ReportError::Rename {
                    from: self.target.clone(),
                    to: old,
                    source,
                });
            }
        };
        if let Err(source) = fs::rename(&self.staging, &self.target) {
            if had_old {
                let _ = fs::rename(&old, &self.target);
            }
            return Err(ReportError::Rename {
                from: self.staging.clone(),
                to: self.target.clone(),
                source,
            });
        }
        self.committed = true;
        sync_dir(parent_dir(&self.target));
        if had_old {
            let removed = if old.is_dir() {
                fs::remove_dir_all(&old)
            } else {
                fs::remove_file(&old)
            };
            removed.map_err(ReportError::io("remove previous report", &old))?;
        }
        Ok(self.target.clone())
    }
}

impl Drop for ReportDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}

/// Removes hidden siblings of `target` left by processes that are gone: staging directories
/// (`.name.tmp-<pid>-*`) always, previous reports (`.name.old-<pid>-*`) only when `target`
/// exists, since an old copy may be the only one left after a failed commit. Best effort,
/// and only where `/proc` tells which processes are alive.
fn remove_stale(target: &Path) {
    let (Some(name), Ok(entries)) = (
        target.file_name().and_then(|n| n.to_str()),
        fs::read_dir(parent_dir(target)),
    ) else {
        return;
    };
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let ids = match (rest.strip_prefix("tmp-"), rest.strip_prefix("old-")) {
            (Some(ids), _) => ids,
            (None, Some(ids)) if target.exists() => ids,
            _ => continue,
        };
        let Some(pid) = ids.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_must_stay_inside() {
        assert!(check_name(Path::new("index.html")).is_ok());
        assert!(check_name(Path::new("svg/a.svg")).is_ok());
        assert!(check_name(Path::new("./a")).is_ok());
        for bad in ["", ".", "/etc/passwd", "../x", "a/../../x"] {
            assert!(check_name(Path::new(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn sibling_is_hidden_and_beside() {
        let s = sibling(Path::new("reports/axon"), "tmp").unwrap();
        assert_eq!(s.parent(), Some(Path::new("reports")));
        let name = s.file_name().unwrap().to_str().unwrap();
        assert!(
            name.starts_with(&format!(".axon.tmp-{}-", process::id())),
            "{name}"
        );
    }
}
