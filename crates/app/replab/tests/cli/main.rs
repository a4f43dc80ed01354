//! The command-line tests: exit codes, messages and files written, one module per subcommand,
//! all in one test binary sharing [`common`] (and [`manifest`], the workspace's `Cargo.toml`s read
//! for the layer and documentation tests).

mod common;
mod manifest;

mod audit;
mod bench;
mod carry;
mod conformance;
mod docs;
mod flags;
mod interrupt;
mod key_width;
mod layers;
mod pages;
mod reproduce;
mod scale;
mod scan;
mod selfplay;
mod smp;
mod suite;
mod threads;
mod tools;
mod uci;
