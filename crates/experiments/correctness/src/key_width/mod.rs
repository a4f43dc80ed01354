//! Key width and false draws (`replab key-width`): hash-based detectors trust their keys, so a
//! key collision is a false repetition — a false draw in search. The Zobrist keys the detectors
//! see are truncated to 16 … 64 bits ([`replab_detect::Detector::set_key_bits`]) and
//!
//! - `linear`, `rookie`, `filo`, `tt-open` and `cuckoo` are judged against exact FIDE identity
//!   on the audit's seeded games (the audit's game generator and judge, `crate::judging`): false
//!   positives per probe and per game, false negatives, against the birthday bound
//!   ([`bound`]), with exact binomial intervals; `linear` also at every width from 1 bit, from
//!   the keys directly;
//! - the same detectors (`linear+cuckoo` for cuckoo) drive the searcher on the repetition suite
//!   and WAC records at a fixed depth, every probe judged against an exact reference
//!   ([`search`]), and root best moves and scores are compared with the 64-bit search.
//!
//! Only the detectors' keys are truncated (and their table indexes, derived from them); the
//! searcher's transposition table keeps full keys. `tt-thompson` is left out: its marks live in
//! the searcher's table, found by the full key.

pub mod bound;
mod page;
mod results;
pub mod search;

use std::{fmt, ops::Deref, ops::RangeInclusive, str::FromStr, time::Instant};

use anyhow::{Result, anyhow, ensure};
use replab_board::{Move, Position};
use replab_detect::{DrawPolicy, FULL_KEY_BITS};
use replab_registry::{DetectorId, MIN_KEY_BITS};
use replab_report::{Meta, ReportDir};
use replab_search::SearchConfig;
use replab_settings::{Ranged, Setting, Settings};
use serde::{Deserialize, Serialize};

pub use self::results::{
    AuditCell, Clusters, GameTotals, Rate, Results, SearchCell, Setup, TailPoint, Zarkov,
};
use self::{
    bound::{TAIL_BITS, Walk, bytes_per_entry, detectors},
    search::{Engine, SearchCounts, engine},
};
use crate::contribution::Phrase;
use crate::experiment::{Configuration, Experiment, Headline};
use crate::stats::Estimate;
use crate::{
    Progress, datasets,
    engine::{default_threads, parallel},
    judging::{
        MAX_PLIES,
        games::{self, Game, Scratch},
        judge::{Judge, Tally, Totals},
        spec::Spec,
    },
};

/// The page title.
pub const TITLE: &str = "Key width and false draws";

/// The widths run unless told otherwise.
pub const WIDTHS: [u32; 6] = [16, 24, 32, 40, 48, 64];

/// The detectors searched, in report (table) order: every listed, searchable detector whose
/// keys can be truncated, variants aside, from the registry's columns (`linear+cuckoo` stands
/// for `cuckoo`, which the searcher uses only in that composition).
pub fn search_detectors() -> Vec<DetectorId> {
    DetectorId::select(|c| c.key_width && c.searchable && !c.variant)
}

/// The most audit games.
pub const MAX_GAMES: u64 = 10_000_000;

/// The deepest search.
pub const MAX_DEPTH: u32 = 20;

/// Games per parallel job of the audit part.
const CHUNK: u64 = 50;

/// The searcher's table: 2^18 entries (its keys are never truncated).
const TT_BITS: u32 = 18;

/// The settings of `replab key-width`, each declared on its field: the doc comment is its
/// help. `Default` is the full run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::Args, Settings)]
pub struct Config {
    /// Audit games played.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_GAMES)]
    pub games: u64,
    /// Seed of the audit's game generator.
    #[arg(long, value_name = "S")]
    pub seed: u64,
    /// Longest game in plies.
    #[arg(long, value_name = "P")]
    #[setting(range = 1..=MAX_PLIES)]
    pub max_plies: u32,
    /// Key widths in bits, comma-separated (each {range}, 64 included: the reference).
    #[arg(long = "bits", value_name = "LIST", value_parser = parse_widths)]
    #[setting(range = MIN_KEY_BITS..=FULL_KEY_BITS)]
    pub widths: KeyWidths,
    /// Search depth.
    #[arg(long, value_name = "N")]
    #[setting(range = 1..=MAX_DEPTH)]
    pub depth: u32,
    /// Records of datasets/repetition.epd searched (the first N, {range}).
    #[arg(long = "repetition", value_name = "N")]
    #[setting(range = 0..=1000)]
    pub repetition_records: usize,
    /// Records of datasets/wac.epd searched (the first N, {range}).
    #[arg(long = "wac", value_name = "N")]
    #[setting(range = 0..=300)]
    pub wac_records: usize,
    /// Worker threads ({range}); the counts do not depend on it.
    #[arg(long, value_name = "T")]
    #[setting(range = 1..=256)]
    pub threads: usize,
    /// The command line that regenerates the report (in `meta`, recorded as typed).
    #[arg(skip)]
    #[serde(skip)]
    pub command: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            games: 3000,
            seed: 1,
            max_plies: 200,
            widths: KeyWidths(WIDTHS.to_vec()),
            depth: 5,
            repetition_records: 79,
            wac_records: 20,
            threads: default_threads(),
            command: String::new(),
        }
    }
}

impl Configuration for Config {
    /// The short run of `bench --quick`.
    fn quick() -> Self {
        Config {
            games: 500,
            depth: 4,
            repetition_records: 30,
            wac_records: 5,
            ..Self::default()
        }
    }

    fn set_command(&mut self, command: String) {
        self.command = command;
    }

    /// The declared ranges, then the reference width and the order of the widths.
    fn check(&self) -> Result<()> {
        self.check_ranges()?;
        ensure!(
            self.widths.contains(&FULL_KEY_BITS),
            "{} must include 64 (the reference the other widths are compared with)",
            Config::WIDTHS
        );
        ensure!(
            self.widths.windows(2).all(|w| w[0] < w[1]),
            "{} must be ascending without repeats",
            Config::WIDTHS
        );
        Ok(())
    }
}

/// Key widths in bits, ascending without repeats (written as a JSON list).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KeyWidths(pub Vec<u32>);

impl Deref for KeyWidths {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.0
    }
}

impl FromStr for KeyWidths {
    type Err = String;

    /// As [`parse_widths`].
    fn from_str(text: &str) -> Result<Self, String> {
        parse_widths(text)
    }
}

impl fmt::Display for KeyWidths {
    /// Comma-separated, as the option takes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let widths: Vec<String> = self.0.iter().map(u32::to_string).collect();
        f.write_str(&widths.join(","))
    }
}

impl Ranged<u32> for KeyWidths {
    /// Each width in `range`.
    fn check_in(&self, setting: Setting, range: &RangeInclusive<u32>) -> Result<()> {
        self.0.check_in(setting, range)
    }
}

/// Parses a comma-separated list of widths, returned ascending without repeats (their range
/// and the reference are [`Config::check`]'s).
pub fn parse_widths(text: &str) -> Result<KeyWidths, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let w: u32 = part
            .parse()
            .map_err(|_| format!("{part:?} is not a whole number"))?;
        out.push(w);
    }
    out.sort_unstable();
    out.dedup();
    Ok(KeyWidths(out))
}

/// One audit job's sums.
struct AuditPart {
    tallies: Vec<Tally>,
    totals: Totals,
    walk: Walk,
}

/// The audit part: detector × width specs judged on the seeded games, with the bound.
fn audit_part(
    config: &Config,
    progress: &mut dyn Progress,
) -> Result<(Vec<Spec>, Vec<Tally>, Totals, Walk)> {
    let specs: Vec<Spec> = detectors()
        .into_iter()
        .flat_map(|d| config.widths.iter().map(move |&w| (d, w)))
        .map(|(d, w)| Spec::keyed(d.name(), w).ok_or_else(|| anyhow!("{d} at {w} bits")))
        .collect::<Result<_>>()?;
    let jobs = config.games.div_ceil(CHUNK) as usize;
    progress.stage("audit games", config.games);
    let starts = games::parse_starts();
    let parts = parallel(
        jobs,
        config.threads,
        progress,
        || Ok((Judge::new(&specs), Game::default(), Scratch::default())),
        |(judge, game, scratch), job, done| {
            let mut part = AuditPart {
                tallies: vec![Tally::default(); specs.len()],
                totals: Totals::default(),
                walk: Walk::new(&config.widths),
            };
            let first = job as u64 * CHUNK;
            for i in first..(first + CHUNK).min(config.games) {
                games::play(
                    config.seed,
                    i,
                    config.max_plies as usize,
                    &starts,
                    game,
                    scratch,
                );
                judge.judge(i, game, &mut part.tallies, &mut part.totals);
                part.walk.game(game);
                done.add(1);
            }
            Ok(part)
        },
    )?;
    let mut tallies = vec![Tally::default(); specs.len()];
    let mut totals = Totals::default();
    let mut walk = Walk::new(&config.widths);
    for p in parts {
        for (mine, theirs) in tallies.iter_mut().zip(p.tallies) {
            mine.merge(theirs);
        }
        totals.merge(&p.totals);
        walk.merge(&p.walk);
    }
    Ok((specs, tallies, totals, walk))
}

/// A position searched: its id and game.
struct Searched {
    id: String,
    positions: Vec<Position>,
    moves: Vec<Move>,
}

/// The searched positions: the first records of the repetition suite and of WAC (embedded),
/// and how many come from the repetition suite.
fn positions(config: &Config) -> Result<(Vec<Searched>, usize)> {
    let mut out: Vec<Searched> = datasets::REPETITION
        .records(Some(config.repetition_records))?
        .into_iter()
        .map(|r| Searched {
            id: r.id,
            positions: r.positions,
            moves: r.moves,
        })
        .collect();
    let repetition = out.len();
    for (id, pos) in datasets::WAC.positions(config.wac_records)? {
        out.push(Searched {
            id,
            positions: vec![pos],
            moves: Vec::new(),
        });
    }
    Ok((out, repetition))
}

/// One search's outcome.
#[derive(Clone, Debug)]
struct Outcome {
    best: Option<Move>,
    score: Option<i32>,
    nodes: u64,
    counts: SearchCounts,
}

/// The search part: every search detector at every width on every position.
fn search_part(
    config: &Config,
    set: &[Searched],
    progress: &mut dyn Progress,
) -> Result<Vec<SearchCell>> {
    let search = SearchConfig {
        max_depth: config.depth,
        policy: DrawPolicy::Stockfish,
        tt_bits: Some(TT_BITS),
        ..SearchConfig::default()
    };
    let detectors = search_detectors();
    let jobs = detectors.len() * set.len();
    progress.stage("searches", (jobs * config.widths.len()) as u64);
    // Each worker keeps the searchers of the detector it last searched with (jobs run detector
    // by detector, so a worker rebuilds them only when the detector changes).
    let outcomes: Vec<Vec<Outcome>> = parallel(
        jobs,
        config.threads,
        progress,
        || Ok((usize::MAX, Vec::<Engine>::new())),
        |(current, engines), job, done| {
            let (d, p) = (job / set.len(), job % set.len());
            if *current != d {
                engines.clear();
                for &w in config.widths.iter() {
                    engines.push(engine(detectors[d].name(), w, search)?);
                }
                *current = d;
            }
            let s = &set[p];
            let mut out = Vec::with_capacity(engines.len());
            for e in engines.iter_mut() {
                let (result, counts) = e.search(&s.positions, &s.moves);
                out.push(Outcome {
                    best: result.best_move(),
                    score: result.score().map(|s| s.0),
                    nodes: result.totals().nodes,
                    counts,
                });
                done.add(1);
            }
            Ok(out)
        },
    )?;
    let reference = config
        .widths
        .iter()
        .position(|&w| w == FULL_KEY_BITS)
        .expect("checked: 64 is run");
    let mut cells = Vec::new();
    for (d, &id) in detectors.iter().enumerate() {
        let rows = &outcomes[d * set.len()..(d + 1) * set.len()];
        for (w, &bits) in config.widths.iter().enumerate() {
            let mut counts = SearchCounts::default();
            let (mut nodes, mut best_changes, mut score_changes) = (0, 0, 0);
            let mut changed = Vec::new();
            for (s, row) in set.iter().zip(rows) {
                let (o, r) = (&row[w], &row[reference]);
                counts.add(&o.counts);
                nodes += o.nodes;
                let best = o.best != r.best;
                let score = o.score != r.score;
                best_changes += usize::from(best);
                score_changes += usize::from(score);
                if best || score {
                    changed.push(s.id.clone());
                }
            }
            cells.push(SearchCell {
                detector: id,
                bits,
                bytes_per_entry: bytes_per_entry(id, bits),
                positions: set.len(),
                nodes,
                false_rate: results::clopper_pearson(counts.false_repetitions, counts.probes),
                counts,
                best_move_changes: best_changes,
                score_changes,
                changed,
            });
        }
    }
    Ok(cells)
}

/// Runs the experiment: the audit games with the bound, then the searches.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let meta = Meta::collect(&config.command);
    let started = Instant::now();
    let (specs, tallies, totals, walk) = audit_part(config, progress)?;
    let audit_seconds = started.elapsed().as_secs_f64();

    let audit = audit_cells(config, &specs, &tallies, &totals, &walk);
    let tail_probes: u64 = walk.tail.iter().sum();
    let linear_tail = (1..=TAIL_BITS)
        .map(|b| TailPoint {
            bits: b as u32,
            per_probe: Rate::new(
                walk.tail[b..].iter().sum::<u64>(),
                totals.plies,
                walk.tail_expected[b],
            ),
        })
        .collect();
    let clusters = clusters(&walk, config.widths[0]);
    let zarkov = audit
        .iter()
        .find(|c| c.detector == DetectorId::reference() && c.bits == 32)
        .map(|c| Zarkov {
            bits: 32,
            per_probe: c.per_probe,
            per_game: c.per_game,
            mean_compared: c.keys_compared / tail_probes.max(1) as f64,
        });

    let started = Instant::now();
    let (set, repetition_records) = positions(config)?;
    let search = search_part(config, &set, progress)?;
    let search_seconds = started.elapsed().as_secs_f64();
    progress.finish();

    Ok(Results {
        meta,
        config: Setup {
            settings: Config {
                repetition_records,
                wac_records: set.len() - repetition_records,
                command: String::new(), // meta's, not the settings'
                ..config.clone()
            },
            policy: DrawPolicy::Stockfish.name().into(),
            tt_bits: TT_BITS,
        },
        totals: GameTotals {
            games: totals.games,
            plies: totals.plies,
            repetitions: totals.repetitions,
            upcoming: totals.upcoming,
        },
        audit,
        linear_tail,
        clusters,
        zarkov,
        search,
        seconds: [audit_seconds, search_seconds].map(Estimate::single),
    })
}

/// The audit's cells: per detector and key width, the confusion counts and the false-positive
/// rates beside the bound's expectation.
fn audit_cells(
    config: &Config,
    specs: &[Spec],
    tallies: &[Tally],
    totals: &Totals,
    walk: &Walk,
) -> Vec<AuditCell> {
    let mut audit = Vec::new();
    for (spec, tally) in specs.iter().zip(tallies) {
        let Spec::Keyed(info, bits) = *spec else {
            unreachable!("every spec is keyed")
        };
        let d = detectors()
            .iter()
            .position(|&n| n == info.id)
            .expect("a detector of the experiment");
        let w = config
            .widths
            .iter()
            .position(|&x| x == bits)
            .expect("a width of the run");
        let e = walk.expected[d][w];
        let c = &tally.confusion;
        // The bound adds collision false positives to the 64-bit detector's own (none for the
        // exact detectors).
        let base = tallies[specs
            .iter()
            .position(|s| *s == Spec::Keyed(info, FULL_KEY_BITS))
            .expect("64 bits is run")]
        .confusion
        .fp as f64;
        let base_games = tallies[specs
            .iter()
            .position(|s| *s == Spec::Keyed(info, FULL_KEY_BITS))
            .expect("64 bits is run")]
        .games_with[0] as f64;
        let (exp_fp, exp_games) = if bits == FULL_KEY_BITS {
            (base, base_games)
        } else {
            (base + e.probes, base_games + e.games)
        };
        audit.push(AuditCell {
            detector: info.id,
            bits,
            bytes_per_entry: bytes_per_entry(info.id, bits),
            check: spec.check().name().to_string(),
            true_positive: c.tp,
            false_positive: c.fp,
            false_negative: c.fn_,
            true_negative: c.tn,
            per_probe: Rate::new(c.fp, c.total(), exp_fp),
            per_game: Rate::new(tally.games_with[0], totals.games, exp_games),
            games_with_false_negative: tally.games_with[1],
            keys_compared: e.compared,
        });
    }
    audit
}

/// How the false positives at `bits` cluster: the distinct key differences among them and the
/// largest group sharing one.
fn clusters(walk: &Walk, bits: u32) -> Clusters {
    let mut differences = walk.differences.clone();
    differences.sort_unstable();
    let mut runs: Vec<u64> = Vec::new();
    for (i, d) in differences.iter().enumerate() {
        if i > 0 && differences[i - 1] == *d {
            *runs.last_mut().expect("a run started") += 1;
        } else {
            runs.push(1);
        }
    }
    Clusters {
        bits,
        false_positives: differences.len() as u64,
        distinct_differences: runs.len() as u64,
        largest: runs.iter().copied().max().unwrap_or(0),
    }
}

/// Writes `results.json`, the charts and `index.html` into the staged `dir`.
pub fn write(results: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_string_pretty(results)?)?;
    page::write(results, dir)
}

/// The landing page's one-line headline: Zarkov's 32 bits against the bound, and the narrowest
/// width's false positives and root changes.
pub fn headline(results: &Results) -> String {
    let mut out = String::new();
    if let Some(z) = &results.zarkov {
        out += &format!(
            "with Zarkov's 32-bit keys linear made {} false repetitions in {} probes (95% \
             interval of the rate {:.1e} to {:.1e}; birthday bound {:.1e} per probe). ",
            z.per_probe.count,
            replab_report::fmt_int(z.per_probe.trials),
            z.per_probe.rate.interval.lo,
            z.per_probe.rate.interval.hi,
            z.per_probe.expected_rate
        );
    }
    let narrow = results.config.settings.widths[0];
    let fp: Vec<String> = results
        .audit
        .iter()
        .filter(|c| c.bits == narrow)
        .map(|c| format!("{} {:.1e}", c.detector, c.per_probe.rate.value))
        .collect();
    let roots: usize = results
        .search
        .iter()
        .filter(|c| c.bits == narrow)
        .map(|c| c.changed.len())
        .sum();
    out += &format!(
        "At {narrow} bits, false positives per probe: {}; in search {} root(s) changed.",
        fp.join(", "),
        roots
    );
    out
}

/// The table `replab key-width` prints.
pub fn summary_table(results: &Results) -> String {
    let mut out = format!(
        "Audit games: {} games, {} plies (seed {}); false positives against truth, with the \
         birthday bound\n",
        results.totals.games, results.totals.plies, results.config.settings.seed
    );
    out += &format!(
        "{:<9} {:>4} {:>6} {:>8} {:>10} {:>26} {:>10} {:>6} {:>12} {:>4}\n",
        "detector",
        "bits",
        "B/key",
        "FP",
        "expected",
        "FP/probe [95% CI]",
        "games FP",
        "exp",
        "FN",
        ""
    );
    for c in &results.audit {
        out += &format!(
            "{:<9} {:>4} {:>6} {:>8} {:>10.2} {:>26} {:>10} {:>6.1} {:>12} {:>4}\n",
            c.detector,
            c.bits,
            c.bytes_per_entry,
            c.false_positive,
            c.per_probe.expected,
            format!(
                "{:.2e} {}",
                c.per_probe.rate.value,
                c.per_probe.rate.interval.ends_text(|x| format!("{x:.1e}"))
            ),
            c.per_game.count,
            c.per_game.expected,
            c.false_negative,
            if c.per_probe.agrees() { "ok" } else { "≠" }
        );
    }
    let k = &results.clusters;
    out += &format!(
        "\nlinear's {} false positives at {} bits come from {} distinct key differences (the \
         largest cluster: {})\n",
        k.false_positives, k.bits, k.distinct_differences, k.largest
    );
    if let Some(z) = &results.zarkov {
        out += &format!(
            "\nZarkov's 32-bit keys (linear): {} false positives in {} probes, rate {:.2e} \
             [95% CI {:.1e}, {:.1e}]; birthday bound {:.2e} per probe ({:.4} expected, {:.1} keys \
             compared per probe)\n",
            z.per_probe.count,
            z.per_probe.trials,
            z.per_probe.rate.value,
            z.per_probe.rate.interval.lo,
            z.per_probe.rate.interval.hi,
            z.per_probe.expected_rate,
            z.per_probe.expected,
            z.mean_compared
        );
    }
    out += &format!(
        "\nSearch: {} positions at depth {}, policy {}; against an exact reference and the 64-bit \
         search\n",
        results.search.first().map_or(0, |c| c.positions),
        results.config.settings.depth,
        results.config.policy
    );
    out += &format!(
        "{:<14} {:>4} {:>12} {:>12} {:>9} {:>9} {:>9} {:>6} {:>6}\n",
        "detector",
        "bits",
        "nodes",
        "probes",
        "false rep",
        "false draw",
        "false cyc",
        "Δbest",
        "Δscore"
    );
    for c in &results.search {
        out += &format!(
            "{:<14} {:>4} {:>12} {:>12} {:>9} {:>9} {:>9} {:>6} {:>6}\n",
            c.detector,
            c.bits,
            c.nodes,
            c.counts.probes,
            c.counts.false_repetitions,
            c.counts.false_draws,
            c.counts.false_upcoming,
            c.best_move_changes,
            c.score_changes
        );
    }
    out
}

/// Key width and false draws as an experiment of the table.
pub struct KeyWidth;

impl Experiment for KeyWidth {
    const NAME: &'static str = "key-width";
    const DIR: &'static str = "key-width";
    const TITLE: &'static str = TITLE;
    type Config = Config;
    type Results = Results;

    fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
        run(config, progress)
    }

    fn write(results: &Results, dir: &ReportDir) -> Result<()> {
        write(results, dir)
    }

    fn summary(results: &Results) -> String {
        summary_table(results)
    }

    fn headlines(results: &Results) -> Vec<Headline> {
        vec![Headline {
            label: "Key width".into(),
            context: Phrase::parenthesised([Phrase::report(
                "false draws from truncated keys",
                "key-width",
            )]),
            text: headline(results),
        }]
    }
}

#[cfg(test)]
mod tests;
