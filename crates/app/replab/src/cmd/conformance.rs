//! `replab conformance`: UCI engines against the draw rules (`replab_conformance`; the exit
//! statuses: `docs/contracts.md`).

use anyhow::{Context, Result};
use replab_conformance as conformance;

use super::{Report, Settings};

/// `replab conformance`.
pub struct Conformance;

/// What only the command line does: list the scenarios instead of running them.
#[derive(clap::Args)]
pub struct Own {
    /// Print the scenarios (id, rule, source, what each checks) and exit.
    #[arg(long)]
    list: bool,
}

impl Report for Conformance {
    type Experiment = conformance::Conformance;
    type Own = Own;
    const ABOUT: &'static str = "Check UCI engines (replab's, once per detector, and --engine ones) against the draw rules";
    const QUICK: bool = false;

    /// The engines to run (replab's own through this binary), or the scenario list printed.
    fn complete(config: &mut Settings<Self>, own: Own) -> Result<bool> {
        let exe = std::env::current_exe().context("cannot find the replab binary")?;
        config.exe = Some(exe);
        if own.list {
            print!("{}", conformance::list(&config.load()?));
            return Ok(false);
        }
        Ok(true)
    }
}
