//! `replab audit`: every detector against the exact oracle (`replab_correctness::audit`).

use super::{NoOptions, Report};

/// `replab audit`.
pub struct Audit;

impl Report for Audit {
    type Experiment = replab_correctness::audit::Audit;
    type Own = NoOptions;
    const ABOUT: &'static str =
        "Audit every detector against the exact oracle on seeded random games";
    const QUICK: bool = true;
}
