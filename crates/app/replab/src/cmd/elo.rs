//! `replab elo`: the self-play gauntlet (`replab_gauntlet`).

use replab_gauntlet::Elo;
use replab_selfplay::Adjudication;

use super::{List, experiment_command};

experiment_command! {
    /// Self-play gauntlet: what each repetition choice is worth in Elo.
    Elo {
        #[arg(long, value_name = "N")]
        nodes: Option<u64>,
        #[arg(long, value_name = "N")]
        games: Option<u64>,
        #[arg(long, value_name = "N")]
        rep_games: Option<u64>,
        #[arg(long, value_name = "N")]
        cost_games: Option<u64>,
        /// Time control of the timed matches, BASE+INC seconds.
        #[arg(long, value_name = "T")]
        tc: Option<String>,
        #[arg(long, value_name = "N")]
        tc_games: Option<u64>,
        /// Seed of the opening order.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Only the rows whose player A is one of these specifications, comma-separated as
        /// the rows write them (e.g. `off,linear+cuckoo`); every row when not given.
        #[arg(long, value_name = "LIST", value_parser = parse_specs)]
        only: Option<List<String>>,
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
        /// Score adjudication of every match, changes to the default: draw=off or
        /// draw=SCORE/MOVES/FROM_MOVE, resign=off or resign=SCORE/MOVES, comma-separated.
        #[arg(long = "adjudicate", value_name = "SPEC", value_parser = parse_adjudication)]
        adjudication: Option<Adjudication>,
        /// Each row's test bounds in normalized Elo: a gain test [0, ELO1] and a loss test
        /// [ELO0, 0] (ELO0 < 0 < ELO1); a match stops at their verdict or its game count.
        #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true, value_parser = parse_bounds)]
        bounds: Option<(f64, f64)>,
    }
    |config| {
        // The equal-cost rows count instructions with this binary under valgrind.
        config.exe = Some(std::env::current_exe()?);
    }
}

/// `--only`: a comma-separated list of player specifications (each checked against the rows
/// by the gauntlet's settings).
fn parse_specs(text: &str) -> Result<List<String>, String> {
    let specs: Vec<String> = text.split(',').map(|s| s.trim().to_string()).collect();
    if specs.iter().any(String::is_empty) {
        return Err(format!("{text:?}: an empty specification in the list"));
    }
    Ok(specs)
}

/// `--adjudicate`: changes to the gauntlet's default adjudication (draw off, fishtest's resign).
fn parse_adjudication(text: &str) -> Result<Adjudication, String> {
    Adjudication::rules_draw()
        .with(text)
        .map_err(|e| e.to_string())
}

/// `--bounds`: `ELO0,ELO1`, checked further by the gauntlet's settings.
fn parse_bounds(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("{text:?}: expected ELO0,ELO1 in normalized Elo, e.g. -5,5");
    let (lo, hi) = text.split_once(',').ok_or_else(bad)?;
    let lo: f64 = lo.trim().parse().map_err(|_| bad())?;
    let hi: f64 = hi.trim().parse().map_err(|_| bad())?;
    Ok((lo, hi))
}
