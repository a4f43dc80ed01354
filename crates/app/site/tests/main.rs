//! The site crate's integration tests, gathered into one test binary (one link, not one per
//! file): each file of this directory is a module.

mod custom_detector;
mod elo_rows;
mod experiment_table;
mod full_landing;
