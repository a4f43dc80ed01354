//! Draw-policy presets of real engines: each engine's repetition rule as read in its source,
//! mapped onto the [`DrawPolicy`] that scores exactly the same repetitions.
//!
//! Every engine read so far turned out to follow one of replab's five policies exactly, so a
//! preset is an *alias*: `--policy weiss` is `--policy twofold` (same searches, same counts),
//! and results record the policy's own name. [`policy`] reads a policy or preset name, and is
//! what every command line, UCI option and player specification reads a policy with. The
//! cuckoo rule of a preset is its policy's
//! [`DrawPolicy::root_rule`] (the upcoming cycle counts exactly when the policy would score the
//! repetition one ply later as a draw); where an engine's own upcoming-cycle code uses another
//! rule, [`EnginePreset::upcoming_note`] says so.

use std::fmt;

use replab_detect::DrawPolicy;

/// One engine's draw policy: its name, the policy it equals, and where the rule was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnginePreset {
    /// The preset's name (`weiss`, `lc0`, …), accepted wherever a policy name is.
    pub name: &'static str,
    /// The engine it follows.
    pub engine: &'static str,
    /// The policy that scores exactly the repetitions the engine scores.
    pub policy: DrawPolicy,
    /// The engine's rule, in words, as read in its code.
    pub rule: &'static str,
    /// Where the rule was read: repository (GitHub `owner/name`, or the source's name) and
    /// files with the functions.
    pub source: &'static str,
    /// How the engine's own upcoming-cycle (cuckoo) code differs from the policy's rule, if it
    /// does (empty when it has none or follows the policy's).
    pub upcoming_note: &'static str,
}

/// The engines' presets, in the order reports list them. Each was checked against its source
/// (snapshots read in 2026); see `docs/contracts.md#draw-policies`.
pub const PRESETS: [EnginePreset; 7] = [
    EnginePreset {
        name: "stockfish",
        engine: "Stockfish",
        policy: DrawPolicy::Stockfish,
        rule: "a repetition is a draw when its earlier occurrence lies strictly after the root \
               (st->repetition < ply), or the position had already repeated (negative \
               st->repetition: 3-fold anywhere); a single repeat of the root is not a draw",
        source: "official-stockfish/Stockfish src/position.cpp (do_move, is_repetition, \
                 upcoming_repetition), src/search.cpp",
        upcoming_note: "",
    },
    EnginePreset {
        name: "crafty",
        engine: "Crafty 25",
        policy: DrawPolicy::Twofold,
        rule: "Repeat() scans rep_list from 4 plies back to the last irreversible move and \
               returns a draw on the first match, history before the root included; Search() \
               calls it at every node but the root (ply > 1); Repeat3x() (true 3-fold) is only \
               used to claim draws at the root",
        source: "Crafty source/repeat.c (Repeat, Repeat3x), source/search.c, source/quiesce.c \
                 (mirror MartinMSPedersen/Crafty-Chess)",
        upcoming_note: "",
    },
    EnginePreset {
        name: "weiss",
        engine: "Weiss",
        policy: DrawPolicy::Twofold,
        rule: "IsRepetition() compares keys 4, 6 … plies back up to rule50 and the game's \
               start: any 2-fold since the last zeroing move, no root distinction; checked at \
               every node but the root",
        source: "TerjeKir/weiss src/board.h (IsRepetition), src/board.c (HasCycle), \
                 src/search.c",
        upcoming_note: "Weiss's HasCycle() uses Stockfish's upcoming rule (a cycle to a \
                        position at or before the root counts only if that position had \
                        already repeated), stricter than its own 2-fold probe",
    },
    EnginePreset {
        name: "koivisto",
        engine: "Koivisto",
        policy: DrawPolicy::Twofold,
        rule: "computeNewRepetition() sets the repetition counter to 2 on any match 2 … \
               fiftyMoveCounter plies back (counters start at 1); isDraw() is counter >= 2, \
               checked at ply > 0: any 2-fold since the last zeroing move, history included",
        source: "Luecx/Koivisto src_files/board.cpp (computeNewRepetition, isDraw), \
                 src_files/search.cpp",
        upcoming_note: "",
    },
    EnginePreset {
        name: "viridithas",
        engine: "Viridithas",
        policy: DrawPolicy::Moreland,
        rule: "is_repetition() scans from 4 plies back: a match with dist_back < height (the \
               root counted as inside the tree) is a draw at once, else two matches (3-fold) \
               are needed",
        source: "cosmobobak/viridithas src/chess/board/mod.rs (is_repetition, is_draw, \
                 has_game_cycle), src/search.rs",
        upcoming_note: "Viridithas's has_game_cycle() counts a cycle to a position strictly \
                        after the root, and one at or before the root whenever the move is the \
                        side to move's (no already-repeated check): any earlier position, \
                        looser than its own probe",
    },
    EnginePreset {
        name: "lc0",
        engine: "Leela Chess Zero",
        policy: DrawPolicy::Moreland,
        rule: "a node is a terminal draw when repetitions >= 2 (3-fold), or, with TwoFoldDraws \
               (default on), when repetitions == 1 and the cycle lies inside the tree \
               (depth - 1 >= 4 and depth - 1 >= the cycle length, the root included)",
        source: "LeelaChessZero/lc0 src/chess/position.cc (ComputeLastMoveRepetitions), \
                 src/search/classic/search.cc (ExtendNode), src/search/classic/params.cc",
        upcoming_note: "lc0 has no upcoming-cycle detection (it searches by Monte Carlo tree \
                        search, not alpha-beta)",
    },
    EnginePreset {
        name: "threefold",
        engine: "FIDE (no engine)",
        policy: DrawPolicy::Threefold,
        rule: "a repetition is a draw only at the third occurrence (two earlier ones)",
        source: "FIDE Laws of Chess, article 9.2",
        upcoming_note: "",
    },
];

impl EnginePreset {
    /// The preset of a name.
    pub fn by_name(name: &str) -> Option<&'static EnginePreset> {
        PRESETS.iter().find(|p| p.name == name)
    }
}

/// An error naming an unknown draw policy or engine preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPolicy(pub String);

impl fmt::Display for UnknownPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The presets not named like a policy, as `a, b or c`.
        let presets: Vec<&str> = PRESETS
            .iter()
            .map(|p| p.name)
            .filter(|n| DrawPolicy::ALL.iter().all(|q| q.name() != *n))
            .collect();
        let (last, rest) = presets
            .split_last()
            .expect("presets not named like a policy");
        write!(
            f,
            "unknown draw policy {:?} (expected twofold, stanback, moreland, stockfish or \
             threefold, or an engine preset: {} or {last})",
            self.0,
            rest.join(", ")
        )
    }
}

impl std::error::Error for UnknownPolicy {}

/// A draw policy by its name, or by the name of an engine preset, which stands for the policy
/// it equals (`weiss` is `twofold`, `lc0` is `moreland`).
pub fn policy(name: &str) -> Result<DrawPolicy, UnknownPolicy> {
    name.parse()
        .ok()
        .or_else(|| EnginePreset::by_name(name).map(|p| p.policy))
        .ok_or_else(|| UnknownPolicy(name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_aliases_of_their_policies() {
        for p in &PRESETS {
            assert_eq!(policy(p.name), Ok(p.policy), "{}", p.name);
            assert_eq!(EnginePreset::by_name(p.name), Some(p));
            assert!(!p.source.is_empty() && !p.rule.is_empty());
        }
        // The engines the sources group together.
        for name in ["crafty", "weiss", "koivisto"] {
            assert_eq!(policy(name), Ok(DrawPolicy::Twofold));
            assert!(
                name.parse::<DrawPolicy>().is_err(),
                "not a policy's own name"
            );
        }
        for name in ["viridithas", "lc0"] {
            assert_eq!(policy(name), Ok(DrawPolicy::Moreland));
        }
        for p in DrawPolicy::ALL {
            assert_eq!(policy(p.name()), Ok(p));
        }
        // A preset named like a policy is that policy.
        for p in PRESETS.iter().filter(|p| policy(p.name).is_ok()) {
            if let Some(same) = DrawPolicy::ALL.iter().find(|q| q.name() == p.name) {
                assert_eq!(*same, p.policy);
            }
        }
        assert!(policy("Weiss").is_err());
        assert!(EnginePreset::by_name("nosuch").is_none());
        assert_eq!(
            policy("x").unwrap_err().to_string(),
            "unknown draw policy \"x\" (expected twofold, stanback, moreland, stockfish or \
             threefold, or an engine preset: crafty, weiss, koivisto, viridithas or lc0)"
        );
    }
}
