//! What a subcommand prints once its report is written, and a run that fails after writing it.

use std::{io::Write as _, path::Path};

use anyhow::Result;

/// What a subcommand prints and whether it fails once its report is written.
pub struct Conclusion {
    /// Text for stdout.
    pub stdout: String,
    /// Text for stderr.
    pub stderr: String,
    /// Why the run fails although its report is written (records skipped: exit 2; an engine
    /// failing a conformance scenario: exit 1).
    pub failure: Option<Failure>,
}

/// A run that wrote its report but must end with a non-zero exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The exit status: 2 for bad input that was skipped, 1 for a failed check.
    pub status: u8,
    /// What failed.
    pub message: String,
}

impl Failure {
    /// Bad input was skipped (exit status 2).
    pub fn bad_input(message: String) -> Self {
        Self { status: 2, message }
    }

    /// A check the user asked for failed (exit status 1).
    pub fn check(message: String) -> Self {
        Self { status: 1, message }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

impl Conclusion {
    /// The table on stdout, where the page went on stderr.
    pub fn table(stdout: String, index: &Path) -> Self {
        Self {
            stdout,
            stderr: format!("wrote {}\n", index.display()),
            failure: None,
        }
    }

    /// Prints the conclusion, stderr's text then stdout's (a closed stdout pipe is not an
    /// error); its failure, if any, is the error.
    pub fn print(self) -> Result<()> {
        eprint!("{}", self.stderr);
        if let Err(e) = std::io::stdout().lock().write_all(self.stdout.as_bytes())
            && e.kind() != std::io::ErrorKind::BrokenPipe
        {
            anyhow::bail!("cannot write the table to stdout: {e}");
        }
        self.failure.map_or(Ok(()), |failure| Err(failure.into()))
    }
}
