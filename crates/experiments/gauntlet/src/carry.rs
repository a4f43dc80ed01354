//! A detector's cost carried to another engine's speed. What a detector adds to a node is time
//! in replab's code (nanoseconds on the recording machine, from `tools/paired_speed.py
//! --record`, and instructions, counted by callgrind): an engine whose node costs more pays the
//! same nanoseconds as a smaller share. With the engine's nodes per second `nps` and its Elo
//! per doubling of time `slope`, a detector that adds `Δt` seconds per node changes its
//! strength by `−slope · log2(1 + Δt · nps)` Elo: the engine searches `1 / (1 + Δt · nps)` of
//! the nodes in the same time.
//!
//! The assumptions, stated wherever the figures are shown ([`ASSUMPTIONS`]): the detector's
//! code and the history it walks are replab's (a key scan's cost grows with the reversible
//! plies behind a node); the recording machine's speed; Elo linear in log2(time) near the
//! engine's operating point.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail, ensure};
use replab_harness::interval::Estimate;
use replab_settings::Settings;
use serde::{Deserialize, Serialize};

use crate::{BASELINE, matches::cost};

/// The recorded time per node (`datasets/time-per-node.json`), built into the binary.
pub const TIME_RECORDED: &str = include_str!("../../../../datasets/time-per-node.json");

/// The subcommand's name (`replab carry`).
pub const COMMAND: &str = "carry";

/// The recorded file, as users see it.
pub const TIME_RECORDED_FILE: &str = "datasets/time-per-node.json";

/// What every carried figure assumes, in words.
pub const ASSUMPTIONS: &str = "the detector's code and the history it walks are replab's (a \
    key scan costs more behind longer reversible stretches); its time is the recording \
    machine's; the engine's Elo is linear in log2 of its time near its operating point";

/// The settings of `replab carry`: the engine the figures are carried to.
#[derive(Clone, Debug, PartialEq, clap::Args, Settings)]
pub struct Config {
    /// The engine's speed, in nodes per second (as its `info nps` says).
    #[arg(long, value_name = "N")]
    #[setting(range = 1.0..=1e10, required)]
    pub nps: f64,
    /// The engine's Elo per doubling of time (or of nodes) near its operating point: from its
    /// own time-odds matches, or a published figure of a similar engine and control.
    #[arg(long, value_name = "S")]
    #[setting(range = 0.0..=1000.0, required)]
    pub elo_per_doubling: f64,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// What `replab carry` prints: the inputs, the recorded costs and every carried row.
#[derive(Serialize)]
pub struct Report<'a> {
    /// The engine's nodes per second.
    pub nps: f64,
    /// Its Elo per doubling.
    pub elo_per_doubling: f64,
    /// The recorded costs.
    pub costs: &'a Costs,
    /// One row per detector.
    pub rows: &'a [CarriedRow],
    /// What the figures assume.
    pub assumptions: &'static str,
}

/// Runs `replab carry`: the table (or JSON) for the engine `config` describes, to `out`.
pub fn run(config: &Config, out: &mut dyn std::io::Write) -> Result<()> {
    config.check_ranges()?;
    let costs = Costs::recorded()?;
    let rows = carried(&costs, config.nps, config.elo_per_doubling)?;
    let text = if config.json {
        let report = Report {
            nps: config.nps,
            elo_per_doubling: config.elo_per_doubling,
            costs: &costs,
            rows: &rows,
            assumptions: ASSUMPTIONS,
        };
        serde_json::to_string_pretty(&report)? + "\n"
    } else {
        text(&costs, &rows, config.nps, config.elo_per_doubling)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// The time per node recorded, as far as the carried figures read it.
#[derive(Deserialize)]
struct RecordedTimes {
    engine: String,
    recorded: String,
    workload: String,
    baseline: String,
    baseline_seconds_per_node: Option<Estimate>,
    ratios: BTreeMap<String, RecordedRatio>,
}

/// One player's time per node over the baseline's.
#[derive(Deserialize)]
struct RecordedRatio {
    ratio: Estimate,
}

/// What a detector adds to a node, over the baseline (`linear`): engine-independent figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeCost {
    /// The player specification (a detector, or `off`).
    pub spec: String,
    /// Extra nanoseconds per node on the recording machine, with the 95% interval of its time
    /// ratio (the baseline's own time taken as its median).
    pub extra_ns: Estimate,
    /// Extra instructions per node (callgrind, exact).
    pub extra_instructions: f64,
}

/// The recorded costs every carried figure comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Costs {
    /// The machine and date of the time recording.
    pub machine: String,
    /// The engine digest both recordings name (this build's).
    pub engine: String,
    /// The workload timed: the positions and the node budget the costs hold at.
    pub workload: String,
    /// The baseline's nanoseconds per node on that machine, with its interval.
    pub baseline_ns: Estimate,
    /// One row per recorded player, in name order.
    pub rows: Vec<NodeCost>,
}

impl Costs {
    /// The costs recorded for this build's engine, or why there are none.
    pub fn recorded() -> Result<Costs> {
        Costs::read(TIME_RECORDED, cost::RECORDED, replab_search::ENGINE_DIGEST)
    }

    /// The costs from the time recording `times` and the instruction table `instructions`,
    /// both of which must name `engine` and the same baseline.
    pub fn read(times: &str, instructions: &str, engine: &str) -> Result<Costs> {
        let times: RecordedTimes =
            serde_json::from_str(times).with_context(|| format!("reading {TIME_RECORDED_FILE}"))?;
        let counts: cost::Recorded = serde_json::from_str(instructions)
            .with_context(|| format!("reading {}", cost::RECORDED_FILE))?;
        ensure!(
            times.engine == engine && counts.engine.as_deref() == Some(engine),
            "{TIME_RECORDED_FILE} (engine {}) and {} (engine {}) are not both of this build's \
             engine {engine}: record them again (tools/paired_speed.py --record, \
             tools/record_player_costs.py)",
            times.engine,
            cost::RECORDED_FILE,
            counts.engine.as_deref().unwrap_or("not named"),
        );
        ensure!(
            times.baseline == BASELINE,
            "{TIME_RECORDED_FILE} is recorded against {}, not {BASELINE}",
            times.baseline
        );
        let Some(base) = times.baseline_seconds_per_node else {
            bail!("{TIME_RECORDED_FILE} has no baseline_seconds_per_node: record it again");
        };
        let base_instructions = instructions_of(&counts, BASELINE)?;
        let baseline_ns = base.map(|s| s * 1e9);
        let rows = times
            .ratios
            .iter()
            .map(|(spec, r)| {
                Ok(NodeCost {
                    spec: spec.clone(),
                    extra_ns: r.ratio.map(|x| (x - 1.0) * baseline_ns.value),
                    extra_instructions: instructions_of(&counts, spec)? - base_instructions,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Costs {
            machine: times.recorded,
            engine: engine.to_string(),
            workload: times.workload,
            baseline_ns,
            rows,
        })
    }
}

/// The instructions per node `counts` records for `spec`.
fn instructions_of(counts: &cost::Recorded, spec: &str) -> Result<f64> {
    counts
        .costs
        .get(spec)
        .copied()
        .with_context(|| format!("{} has no player {spec}", cost::RECORDED_FILE))
}

/// The Elo an engine of `nps` nodes per second and `slope` Elo per doubling gains (negative:
/// loses) when each node costs `extra_s` seconds more: `−slope · log2(1 + extra_s · nps)`.
/// `None` where `1 + extra_s · nps` is not positive (a saving larger than the engine's whole
/// node time: the figures cannot describe that engine).
pub fn carried_elo(slope: f64, extra_s: f64, nps: f64) -> Option<f64> {
    let factor = 1.0 + extra_s * nps;
    (factor > 0.0).then(|| -slope * factor.log2())
}

/// One detector's figures carried to an engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CarriedRow {
    /// The node cost it comes from.
    pub cost: NodeCost,
    /// The Elo against the baseline at the engine's speed, with the interval of the time
    /// ratio carried through (the slope is taken as given).
    pub elo: Estimate,
}

/// Every recorded detector's Elo against the baseline for an engine of `nps` nodes per second
/// and `slope` Elo per doubling; an error naming `nps` where a saving exceeds its node time.
pub fn carried(costs: &Costs, nps: f64, slope: f64) -> Result<Vec<CarriedRow>> {
    costs
        .rows
        .iter()
        .map(|c| {
            let elo = |ns: f64| carried_elo(slope, ns * 1e-9, nps);
            // The low end is the largest saving: where it fits the node time, every value does.
            ensure!(
                elo(c.extra_ns.interval.lo).is_some(),
                "{nps} nodes per second: {} saves more than such an engine's whole node time; \
                 the figures cannot be carried there",
                c.spec
            );
            Ok(CarriedRow {
                cost: c.clone(),
                elo: c.extra_ns.map(|ns| elo(ns).unwrap_or(f64::NAN)),
            })
        })
        .collect()
}

/// The table as text: one line per detector (extra ns and instructions per node, the Elo
/// against the baseline), headed by the inputs, the recording and the assumptions.
pub fn text(costs: &Costs, rows: &[CarriedRow], nps: f64, slope: f64) -> String {
    let mut out = format!(
        "An engine of {nps:.0} nodes per second at {slope} Elo per doubling of time, each \
         detector against {BASELINE} (time recorded on {}, {} ns per node for {BASELINE} {}; \
         engine {}; measured on {}: a detector's cost per node changes with the budget, as the \
         Elo page's costs across budgets show):\n",
        costs.machine,
        fixed(costs.baseline_ns.value, 1),
        costs.baseline_ns.interval.ends_text(|x| fixed(x, 1)),
        costs.engine,
        costs.workload
    );
    out += &format!(
        "{:22} {:>30} {:>22} {:>30}\n",
        "detector", "extra ns per node", "extra instr. per node", "Elo"
    );
    for r in rows {
        out += &format!(
            "{:22} {:>30} {:>22} {:>30}\n",
            r.cost.spec,
            r.cost.extra_ns.text(|x| fixed(x, 1)),
            fixed(r.cost.extra_instructions, 0),
            r.elo.text(|x| fixed(x, 2)),
        );
    }
    out + &format!("Assumed: {ASSUMPTIONS}.\n")
}

/// `x` with `places` decimals, a minus sign for negatives (the page's script writes the same).
pub fn fixed(x: f64, places: usize) -> String {
    let text = format!("{x:.places$}");
    // No negative zero: the script's toFixed writes 0.00 for −0.001.
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        text.trim_start_matches('-').to_string()
    } else {
        text
    }
}

/// A published Elo per doubling, with where it comes from.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Preset {
    /// The engine and its operating point.
    pub label: &'static str,
    /// Elo per doubling.
    pub slope: f64,
    /// The control it was measured at.
    pub control: &'static str,
    /// The book, where the source names it.
    pub book: &'static str,
    /// Where it is published.
    pub source: &'static str,
}

/// Published slopes (as `docs/elo.md` cites them), offered on the Elo page.
pub const PRESETS: [Preset; 5] = [
    Preset {
        label: "Stockfish at 60+0.6",
        slope: 59.0,
        control: "60+0.6, 10× time odds: +195.8 ± 0.9 over 60,000 games",
        book: "book not stated",
        source: "Stockfish PR #7113",
    },
    Preset {
        label: "Stockfish at 262k nodes",
        slope: 131.0,
        control: "fixed nodes, 262k against 524k",
        book: "book not stated",
        source: "a 2019 series on Stockfish, RubiChess issue #117",
    },
    Preset {
        label: "Stockfish at 4M nodes",
        slope: 88.0,
        control: "fixed nodes, 4M against 8M",
        book: "book not stated",
        source: "a 2019 series on Stockfish, RubiChess issue #117",
    },
    Preset {
        label: "Komodo 5 at 0.5 s a move",
        slope: 107.0,
        control: "0.5 against 1 s a move",
        book: "book not stated",
        source: "Komodo 5 time-doubling series (+107, +93, +81 from 0.5 to 4 s a move)",
    },
    Preset {
        label: "Komodo 5 at 4 s a move",
        slope: 81.0,
        control: "4 against 8 s a move",
        book: "book not stated",
        source: "Komodo 5 time-doubling series (+107, +93, +81 from 0.5 to 4 s a move)",
    },
];

/// The speed the Elo page's calculator starts from.
pub const PAGE_NPS: f64 = 1_000_000.0;

/// The page's template of the calculator.
const CALCULATOR: &str = include_str!("../templates/elo/carry.html");

/// The Elo page's calculator: the table at [`PAGE_NPS`] and the first preset's slope, inputs
/// for any engine's speed and slope (a script recomputes the table as `replab carry` does;
/// `#nps=N&slope=S` in the address fills them), the presets with their sources.
pub fn calculator(costs: &Costs) -> Result<String> {
    let slope = PRESETS[0].slope;
    let rows = carried(costs, PAGE_NPS, slope)?;
    let shown: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "spec": r.cost.spec,
                "ns": r.cost.extra_ns.text(|x| fixed(x, 1)),
                "instructions": fixed(r.cost.extra_instructions, 0),
                "elo": r.elo.text(|x| fixed(x, 2)),
            })
        })
        .collect();
    let data: Vec<serde_json::Value> = costs
        .rows
        .iter()
        .map(|c| {
            let i = c.extra_ns.interval;
            serde_json::json!({"ns": c.extra_ns.value, "lo": i.lo, "hi": i.hi})
        })
        .collect();
    Ok(replab_report::render_fragment(
        "elo/carry.html",
        CALCULATOR,
        &serde_json::json!({
            "baseline": BASELINE,
            "baseline_ns": costs.baseline_ns.text(|x| fixed(x, 1)),
            "machine": costs.machine,
            "engine": costs.engine,
            "workload": costs.workload,
            "assumptions": ASSUMPTIONS,
            "nps": PAGE_NPS,
            "command": format!(
                "replab {COMMAND} {} N {} S",
                Config::NPS,
                Config::ELO_PER_DOUBLING
            ),
            "slope": slope,
            "presets": PRESETS,
            "rows": shown,
            "data": serde_json::to_string(&data)?,
        }),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_cost_becomes_elo_through_the_log_of_the_time_share() {
        // Doubling the node time halves the nodes: one doubling lost.
        assert_eq!(carried_elo(100.0, 1e-6, 1e6), Some(-100.0));
        assert_eq!(carried_elo(100.0, 0.0, 1e6), Some(0.0));
        // A saving of half the node time doubles the nodes.
        assert_eq!(carried_elo(59.0, -0.5e-6, 1e6), Some(59.0));
        // A saving larger than the node time describes no engine.
        assert_eq!(carried_elo(59.0, -2e-6, 1e6), None);
    }

    fn recording(engine: &str, base_s: &str) -> (String, String) {
        let times = format!(
            r#"{{"engine": "{engine}", "recorded": "a machine", "baseline": "linear",
            "workload": "player:<spec> at 20000 nodes",
            {base_s}
            "ratios": {{"off": {{"ratio": {{"value": 0.9, "interval": {{"lo": 0.8, "hi": 0.95,
            "coverage": 0.95, "n": 30}}}}}}}}}}"#
        );
        let counts = format!(
            r#"{{"recorded": "r", "workload": "w", "engine": "{engine}",
            "costs": {{"off": 3300.0, "linear": 3500.0}}}}"#
        );
        (times, counts)
    }

    #[test]
    fn the_table_reads_this_engines_recordings_only() {
        let base = r#""baseline_seconds_per_node": {"value": 1e-6, "interval": {"lo": 0.9e-6,
            "hi": 1.1e-6, "coverage": 0.95, "n": 30}},"#;
        let (times, counts) = recording("abc", base);
        let costs = Costs::read(&times, &counts, "abc").unwrap();
        let off = &costs.rows[0];
        assert_eq!(off.spec, "off");
        assert!((off.extra_ns.value + 100.0).abs() < 1e-9);
        assert_eq!(off.extra_instructions, -200.0);
        // At 1M nodes per second a node takes 1000 ns; off saves 100 of them.
        let rows = carried(&costs, 1e6, 100.0).unwrap();
        let expected = -100.0 * (0.9f64).log2();
        assert!((rows[0].elo.value - expected).abs() < 1e-9);
        assert!(rows[0].elo.interval.lo < rows[0].elo.value);
        let table = text(&costs, &rows, 1e6, 100.0);
        assert!(table.contains("off") && table.contains("player:<spec> at 20000 nodes"));
        // Where the saving exceeds the node time, the speed is refused by name.
        let err = carried(&costs, 2e7, 100.0).unwrap_err().to_string();
        assert!(err.contains("20000000 nodes per second"), "{err}");
        // Another engine's recording, or one without the baseline's time, is refused.
        assert!(Costs::read(&times, &counts, "other").is_err());
        let (times, counts) = recording("abc", "");
        let err = Costs::read(&times, &counts, "abc").unwrap_err().to_string();
        assert!(err.contains("baseline_seconds_per_node"), "{err}");
    }

    /// The DOM of `html` after its scripts ran, from headless Chromium, or `None` without it.
    fn rendered(html: &str, hash: &str) -> Option<String> {
        let chromium = replab_report::browser::chromium()?;
        let dir = std::env::temp_dir().join(format!("replab-carry-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let page = dir.join("carry.html");
        std::fs::write(
            &page,
            format!("<!DOCTYPE html><html><body>{html}</body></html>"),
        )
        .unwrap();
        let out = std::process::Command::new(&chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
            ])
            .args([
                "--disable-background-networking",
                "--disable-component-update",
            ])
            .arg(format!("--user-data-dir={}", dir.join("profile").display()))
            .arg("--dump-dom")
            .arg(format!("file://{}#{hash}", page.display()))
            .output()
            .unwrap();
        std::fs::remove_dir_all(&dir).ok();
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    #[test]
    fn the_pages_calculator_gives_the_figures_of_the_command_line() {
        let base = r#""baseline_seconds_per_node": {"value": 1.3e-6, "interval": {"lo": 1.2e-6,
            "hi": 1.4e-6, "coverage": 0.95, "n": 30}},"#;
        let (times, counts) = recording("abc", base);
        let costs = Costs::read(&times, &counts, "abc").unwrap();
        let html = calculator(&costs).unwrap();
        // The page as written: the first preset's slope at the page's speed.
        let first = carried(&costs, PAGE_NPS, PRESETS[0].slope).unwrap();
        assert!(html.contains(&first[0].elo.text(|x| fixed(x, 2))), "{html}");
        for p in PRESETS {
            assert!(html.contains(p.source) && html.contains(p.label), "{html}");
        }
        // The script, given other inputs, writes what `replab carry` prints for them.
        let Some(dom) = rendered(&html, "nps=2500000&slope=88") else {
            eprintln!(
                "skipped the browser check: chromium is not installed (apt-get install chromium)"
            );
            return;
        };
        let expected = carried(&costs, 2.5e6, 88.0).unwrap();
        let cell = dom
            .split("carry-elo\">")
            .nth(1)
            .and_then(|c| c.split('<').next())
            .unwrap_or_default()
            .to_string();
        assert_eq!(cell, expected[0].elo.text(|x| fixed(x, 2)), "{dom}");
        assert_ne!(cell, first[0].elo.text(|x| fixed(x, 2)));
    }

    #[test]
    fn fixed_writes_no_negative_zero() {
        assert_eq!(fixed(-0.001, 2), "0.00");
        assert_eq!(fixed(-1.234, 2), "-1.23");
        assert_eq!(fixed(12.5, 0), "12");
    }
}
