//! Small helpers shared by the subcommands.

/// The command line that invoked this process, as a shell would need it typed again: the
/// program shown as `replab`, arguments with spaces or quotes single-quoted.
pub fn command_line() -> String {
    let mut parts = vec!["replab".to_string()];
    for arg in std::env::args().skip(1) {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_=.,/:+@%".contains(c));
        parts.push(if plain {
            arg
        } else {
            format!("'{}'", arg.replace('\'', r"'\''"))
        });
    }
    parts.join(" ")
}
