# replab task runner: every recipe is a thin alias of a plain cargo command.
# Install just with `cargo install just` (or your package manager).

# List the recipes.
default:
    @just --list

# The main job: reproduce every table and chart and write reports/index.html.
bench *ARGS:
    cargo run --release -- bench {{ARGS}}

# The quick main job (about a minute on 2 cores).
bench-quick:
    cargo run --release -- bench --quick

# Match-speed benchmark: a 4,000-game match (every pair a distinct opening of the built-in
# book) at 1,000 nodes per move; it prints the wall time, games per second and the share of the
# threads' time outside the searches.
match-speed OUT="/tmp/replab-match-speed":
    cargo run --release -- match --a linear --b off --games 4000 --nodes 1000 --seed 1 --out {{OUT}}

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

# Criterion benchmarks of the top-level benches/ package (board and every detector).
criterion *ARGS:
    cargo bench -p replab-benches {{ARGS}}

# Perft of a position: just perft 5 "<fen>"
perft DEPTH FEN="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":
    cargo run --release -- perft --depth {{DEPTH}} --fen "{{FEN}}"

# cargo-fuzz/libFuzzer on stable Rust (needs `cargo install cargo-fuzz`); the 5 targets run one
# after another. Seeds in fuzz/corpus are only read; new inputs go to fuzz/target/corpus,
# crashes to fuzz/artifacts. See fuzz/README.md.
# Fuzz the FEN, EPD, SAN/UCI and PGN parsers and the UCI protocol, SECS seconds per target (`just fuzz 60`: ~5 min).
fuzz SECS="60":
    cd fuzz && for t in fen epd moves pgn uci; do mkdir -p target/corpus/$t && cargo fuzz run -s none $t target/corpus/$t corpus/$t -- -dict=dicts/$t.dict -max_total_time={{SECS}} -timeout=10 || exit 1; done

# Render every report page in headless Chromium at 1400 px; fail on a script error, missing image,
# broken link or a table wider than the window (`just check-pages --self-test` tests the check).
check-pages DIR="reports":
    tools/check_pages.sh {{DIR}}
