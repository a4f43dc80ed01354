//! The landing page of a full `bench` run, from made-up values shaped as the experiments give
//! them (every column's key, heading, unit, role and rows as in their `contributions`, the
//! figures and notes of the lengths a full run writes): its decision table is narrow by
//! construction, and the page passes `tools/check_pages.sh` in headless Chromium where
//! Chromium is installed.

use std::path::Path;
use std::process::Command;

use anyhow::Result;
use replab_detect::DrawPolicy;
use replab_harness::{
    Progress, Silent,
    contribution::{
        Better, Choice, Column, Contribution, Measured, Role, Rows, Table as Shows, Unit,
    },
    experiment::{Configuration, Experiment, Site, write_json},
    experiments,
    interval::Interval,
};
use replab_registry::{DetectorId, SEARCH_DETECTORS};
use replab_report::{Cell, ReportDir};
use replab_site::bench::{self, decision};

/// FIDE scenarios in the conformance dataset.
const SCENARIOS: usize = 48;

/// The budget of the full run's fixed-node matches.
const NODES: &str = "10,000 nodes a move";

fn id(name: &str) -> DetectorId {
    DetectorId::from_name(name).unwrap()
}

fn interval(lo: f64, hi: f64, n: usize) -> Interval {
    Interval {
        lo,
        hi,
        coverage: 0.95,
        n,
    }
}

/// The instruction counts' cost column (`Instructions::contributions`): instructions per node
/// against detection off, exact, and its ranking ratio.
fn instructions(detector: &str, ratio: f64) -> [Contribution; 2] {
    let cost = Column::new("instructions", "instr./node vs off", Unit::Ratio)
        .what("instructions per node")
        .decision(Role::Cost, Better::Lower, Rows::Detector);
    let rank = Column::new(
        "instructions-ratio",
        "instr./node ÷ off",
        Unit::Number { decimals: 3 },
    );
    [
        Contribution::new(id(detector), cost, Measured::exact(ratio)),
        Contribution::new(id(detector), rank, Measured::value(ratio)),
    ]
}

/// The Axon reproduction's NPS overhead, sampled, and its ranking ratio.
fn nps(detector: &str, [value, lo, hi]: [f64; 3]) -> [Contribution; 2] {
    let overhead = Column::new("nps-overhead", "NPS overhead vs off", Unit::Ratio)
        .what("NPS overhead")
        .decision(Role::Shown, Better::Lower, Rows::Detector);
    let rank = Column::new(
        "nps-overhead-ratio",
        "NPS off ÷ with",
        Unit::Number { decimals: 3 },
    );
    let sampled = Measured::value(value).interval(interval(lo, hi, 21));
    [
        Contribution::new(id(detector), overhead, sampled),
        Contribution::new(id(detector), rank, Measured::value(value)),
    ]
}

/// The audit's false draws and missed repetitions, in both tables.
fn audit(detector: &str, false_draws: u64, missed: u64) -> [Contribution; 2] {
    let column = |key: &str, heading: &str, what: &str| {
        Column::new(key, heading, Unit::Count)
            .what(what)
            .decision(Role::Correctness, Better::Lower, Rows::EveryPolicy)
            .tables(&[Shows::Decision, Shows::Ranking])
    };
    [
        (
            column("audit-false-draws", "false draws", "false draws"),
            false_draws,
        ),
        (
            column("audit-missed", "missed", "missed repetitions"),
            missed,
        ),
    ]
    .map(|(c, n)| Contribution::new(id(detector), c, Measured::value(n as f64)))
}

/// The conformance column: the scenarios replab's configuration failed, by name, under the
/// policy it ran (named where it is not the default).
fn conformance(detector: &str, policy: DrawPolicy, failed: &[&str]) -> Contribution {
    let column = Column::new(
        "conformance",
        "FIDE scenarios",
        Unit::Failed { of: SCENARIOS },
    )
    .what("FIDE conformance")
    .decision(Role::Shown, Better::Lower, Rows::ChoiceOrOwn);
    let value =
        Measured::value(failed.len() as f64).items(failed.iter().map(|s| s.to_string()).collect());
    let value = if policy == DrawPolicy::Stockfish {
        value
    } else {
        value.note(policy.name())
    };
    Contribution::new(id(detector), column, value).under(Some(policy))
}

/// The policies experiment's nodes to a fixed depth against linear's default policy.
fn policy_tree(policy: DrawPolicy, changes: [f64; 2]) -> [Contribution; 2] {
    let column = Column::new("policy-tree", "nodes to depth vs default", Unit::Change)
        .what("nodes to a fixed depth against its default policy")
        .decision(Role::Effect, Better::Neither, Rows::Presets);
    [
        ("repetition, depth 6", changes[0]),
        ("wac, depth 5", changes[1]),
    ]
    .map(|(note, x)| {
        let value = Measured::exact(x).note(note);
        Contribution::new(id("linear"), column.clone(), value).under(Some(policy))
    })
}

/// A gauntlet value: Elo against `against` in the column `key`, with the games, the control
/// and the verdict in its note and the budget it holds at.
fn elo(key: &str, choice: Choice, against: Choice, [value, lo, hi]: [f64; 3]) -> Contribution {
    let (heading, what, at) = match key {
        "elo-fixed-nodes" => ("Elo, fixed nodes", "Elo", NODES.to_string()),
        "elo-time-control" => ("Elo, clock", "Elo", "a 0.5+0.005 s clock".to_string()),
        _ => ("Elo, equal time", "Elo at equal time", NODES.to_string()),
    };
    let column = Column::new(key, heading, Unit::Elo).what(what).decision(
        Role::Strength,
        Better::Higher,
        Rows::Choice,
    );
    let note = match key {
        "elo-equal-time" => {
            "slope +215.1 [+201.3, +229.0] Elo per doubling of nodes (4,000 games, \
             datasets/elo-slope.json) × −0.171 doublings (instructions per node 1,733.2 \
             against 1,536.0, callgrind); by the clock, time per node 1.137 [1.101, 1.174] of \
             B's (30 alternating pairs, P(slower) 100%), which gives −39.9 [−48.7, −31.1] Elo"
        }
        _ if lo == hi => "60 games at 10000 nodes; identical play in every pair: no difference",
        _ => {
            "60 games at 10000 nodes; undecided after 60 games (would need ~2,345 at ±5 nElo); \
             its cap of 60 games cannot resolve ±5 nElo"
        }
    };
    let measured = if lo == hi {
        Measured::exact(value)
    } else {
        Measured::value(value).interval(interval(lo, hi, 60))
    };
    let measured = measured.note(note).at(at).against(against);
    Contribution::new(choice.detector, column, measured).under(choice.policy)
}

/// The ranking's other columns: search time against off per suite, nanoseconds per probe and
/// the copy-make ratio of the micro-benchmarks.
fn ranking(detector: &str) -> Vec<Contribution> {
    let suites = ["repetition", "wac", "bk"].map(|suite| {
        let column = Column::new(
            format!("time-suite-{suite}"),
            format!("time, {suite}"),
            Unit::Change,
        );
        Contribution::new(id(detector), column, Measured::value(0.117).note("n.s."))
    });
    let runs = [0, 8, 32, 100].map(|run| {
        let column = Column::new(
            format!("ns-run-{run}"),
            format!("ns, run {run}"),
            Unit::Number { decimals: 1 },
        );
        Contribution::new(id(detector), column, Measured::value(13.7))
    });
    let copy_make = Column::new(
        "copy-make-run-32",
        "× copy-make, run 32",
        Unit::Number { decimals: 2 },
    );
    suites
        .into_iter()
        .chain(runs)
        .chain([Contribution::new(
            id(detector),
            copy_make,
            Measured::value(0.45),
        )])
        .collect()
}

/// Every value a full `bench` gives the landing page, made up in the shapes and lengths a full
/// run writes (the failures and counts as `bench --quick` measures them on this commit).
fn full_run() -> Vec<Contribution> {
    let linear = Choice::detector(id("linear"));
    let twofold = Choice::preset(id("linear"), DrawPolicy::Twofold);
    let mut values = Vec::new();
    let off_fails = [
        "threefold-claim-by-moving",
        "threefold-odd-cycle",
        "threefold-rook-ending",
        "threefold-rook-shuffle-queen-vs-rook",
        "root-occurred-three-times",
        "threefold-after-promotion",
        "threefold-after-underpromotion",
        "repetition-long-history",
        "castling-lost-by-king-move",
        "castling-lost-by-rook-move",
        "en-passant-false-threefold",
        "en-passant-pinned-same",
        "winner-avoids-queen",
        "winner-avoids-rook",
        "perpetual-check",
        "root-repeat-in-analysis",
        "fivefold",
        "en-passant-fen-pinned",
        "en-passant-no-capturer",
    ];
    let axon_fails = [
        "threefold-claim-by-moving",
        "threefold-odd-cycle",
        "threefold-rook-shuffle-queen-vs-rook",
        "threefold-after-promotion",
        "repetition-long-history",
        "fivefold",
        "castling-false-only",
        "side-to-move-false-only",
    ];
    values.push(conformance("off", DrawPolicy::Stockfish, &off_fails));
    values.extend(instructions("off", 1.0));
    values.extend(nps("off", [1.0, 1.0, 1.0]));
    values.push(elo(
        "elo-fixed-nodes",
        Choice::detector(DetectorId::Off),
        linear,
        [-12.8, -30.1, 4.4],
    ));
    values.push(elo(
        "elo-time-control",
        Choice::detector(DetectorId::Off),
        linear,
        [8.7, -25.3, 42.8],
    ));
    let audits = [
        ("linear", 0, 0),
        ("tt-open", 0, 3),
        ("tt-thompson", 0, 40),
        ("filo", 0, 0),
        ("filo-all-history", 0, 0),
        ("rookie", 0, 0),
        ("axon", 10_198, 31),
        ("matrix", 0, 0),
        ("matrix-checksum", 0, 0),
        ("matrix-keybits", 0, 0),
    ];
    for (i, name) in SEARCH_DETECTORS.iter().enumerate() {
        let spread = i as f64;
        values.extend(instructions(name, 1.025 + 0.02 * spread));
        values.extend(nps(name, [1.05 + 0.03 * spread, 0.95, 1.96]));
        values.extend(ranking(name));
        if let Some((_, fd, missed)) = audits.iter().find(|(n, _, _)| n == name) {
            values.extend(audit(name, *fd, *missed));
        }
        let own = Choice::detector(id(name));
        if *name == "axon" {
            values.push(conformance(name, DrawPolicy::Twofold, &axon_fails));
            values.push(elo("elo-fixed-nodes", own, twofold, [-9.1, -27.5, 9.2]));
        } else if *name != "linear" {
            values.push(conformance(name, DrawPolicy::Stockfish, &[]));
            let identical = name.starts_with("matrix") || name.starts_with("filo");
            let fixed = if identical {
                [0.0; 3]
            } else {
                [-9.1 - spread, -15.2 - spread, -3.0]
            };
            values.push(elo("elo-fixed-nodes", own, linear, fixed));
            values.push(elo("elo-time-control", own, linear, [-4.2, -38.1, 29.7]));
            if identical {
                values.push(elo("elo-equal-time", own, linear, [-36.8, -41.2, -32.6]));
                // The recorded budgets' figures (`replab_gauntlet::across_contributions`).
                for at in [
                    "40,000 nodes a move",
                    "160,000 nodes a move",
                    "1,000,000 nodes a move (slope extrapolated)",
                ] {
                    let mut value = elo("elo-equal-time", own, linear, [-16.2, -17.5, -14.9]);
                    value.value.at = Some(at.into());
                    values.push(value);
                }
            }
        }
    }
    for policy in DrawPolicy::ALL {
        values.push(conformance("linear", policy, &[]));
        if policy != DrawPolicy::Stockfish {
            let choice = Choice::preset(id("linear"), policy);
            values.extend(policy_tree(policy, [-0.2, -0.006]));
            values.push(elo("elo-fixed-nodes", choice, linear, [1.2, -14.6, 17.0]));
        }
    }
    // In the order of bench's table: instructions, the Axon reproduction, the audit,
    // conformance, policies, the gauntlet, the suites, the micro-benchmarks.
    let order = [
        "instructions",
        "nps-",
        "audit-",
        "conformance",
        "policy-",
        "elo-",
        "time-",
        "ns-",
        "copy-make",
    ];
    values.sort_by_key(|c| order.iter().position(|k| c.column.key.starts_with(k)));
    values
}

/// The font size of the tables, in px (`table { font-size: .9rem }`).
const FONT_PX: f64 = 14.4;

/// An upper bound of a character's mean width in a word, in em: the longest words of the
/// table are lower-case letters, digits and punctuation (bold in the headings). Chromium with
/// DejaVu Sans lays this table out no narrower than 1,106 px, 0.57 em a character of the
/// words [`narrowest_px`] counts.
const CHAR_EM: f64 = 0.7;

/// A column's padding and border, in px (`.table-wrap th, td { padding: .5rem }`, 1 px rule).
const CELL_PX: f64 = 17.0;

/// The width a table may take in a 1400 px window: the wrap's `calc(100vw - 3rem)` less a
/// scroll bar.
const AVAILABLE_PX: f64 = 1400.0 - 48.0 - 17.0;

/// The words a cell shows before a click, which the page can break between and nowhere else
/// (its folded text, after `</summary>`, is not shown; `<wbr>` and a block are breaks).
fn shown_words(cell: &Cell) -> Vec<String> {
    let html = match cell {
        Cell::Text(t) => return t.split_whitespace().map(String::from).collect(),
        Cell::Html(h) => h,
    };
    let mut shown = String::new();
    let mut rest = html.as_str();
    while let Some(fold) = rest.find("</summary>") {
        shown += &rest[..fold];
        let end = rest[fold..].find("</details>").unwrap() + fold;
        rest = &rest[end..];
    }
    shown += rest;
    let text = shown
        .replace("<wbr>", " ")
        .replace("<div>", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let mut words = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => words.push(c),
            _ => {}
        }
    }
    words.split_whitespace().map(String::from).collect()
}

/// The narrowest a table can be laid out: per column its longest unbreakable word (heading
/// or shown cell) at [`CHAR_EM`], plus its padding.
fn narrowest_px(headers: &[String], rows: &[Vec<Cell>]) -> (f64, Vec<(String, usize)>) {
    let longest: Vec<(String, usize)> = (0..headers.len())
        .map(|col| {
            let heading = headers[col].split_whitespace().map(String::from);
            let cells = rows.iter().flat_map(|r| shown_words(&r[col]));
            let word = heading
                .chain(cells)
                .max_by_key(|w| w.chars().count())
                .unwrap_or_default();
            let n = word.chars().count();
            (word, n)
        })
        .collect();
    let px = longest
        .iter()
        .map(|(_, n)| *n as f64 * CHAR_EM * FONT_PX + CELL_PX)
        .sum();
    (px, longest)
}

/// The full run's decision table, every row and every column a full `bench` gives: no cell is
/// long text (which the page gives a minimum width of 15 em), and the longest words of its
/// columns, side by side, fit the window with room to spare.
#[test]
fn a_full_size_decision_table_is_narrow_by_construction() {
    let table = decision::table(&full_run());
    assert_eq!(table.rows.len(), decision::choices().len());
    assert_eq!(table.rows.len(), 16, "off, 11 detectors, 4 policy presets");
    let keys: Vec<&str> = table.columns.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "audit-false-draws",
            "audit-missed",
            "instructions",
            "nps-overhead",
            "conformance",
            "policy-tree",
            "elo-fixed-nodes",
            "elo-time-control",
            "elo-equal-time"
        ]
    );
    let (headers, rows) = decision::cells(&table);
    assert_eq!(headers.len(), 11);
    let html = replab_report::table_html(&headers, &rows, false);
    assert!(!html.contains("class=\"prose\""), "{html}");
    let (px, longest) = narrowest_px(&headers, &rows);
    let words: usize = longest.iter().map(|(_, n)| n).sum();
    assert!(px <= AVAILABLE_PX, "{px:.0} px: {longest:?}");
    assert!(
        longest.iter().all(|(_, n)| *n <= 21),
        "a word longer than linear:policy=twofold: {longest:?}"
    );
    assert!(words <= 120, "{words} characters of words: {longest:?}");
    // The recommendation shows its verdict; the sentence is a click away.
    let off = &rows[0];
    assert_eq!(shown_words(off.last().unwrap()), ["not", "a", "candidate"]);
}

/// The full run's answer: detection off and the detectors that break the draw rules are no
/// candidates, each with its reason, and every strength verdict names the budget.
#[test]
fn the_full_runs_answer_keeps_the_rules_and_names_the_budget() {
    let table = decision::table(&full_run());
    let html = decision::summary_html(&table);
    let detectors = &html[..html.find("Which draw policy").unwrap()];
    assert!(
        detectors.contains(
            "<a href=\"#choice-off\">off</a> (no repetition detection; FIDE conformance: fails \
             19 of 48)"
        ),
        "{detectors}"
    );
    for name in ["tt-open", "tt-thompson", "axon"] {
        assert!(
            detectors.contains(&format!("<a href=\"#choice-{name}\">{name}</a> (")),
            "{detectors}"
        );
    }
    assert!(
        detectors.contains("Avoid (weaker at 10,000 nodes a move): "),
        "{detectors}"
    );
    // The identical-play rows, weaker at every budget, are a sentence of their own.
    assert!(
        detectors.contains(
            "Avoid (weaker at 10,000 nodes a move and 40,000 nodes a move and 160,000 nodes a \
             move and 1,000,000 nodes a move (slope extrapolated)): <a href=\"#choice-filo\">"
        ),
        "{detectors}"
    );
    let candidates = detectors.find("Candidates").map(|i| &detectors[i..]);
    let candidates = candidates.map_or("", |c| &c[..c.find('.').unwrap()]);
    for excluded in ["off", "axon", "tt-open", "tt-thompson"] {
        assert!(
            !candidates.contains(&format!("#choice-{excluded}\"")),
            "{candidates}"
        );
    }
}

/// Settings of the made-up full run: none.
#[derive(Clone, Default, clap::Args, replab_settings::Settings)]
struct NoSettings {}

impl Configuration for NoSettings {
    fn quick() -> Self {
        Self {}
    }
    fn set_command(&mut self, _: String) {}
}

/// The made-up full run, as an experiment of a table of one line: its values are
/// [`full_run`]'s.
struct FullRun;

impl Experiment for FullRun {
    const NAME: &'static str = "full run";
    const DIR: &'static str = "full-run";
    const TITLE: &'static str = "A full run's values, made up";
    type Config = NoSettings;
    type Results = ();

    fn run(_: &NoSettings, _: &mut dyn Progress) -> Result<()> {
        Ok(())
    }

    fn write(results: &(), dir: &ReportDir) -> Result<()> {
        write_json(results, dir)?;
        dir.write(
            "index.html",
            "<!DOCTYPE html><html><body><p>made up</p></body></html>",
        )?;
        Ok(())
    }

    fn contributions(_: &()) -> Vec<Contribution> {
        full_run()
    }
}

experiments! {
    /// The made-up full run alone.
    pub struct FullTable {
        /// The full run's values.
        full: FullRun,
    }
}

/// The landing page from the full run's values passes `tools/check_pages.sh`: no table wider
/// than a 1400 px window, no scroll box. Skipped, with a message, where Chromium is absent.
#[test]
fn a_full_size_landing_page_passes_the_page_check() {
    if replab_report::browser::chromium().is_none() {
        eprintln!("skipped: chromium not found, tools/check_pages.sh cannot render pages");
        return;
    }
    let site = Site::default();
    let results = bench::run_set::<FullTable>(&site, &mut Silent).unwrap();
    let out = std::env::temp_dir().join(format!("replab-full-landing-{}", std::process::id()));
    bench::write(&results, &out).unwrap();
    let script = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../tools/check_pages.sh"
    ));
    let check = Command::new("bash").arg(script).arg(&out).output().unwrap();
    let stdout = String::from_utf8_lossy(&check.stdout);
    eprintln!("tools/check_pages.sh {}:\n{stdout}", out.display());
    assert!(check.status.success(), "{stdout}");
    assert!(stdout.contains("ok   "), "{stdout}");
    std::fs::remove_dir_all(&out).ok();
}

/// The landing page's detector answer from made-up recordings, through the gauntlet's own
/// computation (`replab_gauntlet::across`): `filo` plays identically to `linear`, and its
/// instructions per node over `linear`'s at 10,000, 40,000, 160,000 and 1,000,000 nodes are
/// `ratios` (no time per node recorded).
fn answer_from_recordings(ratios: [f64; 4]) -> String {
    use replab_gauntlet::Slope;
    use replab_gauntlet::across::{BudgetSlope, across};
    use replab_gauntlet::budgets::Recorded;
    use replab_harness::interval::Estimate;
    use std::collections::BTreeMap;
    let budgets = [10_000u64, 40_000, 160_000, 1_000_000];
    let per = |v: [f64; 4]| -> BTreeMap<String, f64> {
        budgets
            .iter()
            .zip(v)
            .map(|(b, x)| (b.to_string(), x))
            .collect()
    };
    let nodes: BTreeMap<String, u64> = budgets.iter().map(|b| (b.to_string(), *b)).collect();
    let costs = Recorded {
        engine: "made up".into(),
        recorded: "made up".into(),
        positions: vec!["made up".into()],
        command: "made up".into(),
        budgets: budgets.to_vec(),
        instructions_per_node: BTreeMap::from([
            ("linear".to_string(), per([100.0; 4])),
            ("filo".to_string(), per(ratios.map(|r| 100.0 * r))),
        ]),
        nodes_searched: BTreeMap::from([
            ("linear".to_string(), nodes.clone()),
            ("filo".to_string(), nodes),
        ]),
    };
    let slope = |nodes: u64, value: f64| BudgetSlope {
        nodes,
        slope: Slope {
            elo_per_doubling: Estimate {
                value,
                interval: interval(value - 14.0, value + 14.0, 900),
            },
            games: 1800,
            ratios: vec![2.0],
        },
        file: format!("elo-slope-{nodes}.json"),
    };
    let slopes = vec![
        slope(10_000, 215.0),
        slope(40_000, 190.0),
        slope(160_000, 150.0),
    ];
    let a = across(
        (slopes, Vec::new()),
        Ok(costs),
        Err("none".into()),
        &["filo"],
    );
    let mut values = replab_gauntlet::across_contributions(&a);
    for name in ["linear", "filo"] {
        values.extend(audit(name, 0, 0));
        values.push(conformance(name, DrawPolicy::Stockfish, &[]));
    }
    decision::summary_html(&decision::table(&values))
}

#[test]
fn the_detector_answer_names_the_budgets_where_it_holds_and_flips_with_the_recording() {
    // Costlier at every budget: avoided at each, every budget named, 1M marked.
    let html = answer_from_recordings([1.01, 1.02, 1.03, 1.04]);
    assert!(
        html.contains(
            "Avoid (weaker at 10,000 nodes a move and 40,000 nodes a move and 160,000 nodes a \
             move and 1,000,000 nodes a move (slope extrapolated)): <a href=\"#choice-filo\">"
        ),
        "{html}"
    );
    // Cheaper from 40k on: its place changes, and the answer says where.
    let html = answer_from_recordings([1.02, 0.99, 0.98, 0.97]);
    assert!(
        html.contains("Its place changes with the budget: <a href=\"#choice-filo\">filo</a>"),
        "{html}"
    );
    assert!(
        html.contains(
            "(Elo at equal time: weaker than linear at 10,000 nodes a move (-6.1); stronger \
             than linear at 40,000 nodes a move"
        ),
        "{html}"
    );
    assert!(html.contains("(slope extrapolated)"), "{html}");
}
