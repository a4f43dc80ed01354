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

[[ $# -ge 1 ]] || die "usage: tools/elo_parallel.sh N MATCH-ARGS... --out DIR"
n=$1
shift
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N must be a positive whole number, not '$n'"
command -v parallel >/dev/null || die "GNU parallel is not installed (Debian: apt install parallel)"

out=""
args=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --out) [[ $# -ge 2 ]] || die "--out needs a directory"; out=$2; shift 2 ;;
        --out=*) out=${1#--out=}; shift ;;
        --shard | --shard=* | --sprt | --sprt=*) die "$1 is set by the script (shards cannot stop early)" ;;
        --quiet) shift ;; # every shard runs with --quiet
        *) args+=("$1"); shift ;;
    esac
done
[[ -n $out ]] || die "the match arguments must include --out DIR"

# The checkout this script belongs to, wherever it is started from.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -z ${REPLAB:-} ]]; then
    if [[ -x $root/target/release/replab ]]; then
        REPLAB=$root/target/release/replab
    elif command -v replab >/dev/null; then
        REPLAB=$(command -v replab)
    else
        die "no replab binary: build it (cargo build --release in $root) or set REPLAB"
    fi
fi

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
