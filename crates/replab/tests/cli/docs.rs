//! The documentation against the code: every subcommand's options in `docs/contracts.md` are
//! the ones its `--help` lists (and the reverse), the detector-names table holds every name of
//! the registry's table, and the `bench` step table has a row for every experiment of the
//! bench table. Editing one side alone fails here.

use std::collections::BTreeSet;

use crate::common::{replab, repo_root, text};

/// `docs/contracts.md`.
fn contracts() -> String {
    std::fs::read_to_string(repo_root().join("docs/contracts.md")).expect("docs/contracts.md")
}

/// The section of `doc` under the heading `## title`, up to the next `## ` heading.
fn section<'a>(doc: &'a str, title: &str) -> &'a str {
    let start = doc
        .find(&format!("\n## {title}\n"))
        .unwrap_or_else(|| panic!("contracts.md has no section `## {title}`"));
    let body = &doc[start + 1..];
    let end = body[3..].find("\n## ").map_or(body.len(), |e| e + 3);
    &body[..end]
}

/// The first cells of the rows of every table in `section` (the header and rule rows left
/// out).
fn first_cells(section: &str) -> Vec<&str> {
    section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("|---"))
        .filter_map(|l| l.split(" | ").next())
        .map(|c| c.trim_start_matches("| ").trim())
        .collect()
}

/// The long options (`--name`) in `cell`.
fn options_in(cell: &str) -> impl Iterator<Item = String> + '_ {
    cell.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(str::to_owned)
}

/// The long options `replab ARGS --help` lists (without `--help` and `--version`).
fn help_options(args: &[&str]) -> BTreeSet<String> {
    let mut args = args.to_vec();
    args.push("--help");
    let o = replab(&args);
    assert!(o.status.success(), "replab {args:?}: {}", text(&o.stderr));
    text(&o.stdout)
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .flat_map(|l| options_in(l.split("  ").next().unwrap_or_default()).collect::<Vec<_>>())
        .filter(|o| o != "--help" && o != "--version")
        .collect()
}

/// Every subcommand with options, as its contracts section names it.
const SUBCOMMANDS: [&str; 16] = [
    "perft",
    "scan",
    "audit",
    "reproduce axon",
    "study",
    "suite",
    "conformance",
    "key-width",
    "smp",
    "policies",
    "ghi",
    "match",
    "merge",
    "elo",
    "bench",
    "uci",
];

#[test]
fn every_subcommand_documents_the_options_its_help_lists() {
    let doc = contracts();
    let mut drift = Vec::new();
    for sub in SUBCOMMANDS {
        let args: Vec<&str> = sub.split(' ').collect();
        let help = help_options(&args);
        let documented: BTreeSet<String> = first_cells(section(&doc, &format!("`replab {sub}`")))
            .into_iter()
            .flat_map(options_in)
            .collect();
        for o in help.difference(&documented) {
            drift.push(format!("`replab {sub}` has {o}, contracts.md does not"));
        }
        for o in documented.difference(&help) {
            drift.push(format!(
                "contracts.md documents {o} for `replab {sub}`, --help does not"
            ));
        }
    }
    assert!(drift.is_empty(), "{}", drift.join("\n"));
}

#[test]
fn every_subcommand_of_the_help_has_its_contracts_section() {
    let o = replab(&["--help"]);
    let doc = contracts();
    let commands: Vec<String> = text(&o.stdout)
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() >= 15, "{commands:?}");
    for c in commands {
        let known = SUBCOMMANDS
            .iter()
            .any(|s| s.split(' ').next() == Some(c.as_str()));
        assert!(
            known,
            "`replab {c}` is not among the subcommands this test checks"
        );
        assert!(
            doc.contains(&format!("\n## `replab {c}")),
            "contracts.md has no section for `replab {c}`"
        );
    }
}

#[test]
fn the_detector_names_table_is_the_registry_table() {
    let doc = contracts();
    let documented: BTreeSet<String> = first_cells(section(&doc, "Detector names"))
        .into_iter()
        .filter(|c| c.starts_with('`'))
        .map(|c| c.trim_matches('`').to_owned())
        .collect();
    let registry: BTreeSet<String> = std::iter::once("off")
        .chain(replab_registry::DETECTORS.iter().map(|d| d.name))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        documented, registry,
        "contracts.md's detector names (left) against the registry's table (right)"
    );
}

#[test]
fn the_bench_step_table_has_a_row_per_experiment() {
    let doc = contracts();
    let bench = section(&doc, "`replab bench`");
    let rows: Vec<&str> = bench
        .lines()
        .skip_while(|l| !l.starts_with("| step |"))
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .collect();
    let o = replab(&["bench", "--help"]);
    let experiments: Vec<String> = text(&o.stdout)
        .lines()
        .skip_while(|l| !l.starts_with("Experiments, in order:"))
        .skip(1)
        .filter_map(|l| l.trim().split("  ").next().map(str::to_owned))
        .collect();
    assert!(experiments.len() >= 12, "{experiments:?}");
    for e in &experiments {
        // A row names the experiment in its first cell (`DIR/ghi`, `instruction counts`) or
        // starts its full-run cell with the subcommand (`suite --epd …`).
        let word = e
            .split(' ')
            .next()
            .unwrap_or_default()
            .trim_end_matches("-benchmarks");
        let found = rows.iter().any(|r| {
            let cells: Vec<&str> = r.split(" | ").collect();
            cells.len() > 1
                && (cells[0].contains(word) || cells[1].trim_start_matches('`').starts_with(word))
        });
        assert!(
            found,
            "contracts.md's bench step table has no row for `{e}`"
        );
    }
}

/// `path` under the repository root.
fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_worked_example_row_is_the_registrys_own() {
    let guide = read("docs/bring-your-own-detector.md");
    let step = &guide[guide.find("## 2.").expect("step 2 of the guide")..];
    let block = step
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the guide's registry row");
    let lines = |t: &str| -> String {
        let kept: Vec<&str> = t.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        kept.join("\n")
    };
    let registry = lines(&read("crates/registry/src/lib.rs"));
    assert!(
        registry.contains(&lines(block)),
        "the guide's row is not the registry's row word for word:\n{block}"
    );
}
