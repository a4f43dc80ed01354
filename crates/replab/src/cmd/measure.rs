//! `replab measure` (hidden): one workload of `replab_lab::callgrind`, run in a child process
//! under valgrind so that only its instructions are counted.

/// Arguments of `replab measure`.
#[derive(clap::Args)]
pub struct Args {
    /// The workload, as `replab_lab::callgrind` names it.
    pub workload: String,
}

/// Runs the workload once.
pub fn run(args: Args) -> anyhow::Result<()> {
    replab_lab::callgrind::run_workload(&args.workload)
}
