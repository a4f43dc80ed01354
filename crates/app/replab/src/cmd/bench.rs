//! `replab bench [--quick] [--out DIR]`: the main job (`just bench`).

use std::{path::PathBuf, time::Instant};

use replab_harness::Bars;

use super::command_line;
use replab_site::bench;

/// The main job: every experiment into reports/ and reports/index.html.
#[derive(clap::Args)]
#[command(after_help = bench::help())]
pub struct Args {
    /// The short run (under 2 minutes on 2 cores): shallower searches, fewer games and records.
    #[arg(long)]
    pub quick: bool,
    /// Root directory of the report site.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Hide the progress bars.
    #[arg(long)]
    pub quiet: bool,
}

impl super::Plain for Args {
    const NAME: &'static str = "bench";

    /// Runs every experiment, then writes every report and `OUT/index.html`.
    fn run(self) -> anyhow::Result<()> {
        let args = self;
        let started = Instant::now();
        // Refuse a root replab may not write into before the long run (bench::write checks again).
        bench::check_out(&args.out, &[])?;
        let config = bench::Config {
            quick: args.quick,
            command: command_line(std::env::args().skip(1)),
            exe: Some(std::env::current_exe()?),
            ..bench::Config::default()
        };
        for note in bench::notes() {
            eprintln!("replab bench: note: {note}");
        }
        let results = bench::run(&config, &mut Bars::logged(args.quiet))?;
        bench::write(&results, &args.out)?;
        let (index, seconds) = (args.out.join("index.html"), started.elapsed().as_secs_f64());
        println!("wrote {} in {seconds:.0} s", index.display());
        Ok(())
    }
}
