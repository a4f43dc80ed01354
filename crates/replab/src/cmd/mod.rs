//! One module per subcommand: its clap arguments and how they become an experiment's
//! configuration; [`report`] is the one path that runs an experiment and writes its report.

pub mod audit;
pub mod bench;
pub mod conformance;
pub mod ghi;
pub mod key_width;
pub mod measure;
pub mod perft;
pub mod policies;
pub mod reproduce;
pub mod scan;
pub mod smp;
pub mod study;
pub mod suite;
pub mod uci;

use std::{io::Write as _, path::Path};

use anyhow::{Context, Result, bail};
use clap::builder::RangedU64ValueParser;
use replab_lab::experiment::{Experiment, Settings};
use replab_report::ReportDir;

use crate::bars::Bars;

/// Sets every `config.field` whose option `args.field` was given (`Option`s over the lab's
/// defaults, which live only in the lab).
macro_rules! given {
    ($config:ident, $args:ident: $($field:ident),+ $(,)?) => {
        $( if let Some(value) = $args.$field { $config.$field = value; } )+
    };
}
pub(crate) use given;

/// A list option parsed from one comma-separated value (an alias, so clap does not collect
/// repeated values instead).
pub type List<T> = Vec<T>;

/// The settings a subcommand starts from: the experiment's `--quick` run or its defaults.
pub fn base<C: Settings>(quick: bool) -> C {
    if quick { C::quick() } else { C::default() }
}

/// A count option (`usize`) accepting `low` to `high`.
pub fn count(low: u64, high: u64) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(low..=high)
}

/// Runs experiment `E` with `config` and writes its report to `out`: records the command line,
/// checks the settings, stages `out` (an unwritable `--out` fails before the run), runs,
/// writes, swaps the report in, then prints what the experiment concludes.
pub fn report<E: Experiment>(mut config: E::Config, out: &Path, quiet: bool) -> Result<()> {
    let command = E::command(&config, command_line(), out);
    config.set_command(command);
    config.check()?;
    let dir = ReportDir::create(out)
        .with_context(|| format!("cannot write the report to --out {}", out.display()))?;
    let results = E::run(&config, &mut Bars::new(quiet))?;
    E::write(&results, &dir)
        .and_then(|()| Ok(dir.commit()?))
        .with_context(|| format!("cannot write the report to --out {}", out.display()))?;
    let end = E::conclude(&results, &out.join("index.html"))?;
    eprint!("{}", end.stderr);
    match std::io::stdout().lock().write_all(end.stdout.as_bytes()) {
        // A closed pipe (`| head`) is not an error: the report is written.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            return Err(e).context("cannot write the table to stdout");
        }
        _ => {}
    }
    match end.failure {
        Some(why) => bail!(why),
        None => Ok(()),
    }
}

/// The command line that invoked this process, as a shell would need it typed again: the
/// program shown as `replab`, arguments with spaces or quotes single-quoted.
pub fn command_line() -> String {
    let mut parts = vec!["replab".to_string()];
    for arg in std::env::args().skip(1) {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_=.,/:+@%".contains(c));
        parts.push(if plain {
            arg
        } else {
            format!("'{}'", arg.replace('\'', r"'\''"))
        });
    }
    parts.join(" ")
}
