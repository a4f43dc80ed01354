//! One module per subcommand: its clap arguments, turned into an experiment's configuration;
//! [`Output::report`] is the one path that runs an experiment and writes its report.

use std::{
    io::Write as _,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};
use clap::builder::RangedU64ValueParser;
use replab_harness::experiment::{Experiment, Settings};
use replab_report::ReportDir;

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

/// A list option parsed from one comma-separated value (an alias, so clap does not collect
/// repeated values instead).
pub type List<T> = Vec<T>;

/// An option whose value can turn its setting off (`None`): an alias, so clap does not take
/// `Option<Option<T>>` for an option with an optional value.
pub type Maybe<T> = Option<T>;

/// A count option (`usize`) accepting `low` to `high`.
pub fn count(low: u64, high: u64) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(low..=high)
}

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
    /// Report directory, replaced as a whole only when the run completes (default
    /// `reports/<the experiment's directory>`).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Hide the progress bars.
    #[arg(long)]
    quiet: bool,
}

impl Output {
    /// Runs experiment `E` with `config` and writes its report to `--out` (default
    /// `reports/E::DIR`): records the command line, checks the settings, stages the directory
    /// (an unwritable `--out` fails before the run), runs, writes, swaps the report in, then
    /// prints what the experiment concludes (a closed stdout pipe is not an error).
    pub fn report<E: Experiment>(&self, mut config: E::Config) -> Result<()> {
        let out = &self
            .out
            .clone()
            .unwrap_or(Path::new("reports").join(E::DIR));
        let typed = replab_harness::experiment::command_line(std::env::args().skip(1));
        config.set_command(E::command(&config, typed, out));
        config.check()?;
        let cannot = || format!("cannot write the report to --out {}", out.display());
        let dir = ReportDir::create(out).with_context(cannot)?;
        let results = E::run(&config, &mut Bars::new(self.quiet))?;
        E::write(&results, &dir)
            .and_then(|()| Ok(dir.commit()?))
            .with_context(cannot)?;
        let end = E::conclude(&results, &out.join("index.html"))?;
        eprint!("{}", end.stderr);
        if let Err(e) = std::io::stdout().lock().write_all(end.stdout.as_bytes())
            && e.kind() != std::io::ErrorKind::BrokenPipe
        {
            bail!("cannot write the table to stdout: {e}");
        }
        end.failure.map_or(Ok(()), |failure| Err(failure.into()))
    }
}
