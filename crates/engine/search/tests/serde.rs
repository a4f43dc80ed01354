//! With the `serde` feature, the searcher's configuration and counters round-trip through JSON
//! with their field names unchanged (they are a JSON contract).
#![cfg(feature = "serde")]

use replab_detect::DrawPolicy;
use replab_search::{Counters, SearchConfig};

#[test]
fn counters_round_trip_with_their_field_names() {
    let counters = Counters {
        nodes: 1,
        terminal_nodes: 2,
        generated: 3,
        repetitions: 4,
        probes: 5,
        hits: 6,
    };
    let json = serde_json::to_string(&counters).unwrap();
    assert_eq!(
        json,
        r#"{"nodes":1,"terminal_nodes":2,"generated":3,"repetitions":4,"probes":5,"hits":6}"#
    );
    assert_eq!(serde_json::from_str::<Counters>(&json).unwrap(), counters);
}

#[test]
fn search_configs_round_trip_with_the_policy_by_name() {
    let config = SearchConfig {
        max_depth: 7,
        policy: DrawPolicy::Moreland,
        contempt: -25,
        tt_bits: None,
        node_limit: Some(1000),
        ..SearchConfig::default()
    };
    let value = serde_json::to_value(config).unwrap();
    assert_eq!(value["policy"], "moreland");
    assert_eq!(value["max_depth"], 7);
    assert_eq!(value["tt_bits"], serde_json::Value::Null);
    assert_eq!(value["node_limit"], 1000);
    assert_eq!(
        serde_json::from_value::<SearchConfig>(value).unwrap(),
        config
    );
}

#[test]
fn older_configs_without_the_new_options_still_parse() {
    // A configuration as serialised before `tt_mode`, `extension_limit`, `eval`,
    // `tt_cutoff_halfmove` and `tt_halfmove_bucket` existed.
    let old = r#"{"max_depth":12,"policy":"twofold","contempt":0,"null_move":true,
        "null_reduction":2,"tt_bits":20,"check_extension":true,"qsearch_checks":false,
        "node_limit":null}"#;
    assert_eq!(
        serde_json::from_str::<SearchConfig>(old).unwrap(),
        SearchConfig::default()
    );
}

#[test]
fn new_options_serialise_by_name() {
    use replab_search::{Eval, ExtensionLimit, TtMode};
    let config = SearchConfig {
        tt_mode: TtMode::NoPathScores,
        extension_limit: ExtensionLimit::MaxPly,
        eval: Eval::Material,
        tt_cutoff_halfmove: Some(90),
        tt_halfmove_bucket: Some(8),
        ..SearchConfig::axon_like()
    };
    let value = serde_json::to_value(config).unwrap();
    assert_eq!(value["tt_mode"], "no-path-scores");
    assert_eq!(value["extension_limit"], "max-ply");
    assert_eq!(value["eval"], "material");
    assert_eq!(value["tt_cutoff_halfmove"], 90);
    assert_eq!(value["tt_halfmove_bucket"], 8);
    assert_eq!(value["qsearch_checks"], true);
    assert_eq!(
        serde_json::from_value::<SearchConfig>(value).unwrap(),
        config
    );
    for m in TtMode::ALL {
        assert_eq!(
            serde_json::to_value(m).unwrap(),
            serde_json::Value::from(m.name())
        );
    }
    for l in ExtensionLimit::ALL {
        assert_eq!(
            serde_json::to_value(l).unwrap(),
            serde_json::Value::from(l.name())
        );
    }
    for e in Eval::ALL {
        assert_eq!(
            serde_json::to_value(e).unwrap(),
            serde_json::Value::from(e.name())
        );
    }
}
