//! `replab suite` (being moved to a typed configuration of replab-lab).

pub use replab_lab::suite::SuiteArgs as Args;

/// Runs `replab suite`.
pub fn run(args: Args) -> anyhow::Result<()> {
    replab_lab::suite::run(&args)
}
