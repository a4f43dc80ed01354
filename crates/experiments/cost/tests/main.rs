//! The cost experiments' integration tests, gathered into one test binary (one link, not one per
//! file): each file of this directory is a module.

mod reproduce;
mod suite;
