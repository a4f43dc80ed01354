//! `replab measure` (hidden): workloads of `replab_workloads::callgrind`, run under valgrind.

/// Internal: measured workloads, run under valgrind by the instruction counts (several in one
/// process, each counted on its own).
#[derive(clap::Args)]
pub struct Args {
    /// The workloads, as `replab_workloads::callgrind` names them, run in order.
    #[arg(required = true)]
    pub workload: Vec<String>,
    /// Count the workload's instructions: run this binary under valgrind's callgrind and print
    /// `{"instructions", "units", "per_unit"}` (exit 2 where valgrind is not installed).
    #[arg(long)]
    pub count: bool,
}

impl super::Plain for Args {
    const NAME: &'static str = "measure";
    const HIDDEN: bool = true;

    /// Runs the workloads once each, or counts one under valgrind.
    fn run(self) -> anyhow::Result<()> {
        let args = self;
        use replab_workloads::callgrind;
        match (args.count, args.workload.as_slice()) {
            (true, [one]) => callgrind::print_count(&std::env::current_exe()?, one),
            (true, _) => anyhow::bail!("measure --count counts one workload at a time"),
            (false, all) => callgrind::run_workloads(all),
        }
    }
}
