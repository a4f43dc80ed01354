//! `replab study`: the Axon experiment as a study (`replab_cost::study`).

use super::{NoOptions, Report};

/// `replab study`.
pub struct Study;

impl Report for Study {
    type Experiment = replab_cost::study::Study;
    type Own = NoOptions;
    const ABOUT: &'static str =
        "The Axon experiment as a study: sensitivity grid, endgame suite and verdict";
    const QUICK: bool = true;
}
