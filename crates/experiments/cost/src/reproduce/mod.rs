//! `replab reproduce <experiment>`: reruns a paper's experiment on replab's searcher and writes
//! a report (docs/contracts.md, `replab reproduce axon`). One experiment so far: [`axon`].

pub mod axon;
