//! `replab suite`: every detector on an EPD suite (`replab_cost::suite`).

use super::{NoOptions, Report};

/// `replab suite`.
pub struct Suite;

impl Report for Suite {
    type Experiment = replab_cost::suite::Suite;
    type Own = NoOptions;
    const ABOUT: &'static str =
        "Search every record of an EPD suite with every detector and write a report";
    const QUICK: bool = false;
}
