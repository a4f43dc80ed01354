//! One module per subcommand: its clap arguments, turned into an experiment's configuration;
//! [`Output::report`] is the one path that runs an experiment and writes its report.

use std::{io::Write as _, path::PathBuf};

use anyhow::{Result, bail};
use replab_harness::experiment::Experiment;

use replab_harness::Bars;

/// Declares the subcommands, one module each: a variant's arguments are `<module>::Args`
/// (whose doc comment is the subcommand's help), and `<module>::run` runs it.
macro_rules! subcommands {
    ($( $(#[$meta:meta])* $variant:ident($module:ident), )*) => {
        $( pub mod $module; )*

        /// The subcommands.
        #[derive(clap::Subcommand)]
        pub enum Command {
            $( $(#[$meta])* $variant($module::Args), )*
        }

        impl Command {
            /// Runs the subcommand.
            pub fn run(self) -> anyhow::Result<()> {
                match self {
                    $( Command::$variant(args) => $module::run(args), )*
                }
            }
        }
    };
}

subcommands! {
    Perft(perft),
    Scan(scan),
    Suite(suite),
    Audit(audit),
    Reproduce(reproduce),
    Study(study),
    KeyWidth(key_width),
    Smp(smp),
    Policies(policies),
    Ghi(ghi),
    Bench(bench),
    Conformance(conformance),
    Elo(elo),
    Match(r#match),
    Merge(merge),
    Uci(uci),
    #[command(hide = true)]
    Measure(measure),
}

/// Sets every `config.field` whose option `args.field` was given: options are `Option`s over
/// the lab's defaults, which live only in the lab.
macro_rules! given {
    ($config:ident, $args:ident: $($field:ident),+ $(,)?) => {
        $( if let Some(value) = $args.$field { $config.$field = value; } )+
    };
}
pub(crate) use given;

/// Declares the subcommand of an experiment with a short run: `Args` (its options, each an
/// `Option` named after the `Config` field it overrides, then [`Run`]) and `run`, which starts
/// from the lab's quick or default settings, sets the options given, runs the optional
/// `|config| { … }` block (what the command line alone knows, such as the replab binary) and
/// writes the report.
macro_rules! experiment_command {
    (
        $(#[$doc:meta])* $exp:ty { $( $(#[$meta:meta])* $field:ident: $ty:ty, )* }
        $( |$config:ident| $setup:block )?
    ) => {
        $(#[$doc])*
        #[derive(clap::Args)]
        pub struct Args {
            $( $(#[$meta])* $field: $ty, )*
            #[command(flatten)]
            run: $crate::cmd::Run,
        }

        /// `--help` with the defaults: `Config::default()`'s value of every option (which
        /// stays an `Option`, so `--quick` still applies) and the report directory.
        pub fn defaults(cmd: clap::Command) -> clap::Command {
            use replab_harness::experiment::Experiment;
            let config = <<$exp as Experiment>::Config as Default>::default();
            let declared =
                <<$exp as Experiment>::Config as replab_harness::experiment::Settings>::DECLARED;
            cmd $( .mut_arg(stringify!($field), |a| {
                let a = $crate::cmd::declared_help(a, declared, stringify!($field));
                $crate::cmd::show_field(a, stringify!($field), &config.$field)
            }) )*
                .mut_arg("out", $crate::cmd::show_out::<$exp>)
        }

        /// Runs the subcommand: the lab's settings, the options given, the report.
        pub fn run(args: Args) -> anyhow::Result<()> {
            use replab_harness::experiment::{Experiment, Settings};
            let mut config: <$exp as Experiment>::Config =
                if args.run.quick { Settings::quick() } else { Default::default() };
            $crate::cmd::given!(config, args: $($field),*);
            $( let $config = &mut config; $setup )?
            args.run.output.report::<$exp>(config)
        }
    };
}
pub(crate) use experiment_command;

/// `--help` with every subcommand's defaults shown as `[default: X]`, each taken from the
/// code that applies it (the experiments' `Config::default()`, the report directories), so
/// `docs/contracts.md` can be checked against one form.
pub fn show_defaults(cli: clap::Command) -> clap::Command {
    cli.mut_subcommand("suite", suite::defaults)
        .mut_subcommand("audit", |c| {
            audit::defaults(c).mut_arg("detectors", |a| show(a, ALL))
        })
        .mut_subcommand("reproduce", reproduce::defaults)
        .mut_subcommand("study", study::defaults)
        .mut_subcommand("key-width", key_width::defaults)
        .mut_subcommand("smp", smp::defaults)
        .mut_subcommand("policies", policies::defaults)
        .mut_subcommand("ghi", ghi::defaults)
        .mut_subcommand("conformance", conformance::defaults)
        .mut_subcommand("elo", elo::defaults)
        .mut_subcommand("match", r#match::defaults)
}

/// The keyword of every detector a subcommand takes, the default of its `--detectors`.
pub const ALL: &str = "all";

/// `arg` with the help of its declaration in `declared` (the range included), if it has one.
pub fn declared_help(
    arg: clap::Arg,
    declared: &[replab_settings::Declared],
    field: &str,
) -> clap::Arg {
    match replab_settings::find(declared, field) {
        Some(d) => arg.help(d.help_text()),
        None => arg,
    }
}

/// `arg` with `[default: text]` after its help, the form clap gives a `default_value`.
pub fn show(arg: clap::Arg, text: &str) -> clap::Arg {
    let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
    arg.help(format!("{help} [default: {text}]"))
}

/// `arg` with the default `value` of its `Config` field `field` (a thread count as
/// [`default_threads_text`](replab_workloads::engine::default_threads_text), the same on every
/// machine); unchanged for a value without a shown form.
pub fn show_field(arg: clap::Arg, field: &str, value: &dyn Shown) -> clap::Arg {
    use replab_workloads::engine;
    let threads = matches!(field, "threads" | "workers") && value.is_default_threads();
    match value.shown() {
        _ if threads => show(arg, &engine::default_threads_text()),
        Some(text) => show(arg, &text),
        None => arg,
    }
}

/// `--out` with its default, `reports/` and the experiment's directory.
pub fn show_out<E: Experiment>(arg: clap::Arg) -> clap::Arg {
    show(arg, &format!("reports/{}", E::DIR))
}

/// A setting's default as `--help` shows it.
pub trait Shown {
    /// The text, or `None` for a value `--help` describes in words.
    fn shown(&self) -> Option<String>;

    /// Whether this is the thread count an experiment takes unless told otherwise.
    fn is_default_threads(&self) -> bool {
        false
    }
}

/// [`Shown`] as [`Display`](std::fmt::Display) gives it.
macro_rules! shown_by_display {
    ($($ty:ty),*) => {$(
        impl Shown for $ty {
            fn shown(&self) -> Option<String> {
                Some(self.to_string())
            }
        }
    )*};
}
shown_by_display!(
    u32,
    u64,
    f64,
    String,
    replab_detect::DrawPolicy,
    replab_selfplay::Adjudication
);

impl Shown for (f64, f64) {
    /// `ELO0,ELO1`, as the bounds options read it.
    fn shown(&self) -> Option<String> {
        Some(format!("{},{}", self.0, self.1))
    }
}

impl Shown for usize {
    fn shown(&self) -> Option<String> {
        Some(self.to_string())
    }

    fn is_default_threads(&self) -> bool {
        *self == replab_workloads::engine::default_threads()
    }
}

impl<T: Shown> Shown for Option<T> {
    fn shown(&self) -> Option<String> {
        self.as_ref().and_then(Shown::shown)
    }
}

/// A list of numbers, comma-separated as the option takes it.
macro_rules! shown_list {
    ($($ty:ty),*) => {$(
        impl Shown for Vec<$ty> {
            fn shown(&self) -> Option<String> {
                let items: Vec<String> = self.iter().map(ToString::to_string).collect();
                Some(items.join(","))
            }
        }
    )*};
}
shown_list!(u32, u64, usize);

/// A list of detector names: shown by its keyword ([`ALL`]), not name by name.
impl Shown for Vec<String> {
    fn shown(&self) -> Option<String> {
        None
    }
}

/// A list option parsed from one comma-separated value (an alias, so clap does not collect
/// repeated values instead).
pub type List<T> = Vec<T>;

/// An option whose value can turn its setting off (`None`): an alias, so clap does not take
/// `Option<Option<T>>` for an option with an optional value.
pub type Maybe<T> = Option<T>;

/// The last options of every report subcommand with a short run.
#[derive(clap::Args)]
pub struct Run {
    /// The short run of `bench --quick` (the experiment's `quick()` settings); the options
    /// above override it.
    #[arg(long)]
    pub quick: bool,
    #[command(flatten)]
    pub output: Output,
}

/// The last options of every report subcommand: where the report goes, whether to draw.
#[derive(clap::Args)]
pub struct Output {
    /// Report directory, replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Hide the progress bars.
    #[arg(long)]
    quiet: bool,
}

impl Output {
    /// Runs experiment `E` with `config` and writes its report to `--out` (default
    /// [`default_out`](replab_harness::experiment::default_out)) through
    /// [`run_and_report`](replab_harness::experiment::run_and_report), then prints what the
    /// experiment concludes (a closed stdout pipe is not an error).
    pub fn report<E: Experiment>(&self, config: E::Config) -> Result<()> {
        use replab_harness::experiment::{command_line, default_out, run_and_report};
        let out = match &self.out {
            Some(out) => out.clone(),
            None => default_out::<E>()?,
        };
        let typed = command_line(std::env::args().skip(1));
        let end = run_and_report::<E>(config, typed, &out, &mut Bars::new(self.quiet))?;
        eprint!("{}", end.stderr);
        if let Err(e) = std::io::stdout().lock().write_all(end.stdout.as_bytes())
            && e.kind() != std::io::ErrorKind::BrokenPipe
        {
            bail!("cannot write the table to stdout: {e}");
        }
        end.failure.map_or(Ok(()), |failure| Err(failure.into()))
    }
}
