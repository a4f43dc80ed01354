//! Engines that play alike. A change of the engine's sources gives it a new digest
//! ([`replab_search::ENGINE_DIGEST`]), so every recording made with the old one reads as another
//! engine's. A change that was shown to leave the play untouched — the same moves in every game
//! of a fixed set of matches, `tools/compare_play.py` — is a step of
//! `datasets/engine-lineage.json`: recordings of play alone (the self-play slopes, the move
//! changes) made with the old engine still hold for the new one. Recordings of cost
//! (instructions or time per node) never follow a step: they are recorded again.

use serde::Deserialize;

/// The lineage, built into the binary.
pub const LINEAGE: &str = include_str!("../../../../datasets/engine-lineage.json");

/// The lineage's file, as users see it.
pub const LINEAGE_FILE: &str = "datasets/engine-lineage.json";

/// One change of the engine's sources that left its play as it was.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Step {
    /// The digest after the change.
    pub engine: String,
    /// The digest before it, whose play the new engine repeats.
    pub plays_as: String,
    /// The commit that made the change.
    pub commit: String,
    /// What changed, in a sentence.
    pub change: String,
    /// How the play was compared: `tools/compare_play.py`'s summary (its matches, games and
    /// how many were identical).
    pub evidence: Evidence,
}

/// `tools/compare_play.py --json`'s summary of the two builds' games.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Evidence {
    /// The old build's `replab --version`.
    pub old: String,
    /// The new build's.
    pub new: String,
    /// The games played by each build.
    pub games: u64,
    /// The games identical move for move.
    pub identical: u64,
}

/// The file's shape.
#[derive(Deserialize)]
struct Lineage {
    steps: Vec<Step>,
}

/// The steps of the built-in lineage.
///
/// # Panics
/// If the built-in file is malformed (a test reads it).
pub fn steps() -> Vec<Step> {
    serde_json::from_str::<Lineage>(LINEAGE)
        .unwrap_or_else(|e| panic!("{LINEAGE_FILE}: {e}"))
        .steps
}

/// Whether games and moves recorded with engine `recorded` are the play of `engine`: the same
/// digest, or a chain of `steps` from `engine` back to it, each step's games all identical.
pub fn plays_as(steps: &[Step], engine: &str, recorded: &str) -> bool {
    let mut now = engine;
    for _ in 0..=steps.len() {
        if now == recorded {
            return true;
        }
        match steps.iter().find(|s| s.engine == now && s.shown()) {
            Some(step) => now = &step.plays_as,
            None => return false,
        }
    }
    false
}

/// Whether a recording of play alone made with engine `recorded` holds for this build.
pub fn plays_as_this_build(recorded: &str) -> bool {
    plays_as(&steps(), replab_search::ENGINE_DIGEST, recorded)
}

impl Step {
    /// Whether the evidence shows the step: games were played and every one was identical, by
    /// builds of the step's two digests.
    pub fn shown(&self) -> bool {
        let e = &self.evidence;
        e.games > 0
            && e.identical == e.games
            && e.old.contains(&format!("(engine {})", self.plays_as))
            && e.new.contains(&format!("(engine {})", self.engine))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(engine: &str, plays_as: &str, identical: u64) -> Step {
        Step {
            engine: engine.into(),
            plays_as: plays_as.into(),
            commit: "c".into(),
            change: "a change".into(),
            evidence: Evidence {
                old: format!("replab 0.1.0 (engine {plays_as})"),
                new: format!("replab 0.1.0 (engine {engine})"),
                games: 140,
                identical,
            },
        }
    }

    /// A chain of shown steps joins the engines; one game that differs, a step of other
    /// builds, or no step breaks it; steps never run backwards.
    #[test]
    fn recordings_follow_only_steps_whose_games_were_all_identical() {
        let chain = [step("c3", "b2", 140), step("b2", "a1", 140)];
        assert!(plays_as(&chain, "c3", "c3"));
        assert!(plays_as(&chain, "c3", "a1"));
        assert!(!plays_as(&chain, "a1", "c3"));
        assert!(!plays_as(&chain, "c3", "z9"));
        let differs = [step("c3", "b2", 140), step("b2", "a1", 139)];
        assert!(plays_as(&differs, "c3", "b2"));
        assert!(!plays_as(&differs, "c3", "a1"));
        let mut other_builds = step("b2", "a1", 140);
        other_builds.evidence.old = "replab 0.1.0 (engine x0)".into();
        assert!(!plays_as(&[other_builds], "b2", "a1"));
        let looped = [step("a1", "b2", 140), step("b2", "a1", 140)];
        assert!(!plays_as(&looped, "a1", "z9"));
    }

    /// The built-in lineage reads, and each step's evidence shows it.
    #[test]
    fn the_built_in_lineage_is_shown_step_by_step() {
        for s in steps() {
            assert!(
                s.shown(),
                "{LINEAGE_FILE}: the step to {} is not shown",
                s.engine
            );
            assert!(s.commit.len() == 40 && s.commit.chars().all(|c| c.is_ascii_hexdigit()));
        }
    }
}
