//! A throwaway experiment added through the table in a few lines: `bench` lists it among its
//! steps, writes its report and shows it on the landing page, its new decision-table columns
//! among the others and in the recommendation.

use anyhow::Result;
use replab_harness::{
    Progress, Silent,
    contribution::{
        self, Better, Choice, Column, Contribution, Measured, Phrase, Role, Rows, Unit,
    },
    experiment::{Configuration, Experiment, ExperimentSet, Headline, Site, Takes, write_json},
    experiments,
};
use replab_registry::DetectorId;
use replab_report::ReportDir;
use replab_site::bench;

/// Settings of the throwaway experiment, declared as every experiment declares its own.
#[derive(Clone, Default, clap::Args, replab_settings::Settings)]
struct Upto {
    /// How far to count.
    #[arg(long, value_name = "N")]
    #[setting(range = 0..=100)]
    upto: u32,
}

impl Configuration for Upto {
    fn quick() -> Self {
        Upto { upto: 2 }
    }
    fn set_command(&mut self, _: String) {}
}

/// The throwaway experiment: counts.
struct Count;

impl Experiment for Count {
    const NAME: &'static str = "count";
    const DIR: &'static str = "count";
    const TITLE: &'static str = "Counting, a throwaway experiment";
    type Config = Upto;
    type Results = Vec<u32>;

    fn run(config: &Upto, _: &mut dyn Progress) -> Result<Vec<u32>> {
        Ok((1..=config.upto).collect())
    }

    fn write(results: &Vec<u32>, dir: &ReportDir) -> Result<()> {
        write_json(results, dir)?;
        dir.write("index.html", "<p>counted</p>")?;
        Ok(())
    }

    fn headlines(results: &Vec<u32>) -> Vec<Headline> {
        vec![Headline {
            label: "Counted".into(),
            context: Phrase::parenthesised([Phrase::report("<the count>", "count")]),
            text: format!("up to {}", results.len()),
        }]
    }

    /// Two columns the site has never heard of: errors counted (a correctness column, of
    /// linear+cuckoo and linear) and a strength of linear+cuckoo against linear.
    fn contributions(results: &Vec<u32>) -> Vec<Contribution> {
        let cuckoo = DetectorId::from_name("linear+cuckoo").unwrap();
        let errors = Column::new("count-errors", "counted errors", Unit::Count)
            .what("counted errors")
            .decision(Role::Correctness, Better::Lower, Rows::EveryPolicy)
            .tables(&[contribution::Table::Decision, contribution::Table::Ranking]);
        let strength = Column::new("count-strength", "counted strength", Unit::Change)
            .what("counted strength")
            .decision(Role::Strength, Better::Higher, Rows::Choice);
        let total: u32 = results.iter().sum();
        let stronger = Measured::value(0.1)
            .interval(replab_harness::interval::Interval {
                lo: 0.05,
                hi: 0.15,
                coverage: 0.95,
                n: 100,
            })
            .note(format!("{total} counts"))
            .against(Choice::detector(DetectorId::reference()));
        let linear = DetectorId::reference();
        vec![
            Contribution::new(
                cuckoo,
                errors.clone(),
                Measured::value(results.len() as f64),
            ),
            Contribution::new(linear, errors, Measured::value(0.0)),
            Contribution::new(cuckoo, strength, stronger),
        ]
    }
}

experiments! {
    /// A table of one experiment.
    pub struct Table {
        /// The throwaway experiment.
        count: Count,
    }
}

/// A throwaway experiment that takes the count's results as an input: it sums them.
struct Sum;

impl Experiment for Sum {
    const NAME: &'static str = "sum";
    const DIR: &'static str = "sum";
    const TITLE: &'static str = "Summing, a throwaway experiment";
    type Config = Upto;
    type Results = u32;

    fn run(config: &Upto, _: &mut dyn Progress) -> Result<u32> {
        Ok(config.upto)
    }

    fn write(results: &u32, dir: &ReportDir) -> Result<()> {
        write_json(results, dir)
    }
}

impl Takes for Sum {
    type Input = Vec<u32>;

    fn take(config: &mut Upto, input: &Vec<u32>) {
        config.upto = input.iter().sum();
    }
}

experiments! {
    /// A table whose second line takes the first line's results.
    pub struct Chain {
        /// Counts.
        count: Count,
        /// Sums the counts, handed over before it runs.
        sum: Sum = takes(count),
    }
}

#[test]
fn a_line_takes_an_earlier_lines_results_before_it_runs() {
    let site = Site {
        quick: true,
        ..Site::default()
    };
    let results = bench::run_set::<Chain>(&site, &mut Silent).unwrap();
    assert_eq!(results.experiments.count, [1, 2]);
    assert_eq!(results.experiments.sum, 3);
}

#[test]
fn a_new_table_line_is_a_step_a_report_and_a_landing_link() {
    let site = Site {
        quick: true,
        ..Site::default()
    };
    assert_eq!(bench::steps::<Table>(&site).unwrap(), ["count"]);
    assert_eq!(Table::experiments(), [("count", Count::TITLE)]);
    let results = bench::run_set::<Table>(&site, &mut Silent).unwrap();
    assert_eq!(results.experiments.count, [1, 2]);
    let json = serde_json::to_value(&results).unwrap();
    assert_eq!(json["count"], serde_json::json!([1, 2]), "{json}");

    let out = std::env::temp_dir().join(format!("replab-table-{}", std::process::id()));
    bench::write(&results, &out).unwrap();
    assert!(out.join("count/results.json").is_file());
    let landing = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(landing.contains("count/index.html"), "{landing}");
    assert!(landing.contains(Count::TITLE));
    assert!(landing.contains("up to 2"));
    // The headline's context is escaped, its link kept.
    assert!(landing.contains(r#"<a href="count/index.html">&lt;the count&gt;</a>"#));
    // The new columns are in the decision table, and decide its recommendation.
    let decision = &landing[..landing.find("Headlines").unwrap()];
    assert!(decision.contains("<th>counted errors</th>"), "{decision}");
    assert!(decision.contains("<th>counted strength</th>"), "{decision}");
    // Stronger, but its errors keep it from being a candidate, whatever its strength.
    assert!(
        decision.contains("<td>+10.0% [+5.0%, +15.0%] (3 counts)</td>"),
        "{decision}"
    );
    assert!(
        decision.contains("<details><summary>not a candidate</summary>counted errors: 2</details>"),
        "{decision}"
    );
    assert!(
        !decision.contains("))"),
        "parentheses in parentheses: {decision}"
    );
    assert!(decision.contains("the counted strength matches were played against it"));
    // The table is also decision.csv beside the page, linked under it, row for row.
    assert!(
        decision.contains(r#"<a href="decision.csv">"#),
        "{decision}"
    );
    if let Some(rows) = python_csv(&out.join("decision.csv")) {
        let table = &decision[decision.find("<table").unwrap()..decision.find("</table>").unwrap()];
        assert_eq!(rows.len(), table.matches("<tr>").count(), "{rows:?}");
        assert!(
            rows[0].contains(&"counted strength".to_string()),
            "{:?}",
            rows[0]
        );
        assert!(
            rows.iter()
                .flatten()
                .any(|cell| cell == "not a candidate: counted errors: 2"),
            "{rows:?}"
        );
        assert!(
            rows.iter()
                .flatten()
                .any(|cell| cell == "+10.0% [+5.0%, +15.0%] (3 counts)"),
            "{rows:?}"
        );
    }
    std::fs::remove_dir_all(&out).ok();
}

/// The rows of the CSV file `path` as Python's `csv` module reads them, or `None` (said on
/// stderr) where python3 is not installed.
fn python_csv(path: &std::path::Path) -> Option<Vec<Vec<String>>> {
    let script = "import csv, json, sys\n\
                  print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))";
    let Ok(out) = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .output()
    else {
        eprintln!("skipped: python3 is not installed, the CSV was not parsed");
        return None;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("python prints JSON"))
}

#[test]
fn the_main_table_lists_every_experiment_once() {
    let names: Vec<&str> = bench::Measured::experiments()
        .iter()
        .map(|(name, _)| *name)
        .collect();
    for name in [
        "reproduce axon",
        "study",
        "smp",
        "audit",
        "ghi",
        "key-width",
    ] {
        assert_eq!(names.iter().filter(|n| **n == name).count(), 1, "{names:?}");
    }
    assert!(bench::experiments_help().contains("policies"));
}

#[test]
fn a_smoke_site_takes_each_experiments_smoke_settings_and_the_short_run_where_it_has_none() {
    let (quick, smoke) = (
        Site {
            quick: true,
            ..Site::default()
        },
        Site {
            quick: true,
            smoke: true,
            ..Site::default()
        },
    );
    // `Upto` declares no smoke run of its own: its short run.
    assert_eq!(
        smoke.settings::<Count>().upto,
        quick.settings::<Count>().upto
    );
    // The study declares one: fewer endgames and records than its short run.
    let (q, s) = (
        quick.settings::<replab_cost::study::Study>(),
        smoke.settings::<replab_cost::study::Study>(),
    );
    assert!(s.endgames < q.endgames && s.wac_records < q.wac_records);
    assert_eq!(s.endgames, replab_cost::study::Config::smoke().endgames);
    let results = bench::run_set::<Table>(&smoke, &mut Silent).unwrap();
    let json = serde_json::to_value(&results).unwrap();
    assert_eq!(
        (&json["quick"], &json["smoke"]),
        (&true.into(), &true.into())
    );
}
