//! Reading and writing a match directory (`results.json`, `games.pgn`) and merging shards.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, anyhow, bail};

use crate::run::{MatchResults, Timing};

/// The results file of a match directory.
pub const RESULTS_FILE: &str = "results.json";
/// The games file of a match directory.
pub const GAMES_FILE: &str = "games.pgn";

/// Reads a match directory.
pub fn read_dir(dir: &Path) -> Result<(MatchResults, String)> {
    let path = dir.join(RESULTS_FILE);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let results: MatchResults = serde_json::from_str(&text)
        .with_context(|| format!("{}: not the results of a self-play match", path.display()))?;
    let games = dir.join(GAMES_FILE);
    let pgn = std::fs::read_to_string(&games)
        .with_context(|| format!("cannot read {}", games.display()))?;
    Ok((results, pgn))
}

/// Merges the shards read from `dirs` into the results of the whole match, identical to the
/// unsharded run's apart from `meta` and `timing`. Refuses inputs that are not shards, shards
/// of different matches or shard counts, duplicated and missing shards.
pub fn merge(dirs: &[PathBuf]) -> Result<(MatchResults, String)> {
    if dirs.is_empty() {
        bail!("merge needs at least one shard directory");
    }
    let mut shards: BTreeMap<u32, (PathBuf, MatchResults, String)> = BTreeMap::new();
    let mut first: Option<(PathBuf, MatchResults)> = None;
    for dir in dirs {
        let (results, pgn) = read_dir(dir)?;
        let Some((k, n)) = results.shard else {
            bail!(
                "{}: not a shard (run with {set_shard} K/N)",
                dir.display(),
                set_shard = crate::MatchOptions::SHARD
            );
        };
        if results.stopped_early {
            bail!("{}: the shard stopped early", dir.display());
        }
        if let Some((first_dir, f)) = &first {
            if let Some(field) = identity_difference(&f.identity, &results.identity) {
                bail!(
                    "{} and {} are shards of different matches ({field} differs)",
                    first_dir.display(),
                    dir.display()
                );
            }
            let n0 = f.shard.map_or(0, |s| s.1);
            if n != n0 {
                bail!(
                    "{} is shard {k}/{n} but {} is of {n0} shards",
                    dir.display(),
                    first_dir.display()
                );
            }
        } else {
            first = Some((dir.clone(), results.clone()));
        }
        if let Some((other, _, _)) = shards.get(&k) {
            bail!(
                "shard {k}/{n} given twice ({} and {})",
                other.display(),
                dir.display()
            );
        }
        shards.insert(k, (dir.clone(), results, pgn));
    }
    let (_, f) = first.expect("at least one shard");
    let n = f.shard.expect("a shard").1;
    let missing: Vec<String> = (1..=n)
        .filter(|k| !shards.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        bail!("missing shard(s) {}", missing.join(", "));
    }
    combine(f, n, shards)
}

/// The merged results and games of complete, consistent shards.
fn combine(
    first: MatchResults,
    n: u32,
    shards: BTreeMap<u32, (PathBuf, MatchResults, String)>,
) -> Result<(MatchResults, String)> {
    let mut pairs = Vec::new();
    let mut games: Vec<((u64, u64), String)> = Vec::new();
    let mut timings = Vec::with_capacity(shards.len());
    for (_, (dir, results, pgn)) in shards {
        pairs.extend(results.pair_results);
        timings.push(results.timing);
        for block in split_games(&pgn) {
            let key = round_of(block)
                .ok_or_else(|| anyhow!("{}: a game without a Round tag", dir.display()))?;
            games.push((key, block.to_string()));
        }
    }
    pairs.sort_by_key(|p| p.index);
    if pairs.windows(2).any(|w| w[0].index == w[1].index) {
        bail!("two shards played the same pair");
    }
    games.sort_by_key(|(k, _)| *k);
    if games.len() != 2 * pairs.len() {
        bail!(
            "the shards' games.pgn hold {} games for {} pairs",
            games.len(),
            pairs.len()
        );
    }
    let mut merged = MatchResults::from_pairs(first.identity, None, pairs, false);
    merged.merged_shards = Some(n);
    merged.timing = merged_timing(&timings, merged.games, first.timing.table_bytes_per_worker);
    let pgn: String = games.into_iter().map(|(_, g)| g).collect();
    Ok((merged, pgn))
}

/// The timing of a merge, from every shard's: `wall_s` the longest shard's (the elapsed time
/// when they ran side by side), `search_s` and `threads` summed, `games_per_second` over the
/// shards' summed wall time (shard-seconds), `outside_search_share` over every shard's thread
/// time (1 − Σ search ÷ Σ wall × threads), `peak_rss_kib` the largest shard's.
fn merged_timing(shards: &[Timing], games: u64, table_bytes_per_worker: u64) -> Timing {
    let wall_s = shards.iter().map(|t| t.wall_s).fold(0.0, f64::max);
    let shard_seconds: f64 = shards.iter().map(|t| t.wall_s).sum();
    let thread_seconds: f64 = shards.iter().map(|t| t.wall_s * t.threads as f64).sum();
    let search_s: f64 = shards.iter().map(|t| t.search_s).sum();
    let (games_per_second, outside_search_share) =
        Timing::rates(games, shard_seconds, thread_seconds, search_s);
    Timing {
        wall_s,
        search_s,
        threads: shards.iter().map(|t| t.threads).sum(),
        games_per_second,
        outside_search_share,
        peak_rss_kib: shards.iter().map(|t| t.peak_rss_kib).max().unwrap_or(0),
        table_bytes_per_worker,
    }
}

/// The first field in which two identities differ, by its JSON name.
fn identity_difference(
    a: &crate::run::MatchIdentity,
    b: &crate::run::MatchIdentity,
) -> Option<String> {
    let (a, b) = (serde_json::to_value(a).ok()?, serde_json::to_value(b).ok()?);
    let (a, b) = (a.as_object()?, b.as_object()?);
    a.iter()
        .find(|(k, v)| b.get(*k) != Some(v))
        .map(|(k, _)| k.clone())
}

/// The games of a PGN text written by a match (each starts with `[Event `).
fn split_games(pgn: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = pgn.match_indices("[Event ").map(|(i, _)| i).collect();
    starts.retain(|&i| i == 0 || pgn[..i].ends_with('\n'));
    starts
        .iter()
        .enumerate()
        .map(|(j, &s)| &pgn[s..starts.get(j + 1).copied().unwrap_or(pgn.len())])
        .collect()
}

/// `(pair, game)` of a game's `Round "P.G"` tag.
fn round_of(game: &str) -> Option<(u64, u64)> {
    let line = game.lines().find(|l| l.starts_with("[Round \""))?;
    let value = line.strip_prefix("[Round \"")?.strip_suffix("\"]")?;
    let (p, g) = value.split_once('.')?;
    Some((p.parse().ok()?, g.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(wall_s: f64, search_s: f64, threads: usize, peak_rss_kib: u64) -> Timing {
        Timing {
            wall_s,
            search_s,
            threads,
            games_per_second: 0.0,
            outside_search_share: 0.0,
            peak_rss_kib,
            table_bytes_per_worker: 64,
        }
    }

    #[test]
    fn a_merge_times_every_shard_not_the_first() {
        let t = merged_timing(
            &[shard(10.0, 18.0, 2, 100), shard(30.0, 57.0, 2, 300)],
            80,
            64,
        );
        assert_eq!(t.wall_s, 30.0);
        assert_eq!(t.search_s, 75.0);
        assert_eq!(t.threads, 4);
        assert_eq!(t.games_per_second, 2.0); // 80 games over 40 shard-seconds
        assert!((t.outside_search_share - (1.0 - 75.0 / 80.0)).abs() < 1e-12);
        assert_eq!(t.peak_rss_kib, 300);
        assert_eq!(t.table_bytes_per_worker, 64);
    }
}
