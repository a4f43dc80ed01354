//! The command-line tests: exit codes, messages and files written, one module per subcommand,
//! all in one test binary sharing [`common`].

mod common;

mod audit;
mod bench;
mod conformance;
mod docs;
mod flags;
mod interrupt;
mod key_width;
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
