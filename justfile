# replab task runner: every recipe is a thin alias of a plain cargo command.
# Install just with `cargo install just` (or your package manager).

# List the recipes.
default:
    @just --list

# The main job: reproduce every table and chart and write reports/index.html.
bench *ARGS:
    cargo run --release -- bench {{ARGS}}

# The quick main job (under 2 minutes on 2 cores).
bench-quick:
    cargo run --release -- bench --quick

# The test suite (the same command CI runs).
test:
    cargo test --workspace

# Formatting check.
fmt:
    cargo fmt --all -- --check

# Lints, warnings as errors.
clippy:
    cargo clippy --workspace --all-targets -- -D warnings

# What CI runs.
ci:
    bash .ci/run

# Criterion benchmarks (board and detectors).
criterion:
    cargo bench -p replab-benches

# Perft of a position: just perft 5 "<fen>"
perft DEPTH FEN="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":
    cargo run --release -- perft --depth {{DEPTH}} --fen "{{FEN}}"
