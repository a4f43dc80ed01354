//! The scenario model: one scenario of the battery, what it expects in words, the position it
//! sets up, and the scenarios an expected failure covers.

use serde::{Deserialize, Serialize};

/// A score within ±`DRAW_MARGIN` centipawns is a draw (engines add small noise to draws).
pub const DRAW_MARGIN: i32 = 10;
/// A score of at least `WIN_MARGIN` centipawns (or a mate) is a win.
pub const WIN_MARGIN: i32 = 200;

/// One scenario of the battery (a record of `datasets/conformance.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Short name.
    pub id: String,
    /// The FIDE Laws article it checks.
    pub rule: String,
    /// What happens and why the outcome is fixed.
    pub description: String,
    /// The game's start position.
    pub fen: String,
    /// The game's moves (UCI, space separated), the history the engine sees.
    #[serde(default)]
    pub moves: String,
    /// Fixed search depth.
    pub depth: u32,
    /// `draw`, `no-draw`, `win`, `mate`, `info` (informational: the rules allow either) or
    /// `same` (the verdict of [`Scenario::same_verdict_as`]).
    pub expect: String,
    /// The best move must be one of these (if given).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bestmove: Vec<String>,
    /// The best move must not be one of these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub avoid: Vec<String>,
    /// The answer depends on recognising a repeated position: an engine with repetition
    /// detection switched off fails it (checked by the suite's own test).
    #[serde(default)]
    pub repetition: bool,
    /// Draw policies whose search rule gives another answer than the Laws here (replab's
    /// engine under them is expected to fail; e.g. `twofold` on a second occurrence).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded_policies: Vec<String>,
    /// The engine bug (tracker issue or pull request) the scenario comes from, if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// Why replab's own engine is not held to the scenario (a rule its searcher does not
    /// implement, such as dead positions); empty when it is.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub outside_replab: String,
    /// The scenario whose bug this one probes from another position (empty when none):
    /// `--expect-fail` of that id covers this one too, since an engine with the bug fails
    /// both.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub same_bug_as: String,
    /// For `expect: same`: the scenario that sets up the same position another way (empty
    /// when none). The engine passes when it scores both alike, a draw in both or in neither,
    /// whatever its repetition policy says of either alone.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub same_verdict_as: String,
    /// The widest score, in centipawns, still taken for a draw here; `None` for
    /// [`DRAW_MARGIN`]. Wider where the Laws end the game but engines only evaluate it (a
    /// dead position scored near zero by evaluation, not as an exact draw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_margin: Option<i32>,
}

impl Scenario {
    /// The widest score (centipawns) this scenario takes for a draw.
    pub fn draw_margin(&self) -> i32 {
        self.draw_margin.unwrap_or(DRAW_MARGIN)
    }

    /// What every rule-following engine must answer, in words.
    pub fn expected(&self) -> String {
        let mut text = match self.expect.as_str() {
            "draw" if self.draw_margin() != DRAW_MARGIN => {
                format!("a draw score (within ±{} cp)", self.draw_margin())
            }
            "draw" => "a draw score".to_string(),
            "no-draw" => "not a draw score".to_string(),
            "win" => "a winning score".to_string(),
            "mate" => "a mate score".to_string(),
            "same" => format!(
                "the same verdict as {} (a draw score in both or in neither)",
                self.same_verdict_as
            ),
            _ => "either (informational)".to_string(),
        };
        if !self.bestmove.is_empty() {
            text += &format!(", bestmove {}", self.bestmove.join(" or "));
        }
        if !self.avoid.is_empty() {
            text += &format!(", not {}", self.avoid.join(" or "));
        }
        text
    }

    /// The `position` command that sets the scenario up.
    pub fn position(&self) -> String {
        let mut position = format!("position fen {}", self.fen);
        if !self.moves.trim().is_empty() {
            position.push_str(" moves ");
            position.push_str(self.moves.trim());
        }
        position
    }
}

/// The scenario ids `--expect-fail ids` covers: the ids, and every scenario that probes the
/// same bug as one of them ([`Scenario::same_bug_as`]), in scenario order.
pub fn expected_failures(ids: &[String], scenarios: &[Scenario]) -> Vec<String> {
    let mut covered: Vec<String> = ids.to_vec();
    for s in scenarios {
        if ids.contains(&s.same_bug_as) && !covered.contains(&s.id) {
            covered.push(s.id.clone());
        }
    }
    covered
}
