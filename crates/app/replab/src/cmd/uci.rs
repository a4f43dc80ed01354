//! `replab uci`: replab's searcher as a UCI engine on stdin/stdout (`replab-uci`).

/// Run replab's searcher as a UCI engine on stdin/stdout.
#[derive(clap::Args)]
pub struct Args {}

impl super::Plain for Args {
    const NAME: &'static str = "uci";

    /// Runs the engine until `quit` or the end of stdin.
    fn run(self) -> anyhow::Result<()> {
        replab_uci::run(std::io::stdin().lock(), std::io::stdout());
        Ok(())
    }
}
