//! Board benchmarks: bulk-counting perft, copy-make (make/unmake) throughput and legal move
//! generation.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use replab_board::{Position, perft};

/// Perft benchmark positions: (name, FEN, depth, expected leaf count).
pub const PERFT_POSITIONS: &[(&str, &str, u32, u64)] = &[
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4_865_609,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    ),
    (
        "position3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        6,
        11_030_083,
    ),
    (
        "position4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
        422_333,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for &(name, fen, depth, expected) in PERFT_POSITIONS {
        let pos = Position::from_fen(fen).expect("benchmark FEN is valid");
        assert_eq!(perft(&pos, depth), expected, "{name}");
        group.throughput(Throughput::Elements(expected));
        group.bench_function(format!("{name}/d{depth}"), |b| {
            b.iter(|| perft(black_box(&pos), depth))
        });
    }
    group.finish();
}

fn bench_make(c: &mut Criterion) {
    let mut group = c.benchmark_group("make");
    for &(name, fen, _, _) in PERFT_POSITIONS {
        let pos = Position::from_fen(fen).expect("benchmark FEN is valid");
        let moves = pos.legal_moves();
        group.throughput(Throughput::Elements(moves.len() as u64));
        // Copy-make: "unmake" is dropping the copy, so one iteration = one make/unmake pair
        // per legal move.
        group.bench_function(format!("{name}/copy-make"), |b| {
            b.iter(|| {
                let mut acc = 0u64;
                for &m in moves.iter() {
                    acc ^= black_box(&pos).play(m).key();
                }
                acc
            })
        });
    }
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for &(name, fen, _, _) in PERFT_POSITIONS {
        let pos = Position::from_fen(fen).expect("benchmark FEN is valid");
        group.throughput(Throughput::Elements(pos.legal_moves().len() as u64));
        // One iteration = every legal move of the position generated into a fresh list.
        group.bench_function(format!("{name}/legal"), |b| {
            b.iter(|| black_box(&pos).legal_moves().len())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_make, bench_movegen);
criterion_main!(benches);
