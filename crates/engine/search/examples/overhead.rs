//! Detector overhead on WAC.018: `cargo run --release -p replab-search --example overhead --
//! [ROUNDS] [DEPTH] [DETECTORS]` (defaults 30, 12 and every search detector; DETECTORS is a
//! comma-separated list, `off` is always measured).
//!
//! Each round runs the whole iterative-deepening search once with detection off and once with
//! each detector, back to back, on searchers kept from round to round (tables already in memory).
//! Per round it computes NPS(off) / NPS(detector); the table gives the median and the quartiles
//! over the rounds, which cancels slow changes of machine load better than comparing totals.
//! The quartiles show the spread of the rounds; they are not a confidence interval. The median
//! with its 95% interval (order statistics, `replab_harness::stats::median_ci`, which this crate
//! cannot use) is what `replab reproduce axon` reports as `overhead` and `overhead_ci`, measured
//! the same way (paired rounds of the whole search) on the real, not the blind, detectors.
//!
//! A second ratio runs each detector blind: it is probed, entered and left as usual, but its
//! answers are dropped, so the search grows exactly the tree of detection off and the ratio is the
//! pure cost of the detector's work on that tree.
//!
//! Time is wall time. (It was the thread's CPU time from `/proc/thread-self/schedstat`, but for a
//! running thread that counter advances only in scheduler ticks, 4 ms on the reference machine:
//! too coarse for searches of some 40 ms, whose ratios came out in steps of 10%.)

use std::time::Instant;

use replab_board::Position;
use replab_detect::{Detector, Line, Repetition, Stats};
use replab_registry::{RootRule, SEARCH_DETECTORS, with_detector};
use replab_search::{DynSearch, SearchConfig};

/// A detector whose answers are computed and dropped.
struct Blind<D>(D);

impl<D: Detector> Detector for Blind<D> {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn clear(&mut self, capacity: usize) {
        self.0.clear(capacity)
    }
    #[inline]
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        std::hint::black_box(self.0.probe(line, pos));
        None
    }
    #[inline]
    fn enter(&mut self, line: &Line, pos: &Position) {
        self.0.enter(line, pos)
    }
    #[inline]
    fn leave(&mut self, line: &Line, pos: &Position) {
        self.0.leave(line, pos)
    }
    #[inline]
    fn upcoming(&mut self, line: &Line, pos: &Position) -> bool {
        std::hint::black_box(self.0.upcoming(line, pos));
        false
    }
    fn stats(&self) -> Stats {
        self.0.stats()
    }
    fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
    #[inline]
    fn in_search_table(&self) -> bool {
        self.0.in_search_table()
    }
    #[inline]
    fn probe_marked(&mut self, line: &Line, pos: &Position, mark: u16) -> Option<Repetition> {
        std::hint::black_box(self.0.probe_marked(line, pos, mark));
        None
    }
    #[inline]
    fn enter_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
        self.0.enter_marked(line, pos, mark)
    }
    #[inline]
    fn leave_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
        self.0.leave_marked(line, pos, mark)
    }
}

/// Searches `pos` with `engine`; returns (nodes, seconds).
fn run(engine: &mut dyn DynSearch, pos: &Position) -> (u64, f64) {
    let wall = Instant::now();
    let r = engine.search_game(std::slice::from_ref(pos), &[]);
    (r.totals().nodes, wall.elapsed().as_secs_f64())
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(30);
    let depth: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(12);
    let pos = Position::from_fen("R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1").expect("WAC.018");
    let config = SearchConfig {
        max_depth: depth,
        ..SearchConfig::default()
    };
    let chosen: Vec<&str> = match args.get(2) {
        Some(list) => list.split(',').filter(|n| *n != "off").collect(),
        None => SEARCH_DETECTORS.to_vec(),
    };
    let names: Vec<&str> = std::iter::once("off").chain(chosen).collect();
    let mut engines: Vec<Box<dyn DynSearch>> = names
        .iter()
        .map(|n| {
            with_detector!(n, RootRule::AnyEarlier, |d| {
                replab_search::boxed(d, config).expect("a search detector")
            })
            .expect("known detector")
        })
        .collect();
    // The blind variants (`off` is its own blind variant).
    let blind_start = engines.len();
    for n in &names[1..] {
        engines.push(
            with_detector!(n, RootRule::AnyEarlier, |d| {
                replab_search::boxed(Blind(d), config).expect("a search detector")
            })
            .expect("known detector"),
        );
    }
    // Warm-up: one search each (page faults, caches).
    for e in &mut engines {
        run(e.as_mut(), &pos);
    }
    // Per round and detector: off, the detector, its blind variant, back to back; each ratio
    // uses the off run just before it.
    let mut nps = vec![Vec::new(); engines.len()];
    let mut off_nps = vec![Vec::new(); names.len()];
    let mut nodes = vec![0; engines.len()];
    for _ in 0..rounds {
        for (i, off) in off_nps.iter_mut().enumerate().skip(1) {
            for (slot, e) in [0, i, blind_start + i - 1].into_iter().enumerate() {
                let (n, secs) = run(engines[e].as_mut(), &pos);
                nodes[e] = n;
                if slot == 0 {
                    off.push(n as f64 / secs);
                    if i == 1 {
                        nps[0].push(n as f64 / secs);
                    }
                } else {
                    nps[e].push(n as f64 / secs);
                }
            }
        }
    }
    println!(
        "WAC.018, depth {depth}, {rounds} rounds; per round, median [quartiles] (the spread of the \
         rounds, not a confidence interval)"
    );
    println!(
        "{:<16} {:>9} {:>22} {:>22} {:>22}",
        "detector", "nodes", "Mnps [quartiles]", "NPS(off)/NPS", "blind: NPS(off)/NPS"
    );
    let ratio = |i: usize, det: usize| {
        let mut r: Vec<f64> = (0..rounds).map(|k| off_nps[det][k] / nps[i][k]).collect();
        r.sort_by(f64::total_cmp);
        format!(
            "{:.3} [{:.3}, {:.3}]",
            quantile(&r, 0.5),
            quantile(&r, 0.25),
            quantile(&r, 0.75)
        )
    };
    for (i, name) in names.iter().enumerate() {
        let mut own = nps[i].clone();
        own.sort_by(f64::total_cmp);
        let (own_ratio, blind) = if i == 0 {
            ("1.000".to_string(), "-".to_string())
        } else {
            assert_eq!(
                nodes[blind_start + i - 1],
                nodes[0],
                "blind tree = off tree"
            );
            (ratio(i, i), ratio(blind_start + i - 1, i))
        };
        println!(
            "{:<16} {:>9} {:>22} {:>22} {:>22}",
            name,
            nodes[i],
            format!(
                "{:.2} [{:.2}, {:.2}]",
                quantile(&own, 0.5) / 1e6,
                quantile(&own, 0.25) / 1e6,
                quantile(&own, 0.75) / 1e6
            ),
            own_ratio,
            blind,
        );
    }
}
