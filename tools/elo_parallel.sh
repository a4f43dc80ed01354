#!/usr/bin/env bash
# Runs one `replab match` as N shards with GNU parallel, then merges them.
#
#   tools/elo_parallel.sh N MATCH-ARGS...
#
# MATCH-ARGS are `replab match`'s arguments and must include `--out DIR` (and no --shard or
# --sprt). Shard K is written to DIR.shards/K, the merge to DIR; at fixed nodes the merge
# equals the unsharded match (docs/elo.md). Environment:
#   REPLAB          the replab binary (default: the checkout's target/release/replab if built,
#                   else replab on PATH); the script works from any directory
#   PARALLEL_HOSTS  comma-separated GNU parallel --sshlogin list (e.g. `4/host1,4/host2,:`;
#                   `:` is this machine). Remote hosts must see the same working directory
#                   and binary path (a shared file system); without it every shard runs here.
#   JOBS            shards run at once on each host (default: 1; each shard uses every core).
set -euo pipefail

die() { echo "elo_parallel.sh: $*" >&2; exit 2; }

SCRIPT=elo_parallel.sh
# shellcheck source=tools/shard_args.sh
source "$(dirname "${BASH_SOURCE[0]}")/shard_args.sh"
command -v parallel >/dev/null || die "GNU parallel is not installed (Debian: apt install parallel)"

shards=$out.shards
mkdir -p "$shards"
hosts=()
if [[ -n ${PARALLEL_HOSTS:-} ]]; then
    hosts=(--sshlogin "$PARALLEL_HOSTS" --workdir "$PWD")
fi

parallel --halt now,fail=1 --jobs "${JOBS:-1}" "${hosts[@]}" -q \
    "$REPLAB" match "${args[@]}" --shard "{}/$n" --out "$shards/{}" --quiet \
    ::: $(seq 1 "$n")

dirs=()
for k in $(seq 1 "$n"); do dirs+=("$shards/$k"); done
"$REPLAB" merge "${dirs[@]}" --out "$out"
