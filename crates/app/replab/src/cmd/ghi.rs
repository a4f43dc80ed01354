//! `replab ghi`: graph-history interaction (`replab_correctness::ghi`).

use super::{NoOptions, Report};

/// `replab ghi`.
pub struct Ghi;

impl Report for Ghi {
    type Experiment = replab_correctness::ghi::Ghi;
    type Own = NoOptions;
    const ABOUT: &'static str =
        "Graph-history interaction: path-dependent draws reused from the transposition table";
    const QUICK: bool = true;
}
