//! The subcommands, one module each, listed once in [`all`]. A report subcommand is an
//! experiment whose `Config` is its options ([`Report`]): the library declares every setting on
//! its field, and [`report_command`] builds the subcommand from that declaration, `--quick`
//! where the experiment has a short run, and the harness's [`Output`] options; [`run_report`]
//! runs it through the one report path. The other subcommands ([`Plain`]) parse their own
//! arguments.

use anyhow::Result;
use clap::{Arg, ArgAction, ArgMatches, Args as _, Command, FromArgMatches};
use replab_harness::{
    Bars,
    experiment::{Configuration, Experiment, Output, run_and_report},
};
use replab_settings::{Settings as _, help_text};
use serde::Serialize;
use serde_json::Value;

pub mod audit;
pub mod bench;
pub mod carry;
pub mod conformance;
pub mod elo;
pub mod ghi;
pub mod key_width;
pub mod r#match;
pub mod measure;
pub mod merge;
pub mod perft;
pub mod policies;
pub mod record_move_changes;
pub mod reproduce;
pub mod scan;
pub mod smp;
pub mod study;
pub mod suite;
pub mod uci;

/// One subcommand: how clap declares it and how it runs.
pub struct Subcommand {
    /// Its name (`smp`).
    pub name: &'static str,
    /// Its clap declaration.
    pub command: fn() -> Command,
    /// Runs it with the arguments clap matched.
    pub run: fn(&ArgMatches) -> Result<()>,
}

/// Every subcommand, in the order `--help` lists them.
pub fn all() -> Vec<Subcommand> {
    vec![
        plain::<perft::Args>(),
        plain::<scan::Args>(),
        report::<suite::Suite>(),
        report::<audit::Audit>(),
        reproduce::subcommand(),
        report::<study::Study>(),
        report::<key_width::KeyWidth>(),
        report::<smp::Smp>(),
        report::<policies::Policies>(),
        report::<ghi::Ghi>(),
        plain::<replab_site::bench::Options>(),
        report::<conformance::Conformance>(),
        report::<elo::Elo>(),
        report::<r#match::Match>(),
        plain::<merge::Args>(),
        plain::<carry::Args>(),
        plain::<uci::Args>(),
        plain::<measure::Args>(),
        plain::<record_move_changes::Args>(),
    ]
}

/// A subcommand that parses its own arguments (`perft`, `scan`, `bench`, `uci`, …).
pub trait Plain: clap::Args + FromArgMatches {
    /// Its name.
    const NAME: &'static str;
    /// Hidden from `--help` (a tool of replab's own).
    const HIDDEN: bool = false;
    /// Its one line of help, where its options' type documents something else (a library's).
    const ABOUT: Option<&'static str> = None;
    /// What `--help` says after the options, if anything.
    const AFTER_HELP: Option<fn() -> String> = None;
    /// Its declaration as `--help` shows it (by default as clap declares it; a library's
    /// settings add their ranges with [`with_ranges`]).
    fn described(command: Command) -> Command {
        command
    }
    /// Runs it.
    fn run(self) -> Result<()>;
}

/// The [`Subcommand`] of `A`.
fn plain<A: Plain>() -> Subcommand {
    Subcommand {
        name: A::NAME,
        command: || {
            let command = A::described(A::augment_args(Command::new(A::NAME)).hide(A::HIDDEN));
            let command = match A::ABOUT {
                Some(about) => command.about(about).long_about(None),
                None => command,
            };
            match A::AFTER_HELP {
                Some(text) => command.after_help(text()),
                None => command,
            }
        },
        run: |matches| A::from_arg_matches(matches)?.run(),
    }
}

/// A report subcommand: an experiment, its one line of help, and what only the command line
/// knows.
pub trait Report {
    /// The experiment it runs; its `Config` is the subcommand's options.
    type Experiment: Experiment<Config: Serialize>;
    /// The command line's own options (`NoOptions` for none).
    type Own: clap::Args + FromArgMatches;
    /// One line of help.
    const ABOUT: &'static str;
    /// Whether it takes `--quick`, the experiment's short run.
    const QUICK: bool;
    /// Completes the settings with what only the command line knows (the replab binary, its own
    /// options); `false` when it has done the work itself and no report is written.
    fn complete(_config: &mut Settings<Self>, _own: Self::Own) -> Result<bool> {
        Ok(true)
    }
}

/// The settings of report `R`'s experiment.
pub type Settings<R> = <<R as Report>::Experiment as Experiment>::Config;

/// No options of the command line's own.
#[derive(clap::Args)]
pub struct NoOptions {}

/// The [`Subcommand`] of report `R`.
pub fn report<R: Report>() -> Subcommand {
    Subcommand {
        name: subcommand_name::<R::Experiment>(),
        command: report_command::<R>,
        run: run_report::<R>,
    }
}

/// The subcommand's own name: the last word of the experiment's (`reproduce axon` → `axon`).
fn subcommand_name<E: Experiment>() -> &'static str {
    E::NAME.rsplit(' ').next().unwrap_or(E::NAME)
}

/// Report `R` as clap declares it: the experiment's settings, the command line's own options,
/// `--quick` where it has one, `--out` and `--quiet`; each option's help with its declared range
/// and its default.
pub fn report_command<R: Report>() -> Command {
    let command = Command::new(subcommand_name::<R::Experiment>());
    let command = R::Own::augment_args(Settings::<R>::augment_args(command));
    let command = if R::QUICK {
        command.arg(
            Arg::new("quick")
                .long("quick")
                .action(ArgAction::SetTrue)
                .help("The short run of `bench --quick` (the experiment's `quick()` settings); the options above override it"),
        )
    } else {
        command
    };
    let defaults = serde_json::to_value(Settings::<R>::default()).unwrap_or(Value::Null);
    Output::augment_args(command)
        .about(R::ABOUT)
        .long_about(None)
        .mut_args(|arg| {
            let required = Settings::<R>::required(arg.get_id().as_str());
            described::<R::Experiment>(arg.required(required), &defaults)
        })
}

/// Runs report `R`: its quick or default settings, the options given, the command line's own,
/// then the report ([`run_and_report`]) with the command line as typed.
pub fn run_report<R: Report>(matches: &ArgMatches) -> Result<()> {
    let quick = R::QUICK && matches.get_flag("quick");
    let mut config = if quick {
        Settings::<R>::quick()
    } else {
        Settings::<R>::default()
    };
    config.update_from_arg_matches(matches)?;
    let output = Output::from_arg_matches(matches)?;
    if !R::complete(&mut config, R::Own::from_arg_matches(matches)?)? {
        return Ok(());
    }
    let typed = command_line(std::env::args().skip(1));
    run_and_report::<R::Experiment>(config, typed, output.out, &mut Bars::new(output.quiet))
}

/// `command` with the declared range of each of settings `C` in its option's help.
pub fn with_ranges<C: replab_settings::Settings>(command: Command) -> Command {
    command.mut_args(|arg| {
        let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
        match C::range_text(arg.get_id().as_str()) {
            Some(range) => arg.help(help_text(&help, Some(&range))),
            None => arg,
        }
    })
}

/// `arg` with its help as `--help` shows it: the declared range of experiment `E`'s setting and
/// the default (the field's value in `defaults`, or its declared shown default; a thread count as
/// [`default_threads_text`](replab_workloads::engine::default_threads_text), the same on every
/// machine; `--out` as `reports/DIR`).
fn described<E: Experiment>(arg: Arg, defaults: &Value) -> Arg {
    use replab_workloads::engine::{default_threads, default_threads_text};
    let field = arg.get_id().to_string();
    let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
    let help = help_text(&help, E::Config::range_text(&field).as_deref());
    let shown = E::Config::shown_default(&field).or_else(|| value_text(&defaults[&field]));
    let text = match (field.as_str(), shown) {
        ("out", _) => format!("reports/{}", E::DIR),
        ("threads" | "workers", Some(n)) if n == default_threads().to_string() => {
            default_threads_text()
        }
        (_, Some(text)) => text,
        (_, None) => return arg.help(help).long_help(None),
    };
    arg.help(format!("{help} [default: {text}]"))
        .long_help(None)
}

/// A default as its option takes it: a number, a string, a list comma-separated; `None` for
/// none (null, false, an empty value, a structure).
fn value_text(value: &Value) -> Option<String> {
    let text = match value {
        Value::Number(n) => match n.as_u64() {
            Some(whole) => whole.to_string(),
            None => n.as_f64()?.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(value_text)
            .collect::<Option<Vec<_>>>()?
            .join(","),
        _ => return None,
    };
    Some(text).filter(|t| !t.is_empty())
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
/// `replab`, every argument a [`shell_word`]. The one source of the command every report
/// records.
pub fn command_line(args: impl IntoIterator<Item = String>) -> String {
    let words: Vec<String> = args.into_iter().map(|a| shell_word(&a)).collect();
    format!("replab {}", words.join(" ")).trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings report `R` runs with for `args` (its name first), as JSON.
    fn parsed<R: Report>(args: &[&str]) -> Value {
        let matches = report_command::<R>().get_matches_from(args);
        let quick = R::QUICK && matches.get_flag("quick");
        let mut config = if quick {
            Settings::<R>::quick()
        } else {
            Settings::<R>::default()
        };
        config.update_from_arg_matches(&matches).unwrap();
        serde_json::to_value(config).unwrap()
    }

    /// No option given leaves the default (and `--quick` the quick) settings as they are: a
    /// flag left off, or a default clap would fill in, must not overwrite a setting.
    fn untouched<R: Report>() {
        let name = subcommand_name::<R::Experiment>();
        let default = serde_json::to_value(Settings::<R>::default()).unwrap();
        assert_eq!(parsed::<R>(&[name]), default, "{name}");
        if R::QUICK {
            let quick = serde_json::to_value(Settings::<R>::quick()).unwrap();
            assert_eq!(parsed::<R>(&[name, "--quick"]), quick, "{name} --quick");
        }
    }

    #[test]
    fn no_option_given_changes_no_setting() {
        untouched::<suite::Suite>();
        untouched::<audit::Audit>();
        untouched::<reproduce::Axon>();
        untouched::<study::Study>();
        untouched::<key_width::KeyWidth>();
        untouched::<smp::Smp>();
        untouched::<policies::Policies>();
        untouched::<ghi::Ghi>();
        untouched::<conformance::Conformance>();
        untouched::<elo::Elo>();
        untouched::<r#match::Match>();
    }

    #[test]
    fn an_option_given_sets_its_field_and_the_help_shows_range_and_default() {
        let smp = parsed::<smp::Smp>(&["smp", "--quick", "--depth", "3", "--threads", "2,4"]);
        assert_eq!(smp["depth"], 3);
        assert_eq!(smp["threads"], serde_json::json!([2, 4]));
        let quick = serde_json::to_value(Settings::<smp::Smp>::quick()).unwrap();
        assert_eq!(smp["wac_records"], quick["wac_records"]);
        let help = report_command::<smp::Smp>().render_long_help().to_string();
        assert!(
            help.contains("The main thread's depth in deterministic mode (1 to 12). [default: 5]"),
            "{help}"
        );
        assert!(help.contains("(each 1 to 64; 1 is always added"), "{help}");
        assert!(help.contains("[default: reports/smp]"), "{help}");
    }

    #[test]
    fn a_default_reads_as_its_option_takes_it() {
        use serde_json::json;
        assert_eq!(value_text(&json!(5)).as_deref(), Some("5"));
        assert_eq!(value_text(&json!(0.5)).as_deref(), Some("0.5"));
        assert_eq!(value_text(&json!(0.0)).as_deref(), Some("0"));
        assert_eq!(value_text(&json!([1, 2, 4])).as_deref(), Some("1,2,4"));
        assert_eq!(value_text(&json!("")), None);
        assert_eq!(value_text(&json!(null)), None);
        assert_eq!(value_text(&json!(false)), None);
        assert_eq!(value_text(&json!({"a": 1})), None);
    }

    #[test]
    fn the_command_line_quotes_what_a_shell_would_split() {
        let line = command_line(["smp", "--out", "my dir", "--seed", "it's"].map(String::from));
        assert_eq!(line, "replab smp --out 'my dir' --seed 'it'\\''s'");
    }
}
