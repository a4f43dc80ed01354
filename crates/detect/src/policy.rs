//! Draw policies: when does a detected repetition score as a draw in the search?

use std::{fmt, str::FromStr};

use crate::Repetition;

/// When the searcher scores a repetition as a draw (CPW "Repetitions"; techniques.md §1, §3, §5).
///
/// With the `serde` feature it serialises as its lowercase [name](DrawPolicy::name)
/// (`"twofold"`, `"stanback"`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum DrawPolicy {
    /// Any repetition is a draw (Axon's behaviour; the default).
    #[default]
    Twofold,
    /// Zarkov/Stanback: two earlier occurrences → draw; one earlier occurrence → draw when the
    /// current position is more than 2 plies from the root.
    Stanback,
    /// Moreland/Gerbil: a repetition of a position of the search line (the root included) is a
    /// draw; a position only in the game history needs two earlier occurrences.
    Moreland,
    /// Stockfish `is_repetition(ply)`: the earlier occurrence lies strictly after the root, or
    /// the position had already repeated (two earlier occurrences).
    Stockfish,
    /// Strict FIDE threefold: two earlier occurrences.
    Threefold,
}

impl DrawPolicy {
    /// Every policy, default first.
    pub const ALL: [DrawPolicy; 5] = [
        DrawPolicy::Twofold,
        DrawPolicy::Stanback,
        DrawPolicy::Moreland,
        DrawPolicy::Stockfish,
        DrawPolicy::Threefold,
    ];

    /// The policy's name.
    pub fn name(self) -> &'static str {
        match self {
            DrawPolicy::Twofold => "twofold",
            DrawPolicy::Stanback => "stanback",
            DrawPolicy::Moreland => "moreland",
            DrawPolicy::Stockfish => "stockfish",
            DrawPolicy::Threefold => "threefold",
        }
    }

    /// The root rule an upcoming-cycle detector uses under this policy: under `twofold` any
    /// earlier position counts, as it would for a repetition that has happened
    /// ([`RootRule::AnyEarlier`]); under every other policy Stockfish's rule (a position after
    /// the root, or one that had already repeated: [`RootRule::Stockfish`]).
    pub fn root_rule(self) -> RootRule {
        match self {
            DrawPolicy::Twofold => RootRule::AnyEarlier,
            _ => RootRule::Stockfish,
        }
    }

    /// Whether the repetition `rep`, found `plies_from_root` plies below the root, is a draw.
    #[inline]
    pub fn is_draw(self, rep: Repetition, plies_from_root: u32) -> bool {
        match self {
            DrawPolicy::Twofold => true,
            DrawPolicy::Stanback => rep.earlier >= 2 || plies_from_root > 2,
            DrawPolicy::Moreland => rep.distance <= plies_from_root || rep.earlier >= 2,
            DrawPolicy::Stockfish => rep.distance < plies_from_root || rep.earlier >= 2,
            DrawPolicy::Threefold => rep.earlier >= 2,
        }
    }
}

/// Which earlier positions count for an upcoming cycle (a legal reversible move of the side to
/// move that reaches an earlier position of the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RootRule {
    /// Stockfish: a position after the root, or one at/before the root that had already repeated.
    #[default]
    Stockfish,
    /// Any earlier position of the line.
    AnyEarlier,
}

impl fmt::Display for DrawPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error naming an unknown draw policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPolicy(pub String);

impl fmt::Display for UnknownPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown draw policy {:?} (expected twofold, stanback, moreland, stockfish or threefold)",
            self.0
        )
    }
}

impl std::error::Error for UnknownPolicy {}

impl FromStr for DrawPolicy {
    type Err = UnknownPolicy;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DrawPolicy::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownPolicy(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rep(distance: u32, earlier: u32) -> Repetition {
        Repetition { distance, earlier }
    }

    #[test]
    fn policies_distinguish_search_line_and_history() {
        // A single earlier occurrence in the game history (6 plies back, 2 plies below root).
        let history = rep(6, 1);
        assert!(DrawPolicy::Twofold.is_draw(history, 2));
        assert!(!DrawPolicy::Stanback.is_draw(history, 2));
        assert!(DrawPolicy::Stanback.is_draw(history, 3));
        assert!(!DrawPolicy::Moreland.is_draw(history, 2));
        assert!(!DrawPolicy::Stockfish.is_draw(history, 2));
        assert!(!DrawPolicy::Threefold.is_draw(history, 2));
        // The earlier occurrence is the root itself.
        let root = rep(4, 1);
        assert!(DrawPolicy::Moreland.is_draw(root, 4));
        assert!(!DrawPolicy::Stockfish.is_draw(root, 4));
        // Inside the search line.
        let inside = rep(4, 1);
        assert!(DrawPolicy::Stockfish.is_draw(inside, 5));
        // Third occurrence: a draw under every policy.
        for p in DrawPolicy::ALL {
            assert!(p.is_draw(rep(4, 2), 1), "{p}");
            assert_eq!(p.name().parse::<DrawPolicy>(), Ok(p));
        }
        assert!("fivefold".parse::<DrawPolicy>().is_err());
    }

    #[test]
    fn only_twofold_counts_any_earlier_position_for_upcoming_cycles() {
        for p in DrawPolicy::ALL {
            let expected = if p == DrawPolicy::Twofold {
                RootRule::AnyEarlier
            } else {
                RootRule::Stockfish
            };
            assert_eq!(p.root_rule(), expected, "{p}");
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_round_trips_policies_by_lowercase_name() {
        for p in DrawPolicy::ALL {
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(json, format!("\"{}\"", p.name()));
            assert_eq!(serde_json::from_str::<DrawPolicy>(&json).unwrap(), p);
        }
        assert!(serde_json::from_str::<DrawPolicy>("\"Twofold\"").is_err());
    }
}
