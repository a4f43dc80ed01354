//! What the players' searches reached and got: the last completed depth of every searched
//! move, and under a clock the CPU time each player's thread got against the wall time its
//! searches took. A row's median depth says whether a node budget searched deep enough for
//! repetition handling to matter; its CPU share says whether the clock measured the engine or
//! a machine busy with other work.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::arbiter::Termination;

/// Counts of searched moves by last completed depth (`counts[d]`: moves whose deepest
/// completed iteration was `d`), for one player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DepthCounts(pub Vec<u64>);

impl DepthCounts {
    /// Counts one move searched to `depth`.
    pub fn add(&mut self, depth: u32) {
        let d = depth as usize;
        if self.0.len() <= d {
            self.0.resize(d + 1, 0);
        }
        self.0[d] += 1;
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &DepthCounts) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            *mine += theirs;
        }
    }

    /// Moves counted.
    pub fn moves(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The lower of the two middle depths ([`replab_interval::middle_ranks`]; the middle one
    /// for an odd count), `None` without a move: a depth the search completed, as
    /// `play.median_depth` records it, where the median's mean of the middle two could fall
    /// between two depths.
    pub fn lower_middle(&self) -> Option<u32> {
        let n = usize::try_from(self.moves()).expect("a count of moves fits in a usize");
        let [lower, _] = replab_interval::middle_ranks(n)?;
        self.nth_smallest(lower as u64)
    }

    /// The depth of the move of 0-based rank `rank` in increasing order of depth.
    fn nth_smallest(&self, rank: u64) -> Option<u32> {
        let mut seen = 0;
        for (depth, count) in self.0.iter().enumerate() {
            seen += count;
            if seen > rank {
                return u32::try_from(depth).ok();
            }
        }
        None
    }
}

/// Under a clock: each player's CPU time and the wall time of its searches (A, B).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClockUse(pub [PlayerClock; 2]);

/// One player's searches under a clock, seconds; each a single measurement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerClock {
    /// CPU time its searching thread got.
    #[serde(with = "replab_interval::single_sample")]
    pub cpu_s: f64,
    /// Wall time inside its searches.
    #[serde(with = "replab_interval::single_sample")]
    pub search_s: f64,
}

impl ClockUse {
    /// Adds one search of player `p` (0 = A, 1 = B).
    pub fn add(&mut self, p: usize, cpu: Duration, wall: Duration) {
        self.0[p].cpu_s += cpu.as_secs_f64();
        self.0[p].search_s += wall.as_secs_f64();
    }

    /// Adds `other`'s times.
    pub fn merge(&mut self, other: &ClockUse) {
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            mine.cpu_s += theirs.cpu_s;
            mine.search_s += theirs.search_s;
        }
    }

    /// Each player's CPU time as a share of its searches' wall time (`None` before any).
    pub fn cpu_share(&self) -> [Option<f64>; 2] {
        self.0
            .map(|p| (p.search_s > 0.0).then(|| p.cpu_s / p.search_s))
    }
}

/// The CPU time the calling thread has had so far (`None` where it cannot be read).
pub fn thread_cpu() -> Option<Duration> {
    cpu_time::ThreadTime::try_now()
        .ok()
        .map(|t| t.as_duration())
}

/// A draw by one of the four repetition and move-count rules (threefold, fivefold, fifty,
/// seventy-five moves): the games where the players' repetition handling decided the end.
pub fn is_draw_rule(t: Termination) -> bool {
    matches!(
        t,
        Termination::Threefold
            | Termination::Fivefold
            | Termination::FiftyMoves
            | Termination::SeventyFiveMoves
    )
}

/// The lowest CPU share of a timed match's players below which the clock measured a busy
/// machine rather than the engine (90%).
pub const MIN_CPU_SHARE: f64 = 0.9;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lower_middle_of_depth_counts_is_the_middle_move() {
        let mut c = DepthCounts::default();
        assert_eq!(c.lower_middle(), None);
        for d in [3, 8, 8, 9, 12] {
            c.add(d);
        }
        assert_eq!(c.lower_middle(), Some(8));
        let mut more = DepthCounts::default();
        for _ in 0..6 {
            more.add(12);
        }
        c.merge(&more);
        assert_eq!((c.moves(), c.lower_middle()), (11, Some(12)));
        // An even count: the lower of the two middle moves (8), not their mean (8.5).
        let mut even = DepthCounts::default();
        for d in [12, 8, 3, 9] {
            even.add(d);
        }
        assert_eq!(even.lower_middle(), Some(8));
    }

    /// The depth `play.median_depth` recorded before the one median: the first depth at which
    /// at least half the moves are counted.
    fn recorded_median(c: &DepthCounts) -> Option<u32> {
        let n = c.moves();
        let mut seen = 0;
        c.0.iter().enumerate().find_map(|(depth, count)| {
            seen += count;
            (n > 0 && 2 * seen >= n).then_some(depth as u32)
        })
    }

    #[test]
    fn the_lower_middle_is_the_depth_recorded_before() {
        // Every histogram of depths 0 to 5 with up to 4 moves at each, odd and even counts alike.
        for code in 0..5u32.pow(6) {
            let mut c = DepthCounts::default();
            let mut rest = code;
            for _ in 0..6 {
                let count = rest % 5;
                rest /= 5;
                c.0.push(u64::from(count));
            }
            assert_eq!(c.lower_middle(), recorded_median(&c), "{:?}", c.0);
        }
    }

    #[test]
    fn cpu_share_is_cpu_over_wall_per_player() {
        let mut u = ClockUse::default();
        assert_eq!(u.cpu_share(), [None, None]);
        u.add(0, Duration::from_millis(45), Duration::from_millis(50));
        u.add(1, Duration::from_millis(50), Duration::from_millis(50));
        let [a, b] = u.cpu_share();
        assert!((a.unwrap() - 0.9).abs() < 1e-9 && (b.unwrap() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn the_thread_cpu_clock_advances_with_work() {
        let Some(before) = thread_cpu() else {
            eprintln!("skipped: no thread CPU clock on this system");
            return;
        };
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(std::hint::black_box(i));
        }
        std::hint::black_box(x);
        assert!(thread_cpu().unwrap() > before);
    }

    #[test]
    fn only_the_repetition_and_move_count_rules_are_draw_rules() {
        let rules: Vec<_> = Termination::ALL
            .into_iter()
            .filter(|t| is_draw_rule(*t))
            .collect();
        assert_eq!(rules.len(), 4, "{rules:?}");
        assert!(!is_draw_rule(Termination::DrawAdjudication));
    }
}
