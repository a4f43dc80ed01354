//! Running an experiment into its report directory: staged, filled, swapped in.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use replab_report::ReportDir;
use serde::Serialize;

use super::{Configuration, Experiment, Output};
use crate::Progress;

/// Runs experiment `E` as its subcommand does and writes its report to `out` (default
/// [`default_out`]): records the command line `typed`, checks the settings, stages the
/// directory (an unwritable `out` fails before the run), runs, writes, swaps the report in,
/// then prints what the experiment concludes
/// ([`Conclusion::print`](super::Conclusion::print)).
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
    config.set_command(typed);
    config.check()?;
    let cannot = || {
        format!(
            "cannot write the report to {} {}",
            Output::OUT,
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
                out_setting = Output::OUT
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
