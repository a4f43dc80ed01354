//! replab's experiment harness: what an experiment is ([`experiment::Experiment`], its
//! [`experiment::Configuration`], the [`experiments!`] table that composes experiments into `bench`,
//! the numbered [`experiment::Steps`]), how it reports progress ([`Progress`], [`Bars`]), and
//! the statistics every result states ([`stats`]: medians with confidence intervals;
//! [`compare`]: a measured value against a reference by a decision rule; [`resolution`]: the
//! rule that keeps a timed verdict from flipping in a rerun), and what an
//! experiment gives the landing page's tables ([`contribution`]: typed values of open columns,
//! about detectors named by the registry's typed ids). It knows no experiment. See the crate's
//! README.

pub mod compare;
pub mod contribution;
pub mod experiment;
pub mod interval;
pub mod pool;
pub mod progress;
pub mod resolution;
pub mod stats;
pub mod unit;

pub use progress::{Bars, Progress, Recorded, Silent};
