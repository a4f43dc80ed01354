//! `replab conformance`: UCI engines against the draw rules (`replab_conformance`; the exit
//! statuses: `docs/contracts.md`).

use anyhow::{Context, Result};
use replab_conformance as conformance;

use super::{NoOptions, Report, Settings};

/// `replab conformance`.
pub struct Conformance;

impl Report for Conformance {
    type Experiment = conformance::Conformance;
    type Own = NoOptions;
    const ABOUT: &'static str =
        "Check UCI engines (replab's, once per detector, and --engine ones) against the draw rules";
    const QUICK: bool = false;

    /// replab's own engine is this binary's `replab uci`; `--list` prints the scenarios
    /// instead of running them.
    fn complete(config: &mut Settings<Self>, _: NoOptions) -> Result<bool> {
        let exe = std::env::current_exe().context("cannot find the replab binary")?;
        config.replab = conformance::replab_command(&exe);
        if config.list {
            print!("{}", conformance::list(&config.load()?));
            return Ok(false);
        }
        Ok(true)
    }
}
