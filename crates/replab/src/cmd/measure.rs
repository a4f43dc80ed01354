//! `replab measure` (hidden): one workload of `replab_lab::callgrind`, run under valgrind.

/// Internal: one measured workload, run under valgrind by the instruction counts.
#[derive(clap::Args)]
pub struct Args {
    /// The workload, as `replab_lab::callgrind` names it.
    pub workload: String,
}

/// Runs the workload once.
pub fn run(args: Args) -> anyhow::Result<()> {
    replab_lab::callgrind::run_workload(&args.workload)
}
