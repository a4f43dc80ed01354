//! The scenario files: the battery built into the binary, a file given on the command line,
//! parsed and checked, and the scenarios a run plays ([`Config::load`]).

use anyhow::{Context, Result};

use crate::{Config, Game, Scenario};

/// The scenarios built into the binary (`datasets/conformance.json`).
pub const BUILT_IN: &str = include_str!("../../../../datasets/conformance.json");

/// Reads a scenario file.
pub fn load(path: &std::path::Path) -> Result<Vec<Scenario>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse(&text, &path.display().to_string())
}

/// Parses scenarios from JSON text (`name` for messages): ids must be unique.
pub fn parse(text: &str, name: &str) -> Result<Vec<Scenario>> {
    let all: Vec<Scenario> =
        serde_json::from_str(text).with_context(|| format!("{name}: bad scenario file"))?;
    for (i, s) in all.iter().enumerate() {
        anyhow::ensure!(
            !all[..i].iter().any(|t| t.id == s.id),
            "{name}: scenario id {} given twice",
            s.id
        );
        anyhow::ensure!(
            s.draw_margin.is_none_or(|m| (0..=1000).contains(&m)),
            "{name}: scenario {}: draw_margin {:?} is out of range (0 to 1000 cp)",
            s.id,
            s.draw_margin
        );
        anyhow::ensure!(
            s.same_bug_as.is_empty() || all.iter().any(|t| t.id == s.same_bug_as && t.id != s.id),
            "{name}: scenario {}: same_bug_as {:?} names no other scenario",
            s.id,
            s.same_bug_as
        );
        anyhow::ensure!(
            (s.expect == "same")
                == all
                    .iter()
                    .any(|t| t.id == s.same_verdict_as && t.id != s.id),
            "{name}: scenario {}: expect \"same\" needs same_verdict_as naming another scenario, \
             and same_verdict_as needs expect \"same\"",
            s.id
        );
    }
    Ok(all)
}

/// The built-in scenarios.
pub fn built_in() -> Vec<Scenario> {
    parse(BUILT_IN, replab_workloads::datasets::CONFORMANCE).expect("the built-in scenarios parse")
}

impl Config {
    /// The scenarios this run plays: the built-in ones, those of [`Config::scenarios`]
    /// replacing or added to them, then `only` and `skip`. An id named in `only`, `skip` or
    /// `expect_fail` that no scenario has is an error.
    pub fn load(&self) -> Result<Vec<Scenario>> {
        let mut all = parse(BUILT_IN, replab_workloads::datasets::CONFORMANCE)?;
        if let Some(path) = &self.scenarios {
            for s in load(path)? {
                match all.iter_mut().find(|b| b.id == s.id) {
                    Some(b) => *b = s,
                    None => all.push(s),
                }
            }
        }
        for (option, ids) in [
            (crate::Config::ONLY, &self.only),
            (crate::Config::SKIP, &self.skip),
            (crate::Config::EXPECT_FAIL, &self.expect_fail),
        ] {
            if let Some(id) = ids.iter().find(|id| !all.iter().any(|s| &s.id == *id)) {
                anyhow::bail!(
                    "{option} {id}: no such scenario (see {set_list})",
                    set_list = crate::Config::LIST
                );
            }
        }
        all.retain(|s| self.only.is_empty() || self.only.contains(&s.id));
        all.retain(|s| !self.skip.contains(&s.id));
        anyhow::ensure!(
            !all.is_empty(),
            "no scenario left to run ({set_only}, {set_skip})",
            set_only = crate::Config::ONLY,
            set_skip = crate::Config::SKIP
        );
        for s in &all {
            Game::replay(&s.fen, &s.moves).with_context(|| format!("scenario {}", s.id))?;
        }
        Ok(all)
    }

    /// The file named in the results: the built-in scenarios, and the file given (named once
    /// when it holds the built-in scenarios).
    pub(crate) fn source(&self) -> String {
        match &self.scenarios {
            None => format!("{} (built in)", replab_workloads::datasets::CONFORMANCE),
            // `bench` reads the dataset itself: one file, named once.
            Some(p) if std::fs::read_to_string(p).is_ok_and(|text| text == BUILT_IN) => {
                p.display().to_string()
            }
            Some(p) => format!(
                "{} (built in) and {}",
                replab_workloads::datasets::CONFORMANCE,
                p.display()
            ),
        }
    }
}
