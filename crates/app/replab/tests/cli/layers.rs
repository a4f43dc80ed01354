//! The layers of `crates/` against the manifests. `crates/README.md`'s table lists the layer
//! folders in order, each with its crates; this test reads that table (so the page and the test
//! cannot disagree) and fails when
//!
//! - a folder of `crates/` is not a layer of the table, or a crate folder not among its layer's
//!   crates (or the table names one that is not there);
//! - a crate depends on a replab crate of a layer *below* its own (later in the table), in any
//!   section: `[dependencies]`, `[build-dependencies]` and `[dev-dependencies]` alike, as no
//!   test of the tree needs a lower layer;
//! - an experiment crate depends on another experiment crate.
//!
//! Within a layer only the experiments' rule is checked; the table's order of a layer's crates
//! is not.

use crate::common::repo_root;
use crate::manifest::{Dependency, Kind, Manifest, folders, workspace_crates};

/// The layer of experiments, whose crates never depend on each other.
const EXPERIMENTS: &str = "experiments";

/// One row of `crates/README.md`'s table: a layer folder and its crates.
#[derive(Debug, PartialEq, Eq)]
struct Layer {
    /// The folder under `crates/` (`lab`).
    folder: String,
    /// The crate folders the row names, in its order.
    crates: Vec<String>,
}

/// The backticked words of `cell`, in order.
fn backticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The layer table of `crates/README.md` (the table whose header starts `| layer | crates |`),
/// in its order.
fn layer_table(readme: &str) -> Vec<Layer> {
    readme
        .lines()
        .skip_while(|l| !l.starts_with("| layer | crates |"))
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .map(|row| {
            let cells: Vec<&str> = row.split(" | ").collect();
            let folder = backticked(cells[0]).concat();
            Layer {
                folder: folder.trim_end_matches('/').to_owned(),
                crates: cells.get(1).map(|c| backticked(c)).unwrap_or_default(),
            }
        })
        .collect()
}

/// Where the table and the folders of `crates/` differ: `on_disk` holds each layer folder with
/// its crate folders.
fn table_drift(table: &[Layer], on_disk: &[(String, Vec<String>)]) -> Vec<String> {
    let mut drift = Vec::new();
    for (folder, crates) in on_disk {
        let Some(row) = table.iter().find(|l| &l.folder == folder) else {
            drift.push(format!(
                "crates/{folder}/ is not a layer of crates/README.md's table"
            ));
            continue;
        };
        for name in crates.iter().filter(|c| !row.crates.contains(c)) {
            drift.push(format!(
                "crates/{folder}/{name} is not in its layer's row of crates/README.md"
            ));
        }
        for name in row.crates.iter().filter(|c| !crates.contains(c)) {
            drift.push(format!(
                "crates/README.md names `{name}` in {folder}/, which has no such folder"
            ));
        }
    }
    for row in table
        .iter()
        .filter(|l| !on_disk.iter().any(|(f, _)| f == &l.folder))
    {
        drift.push(format!(
            "crates/README.md's layer {}/ is no folder of crates/",
            row.folder
        ));
    }
    drift
}

/// The layer folder of a crate folder (`crates/lab/harness` → `lab`).
fn layer_of(folder: &str) -> &str {
    folder.split('/').nth(1).unwrap_or_default()
}

/// The dependency rule broken, if any, when `from` depends on `to`; `order` is the table's
/// layer folders, top first.
fn broken_rule(order: &[&str], from: &Manifest, to: &Manifest) -> Option<String> {
    let (from_layer, to_layer) = (layer_of(&from.folder), layer_of(&to.folder));
    let rank = |layer: &str| order.iter().position(|l| *l == layer);
    match (rank(from_layer), rank(to_layer)) {
        (Some(f), Some(t)) if t > f => Some(format!(
            "{to_layer}/ is below {from_layer}/ in crates/README.md"
        )),
        (Some(_), Some(_)) if from_layer == EXPERIMENTS && to_layer == EXPERIMENTS => {
            Some("no experiment crate imports another".to_owned())
        }
        (Some(_), Some(_)) => None,
        (None, _) => Some(format!("{from_layer}/ is no layer of crates/README.md")),
        (_, None) => Some(format!("{to_layer}/ is no layer of crates/README.md")),
    }
}

/// Every dependency of `crates` on one of them that breaks the layer rules, one line each
/// naming both crates, their folders, the section and the rule; `order` is the table's layer
/// folders, top first.
fn layer_violations(order: &[&str], crates: &[Manifest]) -> Vec<String> {
    let mut violations = Vec::new();
    for from in crates {
        for dependency in &from.dependencies {
            let Some(to) = crates.iter().find(|c| c.package == dependency.package) else {
                continue;
            };
            if let Some(rule) = broken_rule(order, from, to) {
                violations.push(format!(
                    "{} ({}) depends on {} ({}) in [{}]: {rule}",
                    from.package,
                    from.folder,
                    to.package,
                    to.folder,
                    dependency.kind.section()
                ));
            }
        }
    }
    violations
}

/// `crates/README.md`'s layer table.
fn readme_table() -> Vec<Layer> {
    let readme = std::fs::read_to_string(repo_root().join("crates/README.md")).unwrap();
    layer_table(&readme)
}

#[test]
fn every_folder_of_crates_is_in_the_layer_table() {
    let crates = repo_root().join("crates");
    let on_disk: Vec<(String, Vec<String>)> = folders(&crates)
        .into_iter()
        .map(|layer| {
            let names = folders(&crates.join(&layer));
            (layer, names)
        })
        .collect();
    let drift = table_drift(&readme_table(), &on_disk);
    assert!(drift.is_empty(), "{}", drift.join("\n"));
}

#[test]
fn no_crate_depends_on_a_lower_layer_or_an_experiment_on_another() {
    let table = readme_table();
    let order: Vec<&str> = table.iter().map(|l| l.folder.as_str()).collect();
    assert!(
        order.len() >= 8 && order.contains(&EXPERIMENTS),
        "{order:?}"
    );
    let crates = workspace_crates();
    let replab_dependencies = crates
        .iter()
        .flat_map(|c| &c.dependencies)
        .filter(|d| crates.iter().any(|c| c.package == d.package))
        .count();
    assert!(
        crates.len() >= 30 && replab_dependencies >= 100,
        "{} crates, {replab_dependencies} dependencies between them: the manifests were not read",
        crates.len()
    );
    let violations = layer_violations(&order, &crates);
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// A made-up crate in `folder` named `package`, with these dependencies.
fn made_up(folder: &str, package: &str, deps: &[(&str, Kind)]) -> Manifest {
    Manifest {
        folder: folder.to_owned(),
        package: package.to_owned(),
        bins: Vec::new(),
        dependencies: deps
            .iter()
            .map(|&(p, kind)| Dependency {
                package: p.to_owned(),
                kind,
            })
            .collect(),
    }
}

#[test]
fn a_dependency_on_a_lower_layer_or_between_experiments_is_named() {
    use Kind::{Dev, Normal};
    let order = ["chess", "detectors", "lab", "experiments"];
    let tree = |board: &[(&str, Kind)], cost: &[(&str, Kind)]| {
        let crates = [
            made_up("crates/chess/board", "replab-board", board),
            made_up(
                "crates/detectors/truth",
                "replab-truth",
                &[("replab-board", Normal)],
            ),
            made_up(
                "crates/lab/harness",
                "replab-harness",
                &[("replab-truth", Normal)],
            ),
            made_up(
                "crates/experiments/smp",
                "replab-smp",
                &[("replab-harness", Normal)],
            ),
            made_up("crates/experiments/cost", "replab-cost", cost),
        ];
        layer_violations(&order, &crates)
    };
    let upwards = [
        ("replab-harness", Normal),
        ("replab-truth", Dev),
        ("serde", Normal),
    ];
    assert!(tree(&[], &upwards).is_empty());
    assert_eq!(
        tree(&[("replab-truth", Dev)], &[("replab-smp", Normal)]),
        [
            "replab-board (crates/chess/board) depends on replab-truth (crates/detectors/truth) \
             in [dev-dependencies]: detectors/ is below chess/ in crates/README.md",
            "replab-cost (crates/experiments/cost) depends on replab-smp (crates/experiments/smp) \
             in [dependencies]: no experiment crate imports another",
        ]
    );
}

#[test]
fn the_table_is_read_in_order_and_an_unlisted_folder_is_named() {
    let readme = "# crates\n\n| layer | crates | what |\n|---|---|---|\n\
                  | `chess/` | `board`, `pgn` | the game |\n| `lab/` | `report`, then `harness` | shared |\n\n\
                  | other | table |\n|---|---|\n| `x` | `y` |\n";
    let table = layer_table(readme);
    let layer = |folder: &str, crates: &[&str]| Layer {
        folder: folder.to_owned(),
        crates: crates.iter().map(|c| c.to_string()).collect(),
    };
    assert_eq!(
        table,
        [
            layer("chess", &["board", "pgn"]),
            layer("lab", &["report", "harness"])
        ]
    );
    let disk = |layers: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        layers
            .iter()
            .map(|(l, cs)| (l.to_string(), cs.iter().map(|c| c.to_string()).collect()))
            .collect()
    };
    let same = disk(&[
        ("chess", &["board", "pgn"]),
        ("lab", &["harness", "report"]),
    ]);
    assert!(table_drift(&table, &same).is_empty());
    let drifted = disk(&[
        ("chess", &["board"]),
        ("lab", &["harness", "report", "site"]),
        ("app", &[]),
    ]);
    assert_eq!(
        table_drift(&table, &drifted),
        [
            "crates/README.md names `pgn` in chess/, which has no such folder",
            "crates/lab/site is not in its layer's row of crates/README.md",
            "crates/app/ is not a layer of crates/README.md's table",
        ]
    );
    let without_lab = disk(&[("chess", &["board", "pgn"])]);
    assert_eq!(
        table_drift(&table, &without_lab),
        ["crates/README.md's layer lab/ is no folder of crates/"]
    );
}
