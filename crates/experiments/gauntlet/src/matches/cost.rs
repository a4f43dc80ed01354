//! The costs behind `replab match --nodes N --scale-by-cost`: each player's instructions per
//! node on the `player:<spec>` workload of [`replab_workloads::callgrind`] (its searcher on the
//! first [`PLAYER_POSITIONS`] Bratko–Kopec positions, [`PLAYER_NODES`] nodes each), counted
//! by callgrind in a child `replab measure` — exact, the same on every run of one build. Where
//! valgrind is not installed the costs come from the table recorded in
//! `datasets/player-costs.json` (by `tools/record_player_costs.py`), and the results say so;
//! a player the table lacks is an error, never a guess.

use std::{collections::BTreeMap, path::Path};

use anyhow::{Context, Result, anyhow, ensure};
use replab_selfplay::{CostScaling, MatchConfig, MatchOptions, PlayerSpec};
use replab_workloads::callgrind::{self, PLAYER_NODES, PLAYER_POSITIONS};
use serde::{Deserialize, Serialize};

/// The recorded table, built in.
pub const RECORDED: &str = include_str!("../../../../../datasets/player-costs.json");

/// Where the recorded table lives in the repository.
pub const RECORDED_FILE: &str = "datasets/player-costs.json";

/// The recorded table: instructions per node by canonical player specification.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Recorded {
    /// Which build, valgrind and machine counted them.
    pub recorded: String,
    /// The workload, described.
    pub workload: String,
    /// Instructions per node by canonical specification.
    pub costs: BTreeMap<String, f64>,
    /// The digest of the engine that was counted ([`replab_search::ENGINE_DIGEST`]); `None` in
    /// a table recorded before digests were kept.
    #[serde(default)]
    pub engine: Option<String>,
}

impl Recorded {
    /// Why the table may not be this build's costs: it was counted with another engine (or
    /// with one of unknown digest); `None` when it was counted with this one.
    pub fn staleness(&self) -> Option<String> {
        let now = replab_search::ENGINE_DIGEST;
        match &self.engine {
            Some(digest) if digest == now => None,
            Some(digest) => Some(format!(
                "{RECORDED_FILE} was counted with engine {digest}, not with this build's \
                 engine {now}: record it again with tools/record_player_costs.py"
            )),
            None => Some(format!(
                "{RECORDED_FILE} carries no engine digest (recorded before digests were kept); \
                 this build's engine is {now}: record it again with tools/record_player_costs.py"
            )),
        }
    }
}

/// What `bench` says of the recorded table: why it may not hold this build's costs, or
/// `None` when it was counted with this engine.
pub fn recorded_staleness() -> Option<String> {
    match recorded() {
        Ok(table) => table.staleness(),
        Err(e) => Some(format!("{e:#}")),
    }
}

/// The workload, described for the results.
pub fn workload() -> String {
    format!(
        "player:<spec>: the player's searcher on the first {PLAYER_POSITIONS} positions of \
         bk.epd, {PLAYER_NODES} nodes each, instructions counted by callgrind"
    )
}

/// Refuses what equal cost cannot mean: a clock, or a player that brings its own budget.
pub fn check(config: &MatchConfig) -> Result<()> {
    let scale_by_cost = super::Config::SCALE_BY_COST;
    ensure!(
        config.control.deterministic(),
        "{scale_by_cost} scales node budgets: it needs {}, not {}",
        MatchOptions::NODES,
        MatchOptions::TC
    );
    for (option, spec) in [(MatchOptions::A, &config.a), (MatchOptions::B, &config.b)] {
        ensure!(
            spec.nodes.is_none(),
            "{scale_by_cost} sets each player's nodes: {option} {spec} gives its own"
        );
    }
    Ok(())
}

/// Instructions per node already counted in this process, by canonical specification (a
/// gauntlet counts its baseline once, not once per row).
pub type Counted = BTreeMap<String, f64>;

/// The equal-cost budgets of `config`: B keeps `--nodes`, A gets as many as the same
/// instructions buy. Counted with `exe` under valgrind where both exist, else from the
/// recorded table.
pub fn scaling(config: &MatchConfig, exe: Option<&Path>) -> Result<CostScaling> {
    scaling_cached(config, exe, &mut Counted::new())
}

/// [`scaling`], counting each player once across calls with the same `cache`.
pub fn scaling_cached(
    config: &MatchConfig,
    exe: Option<&Path>,
    cache: &mut Counted,
) -> Result<CostScaling> {
    check(config)?;
    let nodes = config.control.nodes().expect("checked: fixed nodes");
    let (a, b, source) = match (exe, callgrind::available()) {
        (Some(exe), Some(version)) => {
            count_players(exe, [&config.a, &config.b], cache)?;
            let cost = |spec: &PlayerSpec| cache[&spec.to_string()];
            (
                cost(&config.a),
                cost(&config.b),
                format!("callgrind ({version}) on {}", exe.display()),
            )
        }
        (exe, _) => {
            let table = recorded()?;
            (
                looked_up(&table, &config.a)?,
                looked_up(&table, &config.b)?,
                recorded_source(&table, exe.is_some()),
            )
        }
    };
    Ok(CostScaling::new(nodes, a, b, workload(), source))
}

/// The source of costs taken from the recorded table, with why (valgrind missing where there was
/// a binary to count with, else a run that does not count: `bench --quick`) and its staleness
/// where it has one.
fn recorded_source(table: &Recorded, had_exe: bool) -> String {
    let why = if had_exe {
        "valgrind not available"
    } else {
        "not counted in this run"
    };
    let source = format!(
        "{why}: the table recorded in {RECORDED_FILE} ({})",
        table.recorded
    );
    match table.staleness() {
        Some(stale) => format!("{source}; {stale}"),
        None => source,
    }
}

/// Counts the instructions per node of each of `players` that `cache` lacks into `cache`,
/// each in a child process of its own, two at a time (valgrind must be installed).
pub fn count_players<'a>(
    exe: &Path,
    players: impl IntoIterator<Item = &'a PlayerSpec>,
    cache: &mut Counted,
) -> Result<()> {
    let mut keys: Vec<String> = players
        .into_iter()
        .map(PlayerSpec::to_string)
        .filter(|key| !cache.contains_key(key))
        .collect();
    keys.sort();
    keys.dedup();
    if keys.is_empty() {
        return Ok(());
    }
    let workloads: Vec<String> = keys.iter().map(|key| format!("player:{key}")).collect();
    let measured = callgrind::count_each(exe, &workloads)?.ok_or_else(|| {
        anyhow!(
            "valgrind disappeared while counting {}",
            workloads.join(" ")
        )
    })?;
    cache.extend(keys.into_iter().zip(measured.iter().map(|m| m.per_unit)));
    Ok(())
}

/// The built-in recorded table.
pub fn recorded() -> Result<Recorded> {
    serde_json::from_str(RECORDED).with_context(|| format!("{RECORDED_FILE}: bad table"))
}

/// The player's recorded instructions per node.
fn looked_up(table: &Recorded, spec: &PlayerSpec) -> Result<f64> {
    let key = spec.to_string();
    table.costs.get(&key).copied().ok_or_else(|| {
        anyhow!(
            "instructions are not counted in this run (no valgrind, or no replab binary to \
             count with) and {RECORDED_FILE} has no cost for {key:?} (it has {}): install \
             valgrind, or record the player with tools/record_player_costs.py",
            table.costs.keys().cloned().collect::<Vec<_>>().join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(a: &str, b: &str) -> MatchConfig {
        MatchOptions {
            a: a.into(),
            b: b.into(),
            nodes: Some(1000),
            ..MatchOptions::default()
        }
        .config()
        .unwrap()
    }

    #[test]
    fn the_recorded_table_keys_are_canonical_specs_with_positive_costs() {
        let table = recorded().unwrap();
        assert!(table.costs.len() >= 10, "{:?}", table.costs.keys());
        for (key, cost) in &table.costs {
            assert_eq!(&PlayerSpec::parse(key).unwrap().to_string(), key);
            assert!(*cost > 0.0, "{key}");
        }
    }

    #[test]
    fn without_valgrind_the_table_scales_and_a_missing_player_is_an_error() {
        let table = recorded().unwrap();
        let s = scaling(&config("tt-open", "linear"), None).unwrap();
        let (a, b) = (table.costs["tt-open"], table.costs["linear"]);
        assert_eq!(s.a_nodes, (1000.0 * b / a).round() as u64);
        assert_eq!(s.b_nodes, 1000);
        assert!(s.source.contains(RECORDED_FILE), "{}", s.source);
        // No binary to count with: the run did not count, whether or not valgrind is here.
        assert!(
            s.source.starts_with("not counted in this run: "),
            "{}",
            s.source
        );
        let table_source = |had_exe| recorded_source(&table, had_exe);
        assert!(table_source(true).starts_with("valgrind not available: "));
        assert!(table_source(false).starts_with("not counted in this run: "));
        let err = scaling(&config("linear:bits=17", "linear"), None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no cost for \"linear:bits=17\""), "{err}");
    }

    #[test]
    fn a_table_from_another_engine_says_so_and_this_engines_does_not() {
        let mut table = recorded().unwrap();
        table.engine = Some(replab_search::ENGINE_DIGEST.to_string());
        assert_eq!(table.staleness(), None);
        assert!(!recorded_source(&table, true).contains("not with"));
        table.engine = Some("0000000000000000".into());
        let stale = table.staleness().unwrap();
        assert!(
            stale.contains("engine 0000000000000000, not with"),
            "{stale}"
        );
        assert!(recorded_source(&table, true).contains(&stale));
        table.engine = None;
        assert!(table.staleness().unwrap().contains("no engine digest"));
    }

    #[test]
    fn a_clock_or_a_player_budget_is_refused() {
        let mut c = config("linear:nodes=5", "linear");
        assert!(check(&c).unwrap_err().to_string().contains("gives its own"));
        let e = check(&c).unwrap_err().to_string();
        assert_eq!(
            e,
            "--scale-by-cost sets each player's nodes: --a linear:nodes=5 gives its own"
        );
        c.a.nodes = None;
        assert!(check(&c).is_ok());
        c.control = replab_selfplay::Control::parse_tc("1+0.01").unwrap();
        let e = check(&c).unwrap_err().to_string();
        assert_eq!(
            e,
            "--scale-by-cost scales node budgets: it needs --nodes, not --tc"
        );
    }
}
