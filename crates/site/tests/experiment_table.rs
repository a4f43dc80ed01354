//! A throwaway experiment added through the table in a few lines: `bench` lists it among its
//! steps, writes its report and shows it on the landing page.

use anyhow::Result;
use replab_harness::{
    Progress, Silent,
    experiment::{
        Experiment, ExperimentSet, Fact, Headline, Ranked, Settings, Site, Takes, write_json,
    },
    experiments,
};
use replab_report::ReportDir;
use replab_site::bench;

/// Settings of the throwaway experiment: how far to count.
#[derive(Clone, Default)]
struct Upto(u32);

impl Settings for Upto {
    fn quick() -> Self {
        Upto(2)
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
        Ok((1..=config.0).collect())
    }

    fn write(results: &Vec<u32>, dir: &ReportDir) -> Result<()> {
        write_json(results, dir)?;
        dir.write("index.html", "<p>counted</p>")?;
        Ok(())
    }

    fn headlines(results: &Vec<u32>) -> Vec<Headline> {
        vec![Headline {
            label: "Counted".into(),
            context: String::new(),
            text: format!("up to {}", results.len()),
        }]
    }

    fn ranking(results: &Vec<u32>) -> Vec<Ranked> {
        let fact = |run, ns| Fact::Cycle {
            run,
            ns,
            ratio: 1.0,
        };
        results
            .iter()
            .map(|&n| Ranked {
                detector: "linear".into(),
                fact: fact(n as usize, f64::from(n)),
            })
            .collect()
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
        Ok(config.0)
    }

    fn write(results: &u32, dir: &ReportDir) -> Result<()> {
        write_json(results, dir)
    }
}

impl Takes for Sum {
    type Input = Vec<u32>;

    fn take(config: &mut Upto, input: &Vec<u32>) {
        config.0 = input.iter().sum();
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
    std::fs::remove_dir_all(&out).ok();
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
