//! `replab record-move-changes` (hidden): the move-change counts of every player by budget,
//! written as `datasets/move-changes.json` ([`replab_gauntlet::move_change`]).

/// Internal: records how often each player's best move differs from linear's, by budget.
#[derive(clap::Args)]
pub struct Args {
    /// Nodes per search, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "10000,160000,1000000")]
    pub budgets: Vec<u64>,
    /// Search every Nth ply of the games' moves 20 to 60.
    #[arg(long, default_value_t = 3)]
    pub every: usize,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Where the recording goes.
    #[arg(long, default_value = "datasets/move-changes.json")]
    pub out: std::path::PathBuf,
}

impl super::Plain for Args {
    const NAME: &'static str = "record-move-changes";
    const HIDDEN: bool = true;

    /// Searches every player at every budget and writes the counts.
    fn run(self) -> anyhow::Result<()> {
        use anyhow::Context;
        let command = super::command_line(std::env::args().skip(1));
        let threads = self
            .threads
            .unwrap_or_else(replab_workloads::engine::default_threads);
        let recorded =
            replab_gauntlet::move_change::record(&self.budgets, self.every, threads, &command)?;
        let text = serde_json::to_string_pretty(&recorded)? + "\n";
        std::fs::write(&self.out, text)
            .with_context(|| format!("cannot write {}", self.out.display()))?;
        eprintln!("wrote {}", self.out.display());
        Ok(())
    }
}
