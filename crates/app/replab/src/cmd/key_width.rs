//! `replab key-width`: key width and false draws (`replab_correctness::key_width`).

use super::{NoOptions, Report};

/// `replab key-width`.
pub struct KeyWidth;

impl Report for KeyWidth {
    type Experiment = replab_correctness::key_width::KeyWidth;
    type Own = NoOptions;
    const ABOUT: &'static str =
        "Key width and false draws: detectors with truncated Zobrist keys against exact identity";
    const QUICK: bool = true;
}
