//! `replab measure` (hidden): one workload of `replab_workloads::callgrind`, run under valgrind.

/// Internal: one measured workload, run under valgrind by the instruction counts.
#[derive(clap::Args)]
pub struct Args {
    /// The workload, as `replab_workloads::callgrind` names it.
    pub workload: String,
    /// Count the workload's instructions: run this binary under valgrind's callgrind and print
    /// `{"instructions", "units", "per_unit"}` (exit 2 where valgrind is not installed).
    #[arg(long)]
    pub count: bool,
}

impl super::Plain for Args {
    const NAME: &'static str = "measure";
    const HIDDEN: bool = true;

    /// Runs the workload once, or counts it under valgrind.
    fn run(self) -> anyhow::Result<()> {
        let args = self;
        use replab_workloads::callgrind;
        if args.count {
            callgrind::print_count(&std::env::current_exe()?, &args.workload)
        } else {
            callgrind::run_workload(&args.workload)
        }
    }
}
