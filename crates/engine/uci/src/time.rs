//! The time manager: how long a `go` may search.

use std::time::Duration;

use replab_board::Color;

use crate::Go;

/// Default `Move Overhead` in ms (Stockfish's default): time lost per move between the engine
/// and the clock (pipes, the GUI, scheduling).
pub const MOVE_OVERHEAD_DEFAULT: u64 = 10;
/// Largest `Move Overhead` in ms (Stockfish's maximum).
pub const MOVE_OVERHEAD_MAX: u64 = 5000;
/// Moves assumed left in the game when the clock has no `movestogo`.
pub const DEFAULT_MOVES_TO_GO: u64 = 30;
/// The largest share of the usable clock time one move may take, as a fraction.
pub const MAX_SHARE: (u64, u64) = (3, 4);

/// The budget of a `go` that gives no clock for the side to move and no other limit (bare
/// `go`, `go winc 100`, …), in ms before the overhead: never an unlimited search unless asked.
pub const DEFAULT_MOVETIME: u64 = 1000;

/// The wall time a search may use, counted from the moment `go` was read, for the side
/// `side` with `overhead` ms of `Move Overhead`; `None` when no time limit applies
/// (`infinite`, `ponder`, or `depth`, `nodes`, `mate` without a clock):
/// - `movetime M`: `M − overhead`, at least 1 ms;
/// - the side to move's clock (remaining `R`, increment `I`, `movestogo` `N`, 30 by default):
///   with `U = R − overhead`, `min(U / N + I / 2, U × 3/4)`, at least 1 ms;
/// - only the other side's clock: the same share of that clock (taken as an estimate of
///   ours), at most [`DEFAULT_MOVETIME`] − overhead;
/// - no clock and no `depth`, `nodes` or `mate`: [`DEFAULT_MOVETIME`] − overhead.
///
/// The first iteration always completes, so a search can overrun a budget shorter than it.
pub fn budget(go: &Go, side: Color, overhead: u64) -> Option<Duration> {
    if go.infinite || go.ponder {
        return None;
    }
    if let Some(ms) = go.movetime {
        return Some(millis(ms.saturating_sub(overhead)));
    }
    let ours = usize::from(side == Color::Black);
    let default = DEFAULT_MOVETIME.saturating_sub(overhead);
    let share = |s: usize| {
        go.time[s].map(|remaining| {
            let usable = remaining.saturating_sub(overhead);
            let inc = go.inc[s].unwrap_or(0);
            let share = usable / go.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1) + inc / 2;
            let cap = usable.saturating_mul(MAX_SHARE.0) / MAX_SHARE.1;
            share.min(cap)
        })
    };
    if let Some(ms) = share(ours) {
        return Some(millis(ms));
    }
    if let Some(ms) = share(1 - ours) {
        return Some(millis(ms.min(default)));
    }
    if go.depth.is_some() || go.nodes.is_some() || go.mate.is_some() {
        return None;
    }
    Some(millis(default))
}

/// `ms` milliseconds, at least 1.
fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(words: &str) -> Go {
        let words: Vec<&str> = words.split_whitespace().collect();
        crate::parse_go(&words, &replab_board::Position::startpos()).unwrap()
    }

    fn ms(words: &str, side: Color, overhead: u64) -> Option<u64> {
        budget(&go(words), side, overhead).map(|d| d.as_millis() as u64)
    }

    #[test]
    fn clock_share_keeps_the_overhead_and_a_margin() {
        // (60000 − 10) / 30 + 1000 / 2 = 1999 + 500.
        assert_eq!(
            ms("wtime 60000 btime 30000 winc 1000", Color::White, 10),
            Some(2499)
        );
        assert_eq!(ms("wtime 60000 btime 30010", Color::Black, 10), Some(1000));
        // One move to go: at most three quarters of the time after the overhead.
        assert_eq!(
            ms("wtime 1000 btime 1000 movestogo 1", Color::White, 10),
            Some(742)
        );
        // A large increment never takes more than the cap.
        assert_eq!(ms("wtime 100 winc 5000", Color::White, 0), Some(75));
        assert_eq!(ms("wtime 5", Color::White, 10), Some(1));
    }

    #[test]
    fn movetime_leaves_the_overhead() {
        assert_eq!(ms("movetime 100", Color::White, 10), Some(90));
        assert_eq!(ms("movetime 100 wtime 5", Color::White, 0), Some(100));
        assert_eq!(ms("movetime 5", Color::White, 10), Some(1));
        assert_eq!(ms("depth 5", Color::White, 10), None);
        assert_eq!(ms("infinite wtime 100", Color::White, 10), None);
        assert_eq!(ms("ponder wtime 100", Color::White, 10), None);
    }

    #[test]
    fn a_go_without_our_clock_gets_a_finite_budget() {
        // Only White's clock, Black to move: White's share, at most the default.
        assert_eq!(ms("wtime 1000 winc 100", Color::Black, 10), Some(83));
        assert_eq!(ms("wtime 600000 winc 100", Color::Black, 10), Some(990));
        // Nothing at all, or only increments: the default.
        assert_eq!(ms("", Color::White, 10), Some(990));
        assert_eq!(
            ms("winc 100 binc 100 movestogo 5", Color::Black, 0),
            Some(1000)
        );
        // Depth, nodes or mate alone: no time limit; with the other clock: its share.
        assert_eq!(ms("nodes 1000", Color::White, 10), None);
        assert_eq!(ms("mate 3", Color::White, 10), None);
        assert_eq!(ms("depth 9 btime 3010", Color::White, 10), Some(100));
    }
}
