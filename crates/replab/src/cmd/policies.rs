//! `replab policies`: engines' draw policies as presets, the scripted cases and the searches
//! (`replab_lab::policies`).

use std::path::PathBuf;

use anyhow::Context;
use replab_lab::policies;
use replab_report::ReportDir;

use crate::bars::Bars;

/// Arguments of `replab policies`.
#[derive(clap::Args)]
pub struct Args {
    /// The short run of `bench --quick` (repetition suite at depth 5, 40 WAC records at depth
    /// 4, 2 timed runs); the options below override it.
    #[arg(long)]
    quick: bool,
    /// Search depth on datasets/repetition.epd (1 to 12).
    #[arg(long, value_name = "N")]
    repetition_depth: Option<u32>,
    /// Search depth on WAC (1 to 12).
    #[arg(long, value_name = "N")]
    wac_depth: Option<u32>,
    /// WAC records searched: the first N of datasets/wac.epd (0 to 300).
    #[arg(long, value_name = "N")]
    wac_records: Option<usize>,
    /// Interleaved timed runs of every search (1 to 20); times are their medians.
    #[arg(long, value_name = "K")]
    repeats: Option<usize>,
    /// Worker threads (1 to 256); the counts do not depend on it.
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Report directory; replaced as a whole only when the run completes.
    #[arg(long, value_name = "DIR", default_value = "reports/policies")]
    out: PathBuf,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `replab policies`: checks the options, searches, writes the report, prints the table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let base = if args.quick {
        policies::Config::quick()
    } else {
        policies::Config::default()
    };
    let config = policies::Config {
        repetition_depth: args.repetition_depth.unwrap_or(base.repetition_depth),
        wac_depth: args.wac_depth.unwrap_or(base.wac_depth),
        wac_records: args.wac_records.unwrap_or(base.wac_records),
        repeats: args.repeats.unwrap_or(base.repeats),
        threads: args.threads.unwrap_or(base.threads),
        command: replab_lab::util::command_line(),
    };
    config.check()?;
    let dir = ReportDir::create(&args.out)
        .with_context(|| format!("cannot write the report to --out {}", args.out.display()))?;
    let results = policies::run(&config, &mut Bars::new(args.quiet))?;
    policies::write(&results, &dir)?;
    let target = dir.commit().context("replacing the report directory")?;
    print!("{}", policies::summary_table(&results));
    eprintln!("wrote {}", target.join("index.html").display());
    Ok(())
}
