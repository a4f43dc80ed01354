//! What an experiment is: the [`Experiment`] trait every experiment implements once, and the
//! [`experiments!`](crate::experiments) table that composes them into `replab bench`.
//!
//! An experiment declares its name, report directory and title, its [`Settings`] (with
//! `Default` for its subcommand without options and [`Settings::quick`] for `bench --quick`),
//! its typed `Results` (what `results.json` holds), how it runs and how it writes its report,
//! and what it gives the landing page: a [`Headline`] and typed [`Contribution`]s to its
//! tables (`crate::contribution`). The binary runs any experiment through one generic path; `bench` runs the
//! table. An experiment never imports another experiment's module: one reads another's
//! results only as an input its settings take ([`Takes`], `field: Type = takes(source)` in the table).

use std::{
    io::Write as _,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result};
use replab_report::ReportDir;
use serde::{Serialize, de::DeserializeOwned};

use crate::Progress;
use crate::contribution::{Contribution, Phrase};

/// An experiment's settings: `Default` is its subcommand without options.
pub trait Settings: Clone + Default {
    /// The short run of `bench --quick` (the subcommand's `--quick`, where it has one).
    fn quick() -> Self;
    /// Records the command line that regenerates the report (it goes into `meta`).
    fn set_command(&mut self, command: String);
    /// Refuses impossible settings before anything runs, naming the setting at fault: the only
    /// validator of a configuration.
    fn check(&self) -> Result<()> {
        Ok(())
    }
    /// The numeric settings declared once with their range and help ([`Declared`]): `check`
    /// tests against them, the command line's help shows them.
    const DECLARED: &'static [Declared] = &[];
}

pub use replab_settings::{Declared, Setting};

/// What `bench` knows when it builds each experiment's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The short run (under 2 minutes on 2 cores): shallower searches, fewer games and records.
    pub quick: bool,
    /// Where the datasets are (`datasets/` of the repository): the suites' EPD files.
    pub datasets: PathBuf,
    /// The command line that regenerates the site (`replab bench`, `replab bench --quick`).
    pub command: String,
    /// The replab binary, for the steps that run it in a child process (instruction counts
    /// under valgrind, `replab uci`). `None`: none of those (tests).
    pub exe: Option<PathBuf>,
}

impl Default for Site {
    fn default() -> Self {
        Self {
            quick: false,
            datasets: PathBuf::from("datasets"),
            command: "replab bench".into(),
            exe: None,
        }
    }
}

impl Site {
    /// The command line of an experiment's own subcommand that gives the report `bench`
    /// writes at `reports/DIR`: `replab NAME [--quick] --out reports/DIR`.
    pub fn command_for(&self, name: &str, dir: &str) -> String {
        let quick = if self.quick { " --quick" } else { "" };
        format!("replab {name}{quick} --out reports/{dir}")
    }

    /// Where `bench` writes the report `dir`, as its commands spell it (`reports/DIR`).
    pub fn out(&self, dir: &str) -> PathBuf {
        Path::new("reports").join(dir)
    }

    /// The standard settings of an experiment in `bench`: its quick or default run, with the
    /// command line of its own subcommand.
    pub fn settings<E: Experiment + ?Sized>(&self) -> E::Config {
        let mut config = if self.quick {
            E::Config::quick()
        } else {
            E::Config::default()
        };
        let command = E::command(
            &config,
            self.command_for(E::NAME, E::DIR),
            &self.out(E::DIR),
        );
        config.set_command(command);
        config
    }
}

/// One line of the landing page's headlines.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Headline {
    /// The claim's name, in bold (`Key width`).
    pub label: String,
    /// Optional context after the label: words and links (a link to the report), escaped by
    /// the site.
    pub context: Vec<Phrase>,
    /// The computed sentence (escaped on the page).
    pub text: String,
}

/// A report of the site: its directory under the root and its title.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Link {
    /// Directory under the site's root (`suite-wac`).
    pub dir: String,
    /// Title on the landing page.
    pub title: String,
}

/// The one range check: refuses a value outside its range, naming the setting.
pub use replab_settings::check_range;

/// `bench`'s numbered steps: `[3/12] smp`.
pub struct Steps {
    labels: Vec<String>,
    done: usize,
    /// The running step's label, start and the process's CPU seconds then.
    running: Option<(String, std::time::Instant, Option<f64>)>,
}

impl Steps {
    /// The steps of a run, in order.
    pub fn new(labels: Vec<String>) -> Self {
        Self {
            labels,
            done: 0,
            running: None,
        }
    }

    /// Every step's label.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Closes the running step (its wall time as a note), announces the next one and returns
    /// its label.
    pub fn next(&mut self, progress: &mut dyn Progress) -> String {
        self.finish(progress);
        let label = self.labels.get(self.done).cloned().unwrap_or_default();
        self.done += 1;
        progress.note(&format!("[{}/{}] {label}", self.done, self.labels.len()));
        self.running = Some((
            label.clone(),
            std::time::Instant::now(),
            process_cpu_seconds(),
        ));
        label
    }

    /// Closes the running step, if any: `      step: N s wall, M s CPU` as a note (the CPU
    /// time of the process and its finished children, where the system reports it).
    pub fn finish(&mut self, progress: &mut dyn Progress) {
        if let Some((label, started, cpu)) = self.running.take() {
            let seconds = started.elapsed().as_secs_f64();
            let cpu = match (cpu, process_cpu_seconds()) {
                (Some(before), Some(now)) => format!(", {:.1} s CPU", now - before),
                _ => String::new(),
            };
            progress.note(&format!("      {label}: {seconds:.1} s wall{cpu}"));
        }
    }
}

/// The CPU time (user + system) this process and its finished children (the valgrind runs)
/// have used so far, in seconds, from Linux's `/proc/self/stat` (fields 14 to 17, in the
/// kernel's fixed 100 ticks per second of `USER_HZ`); `None` elsewhere.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 1..];
    let ticks: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    (ticks.len() == 4).then(|| ticks.iter().sum::<f64>() / 100.0)
}

/// An experiment: one module of the lab, one line of the bench table, one subcommand.
pub trait Experiment {
    /// Its name: the subcommand (`study`, `reproduce axon`) and bench's step label.
    const NAME: &'static str;
    /// Its report directory under the site's root (`study`).
    const DIR: &'static str;
    /// Its page title (also the landing page's link).
    const TITLE: &'static str;
    /// Its settings.
    type Config: Settings;
    /// Everything its `results.json` holds.
    type Results: Serialize + DeserializeOwned;

    /// Runs the experiment; nothing is written.
    fn run(config: &Self::Config, progress: &mut dyn Progress) -> Result<Self::Results>;

    /// Writes `results.json`, `index.html` and the charts into the staged `dir`.
    fn write(results: &Self::Results, dir: &ReportDir) -> Result<()>;

    /// The command line recorded in `meta` for `config` written to `out`: by default the
    /// one `typed` (the subcommand's own, or the one `bench` gives).
    fn command(_config: &Self::Config, typed: String, _out: &Path) -> String {
        typed
    }

    /// The table the subcommand prints on stdout when the report is written.
    fn summary(_results: &Self::Results) -> String {
        String::new()
    }

    /// What the subcommand does once the report is written: print the table and the page's
    /// path, and fail (exit 2) when the run skipped bad input. `index` is the page written.
    fn conclude(results: &Self::Results, index: &Path) -> Result<Conclusion> {
        Ok(Conclusion {
            stdout: format!("{}\nwrote {}\n", Self::summary(results), index.display()),
            stderr: String::new(),
            failure: None,
        })
    }

    /// Its lines among the landing page's headlines.
    fn headlines(_results: &Self::Results) -> Vec<Headline> {
        Vec::new()
    }

    /// Its values for the landing page's tables (the decision table, the ranking, the chart).
    fn contributions(_results: &Self::Results) -> Vec<Contribution> {
        Vec::new()
    }

    /// Sections of its own on the landing page: (heading, HTML).
    fn sections(_results: &Self::Results) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Its settings in `bench` (default: [`Site::settings`]).
    fn bench_config(site: &Site) -> Result<Self::Config> {
        Ok(site.settings::<Self>())
    }

    /// Its steps in `bench` (default: one, named [`Self::NAME`]).
    fn steps(_config: &Self::Config) -> Vec<String> {
        vec![Self::NAME.to_string()]
    }

    /// Runs its steps in `bench`, announcing each (default: one step, [`Self::run`]).
    fn run_steps(
        config: &Self::Config,
        progress: &mut dyn Progress,
        steps: &mut Steps,
    ) -> Result<Self::Results> {
        let label = steps.next(progress);
        Self::run(config, progress).with_context(|| format!("step `{label}` failed"))
    }

    /// Its reports on the site (default: one, [`Self::DIR`] titled [`Self::TITLE`]).
    fn pages(_results: &Self::Results) -> Vec<Link> {
        vec![Link {
            dir: Self::DIR.into(),
            title: Self::TITLE.into(),
        }]
    }

    /// Writes its reports under the site's root `out`, each committed atomically.
    fn write_site(results: &Self::Results, out: &Path) -> Result<()> {
        write_report(&out.join(Self::DIR), |dir| Self::write(results, dir)).map(drop)
    }
}

/// An experiment that takes another experiment's results as an input of its settings: `bench`
/// hands them over before it runs (the table names the source, `axon: Axon = takes(instructions)`,
/// and the source is an earlier line), so no experiment's results are patched after the fact.
pub trait Takes: Experiment {
    /// The results it takes (the source experiment's `Results`).
    type Input;
    /// Puts `input` into the settings about to run.
    fn take(config: &mut Self::Config, input: &Self::Input);
}

/// What a subcommand prints and whether it fails once its report is written.
pub struct Conclusion {
    /// Text for stdout.
    pub stdout: String,
    /// Text for stderr.
    pub stderr: String,
    /// Why the run fails although its report is written (records skipped: exit 2; an engine
    /// failing a conformance scenario: exit 1).
    pub failure: Option<Failure>,
}

/// A run that wrote its report but must end with a non-zero exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The exit status: 2 for bad input that was skipped, 1 for a failed check.
    pub status: u8,
    /// What failed.
    pub message: String,
}

impl Failure {
    /// Bad input was skipped (exit status 2).
    pub fn bad_input(message: String) -> Self {
        Self { status: 2, message }
    }

    /// A check the user asked for failed (exit status 1).
    pub fn check(message: String) -> Self {
        Self { status: 1, message }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

impl Conclusion {
    /// The table on stdout, where the page went on stderr.
    pub fn table(stdout: String, index: &Path) -> Self {
        Self {
            stdout,
            stderr: format!("wrote {}\n", index.display()),
            failure: None,
        }
    }

    /// Prints the conclusion, stderr's text then stdout's (a closed stdout pipe is not an
    /// error); its failure, if any, is the error.
    pub fn print(self) -> Result<()> {
        eprint!("{}", self.stderr);
        if let Err(e) = std::io::stdout().lock().write_all(self.stdout.as_bytes())
            && e.kind() != std::io::ErrorKind::BrokenPipe
        {
            anyhow::bail!("cannot write the table to stdout: {e}");
        }
        self.failure.map_or(Ok(()), |failure| Err(failure.into()))
    }
}

/// `text` as one shell word: unchanged when it is made of safe characters, else single-quoted.
pub fn shell_word(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./,:=+@%".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The command line `args` as a shell would need it typed again: the program shown as
/// `replab`, every argument a [`shell_word`].
pub fn command_line(args: impl IntoIterator<Item = String>) -> String {
    let words: Vec<String> = args.into_iter().map(|a| shell_word(&a)).collect();
    format!("replab {}", words.join(" ")).trim_end().to_owned()
}

/// Runs experiment `E` as its subcommand does and writes its report to `out` (default
/// [`default_out`]): records the command line (`typed`, as [`Experiment::command`] turns it),
/// checks the settings, stages the directory (an unwritable `out` fails before the run), runs,
/// writes, swaps the report in, then prints what the experiment concludes
/// ([`Conclusion::print`]).
pub fn run_and_report<E: Experiment>(
    mut config: E::Config,
    typed: String,
    out: Option<PathBuf>,
    progress: &mut dyn Progress,
) -> Result<()> {
    let out = match out {
        Some(out) => out,
        None => default_out::<E>()?,
    };
    config.set_command(E::command(&config, typed, &out));
    config.check()?;
    let cannot = || {
        format!(
            "cannot write the report to {} {}",
            Setting::new("out"),
            out.display()
        )
    };
    let dir = ReportDir::create(&out).with_context(cannot)?;
    let results = E::run(&config, progress)?;
    E::write(&results, &dir)
        .and_then(|()| Ok(dir.commit()?))
        .with_context(cannot)?;
    E::conclude(&results, &out.join("index.html"))?.print()
}

/// `reports/E::DIR`, where `E` writes its report unless told otherwise, unless `replab bench`
/// wrote it: a page of bench's site is replaced only when the report directory is named.
pub fn default_out<E: Experiment>() -> Result<PathBuf> {
    let out = Path::new("reports").join(E::DIR);
    match replab_report::written_by(&out) {
        Some(command)
            if E::NAME != "bench" && command.split_whitespace().nth(1) == Some("bench") =>
        {
            anyhow::bail!(
                "{} holds the page `{command}` wrote, which this run would replace: give {out_setting} \
                 DIR to write this report elsewhere, or {out_setting} {} to replace the page",
                out.display(),
                out.display(),
                out_setting = Setting::new("out")
            )
        }
        _ => Ok(out),
    }
}

/// Stages the report directory `path`, fills it with `fill` and swaps it in.
pub fn write_report(path: &Path, fill: impl FnOnce(&ReportDir) -> Result<()>) -> Result<PathBuf> {
    let dir = ReportDir::create(path)?;
    fill(&dir)?;
    Ok(dir.commit()?)
}

/// Writes `results` as `results.json` into `dir` (every experiment's first file).
pub fn write_json<T: Serialize>(results: &T, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_string_pretty(results)?)
        .context("writing results.json")
}

/// Implements [`Settings`] for a `Config` with an inherent `quick()` and a `command` field;
/// with `check`, its inherent `check()` too; with a third argument, its declared settings
/// ([`Settings::DECLARED`]).
#[macro_export]
macro_rules! settings {
    ($config:ty) => {
        impl $crate::experiment::Settings for $config {
            fn quick() -> Self {
                <$config>::quick()
            }
            fn set_command(&mut self, command: String) {
                self.command = command;
            }
        }
    };
    ($config:ty, check) => {
        $crate::settings!($config, check, &[]);
    };
    ($config:ty, check, $declared:expr) => {
        impl $crate::experiment::Settings for $config {
            fn quick() -> Self {
                <$config>::quick()
            }
            fn set_command(&mut self, command: String) {
                self.command = command;
            }
            fn check(&self) -> anyhow::Result<()> {
                <$config>::check(self)
            }
            const DECLARED: &'static [$crate::experiment::Declared] = $declared;
        }
    };
}

/// The items every experiment module states the same way, inside its `impl Experiment`: its
/// name and directory, the module's `TITLE`, `Config` and `Results`, and `run` and `write`
/// delegated to the module's functions of those names. With `summary`, the subcommand prints
/// the module's `summary_table` then the page's path on stdout (the trait's `conclude`); with
/// `table`, the table on stdout and the page's path on stderr ([`Conclusion::table`]).
#[macro_export]
macro_rules! experiment_items {
    ($name:literal, $dir:literal) => {
        const NAME: &'static str = $name;
        const DIR: &'static str = $dir;
        const TITLE: &'static str = TITLE;
        type Config = Config;
        type Results = Results;

        fn run(config: &Config, progress: &mut dyn $crate::Progress) -> ::anyhow::Result<Results> {
            run(config, progress)
        }

        fn write(results: &Results, dir: &::replab_report::ReportDir) -> ::anyhow::Result<()> {
            write(results, dir)
        }
    };
    ($name:literal, $dir:literal, summary) => {
        $crate::experiment_items!($name, $dir);

        fn summary(results: &Results) -> String {
            summary_table(results)
        }
    };
    ($name:literal, $dir:literal, table) => {
        $crate::experiment_items!($name, $dir, summary);

        fn conclude(
            results: &Results,
            index: &::std::path::Path,
        ) -> ::anyhow::Result<$crate::experiment::Conclusion> {
            Ok($crate::experiment::Conclusion::table(
                summary_table(results),
                index,
            ))
        }
    };
}

/// A table of experiments composed by [`experiments!`](crate::experiments): what `bench`
/// runs, writes and shows on the landing page.
pub trait ExperimentSet: Serialize + DeserializeOwned + Sized {
    /// Every experiment's name and title, in table order.
    fn experiments() -> Vec<(&'static str, &'static str)>;
    /// Every step's label, in order (the count is their number).
    fn steps(site: &Site) -> Result<Vec<String>>;
    /// Runs every experiment in table order, announcing each step.
    fn run(site: &Site, progress: &mut dyn Progress) -> Result<Self>;
    /// Writes every report under `out`.
    fn write(&self, out: &Path) -> Result<()>;
    /// Every report of the site, in table order.
    fn pages(&self) -> Vec<Link>;
    /// Every headline, in table order.
    fn headlines(&self) -> Vec<Headline>;
    /// Every contribution to the landing page's tables, in table order.
    fn contributions(&self) -> Vec<Contribution>;
    /// Every experiment's own landing sections, in table order.
    fn sections(&self) -> Vec<(String, String)>;
}

/// Declares the experiment table: a struct with one field per experiment (its typed results,
/// serialised under the field's name) and its [`ExperimentSet`] implementation. A line
/// `field: Type = takes(source)` hands the results of the earlier line `source` to `Type`'s settings
/// ([`Takes`]) before it runs: the one way an experiment uses another's results.
///
/// ```
/// use replab_harness::{experiment::{Experiment, ExperimentSet, Site}, experiments};
/// # use replab_harness::experiment::{Settings};
/// # use anyhow::Result;
/// # use replab_report::ReportDir;
/// # #[derive(Clone, Default)] struct Cfg;
/// # impl Settings for Cfg { fn quick() -> Self { Cfg } fn set_command(&mut self, _: String) {} }
/// /// A throwaway experiment: counts to three.
/// struct Count;
/// impl Experiment for Count {
///     const NAME: &'static str = "count";
///     const DIR: &'static str = "count";
///     const TITLE: &'static str = "Counting to three";
///     type Config = Cfg;
///     type Results = Vec<u32>;
///     fn run(_: &Cfg, _: &mut dyn replab_harness::Progress) -> Result<Vec<u32>> { Ok(vec![1, 2, 3]) }
///     fn write(r: &Vec<u32>, dir: &ReportDir) -> Result<()> {
///         replab_harness::experiment::write_json(r, dir)
///     }
/// }
/// experiments! {
///     /// A table of one experiment.
///     pub struct Table { count: Count }
/// }
/// assert_eq!(Table::steps(&Site::default()).unwrap(), ["count"]);
/// ```
#[macro_export]
macro_rules! experiments {
    (
        $(#[$doc:meta])*
        pub struct $set:ident {
            $( $(#[$fdoc:meta])* $field:ident : $exp:ty $(= takes($input:ident))? ),* $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
        pub struct $set {
            $(
                $(#[$fdoc])*
                pub $field: <$exp as $crate::experiment::Experiment>::Results,
            )*
        }

        impl $crate::experiment::ExperimentSet for $set {
            fn experiments() -> Vec<(&'static str, &'static str)> {
                vec![$((
                    <$exp as $crate::experiment::Experiment>::NAME,
                    <$exp as $crate::experiment::Experiment>::TITLE,
                ),)*]
            }

            fn steps(site: &$crate::experiment::Site) -> anyhow::Result<Vec<String>> {
                let mut steps = Vec::new();
                $(
                    steps.extend(<$exp as $crate::experiment::Experiment>::steps(
                        &<$exp as $crate::experiment::Experiment>::bench_config(site)?,
                    ));
                )*
                Ok(steps)
            }

            fn run(
                site: &$crate::experiment::Site,
                progress: &mut dyn $crate::Progress,
            ) -> anyhow::Result<Self> {
                // Every configuration first: a bad one fails before anything runs.
                let configs = ($(
                    <$exp as $crate::experiment::Experiment>::bench_config(site)?,
                )*);
                let mut steps = $crate::experiment::Steps::new(Self::steps(site)?);
                let ($($field,)*) = configs;
                // In table order, each line's results under its field's name, where a later
                // line's `takes(field)` finds them.
                $(
                    #[allow(unused_mut)]
                    let mut $field = $field;
                    $(
                        <$exp as $crate::experiment::Takes>::take(&mut $field, &$input);
                    )?
                    let $field = <$exp as $crate::experiment::Experiment>::run_steps(
                        &$field, progress, &mut steps,
                    )?;
                )*
                steps.finish(progress);
                Ok(Self { $($field,)* })
            }

            fn write(&self, out: &std::path::Path) -> anyhow::Result<()> {
                $( <$exp as $crate::experiment::Experiment>::write_site(&self.$field, out)?; )*
                Ok(())
            }

            fn pages(&self) -> Vec<$crate::experiment::Link> {
                let mut pages = Vec::new();
                $( pages.extend(<$exp as $crate::experiment::Experiment>::pages(&self.$field)); )*
                pages
            }

            fn headlines(&self) -> Vec<$crate::experiment::Headline> {
                let mut lines = Vec::new();
                $(
                    lines.extend(<$exp as $crate::experiment::Experiment>::headlines(&self.$field));
                )*
                lines
            }

            fn contributions(&self) -> Vec<$crate::contribution::Contribution> {
                let mut values = Vec::new();
                $(
                    values.extend(
                        <$exp as $crate::experiment::Experiment>::contributions(&self.$field),
                    );
                )*
                values
            }

            fn sections(&self) -> Vec<(String, String)> {
                let mut sections = Vec::new();
                $(
                    sections.extend(
                        <$exp as $crate::experiment::Experiment>::sections(&self.$field),
                    );
                )*
                sections
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_note_each_step_with_its_times() {
        struct Notes(Vec<String>);
        impl Progress for Notes {
            fn stage(&mut self, _: &str, _: u64) {}
            fn advance(&mut self, _: u64) {}
            fn note(&mut self, line: &str) {
                self.0.push(line.to_string());
            }
            fn finish(&mut self) {}
        }
        let mut notes = Notes(Vec::new());
        let mut steps = Steps::new(vec!["a".into(), "b".into()]);
        assert_eq!(steps.next(&mut notes), "a");
        assert_eq!(steps.next(&mut notes), "b");
        steps.finish(&mut notes);
        steps.finish(&mut notes);
        assert_eq!(notes.0.len(), 4, "{:?}", notes.0);
        assert_eq!(notes.0[0], "[1/2] a");
        assert!(notes.0[1].starts_with("      a: ") && notes.0[1].contains(" s wall"));
        assert_eq!(notes.0[2], "[2/2] b");
        if cfg!(target_os = "linux") {
            assert!(notes.0[3].contains(" s CPU"), "{:?}", notes.0);
            assert!(process_cpu_seconds().is_some_and(|s| s >= 0.0));
        }
    }
}
