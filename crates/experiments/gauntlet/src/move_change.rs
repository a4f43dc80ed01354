//! How often a choice changes the move, by budget: for each player, the positions (from the
//! real games of `datasets/games`, moves 20 to 60, searched with the game's moves as history)
//! where its best move at N nodes differs from the baseline's. It is no Elo: it says how much
//! play a choice can touch, and whether that grows or shrinks with the budget. Searches at fixed
//! nodes with a cleared table are deterministic, so the counts are exact and repeatable.
//!
//! Recorded with the engine digest by the hidden `replab record-move-changes` into
//! `datasets/move-changes.json` (the command is in `docs/elo.md`); the Elo page reads the
//! recording only when it names this build's engine.

use anyhow::{Result, ensure};
use replab_harness::Silent;
use replab_selfplay::PlayerSpec;
use replab_workloads::engine::parallel;
use replab_workloads::games::{GamePosition, MOVES, positions as game_positions};
use serde::{Deserialize, Serialize};

use crate::{BASELINE, matches::cost};

/// The recording, built into the binary.
pub const RECORDED: &str = include_str!("../../../../datasets/move-changes.json");

/// The recording's file, as users see it.
pub const RECORDED_FILE: &str = "datasets/move-changes.json";

/// The best move of `spec` at `nodes` per search on every position, in order (a cleared table
/// before each: deterministic).
pub fn best_moves(spec: &str, nodes: u64, positions: &[GamePosition]) -> Result<Vec<String>> {
    let mut engine = PlayerSpec::parse(spec)?.build(Some(nodes))?;
    Ok(positions
        .iter()
        .map(|p| {
            engine.clear_hash();
            let result = engine.search_game_with(&p.positions, &p.moves, &mut |_| {});
            result
                .best_move()
                .map_or_else(|| "none".to_string(), |m| m.uci().to_string())
        })
        .collect())
}

/// One player's changed moves at each budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Changes {
    /// The player specification.
    pub spec: String,
    /// Positions where its best move differs from the baseline's, one count per budget.
    pub changed: Vec<u64>,
}

/// The recording: budgets, positions and every player's counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    /// The engine digest the searches ran with.
    pub engine: String,
    /// The command that recorded it.
    pub command: String,
    /// The positions, in words.
    pub positions: String,
    /// How many positions.
    pub count: u64,
    /// The player every other is compared with.
    pub baseline: String,
    /// Nodes per search, one per column.
    pub budgets: Vec<u64>,
    /// One row per player, in the instruction table's order.
    pub rows: Vec<Changes>,
}

/// Searches every player of the instruction table (`datasets/player-costs.json`) and the
/// baseline at each of `budgets` on every `every`-th game position, on `threads` workers: the
/// counts of changed best moves.
pub fn record(budgets: &[u64], every: usize, threads: usize, command: &str) -> Result<Recorded> {
    ensure!(
        !budgets.is_empty() && every > 0,
        "budgets and a stride are needed"
    );
    let positions = game_positions(every)?;
    let specs: Vec<String> = cost::recorded()?.costs.into_keys().collect();
    ensure!(
        specs.iter().any(|s| s == BASELINE),
        "no {BASELINE} among the players"
    );
    let jobs: Vec<(usize, u64)> = (0..specs.len())
        .flat_map(|s| budgets.iter().map(move |&b| (s, b)))
        .collect();
    let moves = parallel(
        jobs.len(),
        threads,
        &mut Silent,
        || Ok(()),
        |(), j, _| best_moves(&specs[jobs[j].0], jobs[j].1, &positions),
    )?;
    let of = |spec: &str, budget: u64| {
        let j = jobs
            .iter()
            .position(|&(s, b)| specs[s] == spec && b == budget)
            .expect("every player at every budget");
        &moves[j]
    };
    let rows = specs
        .iter()
        .filter(|s| s.as_str() != BASELINE)
        .map(|spec| Changes {
            spec: spec.clone(),
            changed: budgets
                .iter()
                .map(|&b| {
                    let (ours, base) = (of(spec, b), of(BASELINE, b));
                    ours.iter().zip(base).filter(|(a, b)| a != b).count() as u64
                })
                .collect(),
        })
        .collect();
    Ok(Recorded {
        engine: replab_search::ENGINE_DIGEST.to_string(),
        command: command.to_string(),
        positions: format!(
            "one ply in {every} of the real games of datasets/games (those without a FEN \
             tag) at full moves {} to {}, the game's moves as history",
            MOVES[0], MOVES[1]
        ),
        count: positions.len() as u64,
        baseline: BASELINE.to_string(),
        budgets: budgets.to_vec(),
        rows,
    })
}

/// The recording built into the binary, when it is of this build's engine or one it plays as
/// ([`crate::lineage`]: best moves are play alone); otherwise why not.
pub fn recorded() -> Result<Recorded, String> {
    let r: Recorded =
        serde_json::from_str(RECORDED).map_err(|e| format!("{RECORDED_FILE}: {e}"))?;
    if !crate::lineage::plays_as_this_build(&r.engine) {
        return Err(format!(
            "{RECORDED_FILE} was recorded with engine {}, not this build's {} (nor one it \
             plays as, {}): record it again ({})",
            r.engine,
            replab_search::ENGINE_DIGEST,
            crate::lineage::LINEAGE_FILE,
            r.command
        ));
    }
    Ok(r)
}

/// The Elo page's table: one row per player that changes a move at some budget, each budget's
/// count of changed moves and its share; the players that never change one are named after it.
pub fn html(r: &Recorded) -> String {
    let mut headers = vec!["player".to_string()];
    headers.extend(r.budgets.iter().map(|b| format!("{b} nodes")));
    let share = |k: u64| {
        format!(
            "{k} of {} ({:.1}%)",
            r.count,
            100.0 * k as f64 / r.count as f64
        )
    };
    let (changing, same): (Vec<&Changes>, Vec<&Changes>) = r
        .rows
        .iter()
        .partition(|c| c.changed.iter().any(|&k| k > 0));
    let rows: Vec<Vec<replab_report::Cell>> = changing
        .iter()
        .map(|c| {
            let mut row = vec![replab_report::Cell::text(&c.spec)];
            row.extend(
                c.changed
                    .iter()
                    .map(|&k| replab_report::Cell::text(share(k))),
            );
            row
        })
        .collect();
    let same: Vec<&str> = same.iter().map(|c| c.spec.as_str()).collect();
    format!(
        "<p>Positions where a player's best move differs from <code>{}</code>'s at the same \
         nodes per search: {} positions, {}. Exact counts (fixed nodes, a cleared table before \
         each search). No Elo: how much play a choice can touch, by budget.</p>{}<p>The same \
         move as <code>{}</code> in every position at every budget: {}.</p>",
        r.baseline,
        r.count,
        replab_report::escape_html(&r.positions),
        replab_report::table_html(&headers, &rows, false),
        r.baseline,
        if same.is_empty() {
            "none".to_string()
        } else {
            same.join(", ")
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_identical_to_the_baseline_changes_nothing_and_the_page_says_so() {
        let positions: Vec<GamePosition> = game_positions(20).unwrap();
        let base = best_moves(BASELINE, 2_000, &positions).unwrap();
        assert_eq!(base, best_moves(BASELINE, 2_000, &positions).unwrap());
        let r = Recorded {
            engine: "e".into(),
            command: "c".into(),
            positions: "p".into(),
            count: 10,
            baseline: BASELINE.into(),
            budgets: vec![10_000, 160_000],
            rows: vec![
                Changes {
                    spec: "off".into(),
                    changed: vec![1, 3],
                },
                Changes {
                    spec: "tt-open".into(),
                    changed: vec![0, 0],
                },
            ],
        };
        let page = html(&r);
        assert!(page.contains("3 of 10 (30.0%)"), "{page}");
        assert!(page.ends_with("every budget: tt-open.</p>"), "{page}");
    }
}
