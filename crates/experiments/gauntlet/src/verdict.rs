//! A row's verdict: the three-way GSPRT in normalized Elo on the row's bounds (better, worse,
//! within the bounds, or undecided at the row's cap), and the power check made before the row
//! is played (can the row's cap resolve its bounds at all?).

use replab_elo::{Pentanomial, llr_normalized};
use replab_report::fmt_int;
use replab_selfplay::stats::{self, Bounds, MIN_INTERVAL_SAMPLES, Verdict};
use serde::{Deserialize, Serialize};

/// The bounds every row's test takes unless told otherwise: ±5 normalized Elo, the size of the
/// repetition-handling effects the published figures report (a few Elo).
pub const DEFAULT_BOUNDS: Bounds = Bounds {
    elo0: -5.0,
    elo1: 5.0,
};

/// A row's test and what it concluded.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowTest {
    /// The bounds (normalized Elo): the gain test is [0, `bounds.1`], the loss test
    /// [`bounds.0`, 0].
    pub bounds: (f64, f64),
    /// The most games the row may play.
    pub cap_games: u64,
    /// The games the test expects to need when the true difference is at the nearer bound
    /// (Wald's mean sample number; [`replab_elo::ThreeWay::expected_games`]).
    pub expected_games: u64,
    /// The gain test's LLR.
    pub gain_llr: f64,
    /// The loss test's LLR.
    pub loss_llr: f64,
    /// What the test concluded ([`Verdict::Continue`]: undecided at the cap).
    pub verdict: Verdict,
}

impl RowTest {
    /// The test of a row with `bounds` and `cap_games` on the pairs `p` it played.
    pub fn of(p: &Pentanomial, bounds: (f64, f64), cap_games: u64) -> RowTest {
        RowTest {
            bounds,
            cap_games,
            expected_games: stats::three_way(bounds).map_or(u64::MAX, |t| t.expected_games()),
            gain_llr: llr_normalized(0.0, bounds.1, p),
            loss_llr: llr_normalized(bounds.0, 0.0, p),
            verdict: stats::verdict(p, bounds),
        }
    }

    /// The power check: whether the cap allows the games the test expects to need.
    pub fn can_resolve(&self) -> bool {
        self.expected_games <= self.cap_games
    }

    /// The bounds in words (`±5 nElo`, `[-3, +1] nElo`).
    pub fn bounds_text(&self) -> String {
        bounds_text(self.bounds)
    }

    /// The verdict after `games` games, in words.
    pub fn text(&self, games: u64) -> String {
        let (lo, hi) = self.bounds;
        match self.verdict {
            Verdict::Better => format!("better: passed the gain test [0, {hi:+}] nElo"),
            Verdict::Worse => format!("worse: failed the loss test [{lo:+}, 0] nElo"),
            Verdict::Within => format!("within {}", self.bounds_text()),
            Verdict::Continue => format!(
                "undecided after {games} games (would need ~{} at {})",
                fmt_int(self.expected_games),
                self.bounds_text()
            ),
        }
    }

    /// The power check's warning, when the cap is below the games the test expects to need.
    pub fn power_note(&self) -> Option<String> {
        (!self.can_resolve()).then(|| {
            format!(
                "its cap of {} games cannot resolve {}",
                fmt_int(self.cap_games),
                self.bounds_text()
            )
        })
    }
}

/// Bounds in words: `±5 nElo` or `[-3, +1] nElo`.
pub fn bounds_text((lo, hi): (f64, f64)) -> String {
    if lo == -hi {
        format!("±{hi} nElo")
    } else {
        format!("[{lo:+}, {hi:+}] nElo")
    }
}

/// The fewest game pairs a verdict is given on (the match stops no earlier): the intervals'
/// minimum, so that a few identical pairs cannot end a row.
pub const MIN_VERDICT_PAIRS: u64 = MIN_INTERVAL_SAMPLES;

/// What a table of rows that share their openings and their baseline says as a family: they
/// are not independent tests, and how many "better" or "worse" verdicts chance alone could give
/// (each row's three-way test errs at most 5% of the time in each direction when A and B are
/// equal). `decided` counts the rows that reached "better" or "worse" among `rows` tested.
pub fn family_note(rows: usize, decided: usize, book: &str, seed: u64) -> String {
    let chance = 0.10 * rows as f64;
    format!(
        "These {rows} rows play the same openings of {book} (seed {seed}) against the same \
         baseline, so their errors are correlated: they are {rows} looks at one set of \
         openings, not {rows} independent findings. Were no choice to make any difference, \
         each row's test would still say \"better\" or \"worse\" up to 10% of the time (5% \
         each way): up to {chance:.1} of these {rows} rows by chance; {decided} reached such a \
         verdict."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_family_note_counts_the_rows_and_what_chance_allows() {
        let note = family_note(20, 3, "8moves_v3", 1);
        assert!(note.contains("These 20 rows"), "{note}");
        assert!(
            note.contains("up to 2.0 of these 20 rows by chance; 3 reached"),
            "{note}"
        );
        assert!(family_note(5, 0, "b", 7).contains("up to 0.5 of these 5 rows by chance; 0"));
    }

    #[test]
    fn the_verdict_and_the_power_check_flip_with_their_inputs() {
        let even = Pentanomial::from_fastchess(100, 1000, 300, 2000, 1000, 100);
        let test = RowTest::of(&even, (-10.0, 10.0), 10_000);
        assert_eq!(test.verdict, Verdict::Within);
        assert_eq!(test.text(8000), "within ±10 nElo");
        assert!(test.can_resolve() && test.power_note().is_none());
        let capped = RowTest::of(&even, (-10.0, 10.0), 60);
        assert!(!capped.can_resolve());
        assert!(
            capped
                .power_note()
                .unwrap()
                .contains("cannot resolve ±10 nElo")
        );
        let winning = Pentanomial::from_fastchess(10, 100, 50, 200, 150, 40);
        assert_eq!(
            RowTest::of(&winning, (-10.0, 10.0), 60).verdict,
            Verdict::Better
        );
        let losing = Pentanomial::from_fastchess(400, 1500, 500, 2000, 1000, 100);
        let worse = RowTest::of(&losing, (-3.0, 1.0), 60);
        assert_eq!(worse.verdict, Verdict::Worse);
        assert_eq!(worse.bounds_text(), "[-3, +1] nElo");
        let few = Pentanomial::from_fastchess(0, 0, 0, 0, 0, MIN_VERDICT_PAIRS - 1);
        let undecided = RowTest::of(&few, (-10.0, 10.0), 60);
        assert_eq!(undecided.verdict, Verdict::Continue);
        assert!(
            undecided
                .text(38)
                .starts_with("undecided after 38 games (would need ~")
        );
    }
}
