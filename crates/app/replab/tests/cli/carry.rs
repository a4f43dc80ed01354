//! `replab carry`: the recorded node costs carried to an engine's speed and slope, as a table
//! and as JSON that agree; inputs out of range and speeds the figures cannot describe exit 2.

use crate::common::*;

#[test]
fn the_table_and_its_json_carry_the_same_figures() {
    let args = ["carry", "--nps", "1000000", "--elo-per-doubling", "59"];
    let table = replab(&args);
    assert_eq!(table.status.code(), Some(0), "{}", text(&table.stderr));
    let table = text(&table.stdout);
    assert!(table.contains("Assumed: "), "{table}");
    let json = replab(&[&args[..], &["--json"]].concat());
    assert_eq!(json.status.code(), Some(0), "{}", text(&json.stderr));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let rows = report["rows"].as_array().unwrap();
    assert!(rows.len() >= 10, "{report}");
    for r in rows {
        let spec = r["cost"]["spec"].as_str().unwrap();
        let elo = r["elo"]["value"].as_f64().unwrap();
        let ns = r["cost"]["extra_ns"]["value"].as_f64().unwrap();
        // The formula, from the JSON's own inputs.
        let expected = -59.0 * (1.0 + ns * 1e-9 * 1e6).log2();
        assert!(
            (elo - expected).abs() < 1e-9,
            "{spec}: {elo} against {expected}"
        );
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("{spec} ")))
            .unwrap();
        let shown = replab_gauntlet::carry::fixed(elo, 2);
        assert!(line.contains(&shown), "{line} against {shown}");
    }
}

#[test]
fn inputs_out_of_range_or_beyond_the_figures_exit_2() {
    for args in [
        vec!["carry", "--nps", "0", "--elo-per-doubling", "59"],
        vec!["carry", "--nps", "1000000", "--elo-per-doubling", "-1"],
        vec!["carry", "--nps", "1000000"],
        // A saving larger than a node's whole time at ten billion nodes a second.
        vec!["carry", "--nps", "10000000000", "--elo-per-doubling", "59"],
    ] {
        let out = replab(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!text(&out.stderr).is_empty(), "{args:?}");
    }
}
