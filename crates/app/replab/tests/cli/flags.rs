//! The binary alone spells `--flags` and command lines: a test walks every library crate (all of
//! `crates/` but this one, their tests left out) and fails on a string literal that spells one of
//! replab's own flags, or a command line of a replab subcommand (`"replab smp --quick"`,
//! `"replab suite {}"`). A library names a setting by its typed handle (`Config::GAMES`, which
//! prints `--games`), and a report records the command line as it was typed. A name that is not
//! a command line (`"replab match"`, a PGN event; `"replab audit: …"`, a title) passes. Another
//! program's own argument parser (a crate's `src/bin/`, such as the test engine `replab-mutant`)
//! is a binary too, and passes.

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
};

use crate::common::{replab, repo_root, text};

/// The subcommands whose `--help` lists replab's flags (`reproduce axon` a level down).
const SUBCOMMANDS: [&[&str]; 17] = [
    &["perft"],
    &["scan"],
    &["suite"],
    &["audit"],
    &["reproduce", "axon"],
    &["study"],
    &["key-width"],
    &["smp"],
    &["policies"],
    &["ghi"],
    &["bench"],
    &["conformance"],
    &["elo"],
    &["match"],
    &["merge"],
    &["uci"],
    &["measure"],
];

/// Every long flag the subcommands' `--help` lists, `help` and `version` left out.
fn all_flags() -> Vec<String> {
    let mut flags = BTreeSet::new();
    for sub in SUBCOMMANDS {
        let mut args = sub.to_vec();
        args.push("--help");
        for line in text(&replab(&args).stdout).lines() {
            let Some(first) = line.trim_start().split("  ").next() else {
                continue;
            };
            for word in first.split([' ', ',']) {
                if let Some(flag) = word.strip_prefix("--") {
                    flags.insert(flag.to_string());
                }
            }
        }
    }
    flags.remove("help");
    flags.remove("version");
    flags.into_iter().collect()
}

/// The string literals of Rust source `text` (comments, char literals and raw strings skipped),
/// each with its line.
fn literals(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let (mut i, mut out) = (0, Vec::new());
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if rest.starts_with("r\"") || rest.starts_with("r#") {
            i += raw_len(rest);
        } else if bytes[i] == b'\'' {
            i += char_len(rest);
        } else if bytes[i] == b'"' {
            let end = string_end(rest);
            out.push((text[..i].matches('\n').count() + 1, &rest[..end]));
            i += end;
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// The length of the normal string literal at the start of `rest`, quotes included.
fn string_end(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let mut j = 1;
    while j < bytes.len() && bytes[j] != b'"' {
        j += if bytes[j] == b'\\' { 2 } else { 1 };
    }
    (j + 1).min(bytes.len())
}

/// The length of the raw string at the start of `rest` (`r"…"`, `r#"…"#`), or 1 for an
/// identifier starting with `r`.
fn raw_len(rest: &str) -> usize {
    let hashes = rest[1..].chars().take_while(|&c| c == '#').count();
    if rest[1 + hashes..].starts_with('"') {
        let close = format!("\"{}", "#".repeat(hashes));
        let body = 2 + hashes;
        rest[body..]
            .find(&close)
            .map_or(rest.len(), |e| body + e + close.len())
    } else {
        1
    }
}

/// The length of a char literal at the start of `rest`, or 1 for a lifetime's quote.
fn char_len(rest: &str) -> usize {
    let b = rest.as_bytes();
    match (b.get(1), b.get(2), b.get(3)) {
        (Some(b'\\'), _, _) => rest[2..].find('\'').map_or(1, |e| e + 3),
        (Some(_), Some(b'\''), _) => 3,
        _ => rest[1..]
            .chars()
            .next()
            .map_or(1, |c| 1 + c.len_utf8())
            .min(rest.len()),
    }
}

/// The subcommands of `commands` that `literal` spells as a command line: `replab NAME`
/// followed by a space (an option or an argument).
fn commands_spelled<'a>(literal: &str, commands: &'a [String]) -> Vec<&'a str> {
    commands
        .iter()
        .filter(|c| literal.contains(&format!("replab {c} ")))
        .map(String::as_str)
        .collect()
}

/// The flags of `flags` that `literal` spells (`--games` followed by no further name
/// character).
fn spelled<'a>(literal: &str, flags: &'a [String]) -> Vec<&'a str> {
    flags
        .iter()
        .filter(|f| {
            let needle = format!("--{f}");
            literal.match_indices(&needle).any(|(at, _)| {
                let next = literal[at + needle.len()..].chars().next();
                !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
            })
        })
        .map(String::as_str)
        .collect()
}

/// `file:line: "literal" spells --flag` (or `replab NAME …`) for every offending literal of
/// `text`'s code before its unit tests (`#[cfg(test)]` at the start of a line).
fn offences(file: &str, text: &str, flags: &[String], commands: &[String]) -> Vec<String> {
    let code = text.split("\n#[cfg(test)]").next().unwrap_or(text);
    literals(code)
        .into_iter()
        .flat_map(|(line, lit)| {
            let flags = spelled(lit, flags).into_iter().map(|f| format!("--{f}"));
            let lines = commands_spelled(lit, commands)
                .into_iter()
                .map(|c| format!("a command line of replab {c}"));
            flags
                .chain(lines)
                .map(move |what| format!("{file}:{line}: {lit} spells {what}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The subcommands' names (`reproduce` and `axon` both).
fn all_commands() -> Vec<String> {
    let mut names: Vec<String> = SUBCOMMANDS
        .iter()
        .flat_map(|sub| sub.iter().map(|s| s.to_string()))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Every `.rs` file under `dir` but those under `skip`, another program's `src/bin`, and tests
/// (`tests/`, `tests.rs`).
fn rust_files(dir: &Path, skip: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        let test = path.ends_with("tests") || path.ends_with("tests.rs");
        if path.starts_with(skip) || path.ends_with("src/bin") || test {
            continue;
        }
        if path.is_dir() {
            rust_files(&path, skip, files);
        } else if path.extension().is_some_and(|x| x == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn no_library_crate_spells_a_flag_or_a_command_line() {
    let (flags, commands) = (all_flags(), all_commands());
    assert!(flags.iter().any(|f| f == "games"), "{flags:?}");
    let here = repo_root()
        .join("crates/app/replab")
        .canonicalize()
        .unwrap();
    let crates = repo_root().join("crates").canonicalize().unwrap();
    let mut files = Vec::new();
    rust_files(&crates, &here, &mut files);
    assert!(
        files.len() > 100,
        "only {} files under {}",
        files.len(),
        crates.display()
    );
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let name = f.strip_prefix(&crates).unwrap_or(f).display().to_string();
            offences(&name, &text, &flags, &commands)
        })
        .collect();
    assert!(
        found.is_empty(),
        "library crates spell flags:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_spelled_flags_and_command_lines_and_passes_comments_names_and_tests() {
    let flags = ["games".to_string(), "max-plies".to_string()];
    let commands = ["audit".to_string(), "match".to_string()];
    let text = r#"
        // bail!("--games 0") in a comment
        bail!("--games {} is out of range", g);
        let c = "replab audit --seed 10";
        let f = " --max-plies 4";
        let ok = "--games-per-pair";
        let raw = r"--games";
        let q = '"';
        let event = ("replab match", "replab audit: 10 games");
        let late = "see --max-plies";
#[cfg(test)]
mod tests {
    const TYPED: &str = "replab audit --games 3";
}
    "#;
    let found = offences("x.rs", text, &flags, &commands);
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found[0].starts_with("x.rs:3:") && found[0].ends_with("spells --games"));
    assert!(found[1].starts_with("x.rs:4:") && found[1].ends_with("command line of replab audit"));
    assert!(found[2].starts_with("x.rs:5:") && found[2].ends_with("spells --max-plies"));
    assert!(found[3].starts_with("x.rs:10:") && found[3].ends_with("spells --max-plies"));
}
