//! `replab elo`: the self-play gauntlet (`replab_gauntlet`).

use replab_gauntlet::{Elo, parse_bounds, parse_only};
use replab_selfplay::Adjudication;

use super::List;

experiment_command! {
    /// Self-play gauntlet: what each repetition choice is worth in Elo.
    Elo with quick {
        nodes: Option<u64> ["N"],
        games: Option<u64> ["N"],
        rep_games: Option<u64> ["N"],
        cost_games: Option<u64> ["N"],
        /// Time control of the timed matches, BASE+INC seconds.
        tc: Option<String> ["T"],
        tc_games: Option<u64> ["N"],
        /// Seed of the opening order.
        seed: Option<u64> ["S"],
        /// Only the rows whose player A is one of these specifications, comma-separated as
        /// the rows write them (e.g. `off,linear+cuckoo`); every row when not given.
        only: Option<List<String>> ["LIST", value_parser = parse_only],
        threads: Option<usize> ["T"],
        /// Score adjudication of every match, changes to the default: draw=off or
        /// draw=SCORE/MOVES/FROM_MOVE, resign=off or resign=SCORE/MOVES, comma-separated.
        adjudication: Option<Adjudication> ["SPEC", long = "adjudicate",
            value_parser = |t: &str| Adjudication::rules_draw().with(t)],
        /// Each row's test bounds in normalized Elo: a gain test [0, ELO1] and a loss test
        /// [ELO0, 0] (ELO0 < 0 < ELO1); a match stops at their verdict or its game count.
        bounds: Option<(f64, f64)>
            ["ELO0,ELO1", allow_hyphen_values = true, value_parser = parse_bounds],
    }
    |config| {
        // The equal-cost rows count instructions with this binary under valgrind.
        config.exe = Some(std::env::current_exe()?);
    }
}
