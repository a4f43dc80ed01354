//! The error type of the crate.

use std::{io, path::PathBuf};

/// Anything that can go wrong while writing a report. Every variant names the file or
/// chart involved; the underlying cause is available through [`std::error::Error::source`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// A file-system operation (`op`, e.g. "create directory") failed on `path`.
    #[error("cannot {op} {}", path.display())]
    Io {
        /// What was being done, as a verb phrase.
        op: &'static str,
        /// The file or directory involved.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// Renaming `from` to `to` failed.
    #[error("cannot rename {} to {}", from.display(), to.display())]
    Rename {
        /// The existing path.
        from: PathBuf,
        /// The new path.
        to: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// A file name given to [`ReportDir`](crate::ReportDir) is absolute, empty or leaves the
    /// report directory (`..`).
    #[error("invalid report file name {}: must be a relative path inside the report directory", path.display())]
    InvalidName {
        /// The offending name.
        path: PathBuf,
    },
    /// `path` exists and is not something replab may replace: a file, a link, or a directory
    /// holding files that replab did not write (no marker file, see
    /// [`REPORT_MARKER`](crate::REPORT_MARKER)). Nothing was touched.
    #[error("refusing to replace {}: {why}; nothing was touched (choose another report directory, or move it away)", path.display())]
    NotOurs {
        /// The path that would have been replaced.
        path: PathBuf,
        /// What it is, e.g. "it is a regular file".
        why: String,
    },
    /// plotters failed to draw the chart with this title.
    #[error("cannot draw chart {title:?}: {message}")]
    Chart {
        /// The chart's title.
        title: String,
        /// plotters' message.
        message: String,
    },
    /// The page template failed to render.
    #[error("cannot render page {title:?}")]
    Template {
        /// The page's title.
        title: String,
        /// The cause.
        #[source]
        source: minijinja::Error,
    },
}

impl ReportError {
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { op, path, source }
    }
}
