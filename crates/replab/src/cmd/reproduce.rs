//! `replab reproduce` (being moved to a typed configuration of replab-lab).

pub use replab_lab::reproduce::ReproduceArgs as Args;

/// Runs `replab reproduce`.
pub fn run(args: Args) -> anyhow::Result<()> {
    replab_lab::reproduce::run(&args)
}
