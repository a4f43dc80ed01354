//! The decision table's rows from a tiny gauntlet: `off` has its one Elo cell and the
//! gauntlet's baseline its own row.

use replab_harness::{Silent, experiment::Experiment};
use replab_rules::elo::{BASELINE, Config, Elo, run};
use replab_site::bench::decision::choices;

#[test]
fn a_tiny_gauntlet_gives_the_decision_table_its_rows() {
    let config = Config {
        nodes: 50,
        games: 2,
        tc_games: 0,
        threads: 2,
        ..Config::quick()
    };
    let results = run(&config, &mut Silent).unwrap();
    let rows = choices(&Elo::ranking(&results));
    let off = rows.iter().find(|r| r.spec == "off").unwrap();
    assert_eq!(off.elo.len(), 1);
    assert!(rows.iter().any(|r| r.spec == BASELINE && r.baseline));
}
