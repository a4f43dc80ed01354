//! `replab match`: one self-play match between two player specifications
//! (`replab_gauntlet::matches`); `results.json` and `games.pgn` in `--out`.

use replab_selfplay::{Adjudication, book::BUILTIN_NAME, options::DEFAULT_NODES};

experiment_command! {
    /// One self-play match between two player specifications.
    replab_gauntlet::matches::Match in options {
        /// Player A: a detector name, optionally followed by `:OPTION=VALUE,…` (docs/elo.md).
        a: Option<String> ["SPEC", required = true],
        /// Player B, as --a.
        b: Option<String> ["SPEC", required = true],
        /// Games of the whole match (even: each opening is played twice, colours swapped).
        games: Option<u64> ["N"],
        /// Nodes per move (deterministic; the default unless --tc is given).
        nodes: Option<u64> ["N"],
        /// Time control BASE+INCREMENT in seconds, e.g. 8+0.08 (not deterministic).
        tc: Option<String> ["T"],
        /// Opening book (PGN); by default the built-in one, read by its path from anywhere.
        book: Option<std::path::PathBuf> ["FILE"],
        /// Seed of the opening order.
        seed: Option<u64> ["S"],
        /// Stop as soon as the normalized-Elo SPRT with these bounds decides.
        sprt: Option<String> ["ELO0,ELO1", allow_hyphen_values = true],
        /// Play only shard K of N (the pairs i with i mod N = K-1).
        shard: Option<String> ["K/N"],
        /// Worker threads (default: every core); the games do not depend on it.
        threads: Option<usize> ["T"],
        /// Equal cost: B searches --nodes, A as many nodes as the same instructions buy (each
        /// player's instructions per node counted by callgrind; the recorded table without valgrind).
        scale_by_cost: bool,
        /// Score adjudication, changes to fishtest's: draw=off or draw=SCORE/MOVES/FROM_MOVE,
        /// resign=off or resign=SCORE/MOVES, comma-separated.
        adjudication: Option<Adjudication> ["SPEC", long = "adjudicate",
            value_parser = |t: &str| Adjudication::fishtest().with(t)],
    }
    defaults { nodes: DEFAULT_NODES, book: BUILTIN_NAME }
    |config| {
        config.scale_by_cost = scale_by_cost;
        config.exe = Some(std::env::current_exe()?);
    }
}
