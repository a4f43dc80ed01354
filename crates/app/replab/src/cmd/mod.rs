//! One module per subcommand: its clap arguments, turned into an experiment's configuration;
//! [`Output::report`] is the one path that runs an experiment and writes its report.

use std::path::PathBuf;

use replab_detect::DrawPolicy;
use replab_harness::{
    Bars,
    experiment::{Experiment, Settings as _},
};
use replab_selfplay::Adjudication;

/// Declares the subcommand of experiment `E`: `Args` and `run`.
///
/// `E { fields }` (`E` a path; `E with quick` for `--quick`, `E in part` for the settings of
/// `config.part`), then optionally `defaults { field: value, … }` and a `|config| { … }` block.
/// Every field is an option `--name`. A field `name: Option<Type> ["VALUE", clap attributes…]`
/// is a setting: the `Config` field of its name, set when given. Any other is the command
/// line's own, bound by its name in the block (what the command line alone knows, such as the
/// replab binary). `run` starts from the lab's settings (its `quick()` ones with `--quick`), sets
/// the settings given, runs the block and writes the report ([`Output`]). `--help` shows each
/// option's declared help ([`DECLARED`](replab_harness::experiment::Settings::DECLARED)) and its
/// default: a setting's from `Config::default()`, another's from `defaults`.
macro_rules! experiment_command {
    (
        $(#[$doc:meta])* $($exp:ident)::+ $(with $quick:ident)? $(in $part:ident)? {
            $( $(#[$meta:meta])* $field:ident: $ty:ty $([$($arg:tt)*])?, )*
        }
        $( defaults { $($shown:ident: $value:expr),* $(,)? } )?
        $( |$config:ident| $setup:block )?
    ) => {
        $(#[$doc])*
        #[derive(clap::Args)]
        #[command(mut_args = |arg| $crate::cmd::show_default::<$($exp)::+>(arg, shown))]
        pub struct Args {
            $( #[arg(long $(, value_name = $($arg)*)?)] $(#[$meta])* $field: $ty, )*
            $(
                /// The short run of `bench --quick` (the experiment's `quick()` settings); the
                /// options above override it.
                #[arg(long)]
                $quick: bool,
            )?
            #[command(flatten)]
            output: $crate::cmd::Output,
        }

        /// The default `--help` shows for the option of `field`, if any (`defaults` first).
        #[allow(unreachable_patterns)]
        fn shown(field: &str) -> Option<String> {
            use $crate::cmd::Shown as _;
            let config = <$($exp)::+ as replab_harness::experiment::Experiment>::Config::default();
            let settings = &config $(.$part)?;
            match field {
                $($( stringify!($shown) => Some($value.to_string()), )*)?
                $(
                    stringify!($field) =>
                        experiment_command!(@shown settings.$field, $([$($arg)*])?),
                )*
                _ => None,
            }
        }

        /// Runs the subcommand: the lab's settings, the options given, the report.
        #[allow(clippy::useless_conversion)]
        pub fn run(args: Args) -> anyhow::Result<()> {
            use replab_harness::experiment::{Experiment, Settings};
            let Args { $($field,)* $($quick,)? output } = args;
            let quick = false $(|| $quick)?;
            let mut config: <$($exp)::+ as Experiment>::Config =
                if quick { Settings::quick() } else { Default::default() };
            let settings = &mut config $(.$part)?;
            $( experiment_command!(@given settings.$field, $field $([$($arg)*])?); )*
            $( let $config = &mut config; $setup )?
            output.report::<$($exp)::+>(config)
        }
    };
    // A setting's default, and the setting given.
    (@shown $setting:expr, [$($arg:tt)*]) => { $setting.shown() };
    (@given $setting:expr, $value:ident [$($arg:tt)*]) => {
        if let Some(value) = $value {
            $setting = value.into();
        }
    };
    // An option of the command line's own: no default of a setting, set by the block.
    (@shown $setting:expr,) => { None };
    (@given $setting:expr, $value:ident) => {};
}

/// Declares the subcommands, one module each: a variant's arguments are `<module>::Args`
/// (whose doc comment is the subcommand's help; an enum of subcommands with
/// `#[command(subcommand)]`), and `<module>::run` runs it.
macro_rules! subcommands {
    ($( $(#[$meta:meta])* $variant:ident($module:ident), )*) => {
        $( pub mod $module; )*

        /// Compare how chess programs detect repeated positions.
        #[derive(clap::Parser)]
        #[command(name = "replab")]
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
    #[command(subcommand)]
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

/// The keyword of every detector a subcommand takes, the default of its `--detectors`.
pub const ALL: &str = "all";

/// `arg` as the `--help` of experiment `E`'s subcommand shows it: with the help of its
/// declaration among `E`'s settings (the range included), if it has one, and the default
/// `shown` gives it (a thread count as
/// [`default_threads_text`](replab_workloads::engine::default_threads_text), the same on every
/// machine; `--out` as `reports/DIR`).
pub fn show_default<E: Experiment>(arg: clap::Arg, shown: fn(&str) -> Option<String>) -> clap::Arg {
    use replab_workloads::engine::{default_threads, default_threads_text};
    let field = arg.get_id().to_string();
    let help = match replab_settings::find(E::Config::DECLARED, &field) {
        Some(declared) => declared.help_text(),
        None => arg.get_help().map(ToString::to_string).unwrap_or_default(),
    };
    let text = match (field.as_str(), shown(&field)) {
        ("out", _) => format!("reports/{}", E::DIR),
        ("threads" | "workers", Some(n)) if n == default_threads().to_string() => {
            default_threads_text()
        }
        (_, Some(text)) => text,
        (_, None) => return arg.help(help),
    };
    arg.help(format!("{help} [default: {text}]"))
}

/// A setting's default as `--help` shows it: `None` for none (an empty value included).
pub trait Shown {
    /// The text, as the option takes it.
    fn shown(&self) -> Option<String>;
}

/// [`Shown`] as [`Display`](std::fmt::Display) gives it.
macro_rules! shown_by_display {
    ($($ty:ty),*) => {$(
        impl Shown for $ty {
            fn shown(&self) -> Option<String> {
                Some(self.to_string()).filter(|text| !text.is_empty())
            }
        }
    )*};
}
shown_by_display!(u32, u64, usize, f64, String, DrawPolicy, Adjudication);

impl Shown for PathBuf {
    fn shown(&self) -> Option<String> {
        self.display().to_string().shown()
    }
}

impl<T: Shown> Shown for Option<T> {
    fn shown(&self) -> Option<String> {
        self.as_ref().and_then(Shown::shown)
    }
}

/// A list, comma-separated as the option takes it.
impl<T: Shown> Shown for Vec<T> {
    fn shown(&self) -> Option<String> {
        let items: Option<Vec<String>> = self.iter().map(Shown::shown).collect();
        items?.join(",").shown()
    }
}

/// A pair, `A,B` as the option takes it (`ELO0,ELO1`).
impl<A: Shown, B: Shown> Shown for (A, B) {
    fn shown(&self) -> Option<String> {
        Some(format!("{},{}", self.0.shown()?, self.1.shown()?))
    }
}

/// A list option parsed from one comma-separated value (an alias, so clap does not collect
/// repeated values instead).
pub type List<T> = Vec<T>;

/// An option whose value can turn its setting off (`None`): an alias, so clap does not take
/// `Option<Option<T>>` for an option with an optional value.
pub type Maybe<T> = Option<T>;

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
    /// Runs experiment `E` with `config`, its report to `--out`
    /// ([`run_and_report`](replab_harness::experiment::run_and_report)).
    pub fn report<E: Experiment>(&self, config: E::Config) -> anyhow::Result<()> {
        use replab_harness::experiment::{command_line, run_and_report};
        let typed = command_line(std::env::args().skip(1));
        run_and_report::<E>(config, typed, self.out.clone(), &mut Bars::new(self.quiet))
    }
}
