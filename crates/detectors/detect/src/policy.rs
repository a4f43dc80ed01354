//! Draw policies: when does a detected repetition score as a draw in the search?

use std::{fmt, str::FromStr};

use crate::Repetition;

/// When the searcher scores a repetition as a draw (CPW "Repetitions"; docs/techniques.md, draw policies).
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

    /// The rule an upcoming-cycle detector uses under this policy: the single mapping from
    /// policies to [`UpcomingRule`]s. An upcoming cycle (a legal reversible move reaches an
    /// earlier position P) counts exactly when the policy would score the repetition of P one
    /// ply further down as a draw, with the nearest occurrence of P as the earlier one:
    ///
    /// | policy | rule | P counts when |
    /// |---|---|---|
    /// | `twofold` | [`UpcomingRule::AnyEarlier`] | always |
    /// | `stanback` | [`UpcomingRule::Stanback`] | P had already repeated, or the next ply is more than 2 plies below the root |
    /// | `moreland` | [`UpcomingRule::AtOrAfterRoot`] | P is the root or lies after it, or P had already repeated |
    /// | `stockfish` | [`UpcomingRule::Stockfish`] | P lies strictly after the root, or P had already repeated |
    /// | `threefold` | [`UpcomingRule::AlreadyRepeated`] | P had already repeated (it occurred twice) |
    pub fn root_rule(self) -> UpcomingRule {
        match self {
            DrawPolicy::Twofold => UpcomingRule::AnyEarlier,
            DrawPolicy::Stanback => UpcomingRule::Stanback,
            DrawPolicy::Moreland => UpcomingRule::AtOrAfterRoot,
            DrawPolicy::Stockfish => UpcomingRule::Stockfish,
            DrawPolicy::Threefold => UpcomingRule::AlreadyRepeated,
        }
    }

    /// Whether the policy needs the true number of earlier occurrences and the nearest one's
    /// distance (every policy but `twofold`, which scores any repetition).
    pub fn needs_counts(self) -> bool {
        self != DrawPolicy::Twofold
    }

    /// Whether the policy's answer can depend on a position that occurred only once in the
    /// game history (before the root) and recurs in the search: `twofold` scores it as a draw,
    /// `stanback` does so more than 2 plies below the root, and `threefold` counts it towards
    /// the third occurrence. `moreland` and `stockfish` never score such a repetition unless the
    /// position repeats again inside the search line, where the search-line occurrence decides.
    /// A detector that drops single history occurrences (Gerbil's table) serves only the
    /// policies where this is false.
    pub fn needs_single_history(self) -> bool {
        matches!(
            self,
            DrawPolicy::Twofold | DrawPolicy::Stanback | DrawPolicy::Threefold
        )
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
/// move that reaches an earlier position P of the line). One rule per draw policy
/// ([`DrawPolicy::root_rule`]): the cycle counts exactly when the policy would score the
/// repetition of P at the next ply as a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum UpcomingRule {
    /// `stockfish`: P lies strictly after the root, or P had already repeated (Stockfish's
    /// `upcoming_repetition`).
    #[default]
    Stockfish,
    /// `twofold`: any earlier position of the line.
    AnyEarlier,
    /// `moreland`: P is the root or lies after it, or P had already repeated.
    AtOrAfterRoot,
    /// `threefold`: P had already repeated (the move would make a third occurrence).
    AlreadyRepeated,
    /// `stanback`: P had already repeated, or the position after the move lies more than 2 plies
    /// below the root.
    Stanback,
}

impl UpcomingRule {
    /// Every rule, in the order of [`DrawPolicy::ALL`] (`AnyEarlier` first).
    pub const ALL: [UpcomingRule; 5] = [
        UpcomingRule::AnyEarlier,
        UpcomingRule::Stanback,
        UpcomingRule::AtOrAfterRoot,
        UpcomingRule::Stockfish,
        UpcomingRule::AlreadyRepeated,
    ];

    /// The rule's name in reports (`any-earlier`, `stanback`, `at-or-after-root`, `stockfish`,
    /// `already-repeated`).
    pub fn name(self) -> &'static str {
        match self {
            UpcomingRule::AnyEarlier => "any-earlier",
            UpcomingRule::Stanback => "stanback",
            UpcomingRule::AtOrAfterRoot => "at-or-after-root",
            UpcomingRule::Stockfish => "stockfish",
            UpcomingRule::AlreadyRepeated => "already-repeated",
        }
    }

    /// The draw policy whose rule this is.
    pub fn policy(self) -> DrawPolicy {
        match self {
            UpcomingRule::AnyEarlier => DrawPolicy::Twofold,
            UpcomingRule::Stanback => DrawPolicy::Stanback,
            UpcomingRule::AtOrAfterRoot => DrawPolicy::Moreland,
            UpcomingRule::Stockfish => DrawPolicy::Stockfish,
            UpcomingRule::AlreadyRepeated => DrawPolicy::Threefold,
        }
    }

    /// Whether an upcoming cycle to P counts: P lies `back` plies behind the current position
    /// (odd), `plies_from_root` is the current position's distance from the root and `earlier`
    /// the number of occurrences of P on the line (P itself included, within its scan span:
    /// 2 or more means P had already repeated). The same as
    /// `self.policy().is_draw(Repetition { distance: back + 1, earlier }, plies_from_root + 1)`.
    #[inline]
    pub fn counts(self, back: u32, earlier: u32, plies_from_root: u32) -> bool {
        let repeated = earlier >= 2;
        match self {
            UpcomingRule::AnyEarlier => true,
            UpcomingRule::Stanback => repeated || plies_from_root + 1 > 2,
            UpcomingRule::AtOrAfterRoot => back <= plies_from_root || repeated,
            UpcomingRule::Stockfish => back < plies_from_root || repeated,
            UpcomingRule::AlreadyRepeated => repeated,
        }
    }

    /// Whether [`UpcomingRule::counts`] can depend on `earlier` (every rule but `AnyEarlier`),
    /// so a detector knows when counting P's occurrences is needed.
    #[inline]
    pub fn needs_count(self) -> bool {
        self != UpcomingRule::AnyEarlier
    }
}

impl fmt::Display for UpcomingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The two upcoming-cycle rules replab named before each draw policy had its own
/// ([`UpcomingRule`]); kept so that callers naming them still compile. Each converts into the
/// [`UpcomingRule`] of the same meaning. New code should take [`DrawPolicy::root_rule`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RootRule {
    /// Stockfish: a position after the root, or one at/before the root that had already
    /// repeated ([`UpcomingRule::Stockfish`], the `stockfish` policy's rule).
    #[default]
    Stockfish,
    /// Any earlier position of the line ([`UpcomingRule::AnyEarlier`], the `twofold`
    /// policy's rule).
    AnyEarlier,
}

impl From<RootRule> for UpcomingRule {
    fn from(rule: RootRule) -> UpcomingRule {
        match rule {
            RootRule::Stockfish => UpcomingRule::Stockfish,
            RootRule::AnyEarlier => UpcomingRule::AnyEarlier,
        }
    }
}

impl From<DrawPolicy> for UpcomingRule {
    /// [`DrawPolicy::root_rule`].
    fn from(policy: DrawPolicy) -> UpcomingRule {
        policy.root_rule()
    }
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
            "unknown draw policy {:?} (expected twofold, stanback, moreland, stockfish or \
             threefold)",
            self.0
        )
    }
}

impl std::error::Error for UnknownPolicy {}

impl FromStr for DrawPolicy {
    type Err = UnknownPolicy;
    /// A policy by its own name (engines' presets are the registry's: `replab_registry::policy`).
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
    fn each_policy_has_the_upcoming_rule_of_its_own_draws() {
        for p in DrawPolicy::ALL {
            let rule = p.root_rule();
            assert_eq!(rule.policy(), p);
            assert_eq!(UpcomingRule::from(p), rule);
            for ply in 0..12 {
                for back in (3..=15).step_by(2) {
                    for earlier in 1..=3 {
                        let next = Repetition {
                            distance: back + 1,
                            earlier,
                        };
                        assert_eq!(
                            rule.counts(back, earlier, ply),
                            p.is_draw(next, ply + 1),
                            "{p}: back {back}, earlier {earlier}, ply {ply}"
                        );
                    }
                }
            }
        }
        assert_eq!(UpcomingRule::ALL.map(UpcomingRule::policy), DrawPolicy::ALL);
        // The two older names keep their meaning.
        assert_eq!(
            UpcomingRule::from(RootRule::AnyEarlier),
            DrawPolicy::Twofold.root_rule()
        );
        assert_eq!(
            UpcomingRule::from(RootRule::Stockfish),
            DrawPolicy::Stockfish.root_rule()
        );
        // The root itself (back == ply): moreland counts it, stockfish does not.
        assert!(UpcomingRule::AtOrAfterRoot.counts(5, 1, 5));
        assert!(!UpcomingRule::Stockfish.counts(5, 1, 5));
        assert!(!UpcomingRule::AlreadyRepeated.counts(3, 1, 9));
        assert!(UpcomingRule::AlreadyRepeated.counts(9, 2, 0));
        assert!(!UpcomingRule::Stanback.counts(3, 1, 1));
        assert!(UpcomingRule::Stanback.counts(3, 1, 2));
    }

    #[test]
    fn only_twofold_needs_no_counts_and_gerbil_serves_moreland_and_stockfish() {
        for p in DrawPolicy::ALL {
            assert_eq!(p.needs_counts(), p != DrawPolicy::Twofold, "{p}");
            assert_eq!(
                p.needs_single_history(),
                !matches!(p, DrawPolicy::Moreland | DrawPolicy::Stockfish),
                "{p}"
            );
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
