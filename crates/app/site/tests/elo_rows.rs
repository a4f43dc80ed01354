//! The decision table's rows from a tiny gauntlet: at one pair only identical play gives an Elo
//! value (exact 0), and the gauntlet's baseline has its own row.

use replab_gauntlet::{Config, Elo, run};
use replab_harness::{
    Silent,
    contribution::{Choice, Role},
    experiment::Experiment,
};
use replab_registry::DetectorId;
use replab_site::bench::decision::table;

#[test]
fn a_tiny_gauntlet_gives_the_decision_table_its_rows() {
    let config = Config {
        nodes: 50,
        games: 2,
        tc_games: 0,
        threads: 2,
        smoke_run: false,
        ..Config::quick()
    };
    let results = run(&config, &mut Silent).unwrap();
    let table = table(&Elo::contributions(&results));
    let strength: Vec<usize> = (0..table.columns.len())
        .filter(|&i| table.columns[i].role == Role::Strength)
        .collect();
    assert_eq!(strength.len(), 1, "fixed nodes only");
    let off = table.row(Choice::detector(DetectorId::Off)).unwrap();
    // One pair gives no interval: `off` has a value only if it played identically (exact 0).
    let identical = results
        .rows
        .iter()
        .any(|r| r.a == "off" && r.games_identical && r.deterministic);
    let measured = off.cells[strength[0]].measured();
    assert_eq!(measured.len(), usize::from(identical));
    assert!(measured.iter().all(|m| m.exact && m.estimate.value == 0.0));
    let baseline = table
        .row(Choice::detector(DetectorId::reference()))
        .unwrap();
    assert!(baseline.baseline);
    // One pair per row gives no interval: no row is stronger, weaker or "keep linear".
    for row in &table.rows {
        let text = replab_site::bench::decision::recommendation(&table, row);
        for word in ["stronger", "weaker", "keep"] {
            assert!(!text.contains(word), "{text}");
        }
    }
    // A smoke run gives the table nothing.
    let mut smoke = results;
    smoke.config.settings.smoke_run = true;
    assert!(Elo::contributions(&smoke).is_empty());
}
