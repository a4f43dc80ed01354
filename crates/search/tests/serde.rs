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
