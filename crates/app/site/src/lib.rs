//! replab's report site: [`bench`] runs the table of every experiment (`replab bench`),
//! writes each report and then the landing page, whose decision table ([`bench::decision`]),
//! headlines, ranking and sections come from the experiments' typed results. See the crate's
//! README.

pub mod bench;
