//! Tactics at fixed nodes without UCI: how many positions of an EPD suite (default
//! `datasets/wac.epd`) the engine profile solves at each node budget, a fresh searcher per
//! position (as `ucinewgame` and `go nodes N` do), positions in parallel (rayon). Solved: the
//! best move of the last completed iteration is one of the `bm` moves and none of the `am`
//! moves. The same counts come from `tools/tactics.py` over UCI; this is the quick version for
//! trying a change to the search.
//!
//! `cargo run --release -p replab-search --example tactics -- [EPD] [NODES,NODES,…] [unsolved]`
//! (default budgets 10000,100000; `unsolved` also lists the ids missed).

use rayon::prelude::*;
use replab_board::Epd;
use replab_registry::LinearDetector;
use replab_search::{SearchConfig, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or("datasets/wac.epd", String::as_str);
    let budgets: Vec<u64> = args.get(1).map_or(vec![10_000, 100_000], |s| {
        s.split(',')
            .map(|n| n.parse().expect("a node count"))
            .collect()
    });
    let list_unsolved = args.get(2).is_some_and(|a| a == "unsolved");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let suite: Vec<Epd> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Epd::parse(l).expect("an EPD record"))
        .filter(|e| e.operation("bm").is_some() || e.operation("am").is_some())
        .collect();
    for nodes in budgets {
        let config = SearchConfig {
            node_limit: Some(nodes),
            ..SearchConfig::engine()
        };
        let rows: Vec<(String, bool)> = suite
            .par_iter()
            .map(|epd| {
                let best = epd.moves("bm").expect("legal bm moves");
                let avoid = epd.moves("am").expect("legal am moves");
                let mut searcher = Searcher::new(LinearDetector::new(), config);
                let played = searcher.search(&epd.position).best_move();
                let solved = played
                    .is_some_and(|m| (best.is_empty() || best.contains(&m)) && !avoid.contains(&m));
                let id = epd.id().unwrap_or("?").to_string();
                let shown = played.map_or("-".to_string(), |m| m.uci().to_string());
                (format!("{id}({shown})"), solved)
            })
            .collect();
        let solved = rows.iter().filter(|(_, ok)| *ok).count();
        println!("nodes {nodes:>8}: {solved}/{}", rows.len());
        if list_unsolved {
            let missed: Vec<&str> = rows
                .iter()
                .filter(|(_, ok)| !ok)
                .map(|(id, _)| id.as_str())
                .collect();
            println!("  unsolved: {}", missed.join(" "));
        }
    }
}
