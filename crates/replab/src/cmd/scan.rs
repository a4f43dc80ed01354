//! `replab scan` (being moved to a typed configuration of replab-lab).

pub use replab_lab::scan::ScanArgs as Args;

/// Runs `replab scan`.
pub fn run(args: Args) -> anyhow::Result<()> {
    replab_lab::scan::run(&args)
}
