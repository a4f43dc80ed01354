//! `replab perft`: its arguments, turned into a [`perft::Config`]; the counts go to stdout.

use replab_board::Position;
use replab_cost::perft;

/// Count the leaf nodes of the legal move tree (last line of stdout: the count).
#[derive(clap::Args)]
pub struct Args {
    /// Position as FEN (six fields, or four as in EPD).
    #[arg(long, default_value = Position::START_FEN)]
    fen: String,
    #[arg(long, help = perft::DEPTH.help_text())]
    depth: u32,
    /// First print one line per root move: `<uci> <count>`.
    #[arg(long)]
    divide: bool,
}

impl super::Plain for Args {
    const NAME: &'static str = "perft";

    /// Runs `replab perft`: the last line of stdout is the leaf count.
    fn run(self) -> anyhow::Result<()> {
        let args = self;
        let config = perft::Config {
            position: perft::parse_fen(&args.fen)?,
            depth: args.depth,
            divide: args.divide,
        };
        perft::run(&config, &mut std::io::stdout().lock()).map(drop)
    }
}
