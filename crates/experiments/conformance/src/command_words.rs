//! An `--engine` value as the words of a command line, split as a POSIX shell splits them.

use std::path::Path;

use anyhow::Result;

/// An engine's command line as words: a value naming an existing file is the program itself
/// (spaces and all); anything else is split as a POSIX shell would split it, so
/// `"'/opt/my engine/run' --uci"` is a program with a space and one argument.
pub fn command_words(text: &str) -> Result<Vec<String>> {
    if Path::new(text).is_file() {
        return Ok(vec![text.to_string()]);
    }
    let words = shlex::split(text).ok_or_else(|| {
        anyhow::anyhow!(
            "{set_engine} {text:?}: unbalanced quotes or escape",
            set_engine = replab_settings::Setting::new("engine")
        )
    })?;
    anyhow::ensure!(
        !words.is_empty(),
        "{set_engine}: empty command",
        set_engine = replab_settings::Setting::new("engine")
    );
    Ok(words)
}
