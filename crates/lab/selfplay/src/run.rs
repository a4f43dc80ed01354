//! A match: game pairs over the book on all cores, results in pair order, optional early stop
//! by the SPRT, shards.

use std::{
    collections::BTreeMap,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
    time::Instant,
};

use anyhow::{Result, anyhow, bail};
use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};
use rayon::{iter::ParallelBridge, prelude::*};
use replab_harness::pool;
use replab_interval::median;
use replab_settings::Setting;
use serde::{Deserialize, Serialize};

use crate::{
    arbiter::{Adjudication, Termination},
    book::Book,
    cost::CostScaling,
    game::{Control, GameRecord, PgnGame, Table},
    spec::PlayerSpec,
    stats::{self, ALPHA, BETA, Decision, EloEstimate, SprtReport},
    usage::{self, ClockUse, DepthCounts},
};

/// The settings of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Player A (the one whose Elo is reported).
    pub a: PlayerSpec,
    /// Player B.
    pub b: PlayerSpec,
    /// Nodes per move or a clock.
    pub control: Control,
    /// Games of the whole match (even: pairs).
    pub games: u64,
    /// Seed of the opening order.
    pub seed: u64,
    /// The openings.
    pub book: Arc<Book>,
    /// SPRT bounds (normalized Elo).
    pub bounds: (f64, f64),
    /// Stop as soon as the SPRT decides.
    pub early_stop: bool,
    /// With `early_stop`: stop at a verdict of the three-way test on the bounds
    /// ([`replab_elo::ThreeWay`]: better, worse or within) instead of the one SPRT's decision.
    pub three_way: bool,
    /// `Some((k, n))`: play only the pairs `i` with `i % n == k - 1`.
    pub shard: Option<(u32, u32)>,
    /// Worker threads.
    pub threads: usize,
    /// How an equal-cost match set the players' budgets (already in their specs' `nodes`);
    /// `None` for an ordinary match.
    pub cost_scaling: Option<CostScaling>,
    /// The arbiter's draw and resign adjudication.
    pub adjudication: Adjudication,
}

/// Refuses a game count that is not whole pairs, naming its setting: each opening is played
/// twice, colours swapped. The one rule of every game count (a match's, each of the
/// gauntlet's).
pub fn check_even_games(setting: Setting, games: u64) -> Result<()> {
    if !games.is_multiple_of(2) {
        bail!(
            "{setting} {games}: an even number of games (each opening is played twice, colours \
             swapped)"
        );
    }
    Ok(())
}

/// Refuses more pairs than `book` has openings, naming the game count's setting: at fixed
/// nodes a pair replayed from the same opening is the same two games move for move, which would
/// be counted again as new ones. The one rule of every fixed-node match's book (a match's, the
/// gauntlet's).
pub fn check_distinct_openings(setting: Setting, games: u64, book: &Book) -> Result<()> {
    let openings = book.openings.len() as u64;
    let pairs = games / 2;
    if pairs > openings {
        bail!(
            "{setting} {games}: {pairs} pairs at fixed nodes, but the book {} has {openings} \
             openings; a replayed opening replays the same two games, which would be counted \
             again as new ones. Play at most {setting} {} with this book",
            book.name,
            2 * openings
        );
    }
    Ok(())
}

/// Refuses more worker threads than cores for games under a clock, naming the threads' setting
/// and the one that asks for the clock (`clock`, with its value): two games that share a core
/// measure the scheduler, not the engine. The one rule of every clock match (a match's, the
/// gauntlet's timed rows).
pub fn check_one_game_per_core(threads: Setting, count: usize, clock: &str) -> Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if count > cores {
        bail!(
            "{threads} {count} with {clock}: this machine has {cores} cores, and a clock shared \
             by two games measures the machine, not the engine; at most {threads} {cores}"
        );
    }
    Ok(())
}

impl MatchConfig {
    /// Refuses impossible settings with a message naming the option: the rules across the
    /// options (the ranges of the games, the nodes and the threads are the options' own,
    /// [`MatchOptions`](crate::MatchOptions)).
    pub fn check(&self) -> Result<()> {
        check_even_games(crate::MatchOptions::GAMES, self.games)?;
        if let Some((k, n)) = self.shard {
            if n == 0 || k == 0 || k > n {
                bail!(
                    "{set_shard} {k}/{n}: expected K/N with 1 <= K <= N",
                    set_shard = crate::MatchOptions::SHARD
                );
            }
            if self.early_stop {
                bail!(
                    "{set_sprt} and {set_shard} exclude each other: a shard cannot see the other \
                     shards' games, so it cannot stop on the global LLR",
                    set_shard = crate::MatchOptions::SHARD,
                    set_sprt = crate::MatchOptions::SPRT
                );
            }
            if u64::from(n) > self.games / 2 {
                bail!(
                    "{set_shard} {k}/{n}: more shards than game pairs ({})",
                    self.games / 2,
                    set_shard = crate::MatchOptions::SHARD
                );
            }
        }
        self.check_book_openings()?;
        // Bounds the normalized GSPRT cannot take (ELO0 not below ELO1) or cannot compute an
        // LLR for are refused, not run silently.
        let (elo0, elo1) = self.bounds;
        replab_elo::Sprt::new(elo0, elo1, ALPHA, BETA, replab_elo::EloModel::Normalized).map_err(
            |e| {
                anyhow::anyhow!(
                    "{set_sprt} {elo0},{elo1}: {e}",
                    set_sprt = crate::MatchOptions::SPRT
                )
            },
        )?;
        self.check_clock_cores()
    }

    /// Under a clock, at most one game per core ([`check_one_game_per_core`]).
    fn check_clock_cores(&self) -> Result<()> {
        if self.control.deterministic() {
            return Ok(());
        }
        let clock = format!("{} {}", crate::MatchOptions::TC, self.control.pgn());
        check_one_game_per_core(crate::MatchOptions::THREADS, self.threads, &clock)
    }

    /// At fixed nodes, no more pairs than the book has openings ([`check_distinct_openings`]),
    /// with the way out of a larger book. (Under a clock replays differ with the timing and are
    /// allowed.)
    fn check_book_openings(&self) -> Result<()> {
        if !self.control.deterministic() {
            return Ok(());
        }
        check_distinct_openings(crate::MatchOptions::GAMES, self.games, &self.book)
            .map_err(|e| anyhow!("{e}, or give a larger {}", crate::MatchOptions::BOOK))
    }

    /// What identifies the match (shards of one match have equal identities).
    pub fn identity(&self) -> MatchIdentity {
        MatchIdentity {
            a: self.a.to_string(),
            b: self.b.to_string(),
            a_config: self.a.clone(),
            b_config: self.b.clone(),
            control: self.control,
            games: self.games,
            seed: self.seed,
            book: self.book.name.clone(),
            book_openings: self.book.openings.len(),
            book_digest: self.book.digest(),
            sprt_elo0: self.bounds.0,
            sprt_elo1: self.bounds.1,
            early_stop: self.early_stop,
            three_way: self.three_way,
            cost_scaling: self.cost_scaling.clone(),
            adjudication: self.adjudication,
        }
    }

    /// The opening index of every pair of the whole match: a seeded permutation of the book,
    /// repeated when there are more pairs than openings (only under a clock:
    /// [`MatchConfig::check`] refuses that at fixed nodes).
    fn opening_order(&self) -> Vec<usize> {
        let n = self.book.openings.len();
        let mut perm: Vec<usize> = (0..n).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(self.seed);
        for i in (1..n).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            perm.swap(i, j);
        }
        (0..(self.games / 2) as usize)
            .map(|i| perm[i % n])
            .collect()
    }
}

/// What identifies a match: equal for every shard of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchIdentity {
    /// Player A, canonical.
    pub a: String,
    /// Player B, canonical.
    pub b: String,
    /// Player A's configuration.
    pub a_config: PlayerSpec,
    /// Player B's configuration.
    pub b_config: PlayerSpec,
    /// Nodes per move or clock.
    pub control: Control,
    /// Games requested for the whole match.
    pub games: u64,
    /// Seed of the opening order.
    pub seed: u64,
    /// The book's name.
    pub book: String,
    /// Openings in the book.
    pub book_openings: usize,
    /// The book's digest.
    pub book_digest: String,
    /// SPRT H0.
    pub sprt_elo0: f64,
    /// SPRT H1.
    pub sprt_elo1: f64,
    /// Whether the match stops when the SPRT decides.
    pub early_stop: bool,
    /// Whether the stop is the three-way test's verdict on the bounds.
    #[serde(default)]
    pub three_way: bool,
    /// The equal-cost budgets (`--scale-by-cost`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_scaling: Option<CostScaling>,
    /// The arbiter's draw and resign adjudication (`null` when off; fishtest's in results
    /// written before it was recorded).
    #[serde(default)]
    pub adjudication: Adjudication,
}

/// One game pair's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairRecord {
    /// Pair index in the whole match (0-based).
    pub index: u64,
    /// The opening's line in the book.
    pub opening_line: usize,
    /// Player A's points in the pair's two games (A White first).
    pub points: [f64; 2],
    /// How the two games ended.
    pub terminations: [Termination; 2],
    /// Plies of the two games.
    pub plies: [usize; 2],
    /// Whether the two games are one game played twice: the same moves, the players never
    /// having chosen differently.
    #[serde(default)]
    pub same_moves: bool,
    /// Moves of the two games played without a completed search behind them
    /// ([`crate::GameRecord::unsearched`]): always zero, since a search's first iteration
    /// always completes.
    #[serde(default)]
    pub unsearched: [u32; 2],
    /// Searched moves by last completed depth over the pair's two games, of A and of B.
    #[serde(default)]
    pub depths: [DepthCounts; 2],
    /// Under a clock, the players' CPU and search wall time over the pair (absent at fixed
    /// nodes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_use: Option<ClockUse>,
    /// The pair's tag: whether threefold, fivefold, fifty or seventy-five moves ended one of
    /// its games ([`PairRecord::ended_by_draw_rule`]).
    #[serde(default)]
    pub draw_rule: bool,
}

impl PairRecord {
    /// The index of the pair's opening in `book` (its `opening_line` is the file line).
    pub fn opening_line_index(&self, book: &Book) -> usize {
        book.openings
            .iter()
            .position(|o| o.line == self.opening_line)
            .expect("the pair's opening is in its book")
    }

    /// Whether a repetition or move-count rule ended one of the pair's games.
    pub fn ended_by_draw_rule(&self) -> bool {
        self.terminations.iter().any(|t| usage::is_draw_rule(*t))
    }
}

/// What the searches reached over a match: each player's depths, the games' lengths, the
/// pairs a draw rule ended, and under a clock the CPU share.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlaySummary {
    /// Median last completed depth of A's and B's searched moves: a depth completed, the lower
    /// of the two middle ones for an even count ([`DepthCounts::lower_middle`]).
    pub median_depth: [Option<u32>; 2],
    /// A's and B's searched moves by last completed depth.
    pub depths: [DepthCounts; 2],
    /// Median plies per game (the book's included).
    pub median_plies: Option<f64>,
    /// Pairs with a game ended by threefold, fivefold, fifty or seventy-five moves.
    pub draw_rule_pairs: u64,
    /// Under a clock, the players' CPU and search wall time over the match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_use: Option<ClockUse>,
    /// Under a clock, the lower of the two players' CPU shares (CPU time ÷ search wall time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_cpu_share: Option<f64>,
}

impl PlaySummary {
    /// The summary of `pairs`.
    pub fn of(pairs: &[PairRecord]) -> PlaySummary {
        let mut depths: [DepthCounts; 2] = Default::default();
        let mut clock: Option<ClockUse> = None;
        for p in pairs {
            for (mine, theirs) in depths.iter_mut().zip(&p.depths) {
                mine.merge(theirs);
            }
            if let Some(u) = &p.clock_use {
                clock.get_or_insert_with(ClockUse::default).merge(u);
            }
        }
        let plies: Vec<f64> = pairs
            .iter()
            .flat_map(|p| p.plies)
            .map(|n| n as f64)
            .collect();
        PlaySummary {
            median_depth: [depths[0].lower_middle(), depths[1].lower_middle()],
            depths,
            median_plies: (!plies.is_empty()).then(|| median(&plies)),
            draw_rule_pairs: pairs.iter().filter(|p| p.ended_by_draw_rule()).count() as u64,
            min_cpu_share: clock.and_then(|c| c.cpu_share().into_iter().flatten().reduce(f64::min)),
            clock_use: clock,
        }
    }

    /// Whether a timed match's players got less than [`usage::MIN_CPU_SHARE`] of their
    /// searches' wall time as CPU time: the clock measured a busy machine.
    pub fn cpu_starved(&self) -> bool {
        self.min_cpu_share.is_some_and(|s| s < usage::MIN_CPU_SHARE)
    }
}

/// Wins, draws and losses of player A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// A's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// A's losses.
    pub losses: u64,
}

/// Where the time went.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Wall time of the match, seconds.
    #[serde(with = "replab_interval::single_sample")]
    pub wall_s: f64,
    /// Time inside the players' searches, summed over threads, seconds.
    #[serde(with = "replab_interval::single_sample")]
    pub search_s: f64,
    /// Worker threads.
    pub threads: usize,
    /// Games per second of wall time.
    #[serde(with = "replab_interval::single_sample")]
    pub games_per_second: f64,
    /// Share of the threads' busy time spent outside the searches (match loop, arbiter, PGN):
    /// 1 − search / (wall × threads).
    pub outside_search_share: f64,
    /// Peak resident memory of the process, KiB (Linux `VmHWM`; 0 elsewhere).
    pub peak_rss_kib: u64,
    /// The two players' tables per worker, bytes.
    pub table_bytes_per_worker: u64,
}

impl Timing {
    /// The match's rates, computed once for a match, a merge and a gauntlet: games per second
    /// over `wall_s` seconds, and the share of `thread_s` thread-seconds (wall × threads) spent
    /// outside `search_s` seconds of search, 1 − search ÷ thread-seconds; both 0 when no time
    /// passed.
    pub fn rates(games: u64, wall_s: f64, thread_s: f64, search_s: f64) -> (f64, f64) {
        let per_second = if wall_s > 0.0 {
            games as f64 / wall_s
        } else {
            0.0
        };
        let outside = if thread_s > 0.0 {
            (1.0 - search_s / thread_s).max(0.0)
        } else {
            0.0
        };
        (per_second, outside)
    }
}

/// Results of a match, a shard or a merge (`results.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResults {
    /// The match.
    #[serde(rename = "match")]
    pub identity: MatchIdentity,
    /// `[k, n]` for a shard; `null` for a whole match or a merge.
    pub shard: Option<(u32, u32)>,
    /// Shard count of a merge's inputs (`null` otherwise).
    pub merged_shards: Option<u32>,
    /// Games played.
    pub games: u64,
    /// Pairs played.
    pub pairs: u64,
    /// `[LL, LD, WL+DD, WD, WW]` from A's side.
    pub pentanomial: [u64; 5],
    /// The six counts fastchess reports, WL and DD apart.
    pub pentanomial_fastchess: replab_elo::Pentanomial,
    /// A's wins, draws, losses.
    pub wdl: Wdl,
    /// Logistic Elo of A against B with its 95% interval.
    pub elo: EloEstimate,
    /// Normalized Elo with its 95% interval.
    pub nelo: EloEstimate,
    /// Likelihood of superiority of A.
    pub los: f64,
    /// The pentanomial normalized-Elo GSPRT at the bounds of the match.
    pub sprt: SprtReport,
    /// For comparison, cutechess's trinomial BayesElo SPRT with the same bounds.
    pub sprt_bayeselo: SprtReport,
    /// Whether the SPRT stopped the match before every game was played.
    pub stopped_early: bool,
    /// After an SPRT stop, fishtest's estimate that accounts for the stopping rule (the
    /// fixed-sample `elo` interval is biased away from 0 by stopping where the LLR crossed a
    /// bound): the median-unbiased logistic Elo with its 95% interval. `null` otherwise.
    #[serde(default)]
    pub sequential_elo: Option<EloEstimate>,
    /// Whether another run gives the same games (fixed nodes).
    pub deterministic: bool,
    /// Games per termination.
    pub terminations: BTreeMap<String, u64>,
    /// Depths reached, game lengths, draw-rule pairs and, under a clock, the CPU share.
    #[serde(default)]
    pub play: PlaySummary,
    /// Moves played without a completed search behind them, over every game (always 0: the
    /// first iteration of a search always completes, node limit or not).
    #[serde(default)]
    pub unsearched_moves: u64,
    /// Every pair, in index order.
    pub pair_results: Vec<PairRecord>,
    /// Where the time went (differs between runs).
    pub timing: Timing,
    /// The command line (differs between runs).
    pub meta: BTreeMap<String, String>,
}

impl MatchResults {
    /// Why the estimates carry no interval (`None` when they carry one).
    pub fn no_interval(&self) -> Option<stats::NoInterval> {
        let identical = self.pair_results.iter().all(|p| p.same_moves);
        stats::no_interval(&self.pentanomial_fastchess, identical)
    }

    /// The statistics and counts of `pairs` (sorted by index).
    pub fn from_pairs(
        identity: MatchIdentity,
        shard: Option<(u32, u32)>,
        pairs: Vec<PairRecord>,
        stopped_early: bool,
    ) -> MatchResults {
        let penta = stats::pentanomial(pairs.iter().map(|p| &p.points));
        let mut wdl = Wdl::default();
        let mut terminations = BTreeMap::new();
        for p in &pairs {
            for (points, t) in p.points.iter().zip(p.terminations) {
                match *points {
                    x if x > 0.75 => wdl.wins += 1,
                    x if x < 0.25 => wdl.losses += 1,
                    _ => wdl.draws += 1,
                }
                *terminations.entry(t.name().to_string()).or_insert(0) += 1;
            }
        }
        let summary = stats::summarize_pairs(&penta, (identity.sprt_elo0, identity.sprt_elo1));
        let sequential_elo = if stopped_early {
            stats::sequential_estimate(&penta, (identity.sprt_elo0, identity.sprt_elo1))
        } else {
            None
        };
        let unsearched_moves = pairs.iter().flat_map(|p| p.unsearched).map(u64::from).sum();
        MatchResults {
            deterministic: identity.control.deterministic(),
            identity,
            shard,
            merged_shards: None,
            unsearched_moves,
            sequential_elo,
            games: 2 * pairs.len() as u64,
            pairs: pairs.len() as u64,
            pentanomial: penta.ptnml(),
            pentanomial_fastchess: penta,
            wdl,
            elo: summary.elo,
            nelo: summary.nelo,
            los: summary.los,
            sprt: summary.sprt,
            sprt_bayeselo: summary.sprt_bayeselo,
            stopped_early,
            terminations,
            play: PlaySummary::of(&pairs),
            pair_results: pairs,
            timing: Timing::default(),
            meta: BTreeMap::new(),
        }
    }
}

/// A finished pair with its PGN text.
struct PlayedPair {
    record: PairRecord,
    pgn: String,
    search_s: f64,
}

/// Plays the match (or the shard); `on_pair` is called after each pair with the pairs done
/// and the pairs to play. Returns the results and the PGN of every game, in pair order.
pub fn play(
    config: &MatchConfig,
    on_pair: &mut dyn FnMut(u64, u64),
) -> Result<(MatchResults, String)> {
    config.check()?;
    let start = Instant::now();
    let order = config.opening_order();
    let pairs: Vec<u64> = (0..order.len() as u64)
        .filter(|i| {
            config
                .shard
                .is_none_or(|(k, n)| i % u64::from(n) == u64::from(k - 1))
        })
        .collect();
    let threads = config.threads.min(pairs.len()).max(1);
    // Build the players once up front, so a refusal comes before any game.
    Table::new(&config.a, &config.b, config.control, config.adjudication)?;
    let stop = AtomicBool::new(false);
    let mut slots: Vec<Option<PlayedPair>> = (0..pairs.len()).map(|_| None).collect();
    let mut cut = pairs.len();
    let (mut prefix, mut done) = (0, 0);
    pool::run(
        threads,
        |tx| play_pairs(config, &pairs, &order, &stop, tx),
        |message: Result<(usize, PlayedPair)>| {
            let (slot, played) = message?;
            slots[slot] = Some(played);
            done += 1;
            on_pair(done, pairs.len() as u64);
            while prefix < slots.len() && slots[prefix].is_some() {
                prefix += 1;
                if config.early_stop && cut == pairs.len() && decided(config, &slots[..prefix]) {
                    cut = prefix;
                    stop.store(true, Ordering::Relaxed);
                }
            }
            Ok(())
        },
    )?;
    slots.truncate(cut);
    let played: Vec<PlayedPair> = slots
        .into_iter()
        .map(|s| s.expect("every pair before the cut was played"))
        .collect();
    let mut pgn = String::new();
    let mut search_s = 0.0;
    let mut records = Vec::with_capacity(played.len());
    for p in played {
        pgn.push_str(&p.pgn);
        search_s += p.search_s;
        records.push(p.record);
    }
    let stopped_early = records.len() < pairs.len();
    let mut results =
        MatchResults::from_pairs(config.identity(), config.shard, records, stopped_early);
    let wall_s = start.elapsed().as_secs_f64();
    let (games_per_second, outside_search_share) =
        Timing::rates(results.games, wall_s, wall_s * threads as f64, search_s);
    results.timing = Timing {
        wall_s,
        search_s,
        threads,
        games_per_second,
        outside_search_share,
        peak_rss_kib: peak_rss_kib(),
        table_bytes_per_worker: config.a.table_bytes() + config.b.table_bytes(),
    };
    Ok((results, pgn))
}

/// Whether the SPRT has decided on the pairs played so far.
fn decided(config: &MatchConfig, prefix: &[Option<PlayedPair>]) -> bool {
    let penta = stats::pentanomial(prefix.iter().flatten().map(|p| &p.record.points));
    if config.three_way {
        return stats::verdict(&penta, config.bounds) != stats::Verdict::Continue;
    }
    stats::decision(&penta, config.bounds) != Decision::Continue
}

/// Plays the pairs on the current pool, handed out in order to whichever worker is free (each
/// with its own table of players), until there are none left or the SPRT stopped the match;
/// every pair played (or a worker's refusal) is sent to `tx` with its slot.
fn play_pairs(
    config: &MatchConfig,
    pairs: &[u64],
    order: &[usize],
    stop: &AtomicBool,
    tx: mpsc::Sender<Result<(usize, PlayedPair)>>,
) {
    let (a, b) = (config.a.to_string(), config.b.to_string());
    pairs.iter().enumerate().par_bridge().for_each_init(
        || {
            (
                tx.clone(),
                Table::new(&config.a, &config.b, config.control, config.adjudication),
            )
        },
        |(tx, table), (slot, &index)| {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let message = match table {
                Ok(table) => Ok((slot, play_pair(config, table, order, index, (&a, &b)))),
                Err(e) => Err(anyhow!("{e:#}")),
            };
            if tx.send(message).is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        },
    );
}

/// Plays pair `index` (both colours of its opening) with `table`'s players.
fn play_pair(
    config: &MatchConfig,
    table: &mut Table,
    order: &[usize],
    index: u64,
    (a, b): (&str, &str),
) -> PlayedPair {
    let opening = &config.book.openings[order[index as usize]];
    let games: [GameRecord; 2] =
        [true, false].map(|a_white| table.play(opening, a_white, config.control));
    let mut pgn = String::with_capacity(4096);
    for (g, record) in games.iter().enumerate() {
        PgnGame {
            record,
            round: format!("{}.{}", index + 1, g + 1),
            a,
            b,
            opening: format!("{}:{}", config.book.name, opening.line),
            control: config.control,
        }
        .write(&mut pgn);
    }
    let record = PairRecord {
        index,
        opening_line: opening.line,
        points: [games[0].score_a(), games[1].score_a()],
        terminations: [games[0].termination, games[1].termination],
        plies: [games[0].moves.len(), games[1].moves.len()],
        same_moves: games[0].moves == games[1].moves,
        unsearched: [games[0].unsearched, games[1].unsearched],
        depths: [0, 1].map(|p| {
            let mut d = games[0].depths[p].clone();
            d.merge(&games[1].depths[p]);
            d
        }),
        clock_use: games[0].clock_use.map(|mut u| {
            u.merge(&games[1].clock_use.unwrap_or_default());
            u
        }),
        draw_rule: games.iter().any(|g| usage::is_draw_rule(g.termination)),
    };
    let search_s = games.iter().map(|g| g.search_time.as_secs_f64()).sum();
    PlayedPair {
        record,
        pgn,
        search_s,
    }
}

/// The process's peak resident memory in KiB (`VmHWM` of `/proc/self/status`; 0 when it
/// cannot be read).
pub fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::PlayerClock;

    fn pair(terminations: [Termination; 2], cpu_s: [f64; 2]) -> PairRecord {
        PairRecord {
            index: 0,
            opening_line: 1,
            points: [0.5, 0.5],
            terminations,
            plies: [40, 60],
            same_moves: false,
            unsearched: [0, 0],
            depths: Default::default(),
            clock_use: Some(ClockUse(cpu_s.map(|cpu_s| PlayerClock {
                cpu_s,
                search_s: 1.0,
            }))),
            draw_rule: false,
        }
    }

    #[test]
    fn a_cpu_share_under_ninety_percent_is_a_starved_clock() {
        let adj = [Termination::DrawAdjudication; 2];
        let starved = PlaySummary::of(&[pair(adj, [0.89, 1.0])]);
        assert!(starved.cpu_starved());
        assert_eq!(starved.min_cpu_share, Some(0.89));
        assert!(!PlaySummary::of(&[pair(adj, [0.91, 0.95])]).cpu_starved());
        // Fixed nodes record no clock: never starved.
        let mut p = pair(adj, [0.0, 0.0]);
        p.clock_use = None;
        assert!(!PlaySummary::of(&[p]).cpu_starved());
    }

    #[test]
    fn a_pair_counts_as_ended_by_a_draw_rule_when_one_game_was() {
        let s = PlaySummary::of(&[
            pair([Termination::Threefold, Termination::Checkmate], [1.0; 2]),
            pair(
                [Termination::DrawAdjudication, Termination::FiftyMoves],
                [1.0; 2],
            ),
            pair(
                [Termination::DrawAdjudication, Termination::Checkmate],
                [1.0; 2],
            ),
        ]);
        assert_eq!(s.draw_rule_pairs, 2);
        assert_eq!(s.median_plies, Some(50.0));
    }

    /// The plies' median is the workspace's one median, as it was before it was: a pair is two
    /// games, so the count is even and the median the mean of the two middle games; none
    /// without a game.
    #[test]
    fn the_median_plies_are_the_mean_of_the_two_middle_games() {
        let draw = [Termination::DrawAdjudication; 2];
        let with_plies = |plies: [usize; 2]| PairRecord {
            plies,
            ..pair(draw, [1.0; 2])
        };
        let two = PlaySummary::of(&[with_plies([61, 40]), with_plies([45, 50])]);
        assert_eq!(two.median_plies, Some(47.5));
        let three = [
            with_plies([61, 40]),
            with_plies([46, 50]),
            with_plies([44, 90]),
        ];
        assert_eq!(PlaySummary::of(&three).median_plies, Some(48.0));
        assert_eq!(PlaySummary::of(&[]).median_plies, None);
    }
}
