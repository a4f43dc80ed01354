//! `replab policies`: engines' draw policies as presets (`replab_correctness::policies`).

use super::{NoOptions, Report};

/// `replab policies`.
pub struct Policies;

impl Report for Policies {
    type Experiment = replab_correctness::policies::Policies;
    type Own = NoOptions;
    const ABOUT: &'static str =
        "Engines' draw policies as presets: scripted cases and their effect on search";
    const QUICK: bool = true;
}
