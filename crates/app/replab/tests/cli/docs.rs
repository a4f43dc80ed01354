//! The documentation against the code: every subcommand's options in `docs/contracts.md` are
//! the ones its `--help` lists (and the reverse), with the same defaults, the detector-names table holds every name of
//! the registry's table, and the `bench` step table has a row for every experiment of the
//! bench table. Editing one side alone fails here; [`mentions`] holds every path and package
//! name the documentation mentions to the tree.

mod mentions;

use std::collections::{BTreeMap, BTreeSet};

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

/// What `replab ARGS --help` prints.
fn help_text(args: &[&str]) -> String {
    let mut args = args.to_vec();
    args.push("--help");
    let o = replab(&args);
    assert!(o.status.success(), "replab {args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

/// The option lines of a `--help` text, each with its long options (the column before the
/// help).
fn option_lines(help: &str) -> impl Iterator<Item = (Vec<String>, &str)> {
    help.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .map(|l| {
            (
                options_in(l.split("  ").next().unwrap_or_default()).collect(),
                l,
            )
        })
}

/// The long options `replab ARGS --help` lists (without `--help` and `--version`).
fn help_options(args: &[&str]) -> BTreeSet<String> {
    option_lines(&help_text(args))
        .flat_map(|(options, _)| options)
        .filter(|o| o != "--help" && o != "--version")
        .collect()
}

/// The defaults a `--help` text shows (`[default: X]`, clap's quotes taken off), by long
/// option.
fn help_defaults(help: &str) -> BTreeMap<String, String> {
    option_lines(help)
        .filter_map(|(options, line)| {
            let value = line.split("[default: ").nth(1)?.split(']').next()?;
            Some((
                options.into_iter().next()?,
                value.trim_matches('"').to_owned(),
            ))
        })
        .collect()
}

/// The cells of a table row.
fn cells(row: &str) -> Vec<&str> {
    let inner = row.trim().trim_start_matches("| ").trim_end_matches(" |");
    inner.split(" | ").collect()
}

/// The defaults the option tables of `section` state, by long option: the first backticked
/// value of the `default` column (the form contracts.md's "Defaults" paragraph gives); a cell
/// without one states none.
fn doc_defaults(section: &str) -> BTreeMap<String, String> {
    let mut column = None;
    let mut defaults = BTreeMap::new();
    let mut lines = section.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("|---") {
            continue;
        } else if !line.starts_with("| ") {
            column = None;
        } else if lines.peek().is_some_and(|next| next.starts_with("|---")) {
            column = cells(line).iter().position(|c| c.starts_with("default"));
        } else if let Some(cell) = column.and_then(|i| cells(line).get(i).copied()) {
            let Some(value) = cell.split('`').nth(1).filter(|_| cell.contains('`')) else {
                continue;
            };
            for option in options_in(cells(line)[0]) {
                defaults.insert(option, value.to_owned());
            }
        }
    }
    defaults
}

/// Where `--help`'s defaults (`help`) and contracts.md's (`doc`) of `replab sub` differ: one
/// line naming the subcommand, the option and both defaults per difference.
fn default_drift(
    sub: &str,
    help: &BTreeMap<String, String>,
    doc: &BTreeMap<String, String>,
) -> Vec<String> {
    let options: BTreeSet<&String> = help.keys().chain(doc.keys()).collect();
    let none = String::from("none");
    options
        .into_iter()
        .filter(|o| help.get(*o) != doc.get(*o))
        .map(|o| {
            let (h, d) = (help.get(o).unwrap_or(&none), doc.get(o).unwrap_or(&none));
            format!("`replab {sub}` {o}: --help's default {h}, contracts.md's {d}")
        })
        .collect()
}

/// Every subcommand with options, as its contracts section names it.
const SUBCOMMANDS: [&str; 17] = [
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
    "carry",
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
fn every_subcommand_documents_the_defaults_its_help_shows() {
    let doc = contracts();
    let drift: Vec<String> = SUBCOMMANDS
        .into_iter()
        .flat_map(|sub| {
            let args: Vec<&str> = sub.split(' ').collect();
            let help = help_defaults(&help_text(&args));
            let documented = doc_defaults(section(&doc, &format!("`replab {sub}`")));
            default_drift(sub, &help, &documented)
        })
        .collect();
    assert!(drift.is_empty(), "{}", drift.join("\n"));
}

/// A `--help` line and a contracts.md table of `replab elo`'s `--games`, defaults as given.
fn elo_games(help_default: &str, doc_default: &str) -> Vec<String> {
    let help =
        format!("Options:\n      --games <N>  Games per match (even) [default: {help_default}]\n");
    let doc = format!(
        "| option | default (quick) | meaning |\n|---|---|---|\n\
         | `--games N` | `{doc_default}` (`100`) | games per match |\n| `--quick` | off | short |\n"
    );
    default_drift("elo", &help_defaults(&help), &doc_defaults(&doc))
}

#[test]
fn a_default_edited_on_one_side_is_reported() {
    assert_eq!(
        elo_games("1000", "600"),
        ["`replab elo` --games: --help's default 1000, contracts.md's 600"]
    );
    assert!(elo_games("600", "600").is_empty());
}

#[test]
fn a_default_on_one_side_only_is_reported() {
    let doc = "| option | default | meaning |\n|---|---|---|\n| `--depth N` | `6` | depth |\n";
    let help = "      --depth <N>  Search depth\n      --out <DIR>  Report [default: reports/x]\n";
    assert_eq!(
        default_drift("suite", &help_defaults(help), &doc_defaults(doc)),
        [
            "`replab suite` --depth: --help's default none, contracts.md's 6",
            "`replab suite` --out: --help's default reports/x, contracts.md's none",
        ]
    );
}

#[test]
fn clap_quotes_and_quick_values_are_read() {
    let help = "      --fen <FEN>  Position [default: \"8/8 w - - 0 1\"]\n";
    assert_eq!(help_defaults(help)["--fen"], "8/8 w - - 0 1");
    let doc = "| option | default (`--quick`) | meaning |\n|---|---|---|\n\
               | `--repeat K` | `21` (`6`) | rounds |\n| `--threads T` | `2 (1 on a single core)` | workers |\n";
    let doc = doc_defaults(doc);
    assert_eq!(
        (doc["--repeat"].as_str(), doc["--threads"].as_str()),
        ("21", "2 (1 on a single core)")
    );
}

#[test]
fn every_subcommand_of_the_help_is_described_by_a_sentence() {
    let o = replab(&["--help"]);
    let lines: Vec<String> = text(&o.stdout)
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(str::to_owned)
        .collect();
    assert!(lines.len() >= 15, "{lines:?}");
    for line in lines {
        let (name, what) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        let what = what.trim();
        assert!(
            what.starts_with(|c: char| c.is_uppercase()) && !what.starts_with("Arguments of"),
            "`replab {name}` is described as {what:?}: say what it does"
        );
    }
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

/// Step 2 of the guide shows what the worked example adds to the registry's table (its id and
/// enum variants, its row, its dispatch arm): each block is the registry's own, word for word.
#[test]
fn the_worked_examples_registry_blocks_are_the_registrys_own() {
    let guide = read("docs/bring-your-own-detector.md");
    let start = guide.find("## 2.").expect("step 2 of the guide");
    let end = guide.find("## 3.").expect("step 3 of the guide");
    let blocks: Vec<&str> = guide[start..end]
        .split("```text\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .collect();
    assert!(blocks.len() >= 4, "the guide's registry blocks: {blocks:?}");
    let lines = |t: &str| -> String {
        let kept: Vec<&str> = t.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        kept.join("\n")
    };
    let registry = lines(&read("crates/detectors/registry/src/table.rs"));
    for block in blocks {
        assert!(
            registry.contains(&lines(block)),
            "the guide's block is not the registry's word for word:\n{block}"
        );
    }
}

/// Every crate whose integration tests are one binary (`autotests = false`, `tests/main.rs`)
/// declares each `.rs` file of its `tests/` directory as a module there: a file left out would
/// silently never run.
#[test]
fn every_test_file_is_a_module_of_its_crates_test_binary() {
    let crates = repo_root().join("crates");
    let mut checked = 0;
    let layers = std::fs::read_dir(&crates)
        .unwrap()
        .map(|e| e.unwrap().path());
    for layer in layers.filter(|p| p.is_dir()) {
        for krate in std::fs::read_dir(layer).unwrap() {
            let dir = krate.unwrap().path();
            let Ok(main) = std::fs::read_to_string(dir.join("tests/main.rs")) else {
                continue;
            };
            checked += 1;
            for file in std::fs::read_dir(dir.join("tests")).unwrap() {
                let path = file.unwrap().path();
                let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                let module = path.extension().is_some_and(|x| x == "rs") && name != "main"
                    || path.join("mod.rs").is_file();
                assert!(
                    !module || main.lines().any(|l| l.trim() == format!("mod {name};")),
                    "{} is not a module of {}: add `mod {name};` there",
                    path.display(),
                    dir.join("tests/main.rs").display()
                );
            }
            let toml = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
            assert!(toml.contains("autotests = false"), "{}", dir.display());
        }
    }
    assert!(checked >= 12, "{checked} crates with tests/main.rs");
}

/// Where a line of text holds a run of six or more spaces between two words: a string literal
/// folded over lines without its `\` continuation keeps the next line's indentation inside
/// the sentence (`"... the          default searcher"`). `None` for code, comments and
/// aligned columns (a run after `:`).
fn folded_run(line: &str) -> Option<usize> {
    let t = line.trim_start();
    if t.starts_with("//") || !t.contains('"') {
        return None;
    }
    let b = line.as_bytes();
    let mut i = line.find('"')?;
    while i < b.len() {
        if b[i] == b' ' {
            let start = i;
            while i < b.len() && b[i] == b' ' {
                i += 1;
            }
            let word = |c: u8| c.is_ascii_alphanumeric() || b",;.)'<>".contains(&c);
            if i - start >= 6 && i < b.len() && word(b[start - 1]) && word(b[i]) {
                return Some(start);
            }
        } else {
            i += 1;
        }
    }
    None
}

#[test]
fn a_folded_literal_is_caught_and_a_column_is_not() {
    // Built here, so that this file holds no such literal itself.
    let gap = " ".repeat(10);
    let folded = format!("  \"per node, the{gap}default searcher\",");
    assert_eq!(folded_run(&folded), Some("  \"per node, the".len()));
    let column = format!("  println!(\"  incremental:{gap}{{x}}\");");
    assert_eq!(folded_run(&column), None);
    assert_eq!(
        folded_run(&format!("    let x = 1; // a{gap}comment")),
        None
    );
}

/// No sentence of replab's sources carries a folded line's indentation ([`folded_run`]).
#[test]
fn no_string_literal_keeps_a_folded_lines_indentation() {
    let mut found = Vec::new();
    let mut stack = vec![repo_root().join("crates")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (n, line) in text.lines().enumerate() {
                    if folded_run(line).is_some() {
                        found.push(format!("{}:{}", path.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "folded string literals: {found:?}");
}

/// `replab --version` names the engine's digest, which recorded datasets carry
/// (`tools/record_player_costs.py` reads it there).
#[test]
fn the_version_names_the_engine_digest() {
    let out = replab(&["--version"]);
    assert!(out.status.success());
    let version = text(&out.stdout);
    let digest = version
        .trim()
        .strip_suffix(')')
        .and_then(|v| v.rsplit_once("(engine "))
        .map(|(_, d)| d)
        .unwrap_or_else(|| panic!("no engine digest in {version:?}"));
    assert_eq!(digest, replab_search::ENGINE_DIGEST);
    assert!(digest.len() == 16 && digest.chars().all(|c| c.is_ascii_hexdigit()));
}

/// The bench table's `DIR/elo` row states the gauntlet's game counts as the code has them,
/// full and quick.
#[test]
fn the_bench_tables_elo_game_counts_are_the_codes() {
    let row = contracts()
        .lines()
        .find(|l| l.starts_with("| `DIR/elo` |"))
        .expect("docs/contracts.md has the bench table's DIR/elo row")
        .to_string();
    let full = replab_gauntlet::Config::default();
    let quick = replab_gauntlet::Config::quick();
    assert_eq!(full.games, full.rep_games);
    assert_eq!(full.games, full.cost_games);
    let expected = [
        format!(
            "at most {} games per fixed-node match on each book, {} per equal-cost match, {} per \
             timed match",
            full.games, full.cost_games, full.tc_games
        ),
        format!(
            "({} games per match at {} nodes a move: a smoke run",
            quick.games,
            replab_report::fmt_int(quick.nodes)
        ),
    ];
    for part in expected {
        assert!(row.contains(&part), "{row:?} lacks {part:?}");
    }
    for n in [quick.rep_games, quick.cost_games, quick.tc_games] {
        assert_eq!(
            n, quick.games,
            "the quick run plays the same count in every match"
        );
    }
}
