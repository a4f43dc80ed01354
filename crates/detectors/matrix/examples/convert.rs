//! What the matrix detectors' per-position work costs, in nanoseconds, on the positions of
//! seeded random games: `cargo run --release -p replab-matrix --example convert -- [GAMES]`.
//!
//! - `from scratch`: [`Snapshot::matrix_of`], the conversion from the bitboards (the detectors
//!   do it once per line, for its first position; [`MatrixDetector::rebuilds`] counts it);
//! - `incremental`: the parent's matrix copied and the move played on it ([`Snapshot::play`]),
//!   what `enter` does at every other position;
//! - `fletcher-16`: the checksum of `matrix-checksum`, computed from the matrix once per
//!   position; `matrix-keybits` takes 16 bits of the key instead (no work).

use std::{hint::black_box, time::Instant};

use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};
use replab_board::{Move, MoveList, Position};
use replab_matrix::Snapshot;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(30);
    // (parent, move, child) triples of random games.
    let mut steps: Vec<(Position, Move, Position)> = Vec::new();
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let mut moves = MoveList::new();
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            let next = pos.play(m);
            steps.push((pos, m, next));
            pos = next;
        }
    }
    let parents: Vec<Snapshot> = steps
        .iter()
        .map(|(p, _, _)| Snapshot::matrix_of(p))
        .collect();
    // A few thousand positions, passed over many times: the working set stays in cache, as the
    // search line does.
    const REPEAT: usize = 200;
    let n = (steps.len() * REPEAT) as f64;
    let best = |f: &dyn Fn() -> u64| {
        (0..7)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..REPEAT {
                    black_box(f());
                }
                t.elapsed().as_secs_f64() * 1e9 / n
            })
            .fold(f64::INFINITY, f64::min)
    };
    let scratch = best(&|| {
        let mut acc = 0u64;
        for (_, _, child) in &steps {
            acc ^= black_box(Snapshot::matrix_of(black_box(child))).bytes[27] as u64;
        }
        acc
    });
    let incremental = best(&|| {
        let mut acc = 0u64;
        for (parent, (_, m, _)) in parents.iter().zip(&steps) {
            let mut s = *black_box(parent);
            s.play(*m);
            acc ^= black_box(s).bytes[27] as u64;
        }
        acc
    });
    let fletcher = best(&|| {
        let mut acc = 0u64;
        for s in &parents {
            acc ^= black_box(s).fletcher16() as u64;
        }
        acc
    });
    // The incremental matrices are right (the tests check every ply; here a spot check).
    for (parent, (_, m, child)) in parents.iter().zip(&steps).step_by(97) {
        let mut s = *parent;
        s.play(*m);
        assert_eq!(s.bytes, Snapshot::matrix_of(child).bytes);
    }
    println!(
        "{} positions of {games} random games, best of 7 runs of {REPEAT} passes, ns per position:",
        steps.len()
    );
    println!("  from scratch (matrix_of):       {scratch:6.2}");
    println!("  incremental (copy + play):      {incremental:6.2}");
    println!("  fletcher-16 of a matrix:        {fletcher:6.2}");
}
