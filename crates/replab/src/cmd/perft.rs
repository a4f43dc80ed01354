//! `replab perft` (being moved to a typed configuration of replab-lab).

pub use replab_lab::perft_cmd::PerftArgs as Args;

/// Runs `replab perft`.
pub fn run(args: Args) -> anyhow::Result<()> {
    replab_lab::perft_cmd::run(&args)
}
