//! `replab policies`: engines' draw policies as presets, the scripted cases and the searches
//! (`replab_lab::policies`).

use std::path::PathBuf;

use replab_lab::policies::{self, Policies};

use super::{base, given, report};

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

/// Runs `replab policies`: the cases and the searches, the report, the summary table.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut config: policies::Config = base(args.quick);
    given!(config, args: repetition_depth, wac_depth, wac_records, repeats, threads);
    report::<Policies>(config, &args.out, args.quiet)
}
