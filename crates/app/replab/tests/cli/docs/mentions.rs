//! Every `crates/…` path and every package name the documentation mentions exists. The
//! documents: the top-level `README.md`, the `README.md` of every top-level folder
//! (`crates/README.md`, `docs/README.md`, `fuzz/README.md`), `docs/*.md` and the `README.md` of
//! every crate (`crates/*/*/README.md`), and the page templates of every crate
//! (`crates/*/*/templates/**/*.html`, the prose a report page shows). The rules:
//!
//! - **Paths.** A path mention is `crates/` and the path characters after it (letters, digits,
//!   `_ - . / < > *`), with the `../` before it if any; a trailing `.` ends the sentence, not the
//!   path. One starting `../` is read from the document's folder, any other from the
//!   repository root. It must exist.
//! - **Placeholders.** A segment holding `<…>` (`<name>`, `<name>.rs`) reads `<…>` as any name,
//!   and the path must match at least one that exists. Directly under `crates/` lie only the
//!   layer folders, so a placeholder there must be `<layer>`: `crates/<name>` is the flat layout
//!   of old, and a crate is now `crates/<layer>/<name>` (`crates/detectors/<name>`).
//! - **Globs.** A path holding `*` claims to be the workspace's members glob: it must start with
//!   one of the root `Cargo.toml`'s `members` (`crates/*/*`, perhaps followed by a path inside
//!   each crate: `crates/*/*/Cargo.toml`) and match at least one path.
//! - **Names.** A name mention is `replab-` or `replab_` and the letters, digits, `-`, `_`, `<`
//!   and `>` after it (`replab-board`, `replab_uci::client`). It names a package (`[package]
//!   name`) or a binary (`[[bin]] name`) of some manifest of the repository, `_` read as `-`. A
//!   name holding `<…>` (`replab-<name>`) is generic and stands. Not a name mention: one that
//!   continues a word, an anchor, an option or a path (after a letter, digit, `_`, `#`, `-`, `/`
//!   or `.`: `#replab-audit`, `--replab-vs`), or a file name (followed by `.` and a letter:
//!   `replab-balanced.pgn`).

use std::{collections::BTreeSet, path::Path};

use crate::{
    common::repo_root,
    manifest::{all_packages, folders, workspace_members},
};

/// A mention in a document: its line (from 1) and its text.
#[derive(Debug, PartialEq, Eq)]
struct Mention {
    line: usize,
    text: String,
}

/// Whether `c` may precede a mention (it does not continue a word, an anchor, an option or a
/// path).
fn may_precede(c: Option<char>) -> bool {
    c.is_none_or(|c| !(c.is_ascii_alphanumeric() || "_#-/.".contains(c)))
}

/// Every `crates/…` path of `text`, with the `../` before it.
fn path_mentions(text: &str) -> Vec<Mention> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || "_-./<>*".contains(c);
    let mut mentions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices("crates/") {
            let mut start = at;
            while line[..start].ends_with("../") {
                start -= 3;
            }
            if !may_precede(line[..start].chars().next_back()) {
                continue;
            }
            let end = line[at..]
                .find(|c| !is_path(c))
                .map_or(line.len(), |e| at + e);
            // A closing HTML tag ends the path (`crates/x</code>`).
            let end = line[at..end].find("</").map_or(end, |e| at + e);
            let text = line[start..end].trim_end_matches('.').to_owned();
            mentions.push(Mention {
                line: number + 1,
                text,
            });
        }
    }
    mentions
}

/// Every package name (`replab-…`, `replab_…`) of `text`.
fn name_mentions(text: &str) -> Vec<Mention> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || "-_<>".contains(c);
    let mut mentions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let starts = line
            .match_indices("replab-")
            .chain(line.match_indices("replab_"));
        for (at, _) in starts {
            if !may_precede(line[..at].chars().next_back()) {
                continue;
            }
            let end = line[at..]
                .find(|c| !is_name(c))
                .map_or(line.len(), |e| at + e);
            let mut after = line[end..].chars();
            let file_name =
                after.next() == Some('.') && after.next().is_some_and(char::is_alphanumeric);
            let text = line[at..end].trim_end_matches(['-', '_']).to_owned();
            if !file_name {
                mentions.push(Mention {
                    line: number + 1,
                    text,
                });
            }
        }
    }
    mentions.sort_by_key(|m| m.line);
    mentions
}

/// `segment` with each `<…>` written `*`.
fn placeholders_as_stars(segment: &str) -> String {
    let mut pattern = String::new();
    let mut inside = false;
    for c in segment.chars() {
        match c {
            '<' => (inside, pattern) = (true, pattern + "*"),
            '>' => inside = false,
            c if !inside => pattern.push(c),
            _ => {}
        }
    }
    pattern
}

/// Whether the file name `name` matches the segment `pattern` (`*` and `<…>` any text).
fn segment_matches(pattern: &str, name: &str) -> bool {
    let pattern = placeholders_as_stars(pattern);
    let parts: Vec<&str> = pattern.split('*').collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == name;
    };
    if name.len() < first.len() + last.len() || !name.starts_with(first) || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    middle.iter().all(|part| match rest.find(part) {
        Some(i) => {
            rest = &rest[i + part.len()..];
            true
        }
        None => false,
    })
}

/// Whether some path under `dir` matches `segments`.
fn matches_any(dir: &Path, segments: &[&str]) -> bool {
    let Some((segment, rest)) = segments.split_first() else {
        return true;
    };
    if !segment.contains(['*', '<']) {
        let path = dir.join(segment);
        return path.exists() && (rest.is_empty() || matches_any(&path, rest));
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.map(|e| e.unwrap()).any(|e| {
        segment_matches(segment, &e.file_name().to_string_lossy()) && matches_any(&e.path(), rest)
    })
}

/// The segments of `mention` from the repository root, read from `doc_dir` (the document's
/// folder from the root) when it starts `../`; `None` when it leaves the repository.
fn resolve<'a>(doc_dir: &'a str, mention: &'a str) -> Option<Vec<&'a str>> {
    let mut segments: Vec<&str> = Vec::new();
    if mention.starts_with("../") {
        segments.extend(doc_dir.split('/').filter(|s| !s.is_empty()));
    }
    for segment in mention.split('/').filter(|s| !s.is_empty()) {
        if segment == ".." {
            segments.pop()?;
        } else {
            segments.push(segment);
        }
    }
    Some(segments)
}

/// What is wrong with the path `mention` of a document in `doc_dir`, if anything; `root` is the
/// repository and `members` the workspace's members globs.
fn path_problem(root: &Path, doc_dir: &str, mention: &str, members: &[String]) -> Option<String> {
    let Some(segments) = resolve(doc_dir, mention) else {
        return Some("leaves the repository".to_owned());
    };
    let glob = segments.iter().any(|s| s.contains('*'));
    let is_member = |m: &String| segments.starts_with(&m.split('/').collect::<Vec<_>>());
    if glob && !members.iter().any(is_member) {
        return Some(format!(
            "a glob of crates claims to be the workspace's members glob, which is {}",
            members.join(", ")
        ));
    }
    if segments
        .get(1)
        .is_some_and(|s| s.contains('<') && *s != "<layer>")
    {
        return Some(
            "directly under crates/ lie the layers: write the crate's layer \
             (`crates/detectors/<name>`) or `<layer>`"
                .to_owned(),
        );
    }
    let generic = glob || mention.contains('<');
    (!matches_any(root, &segments)).then(|| {
        if generic {
            "matches no path"
        } else {
            "no such path"
        }
        .to_owned()
    })
}

/// What is wrong with the name `mention`, if anything; `names` holds every package and binary
/// name, `_` written `-`.
fn name_problem(names: &BTreeSet<String>, mention: &str) -> Option<String> {
    let name = mention.replace('_', "-");
    (!mention.contains('<') && !names.contains(&name))
        .then(|| format!("no package or binary of the repository is named {name}"))
}

/// The documents checked, from the repository root.
fn documents() -> BTreeSet<String> {
    let root = repo_root();
    let top = folders(root).into_iter().map(|f| format!("{f}/README.md"));
    let docs = std::fs::read_dir(root.join("docs")).unwrap().map(|e| {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        format!("docs/{name}")
    });
    let crates = folders(&root.join("crates")).into_iter().flat_map(|layer| {
        let names = folders(&root.join("crates").join(&layer));
        names
            .into_iter()
            .map(move |c| format!("crates/{layer}/{c}/README.md"))
    });
    let crate_dirs = folders(&root.join("crates")).into_iter().flat_map(|layer| {
        let names = folders(&root.join("crates").join(&layer));
        names
            .into_iter()
            .map(move |c| format!("crates/{layer}/{c}"))
    });
    let mut templates = Vec::new();
    for dir in crate_dirs {
        html_files(root, &format!("{dir}/templates"), &mut templates);
    }
    std::iter::once("README.md".to_owned())
        .chain(top)
        .chain(docs.filter(|d| d.ends_with(".md")))
        .chain(crates)
        .chain(templates)
        .filter(|d| root.join(d).is_file())
        .collect()
}

/// Every `.html` file under the folder `dir` (from the repository root), as paths from the root.
fn html_files(root: &Path, dir: &str, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
        return;
    };
    for entry in entries.map(|e| e.unwrap()) {
        let path = format!("{dir}/{}", entry.file_name().to_string_lossy());
        if entry.path().is_dir() {
            html_files(root, &path, out);
        } else if path.ends_with(".html") {
            out.push(path);
        }
    }
}

/// Every package and binary name of the repository, `_` written `-`.
fn package_names() -> BTreeSet<String> {
    all_packages()
        .into_iter()
        .flat_map(|m| std::iter::once(m.package).chain(m.bins))
        .map(|n| n.replace('_', "-"))
        .collect()
}

#[test]
fn every_path_and_package_the_documentation_mentions_exists() {
    let (root, members, names) = (repo_root(), workspace_members(), package_names());
    let documents = documents();
    assert!(documents.len() >= 35, "{documents:?}");
    let (mut problems, mut checked) = (Vec::new(), 0);
    for document in &documents {
        let text = std::fs::read_to_string(root.join(document)).unwrap();
        let doc_dir = document.rsplit_once('/').map_or("", |(d, _)| d);
        for m in path_mentions(&text) {
            let problem = path_problem(root, doc_dir, &m.text, &members);
            problems.extend(problem.map(|p| format!("{document}:{}: `{}`: {p}", m.line, m.text)));
            checked += 1;
        }
        for m in name_mentions(&text) {
            let problem = name_problem(&names, &m.text);
            problems.extend(problem.map(|p| format!("{document}:{}: `{}`: {p}", m.line, m.text)));
            checked += 1;
        }
    }
    assert!(
        checked >= 300,
        "{checked} mentions: the documents were not read"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn mentions_are_found_and_anchors_options_and_file_names_left_out() {
    let text = "See [audit](#replab-audit), --replab-vs, `datasets/replab-x.pgn` and `replab-balanced.pgn`;\n\
                `replab-cost`, replab_uci::client and `replab-<name>`, xreplab-no; replab-truth.\n\
                [the harness](../crates/lab/harness/README.md), `crates/*/*` and crates/lab. Not xcrates/a.\n";
    let texts = |ms: Vec<Mention>| -> Vec<(usize, String)> {
        ms.into_iter().map(|m| (m.line, m.text)).collect()
    };
    let owned = |v: &[(usize, &str)]| -> Vec<(usize, String)> {
        v.iter().map(|&(l, t)| (l, t.to_owned())).collect()
    };
    assert_eq!(
        texts(name_mentions(text)),
        owned(&[
            (2, "replab-cost"),
            (2, "replab-<name>"),
            (2, "replab-truth"),
            (2, "replab_uci")
        ])
    );
    assert_eq!(
        texts(path_mentions(text)),
        owned(&[
            (3, "../crates/lab/harness/README.md"),
            (3, "crates/*/*"),
            (3, "crates/lab")
        ])
    );
}

#[test]
fn a_stale_path_placeholder_or_glob_is_refused() {
    let members = ["crates/*/*".to_owned(), "benches".to_owned()];
    let problem =
        |doc_dir: &str, mention: &str| path_problem(repo_root(), doc_dir, mention, &members);
    for good in [
        "crates/lab/harness",
        "crates/lab/harness/src/",
        "crates/<layer>/<name>/README.md",
        "crates/detectors/<name>",
        "crates/app/replab/tests/cli/<name>.rs",
        "crates/*/*",
        "crates/*/*/Cargo.toml",
        "crates/",
    ] {
        assert_eq!(problem("", good), None, "{good}");
    }
    assert_eq!(problem("docs", "../crates/lab/report"), None);
    let refused = [
        ("", "crates/experiments/rules", "no such path"),
        ("", "crates/detectors/<name>/nothing.md", "matches no path"),
        ("", "../crates/lab/report", "leaves the repository"),
        ("", "crates/<name>", "directly under crates/ lie the layers"),
        (
            "",
            "crates/<technique>/README.md",
            "directly under crates/ lie the layers",
        ),
        (
            "",
            "crates/*",
            "the workspace's members glob, which is crates/*/*, benches",
        ),
        ("", "crates/*/src", "the workspace's members glob"),
    ];
    for (doc_dir, mention, expected) in refused {
        let found = problem(doc_dir, mention).unwrap_or_default();
        assert!(found.contains(expected), "{mention}: {found:?}");
    }
}

#[test]
fn a_name_no_manifest_gives_is_refused() {
    let names: BTreeSet<String> = ["replab-cost", "replab-tt-open"].map(str::to_owned).into();
    assert_eq!(name_problem(&names, "replab-cost"), None);
    assert_eq!(name_problem(&names, "replab_tt_open"), None);
    assert_eq!(name_problem(&names, "replab-<name>"), None);
    assert_eq!(
        name_problem(&names, "replab-rules").as_deref(),
        Some("no package or binary of the repository is named replab-rules")
    );
}
