//! Running the gauntlet: its matches in the table's order, each row's match configured
//! (books, equal-cost budgets) and played, and each match's line of the results.

use std::sync::Arc;

use anyhow::{Context, Result};
use replab_harness::{Progress, experiment::Configuration};
use replab_report::Meta;
use replab_selfplay::{
    Book, Control, MatchConfig, MatchResults, PlayerSpec, Termination, book::REPETITION_NAME,
    check_distinct_openings, play, stats,
};

use crate::across::{AcrossBudgets, across, read_budget_times, read_slopes};
use crate::matches::cost;
use crate::{
    BASELINE, Config, EqualTimes, Measure, ROWS, Results, Row, RowResult, RowTest, Setup, Totals,
    equal_times, read_slope, read_time_ratios, too_busy, validate,
};

/// One match of the gauntlet: a row, measured one way, over `games` games.
pub(crate) struct Job<'a> {
    pub(crate) row: &'a Row,
    pub(crate) measure: Measure,
    pub(crate) games: u64,
}

/// The gauntlet's matches in the table's order: every row on each book at fixed nodes, the
/// rows whose players differ in technique at equal cost, the rows marked for it at the clock.
pub(crate) fn jobs(config: &Config) -> Vec<Job<'static>> {
    let mut out = Vec::new();
    for measure in Measure::ALL {
        let games = match measure {
            Measure::Balanced => config.games,
            Measure::RepetitionRich => config.rep_games,
            Measure::EqualCost => config.cost_games,
            Measure::Clock => config.tc_games,
        };
        let chosen = |r: &&Row| config.only.is_empty() || config.only.contains(&r.a);
        let rows = ROWS.iter().filter(chosen).filter(|r| match measure {
            Measure::Balanced | Measure::RepetitionRich => true,
            Measure::EqualCost => r.technique_differs(),
            Measure::Clock => r.at_tc,
        });
        if games > 0 {
            out.extend(rows.map(|row| Job {
                row,
                measure,
                games,
            }));
        }
    }
    out
}

/// The two books: balanced (the built-in one) and repetition-rich.
pub(crate) struct Books {
    balanced: Arc<Book>,
    repetition: Arc<Book>,
}

impl Books {
    /// Reads both, refusing a repetition-rich match with more pairs than openings (before
    /// the balanced book's matches are played).
    pub(crate) fn read(config: &Config) -> Result<Books> {
        let repetition = Book::read(std::path::Path::new(REPETITION_NAME))?;
        check_distinct_openings(Config::REP_GAMES, config.rep_games, &repetition)?;
        Ok(Books {
            balanced: Arc::new(Book::builtin()),
            repetition: Arc::new(repetition),
        })
    }
}

/// The match of `job`: its players, control and book; at equal cost the players' budgets
/// scaled by their instruction costs (`costs` caches each player's count).
fn match_config(
    config: &Config,
    job: &Job,
    books: &Books,
    costs: &mut cost::Counted,
) -> Result<MatchConfig> {
    let label = || format!("row {}", job.row.label);
    let mut m = MatchConfig {
        a: PlayerSpec::parse(&job.row.a).with_context(label)?,
        b: PlayerSpec::parse(&job.row.b).with_context(label)?,
        control: match job.measure {
            Measure::Clock => Control::parse_tc(&config.tc)?,
            _ => Control::Nodes(config.nodes),
        },
        games: job.games,
        seed: config.seed,
        book: match job.measure {
            Measure::RepetitionRich => books.repetition.clone(),
            _ => books.balanced.clone(),
        },
        bounds: config.bounds.pair(),
        // An equal-cost match checks the Elo-at-equal-time model: it plays its game count, so
        // its interval is a fixed sample's (one stopped by its test would be biased).
        early_stop: job.measure != Measure::EqualCost,
        three_way: true,
        shard: None,
        threads: config.threads,
        cost_scaling: None,
        adjudication: config.adjudication,
    };
    if job.measure == Measure::EqualCost {
        let exe = config.exe.as_deref().filter(|_| config.count_costs);
        let scaling = cost::scaling_cached(&m, exe, costs).with_context(label)?;
        m.a.nodes = Some(scaling.a_nodes);
        m.b.nodes = Some(scaling.b_nodes);
        m.cost_scaling = Some(scaling);
    }
    Ok(m)
}

/// Counts the players of every equal-cost row at once, two at a time, before the rows take
/// their costs from `costs` (where the rows count them: valgrind and the replab binary).
fn count_equal_cost_players(
    config: &Config,
    jobs: &[Job],
    costs: &mut cost::Counted,
) -> Result<()> {
    let Some(exe) = config.exe.as_deref().filter(|_| config.count_costs) else {
        return Ok(());
    };
    if replab_workloads::callgrind::available().is_none() {
        return Ok(());
    }
    let mut players = Vec::new();
    for job in jobs.iter().filter(|j| j.measure == Measure::EqualCost) {
        let label = || format!("row {}", job.row.label);
        players.push(PlayerSpec::parse(&job.row.a).with_context(label)?);
        players.push(PlayerSpec::parse(&job.row.b).with_context(label)?);
    }
    cost::count_players(exe, &players, costs)
}

/// Plays every row's matches.
pub fn run(config: &Config, progress: &mut dyn Progress) -> Result<Results> {
    config.check()?;
    let books = Books::read(config)?;
    let jobs = jobs(config);
    let total_games: u64 = jobs.iter().map(|j| j.games).sum();
    let mut costs = cost::Counted::default();
    count_equal_cost_players(config, &jobs, &mut costs)?;
    let configs: Vec<MatchConfig> = jobs
        .iter()
        .map(|j| match_config(config, j, &books, &mut costs))
        .collect::<Result<_>>()?;
    progress.stage("elo: games", total_games);
    let mut rows = Vec::with_capacity(jobs.len());
    let mut totals = Totals {
        threads: config.threads,
        ..Totals::default()
    };
    let mut search_s = 0.0;
    let (played, side_by_side_s) = play_all(&configs, config.threads, progress)?;
    for ((job, m), results) in jobs.iter().zip(&configs).zip(played) {
        totals.games += results.games;
        if !side_by_side(m) {
            totals.wall_s += results.timing.wall_s;
        }
        search_s += results.timing.search_s;
        totals.table_bytes_per_worker = totals
            .table_bytes_per_worker
            .max(results.timing.table_bytes_per_worker);
        rows.push(row_result(job, m, &results));
    }
    totals.wall_s += side_by_side_s;
    progress.finish();
    let thread_s = totals.wall_s * config.threads as f64;
    (totals.games_per_second, totals.outside_search_share) =
        replab_selfplay::run::Timing::rates(totals.games, totals.wall_s, thread_s, search_s);
    totals.peak_rss_kib = replab_selfplay::run::peak_rss_kib();
    let equal_time = equal_time_of(config, &rows)?;
    Ok(Results {
        across_budgets: across_budgets_of(config, &equal_time)?,
        config: Setup {
            settings: config.clone(),
            book: books.balanced.name.clone(),
            repetition_book: books.repetition.name.clone(),
            baseline: BASELINE.into(),
        },
        validations: validate(&rows),
        equal_time,
        rows,
        totals,
        meta: Meta::collect(&config.command),
    })
}

/// Whether match `m` is played beside others: one game pair at fixed nodes runs on one core
/// whatever the thread count, so such matches (a smoke run's) share the cores, one per match;
/// a clock match never shares them. Its results do not depend on it (one pair, no early stop
/// between pairs).
fn side_by_side(m: &MatchConfig) -> bool {
    m.games <= 2 && !matches!(m.control, Control::Clock { .. })
}

/// Plays every match of `configs`: those [`side_by_side`] concurrently on `threads` workers
/// (one thread each), the others one after another with every thread; the results in the
/// matches' order, and the wall time of the concurrent ones.
fn play_all(
    configs: &[MatchConfig],
    threads: usize,
    progress: &mut dyn Progress,
) -> Result<(Vec<MatchResults>, f64)> {
    let shared: Vec<usize> = (0..configs.len())
        .filter(|&i| side_by_side(&configs[i]))
        .collect();
    let started = std::time::Instant::now();
    let mut concurrent = replab_workloads::engine::parallel(
        shared.len(),
        threads,
        progress,
        || Ok(()),
        |(), j, done| {
            let m = MatchConfig {
                threads: 1,
                ..configs[shared[j]].clone()
            };
            let mut last = 0;
            let (results, _) = play(&m, &mut |pairs, _| {
                done.add(2 * (pairs - last));
                last = pairs;
            })?;
            Ok(results)
        },
    )?
    .into_iter();
    let side_by_side_s = started.elapsed().as_secs_f64();
    let mut out = Vec::with_capacity(configs.len());
    for (i, m) in configs.iter().enumerate() {
        if shared.contains(&i) {
            out.push(concurrent.next().expect("one result per shared match"));
            continue;
        }
        let mut last = 0;
        let (results, _) = play(m, &mut |pairs, _| {
            progress.advance(2 * (pairs - last));
            last = pairs;
        })?;
        out.push(results);
    }
    Ok((out, side_by_side_s))
}

/// The identical-play rows' Elo at equal time: none in a smoke run (two games show nothing).
fn equal_time_of(config: &Config, rows: &[RowResult]) -> Result<EqualTimes> {
    if config.smoke_run {
        return Ok(EqualTimes {
            none_because: Some("a smoke run: its games show no identical play".into()),
            ..EqualTimes::default()
        });
    }
    let engine = replab_search::ENGINE_DIGEST;
    let slope = read_slope(&config.datasets, engine, config.nodes)?;
    let time = read_time_ratios(&config.datasets, engine, BASELINE)?;
    Ok(equal_times(slope, time, rows))
}

/// The identical-play rows' Elo at equal time across the recorded budgets (the slopes and
/// their fall alone in a smoke run, which shows no identical play).
fn across_budgets_of(config: &Config, equal_time: &EqualTimes) -> Result<AcrossBudgets> {
    let engine = replab_search::ENGINE_DIGEST;
    let slopes = read_slopes(&config.datasets, engine)?;
    let times = read_budget_times(&config.datasets, engine, BASELINE)?;
    let costs = crate::budgets::Recorded::built_in();
    // The identical-play rows' players, each against the baseline.
    let specs: Vec<&str> = equal_time
        .rows
        .iter()
        .filter(|e| e.b == BASELINE)
        .map(|e| e.a.as_str())
        .collect();
    Ok(across(slopes, costs, times, &specs))
}

/// A match's control in words: `10000 nodes`, `9691 : 10000 nodes` at equal cost, `tc 1+0.01`.
pub(crate) fn control_text(r: &MatchResults) -> String {
    match (r.identity.control, &r.identity.cost_scaling) {
        (Control::Nodes(_), Some(s)) => format!("{} : {} nodes", s.a_nodes, s.b_nodes),
        (Control::Nodes(n), None) => format!("{n} nodes"),
        (c, _) => format!("tc {}", c.pgn()),
    }
}

/// A row's line of the table from its match `m`.
fn row_result(job: &Job, m: &MatchConfig, r: &MatchResults) -> RowResult {
    let control = control_text(r);
    let p = r.pentanomial_fastchess;
    let forfeits = r
        .terminations
        .get(Termination::TimeForfeit.name())
        .copied()
        .unwrap_or(0);
    let games_for_2_elo = stats::games_for_half_width(&p, 2.0);
    let search_s_per_game = r.timing.search_s / r.games.max(1) as f64;
    RowResult {
        group: job.row.group.into(),
        label: job.row.label.clone(),
        measure: job.measure,
        book: r.identity.book.clone(),
        a: r.identity.a.clone(),
        b: r.identity.b.clone(),
        control,
        cost_scaling: r.identity.cost_scaling.clone(),
        median_depth: r.play.median_depth,
        median_plies: r.play.median_plies,
        terminations: r.terminations.clone(),
        draw_rule_pairs: r.play.draw_rule_pairs,
        min_cpu_share: r.play.min_cpu_share,
        games_for_2_elo,
        core_hours_for_2_elo: games_for_2_elo.map(|g| g as f64 * search_s_per_game / 3600.0),
        deterministic: r.deterministic,
        games: r.games,
        pentanomial: r.pentanomial,
        elo: r.elo,
        nelo: r.nelo,
        no_interval: r.no_interval(),
        test: RowTest::of(&p, m.bounds, m.games),
        stopped_early: r.stopped_early,
        no_measurable_difference: !r.elo.excludes(0.0),
        games_to_resolve: stats::games_to_resolve(&p, r.elo.value)
            .filter(|_| r.elo.interval.is_some()),
        games_identical: !r.pair_results.is_empty() && r.pair_results.iter().all(|q| q.same_moves),
        zero_variance: r.pairs > 0 && r.pentanomial[2] == r.pairs,
        published: job.row.published.clone(),
        time_forfeits: forfeits,
        machine_too_busy: !r.deterministic && (too_busy(forfeits, r.games) || r.play.cpu_starved()),
        wall_s: r.timing.wall_s,
        search_s: r.timing.search_s,
    }
}
