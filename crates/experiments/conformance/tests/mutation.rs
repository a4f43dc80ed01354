//! The suite discriminates: replab's test engine passes every scenario clean, and each injected
//! draw-rule bug is caught by at least one scenario whatever order its moves are generated in.

use std::time::Duration;

use replab_conformance::{self as conformance, mutation};
use replab_harness::Silent;

#[test]
fn every_injected_bug_is_caught_in_both_move_orders_and_the_clean_engine_passes() {
    let scenarios = conformance::built_in();
    let start = std::time::Instant::now();
    let rows = mutation::table(&scenarios, Duration::from_secs(60), &mut Silent).unwrap();
    for r in &rows {
        println!(
            "{:22} | {} | reversed: {}",
            r.bug,
            r.caught.join(" "),
            r.caught_reversed.join(" ")
        );
    }
    println!(
        "{} rows in {:.1} s",
        rows.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(rows.len() >= 16, "the clean engine and at least 15 bugs");
    let wrong: Vec<&str> = rows
        .iter()
        .filter(|r| !r.holds())
        .map(|r| r.bug.as_str())
        .collect();
    assert!(
        wrong.is_empty(),
        "rows that do not hold (a bug missed in one order, or the clean engine failing): {wrong:?}"
    );
}
