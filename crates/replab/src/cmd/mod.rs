//! One module per subcommand: its clap arguments, turned into an experiment's configuration;
//! [`report`] is the one path that runs an experiment and writes its report.

pub mod audit;
pub mod bench;
pub mod conformance;
pub mod elo;
pub mod ghi;
pub mod key_width;
pub mod r#match;
pub mod measure;
pub mod merge;
pub mod perft;
pub mod policies;
pub mod reproduce;
pub mod scan;
pub mod smp;
pub mod study;
pub mod suite;
pub mod uci;

use std::{
    io::Write as _,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};
use clap::builder::RangedU64ValueParser;
use replab_lab::experiment::{Experiment, Settings};
use replab_report::ReportDir;

use crate::bars::Bars;

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
/// from the lab's quick or default settings, sets the options given and writes the report.
macro_rules! experiment_command {
    ($(#[$doc:meta])* $exp:ty { $( $(#[$meta:meta])* $field:ident: $ty:ty, )* }) => {
        $(#[$doc])*
        #[derive(clap::Args)]
        pub struct Args {
            $( $(#[$meta])* $field: $ty, )*
            #[command(flatten)]
            run: $crate::cmd::Run,
        }

        /// Runs the subcommand: the lab's settings, the options given, the report.
        pub fn run(args: Args) -> anyhow::Result<()> {
            let mut config: <$exp as replab_lab::experiment::Experiment>::Config = args.run.base();
            $crate::cmd::given!(config, args: $($field),*);
            args.run.output.report::<$exp>(config)
        }
    };
}
pub(crate) use experiment_command;

/// A list option parsed from one comma-separated value (an alias, so clap does not collect
/// repeated values instead).
pub type List<T> = Vec<T>;

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
    quick: bool,
    #[command(flatten)]
    pub output: Output,
}

impl Run {
    /// The settings to start from: the experiment's short run or its defaults.
    pub fn base<C: Settings>(&self) -> C {
        if self.quick { C::quick() } else { C::default() }
    }
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
    /// Runs experiment `E` with `config` and writes its report ([`report`]).
    pub fn report<E: Experiment>(&self, config: E::Config) -> Result<()> {
        report::<E>(config, self.out.clone(), self.quiet)
    }
}

/// Runs experiment `E` with `config` and writes its report to `out` (default
/// `reports/E::DIR`): records the command line, checks the settings, stages `out` (an
/// unwritable `--out` fails before the run), runs, writes, swaps the report in, then prints
/// what the experiment concludes (a closed stdout pipe is not an error).
pub fn report<E: Experiment>(
    mut config: E::Config,
    out: Option<PathBuf>,
    quiet: bool,
) -> Result<()> {
    let out = &out.unwrap_or_else(|| Path::new("reports").join(E::DIR));
    config.set_command(E::command(&config, command_line(), out));
    config.check()?;
    let cannot = || format!("cannot write the report to --out {}", out.display());
    let dir = ReportDir::create(out).with_context(cannot)?;
    let results = E::run(&config, &mut Bars::new(quiet))?;
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

/// The command line that invoked this process, as a shell would need it typed again.
pub fn command_line() -> String {
    replab_lab::experiment::command_line(std::env::args().skip(1))
}
