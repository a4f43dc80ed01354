//! `replab measure` (hidden): one workload of `replab_workloads::callgrind`, run under valgrind.

/// Internal: one measured workload, run under valgrind by the instruction counts.
#[derive(clap::Args)]
pub struct Args {
    /// The workload, as `replab_workloads::callgrind` names it.
    pub workload: String,
}

/// Runs the workload once.
pub fn run(args: Args) -> anyhow::Result<()> {
    replab_workloads::callgrind::run_workload(&args.workload)
}
