//! The binary alone spells `--flags`: a test walks every library crate (all of `crates/` but
//! this one) and fails on a string literal that spells one of replab's own flags. A library
//! names a setting by its field (`replab_settings::Setting`); the binary maps it to the flag.
//! Two kinds of literal are command lines by nature and pass: a reproduction command
//! (`"replab audit --games 10"`, or one shown in a page, `"<code>replab …"`) and a fragment
//! appended to one (`" --skip-missing"`). Another program's own argument parser (a crate's
//! `src/bin/`, such as the test engine `replab-mutant`) is a binary too, and passes.

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

/// Whether `literal` is a command line or a fragment of one.
fn is_command(literal: &str) -> bool {
    let body = &literal[1..];
    body.starts_with("replab ") || body.starts_with(" --") || body.contains("<code>replab ")
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

/// `file:line: "literal" spells --flag` for every offending literal of `text`.
fn offences(file: &str, text: &str, flags: &[String]) -> Vec<String> {
    literals(text)
        .into_iter()
        .filter(|(_, lit)| !is_command(lit))
        .flat_map(|(line, lit)| {
            spelled(lit, flags)
                .into_iter()
                .map(move |f| format!("{file}:{line}: {lit} spells --{f}"))
        })
        .collect()
}

/// Every `.rs` file under `dir` but those under `skip`.
fn rust_files(dir: &Path, skip: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.starts_with(skip) || path.ends_with("src/bin") {
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
fn no_library_crate_spells_a_flag_of_the_command_line() {
    let flags = all_flags();
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
            offences(&name, &text, &flags)
        })
        .collect();
    assert!(
        found.is_empty(),
        "library crates spell flags:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_a_spelled_flag_and_passes_commands_comments_and_longer_names() {
    let flags = ["games".to_string(), "max-plies".to_string()];
    let text = r#"
        // bail!("--games 0") in a comment
        bail!("--games {} is out of range", g);
        let c = "replab audit --games 10 --out x";
        let f = " --max-plies 4";
        let ok = "--games-per-pair";
        let raw = r"--games";
        let q = '"';
        let late = "see --max-plies";
    "#;
    let found = offences("x.rs", text, &flags);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("x.rs:3:") && found[0].ends_with("spells --games"));
    assert!(found[1].starts_with("x.rs:9:") && found[1].ends_with("spells --max-plies"));
}
