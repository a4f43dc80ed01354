# Shared by tools/elo_parallel.sh and tools/elo_slurm.sh (sourced, not run): the shard count,
# the match arguments and the replab binary.
#
# Expects `die` and SCRIPT (the calling script's name for messages); reads "$@" as
# `N MATCH-ARGS...`. Sets: n (the shard count), out (the --out directory), args (the match
# arguments without --out, --quiet), threads (`yes` when the arguments give --threads) and
# REPLAB (the checkout's target/release/replab if built, else replab on PATH, unless set).

[[ $# -ge 1 ]] || die "usage: tools/$SCRIPT N MATCH-ARGS... --out DIR"
n=$1
shift
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N must be a positive whole number, not '$n'"

out=""
threads=""
args=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --out) [[ $# -ge 2 ]] || die "--out needs a directory"; out=$2; shift 2 ;;
        --out=*) out=${1#--out=}; shift ;;
        --shard | --shard=* | --sprt | --sprt=*) die "$1 is set by the script (shards cannot stop early)" ;;
        --quiet) shift ;; # every shard runs with --quiet
        --threads | --threads=*) threads=yes; args+=("$1"); shift ;;
        *) args+=("$1"); shift ;;
    esac
done
[[ -n $out ]] || die "the match arguments must include --out DIR"

# The checkout the scripts belong to, wherever they are started from.
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
