//! The correctness experiments' integration tests, gathered into one test binary (one link, not one per
//! file): each file of this directory is a module.

mod audit;
mod common;
mod policies;
mod policy_cases;
mod scan;
