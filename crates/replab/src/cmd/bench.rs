//! `replab bench` (being moved to a typed configuration of replab-lab).

pub use replab_lab::bench::BenchArgs as Args;

/// Runs `replab bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    replab_lab::bench::run(&args)
}
