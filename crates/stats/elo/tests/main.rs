//! The match statistics' integration tests, gathered into one test binary (one link, not one per
//! file): each file of this directory is a module.

mod coverage;
mod properties;
mod sprt_reach;
mod vectors;
