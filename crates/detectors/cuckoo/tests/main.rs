//! The cuckoo detectors' integration tests, gathered into one test binary (one link, not one per
//! file): each file of this directory is a module.

mod policies;
mod truth_cases;
