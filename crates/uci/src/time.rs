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

/// The wall time a search may use, counted from the moment `go` was read, for the side
/// `side` with `overhead` ms of `Move Overhead`; `None` when no time limit applies (`depth`,
/// `nodes`, `mate` alone, `infinite`, `ponder`):
/// - `movetime M`: `M − overhead`, at least 1 ms;
/// - the clock (remaining `R`, increment `I`, `movestogo` `N`, 30 by default): with
///   `U = R − overhead`, `min(U / N + I / 2, U × 3/4)`, at least 1 ms.
///
/// The first iteration always completes, so a search can overrun a budget shorter than it.
pub fn budget(go: &Go, side: Color, overhead: u64) -> Option<Duration> {
    if go.infinite || go.ponder {
        return None;
    }
    if let Some(ms) = go.movetime {
        return Some(millis(ms.saturating_sub(overhead)));
    }
    let s = usize::from(side == Color::Black);
    let remaining = go.time[s]?;
    let usable = remaining.saturating_sub(overhead);
    let inc = go.inc[s].unwrap_or(0);
    let share = usable / go.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1) + inc / 2;
    let cap = usable.saturating_mul(MAX_SHARE.0) / MAX_SHARE.1;
    Some(millis(share.min(cap)))
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
    }
}
