//! What the axon page says, computed from [`Results`] alone: the moves and depths of WAC.018
//! beside the paper's, the head-to-head's detectors, which configurations score the draw. The
//! markup is `page.rs` and its templates.

use replab_registry::{Family, info};
use replab_report::Series;
use replab_workloads::colours;

use super::results::{Paper, PaperRow, Results, Run, runs_of};

/// A score in pawns from White's view (`+2.30`, `−0.45`), or a mate (`#3`, `#−2`).
pub(super) fn fmt_eval(cp: i32, mate: Option<i32>) -> String {
    match mate {
        Some(n) if n < 0 => format!("#\u{2212}{}", -n),
        Some(n) => format!("#{n}"),
        None if cp < 0 => format!("\u{2212}{:.2}", f64::from(-cp) / 100.0),
        None => format!("+{:.2}", f64::from(cp) / 100.0),
    }
}

/// The head-to-head group of the detector `name`, by its registry family: move chains (0),
/// matrices (1), keys scanned linearly (2), other keys (3), then transposition-table-shaped key
/// tables (4).
pub(super) fn group(name: &str) -> u8 {
    match info(name).map(|i| i.family) {
        Some(Family::MoveChains) => 0,
        Some(Family::Positions) => 1,
        Some(Family::KeyScan) => 2,
        Some(Family::TtEntries) => 4,
        Some(Family::KeyTable | Family::MoveKeys) | None => 3,
    }
}

/// The detectors of the head-to-head among the configurations `names`: every single technique
/// (neither `off` nor a composition), grouped as move chains, matrices, keys, then key tables,
/// in the registry's order within a group.
pub(super) fn head_to_head_detectors<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| info(n).is_some_and(|i| !i.caps.composite))
        .collect();
    out.sort_by_key(|n| group(n));
    out
}

/// The WAC records that are rook endings (kings, rooks and pawns only): `(id, best moves)`.
pub(super) fn wac_rook_endings() -> Vec<(String, String)> {
    crate::datasets::WAC
        .text
        .lines()
        .filter_map(|line| {
            let board = line.split_whitespace().next()?;
            if board.chars().any(|c| "nbqNBQ".contains(c)) {
                return None;
            }
            // An operation `NAME value;` (the first one follows the four FEN fields).
            let field = |name: &str| {
                let start = line.find(&format!(" {name} "))? + name.len() + 2;
                let value = line[start..].split(';').next()?;
                Some(value.trim().trim_matches('"').to_string())
            };
            Some((field("id")?, field("bm").unwrap_or_default()))
        })
        .collect()
}

/// The first depth from which every later key move in `moves` (by depth) is `m`.
pub(super) fn settled_on(moves: &[(u32, &str)], m: &str) -> Option<u32> {
    let mut first = None;
    for (d, mv) in moves {
        if *mv == m {
            first.get_or_insert(*d);
        } else {
            first = None;
        }
    }
    first
}

/// The paper's best moves, distinct: UCI in capitals with the SAN, sorted.
pub(super) fn distinct_moves(rows: &[&PaperRow]) -> Vec<String> {
    let mut distinct: Vec<String> = rows
        .iter()
        .map(|row| format!("{} ({})", row.best_move.to_uppercase(), row.best_move_san))
        .collect();
    distinct.sort();
    distinct.dedup();
    distinct
}

/// The ids of the WAC rook endings whose best moves include Rh8.
pub(super) fn rh8_endings(endings: &[(String, String)]) -> Vec<&str> {
    endings
        .iter()
        .filter(|(_, bm)| {
            bm.split_whitespace()
                .any(|m| m.trim_end_matches(['+', '#']) == "Rh8")
        })
        .map(|(id, _)| id.as_str())
        .collect()
}

/// Of the depths where the paper names a move (`pick`: the paper's move and ours), how many
/// have the same move as ours, and how many there are.
pub(super) fn move_agreement(
    r: &Results,
    pick: fn(&super::results::Comparison) -> (&Option<String>, &String),
) -> (usize, usize) {
    let common: Vec<_> = r
        .comparison
        .iter()
        .filter(|x| pick(x).0.is_some())
        .collect();
    let same = common
        .iter()
        .filter(|x| pick(x).0.as_deref() == Some(pick(x).1.as_str()))
        .count();
    (same, common.len())
}

/// The depth from which the paper's rows keep a8h8 (Rh8) as their best move.
pub(super) fn paper_settled(rows: &[PaperRow]) -> Option<u32> {
    let moves: Vec<(u32, &str)> = rows
        .iter()
        .map(|r| (r.depth, r.best_move.as_str()))
        .collect();
    settled_on(&moves, "a8h8")
}

/// The depth from which our configuration `name` keeps a8h8 (Rh8) as its best move.
pub(super) fn ours_settled(r: &Results, name: &str) -> Option<u32> {
    let runs = r.runs_of(name);
    let moves: Vec<(u32, &str)> = runs
        .iter()
        .map(|r| (r.depth, r.best_move.as_str()))
        .collect();
    settled_on(&moves, "a8h8")
}

/// The evaluation of our configuration `name` at its deepest iteration (`—` without runs).
pub(super) fn ours_last_eval(r: &Results, name: &str) -> String {
    r.runs_of(name)
        .last()
        .map(|run| fmt_eval(run.eval_cp, run.mate))
        .unwrap_or_else(|| "—".into())
}

/// The paper's deepest row: its depth and evaluation (`(0, —)` without rows).
pub(super) fn paper_last(rows: &[PaperRow]) -> (u32, String) {
    rows.last()
        .map(|row| (row.depth, fmt_eval(row.eval_cp, None)))
        .unwrap_or((0, "—".into()))
}

/// Distinct key moves (SAN) before the searches settle on Rh8, sorted.
pub(super) fn early_moves(sequences: Vec<Vec<(u32, &str)>>) -> Vec<String> {
    let mut out: Vec<String> = sequences
        .iter()
        .flat_map(|moves| {
            let settled = settled_on(moves, "Rh8").unwrap_or(u32::MAX);
            moves
                .iter()
                .filter(move |(d, m)| *d < settled && *m != "Rh8")
                .map(|(_, m)| (*m).to_string())
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The paper's best moves in SAN by depth.
pub(super) fn paper_san(rows: &[PaperRow]) -> Vec<(u32, &str)> {
    rows.iter()
        .map(|r| (r.depth, r.best_move_san.as_str()))
        .collect()
}

/// Our configuration `name`'s best moves in SAN by depth.
pub(super) fn ours_san<'a>(r: &'a Results, name: &str) -> Vec<(u32, &'a str)> {
    r.runs_of(name)
        .into_iter()
        .map(|r| (r.depth, r.best_move_san.as_str()))
        .collect()
}

/// Which configurations score the draw (0.00), and from which depth.
pub(super) struct Draws<'a> {
    /// Depth of the first draw score, and the configurations reaching it there; by depth.
    pub(super) by_depth: Vec<(u32, Vec<&'a str>)>,
    /// Configurations never scoring the draw.
    pub(super) never: Vec<&'a str>,
    /// Configurations whose deepest iteration no longer scores the draw.
    pub(super) unstable: Vec<&'a str>,
}

/// When each configuration of `names` first scores the draw in `runs`.
pub(super) fn draws<'a>(runs: &[Run], names: &[&'a str]) -> Draws<'a> {
    let mut draws = Draws {
        by_depth: Vec::new(),
        never: Vec::new(),
        unstable: Vec::new(),
    };
    for name in names {
        let rs = runs_of(runs, name);
        match rs.iter().find(|r| r.eval_cp == 0 && r.mate.is_none()) {
            Some(first) => {
                match draws.by_depth.iter_mut().find(|(d, _)| *d == first.depth) {
                    Some((_, v)) => v.push(name),
                    None => draws.by_depth.push((first.depth, vec![name])),
                }
                if rs.last().is_some_and(|r| r.eval_cp != 0) {
                    draws.unstable.push(name);
                }
            }
            None => draws.never.push(name),
        }
    }
    draws.by_depth.sort_by_key(|(d, _)| *d);
    draws
}

/// A count as an English word up to twelve ("eight"), else in digits.
pub(super) fn count_word(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

/// One series of `f(run)` against depth for configuration `name`.
pub(super) fn series(runs: &[Run], name: &str, f: impl Fn(&Run) -> f64) -> Series {
    colours::series(
        name,
        runs_of(runs, name)
            .into_iter()
            .map(|r| (f64::from(r.depth), f(r))),
    )
}

/// The paper's per-depth node count (its generated positions) as a dashed series.
pub(super) fn paper_series(name: &str, rows: &[PaperRow]) -> Series {
    colours::series(
        name,
        rows.iter().map(|r| (f64::from(r.depth), r.nodes as f64)),
    )
    .dashed()
}

/// The change of generated positions against detection off per depth, in percent: the paper's
/// (dashed: Table 3 against Table 2), then every detector of `names`.
pub(super) fn generated_change_series(r: &Results, paper: &Paper, names: &[&str]) -> Vec<Series> {
    let off_generated: Vec<(u32, f64)> = r
        .runs_of("off")
        .iter()
        .map(|r| (r.depth, r.counters.generated as f64))
        .collect();
    let mut change_series = vec![
        colours::series(
            "paper-on",
            paper.on.iter().zip(&paper.off).map(|(on, off)| {
                (
                    f64::from(on.depth),
                    (on.nodes as f64 / off.nodes as f64 - 1.0) * 100.0,
                )
            }),
        )
        .dashed(),
    ];
    for name in names.iter().filter(|n| **n != "off") {
        change_series.push(colours::series(
            *name,
            r.runs_of(name).into_iter().filter_map(|run| {
                off_generated
                    .iter()
                    .find(|(d, _)| *d == run.depth)
                    .map(|(_, off)| {
                        (
                            f64::from(run.depth),
                            (run.counters.generated as f64 / off - 1.0) * 100.0,
                        )
                    })
            }),
        ));
    }
    change_series
}

#[cfg(test)]
mod tests {
    use replab_registry::SEARCH_DETECTORS;

    use super::*;

    #[test]
    fn head_to_head_groups_every_single_technique() {
        let all: Vec<&str> = std::iter::once("off").chain(SEARCH_DETECTORS).collect();
        let mut expected: Vec<&str> = SEARCH_DETECTORS
            .iter()
            .copied()
            .filter(|n| info(n).is_some_and(|i| !i.caps.composite))
            .collect();
        let ours = head_to_head_detectors(&all);
        // Grouped by family (move chains first), in the registry's order within a group.
        assert_eq!(info(ours[0]).unwrap().family, Family::MoveChains);
        for pair in ours.windows(2) {
            let (a, b) = (group(pair[0]), group(pair[1]));
            let order = |n: &str| SEARCH_DETECTORS.iter().position(|s| *s == n);
            assert!(
                a < b || (a == b && order(pair[0]) < order(pair[1])),
                "{pair:?}"
            );
        }
        let mut ours = ours;
        expected.sort_unstable();
        ours.sort_unstable();
        assert_eq!(ours, expected);
    }

    #[test]
    fn evals_and_counts_read_as_on_the_page() {
        assert_eq!(fmt_eval(230, None), "+2.30");
        assert_eq!(fmt_eval(-45, None), "\u{2212}0.45");
        assert_eq!(fmt_eval(29_995, Some(3)), "#3");
        assert_eq!(fmt_eval(-29_996, Some(-2)), "#\u{2212}2");
        assert_eq!(count_word(8), "eight");
        assert_eq!(count_word(13), "13");
    }
}
