//! A list of detector names as an option takes it: the value of the audit's and the scan's
//! detector lists, each parsed by its own module (`audit::parse_detectors`,
//! `scan::parse_detectors`: which names, and what `all` means, are theirs).

use std::{fmt, ops::Deref};

use serde::{Deserialize, Serialize};

/// Registry detector names in the order given, without repeats (written as a JSON list).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DetectorNames(pub Vec<String>);

impl Deref for DetectorNames {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.0
    }
}

impl fmt::Display for DetectorNames {
    /// Comma-separated, as the option takes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(","))
    }
}
