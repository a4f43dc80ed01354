//! An `--engine` value as the words of a command line, split as a POSIX shell splits them.

use std::{fmt, ops::Deref, path::Path, str::FromStr};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::Config;

/// An engine's command line as words: a value naming an existing file is the program itself
/// (spaces and all); anything else is split as a POSIX shell would split it, so
/// `"'/opt/my engine/run' --uci"` is a program with a space and one argument.
pub fn command_words(text: &str) -> Result<Vec<String>> {
    if Path::new(text).is_file() {
        return Ok(vec![text.to_string()]);
    }
    let words = shlex::split(text).ok_or_else(|| {
        anyhow::anyhow!("{} {text:?}: unbalanced quotes or escape", Config::ENGINES)
    })?;
    anyhow::ensure!(!words.is_empty(), "{}: empty command", Config::ENGINES);
    Ok(words)
}

/// An external engine's command line: the program and its arguments ([`command_words`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EngineCommand(pub Vec<String>);

impl FromStr for EngineCommand {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<Self> {
        command_words(text).map(Self)
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(" "))
    }
}

impl Deref for EngineCommand {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.0
    }
}
