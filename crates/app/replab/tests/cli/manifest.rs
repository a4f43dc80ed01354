//! The workspace's manifests as the layer and documentation tests read them: each crate's
//! folder, package name, binaries and dependencies, and the root's `members` globs.
//!
//! A reader of the part of TOML the manifests use, not a TOML parser: one `key = value` a line,
//! bare keys, dependencies as `name = …`, `name.workspace = true` or a `[dependencies.name]`
//! table (renamed with `package = "…"` either way), target-specific sections included.

use std::path::Path;

use crate::common::repo_root;

/// Which section of a manifest a dependency is declared in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `[dependencies]`.
    Normal,
    /// `[build-dependencies]`.
    Build,
    /// `[dev-dependencies]`.
    Dev,
}

impl Kind {
    /// The section's name in a manifest.
    pub fn section(self) -> &'static str {
        match self {
            Kind::Normal => "dependencies",
            Kind::Build => "build-dependencies",
            Kind::Dev => "dev-dependencies",
        }
    }

    /// The kind a section name (`dev-dependencies`) declares, if it declares dependencies.
    fn of(section: &str) -> Option<Kind> {
        [Kind::Normal, Kind::Build, Kind::Dev]
            .into_iter()
            .find(|k| k.section() == section)
    }
}

/// One dependency of a manifest: the package it names and the section that declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    /// The package depended on (`replab-board`).
    pub package: String,
    /// Its section.
    pub kind: Kind,
}

/// One crate of the workspace as its manifest describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Its folder from the repository root (`crates/lab/harness`).
    pub folder: String,
    /// `[package] name`.
    pub package: String,
    /// Every `[[bin]] name`.
    pub bins: Vec<String>,
    /// Every dependency of every section, in the manifest's order.
    pub dependencies: Vec<Dependency>,
}

/// The section a `[header]` line opens: its kind and, for a `[dependencies.name]` table, the
/// name. `None` for any other section.
fn dependency_section(header: &str) -> Option<(Kind, Option<&str>)> {
    let rest = match header.strip_prefix("target.") {
        // `target.'cfg(…)'.dependencies`: the cfg may hold dots.
        Some(target) if target.starts_with(['\'', '"']) => {
            let close = target[1..].find(target.as_bytes()[0] as char)? + 1;
            target[close + 1..].strip_prefix('.')?
        }
        Some(target) => target.split_once('.')?.1,
        None => header,
    };
    let (section, name) = rest.split_once('.').map_or((rest, None), |(s, n)| {
        (s, Some(n.trim_matches(['"', '\''])))
    });
    Kind::of(section).map(|kind| (kind, name))
}

/// The key of a `key = value` or `key.sub = value` line, if the line is one (a bare key).
fn key(line: &str) -> Option<&str> {
    let key = line.split(['=', '.']).next()?.trim();
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (bare && line.contains('=')).then_some(key)
}

/// The quoted string a `key = "value"` line gives.
fn string_value(line: &str) -> Option<String> {
    let value = line.split_once('=')?.1.trim();
    Some(value.strip_prefix('"')?.split('"').next()?.to_owned())
}

/// The `package = "…"` of an inline table (`{ package = "x", … }`), if it renames.
fn renamed(line: &str) -> Option<String> {
    let at = line.find("package")?;
    string_value(&line[at..])
}

/// Reads a manifest's text; `folder` is where it lies.
pub fn parse(folder: &str, toml: &str) -> Manifest {
    let mut manifest = Manifest {
        folder: folder.to_owned(),
        ..Manifest::default()
    };
    let mut header = String::new();
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            header = line.trim_matches(['[', ']']).to_owned();
            if let Some((kind, Some(name))) = dependency_section(&header) {
                let package = name.to_owned();
                manifest.dependencies.push(Dependency { package, kind });
            }
            continue;
        }
        let Some(key) = key(line) else { continue };
        match (header.as_str(), dependency_section(&header)) {
            ("package", _) if key == "name" => manifest.package = string_value(line).unwrap(),
            ("bin", _) if key == "name" => manifest.bins.extend(string_value(line)),
            (_, Some((kind, None))) => {
                let package = renamed(line).unwrap_or_else(|| key.to_owned());
                manifest.dependencies.push(Dependency { package, kind });
            }
            (_, Some((_, Some(_)))) if key == "package" => {
                manifest.dependencies.last_mut().unwrap().package = string_value(line).unwrap();
            }
            _ => {}
        }
    }
    manifest
}

/// The names of the folders in `dir`, sorted.
pub fn folders(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The manifest in `folder` (from the repository root), if it has one.
fn read(folder: &str) -> Option<Manifest> {
    let toml = std::fs::read_to_string(repo_root().join(folder).join("Cargo.toml")).ok()?;
    Some(parse(folder, &toml))
}

/// Every crate of `crates/` (`crates/*/*/Cargo.toml`), by folder.
pub fn workspace_crates() -> Vec<Manifest> {
    let crates = repo_root().join("crates");
    folders(&crates)
        .into_iter()
        .flat_map(|layer| {
            let folders = folders(&crates.join(&layer));
            folders
                .into_iter()
                .map(move |name| format!("crates/{layer}/{name}"))
        })
        .filter_map(|folder| read(&folder))
        .collect()
}

/// Every package of the repository: the crates of `crates/` and the top-level packages
/// (`benches`, `fuzz`).
pub fn all_packages() -> Vec<Manifest> {
    let top = folders(repo_root())
        .into_iter()
        .filter(|f| !f.starts_with('.') && f != "target" && f != "crates");
    workspace_crates()
        .into_iter()
        .chain(top.filter_map(|f| read(&f)))
        .collect()
}

/// The root manifest's `[workspace] members` globs, as written (`crates/*/*`).
pub fn workspace_members() -> Vec<String> {
    let root = std::fs::read_to_string(repo_root().join("Cargo.toml")).expect("Cargo.toml");
    let line = root
        .lines()
        .find(|l| key(l) == Some("members"))
        .expect("the root Cargo.toml names its members on one line");
    let list = line.split_once('=').unwrap().1;
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_manifest_is_read_section_by_section() {
    let toml = r#"
[package]
name = "replab-x"

[[bin]]
name = "replab-x-tool"

[dependencies]
replab-board.workspace = true
serde = { workspace = true, features = [
    "derive",
] }
renamed = { package = "replab-detect", path = "../detect" }

[build-dependencies]
rand = "1"

[target.'cfg(target_os = "linux")'.dev-dependencies]
replab-truth = { workspace = true }

[dev-dependencies.replab-search]
workspace = true
package = "replab-search-renamed"

[features]
serde = ["dep:serde"]
"#;
    let m = parse("crates/lab/x", toml);
    assert_eq!(
        (m.package.as_str(), m.bins.as_slice()),
        ("replab-x", &["replab-x-tool".to_owned()][..])
    );
    let deps: Vec<(&str, Kind)> = m
        .dependencies
        .iter()
        .map(|d| (d.package.as_str(), d.kind))
        .collect();
    assert_eq!(
        deps,
        [
            ("replab-board", Kind::Normal),
            ("serde", Kind::Normal),
            ("replab-detect", Kind::Normal),
            ("rand", Kind::Build),
            ("replab-truth", Kind::Dev),
            ("replab-search-renamed", Kind::Dev),
        ]
    );
}
