//! `replab bench [--quick] [--out DIR]`: the main job (`just bench`).

use std::time::Instant;

use replab_harness::Bars;
use replab_site::bench::{self, Options};

use super::command_line;

impl super::Plain for Options {
    const NAME: &'static str = "bench";
    const ABOUT: Option<&'static str> =
        Some("The main job: every experiment into reports/ and reports/index.html");
    const AFTER_HELP: Option<fn() -> String> = Some(bench::help);

    /// Runs every experiment, then writes every report and `OUT/index.html`.
    fn run(self) -> anyhow::Result<()> {
        let started = Instant::now();
        // Refuse a root replab may not write into before the long run (bench::write checks
        // again).
        bench::check_out(&self.out, &[])?;
        let config = bench::Config {
            quick: self.quick || self.smoke,
            smoke: self.smoke,
            command: command_line(std::env::args().skip(1)),
            exe: Some(std::env::current_exe()?),
            ..bench::Config::default()
        };
        for note in bench::notes() {
            eprintln!("replab bench: note: {note}");
        }
        let results = bench::run(&config, &mut Bars::logged(self.quiet))?;
        bench::write(&results, &self.out)?;
        let (index, seconds) = (self.out.join("index.html"), started.elapsed().as_secs_f64());
        println!("wrote {} in {seconds:.0} s", index.display());
        Ok(())
    }
}
