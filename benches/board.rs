//! Board benchmarks: bulk-counting perft and copy-make throughput.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use replab_benches::PERFT_POSITIONS;
use replab_board::{Position, perft};

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

criterion_group!(benches, bench_perft, bench_make);
criterion_main!(benches);
