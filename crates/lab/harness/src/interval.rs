//! The one interval type of every `results.json` and the noise rule of a time cell: the leaf
//! crate [`replab_interval`], re-exported under the harness's paths (`crate::interval::…`).

pub use replab_interval::*;
