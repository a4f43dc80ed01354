#!/usr/bin/env bash
# Runs one `replab match` as a Slurm job array of N shards and a merge job that depends on it.
#
#   tools/elo_slurm.sh N MATCH-ARGS...
#
# MATCH-ARGS are `replab match`'s arguments and must include `--out DIR` (and no --shard or
# --sprt). Array task K plays shard K/N into DIR.shards/K (its Slurm log beside it); the merge
# job (`--dependency=afterok` on the whole array) writes the whole match to DIR. At fixed nodes
# the merge equals the unsharded match (docs/elo.md). Prints the two job ids. Environment:
#   REPLAB       the replab binary (default: the checkout's target/release/replab if built,
#                else replab on PATH); every node must see it and DIR at the same paths
#   SBATCH_ARGS  extra sbatch options for both jobs, split on spaces (e.g.
#                `--partition=main --cpus-per-task=4`); each shard plays on
#                $SLURM_CPUS_PER_TASK threads (1 if unset) unless MATCH-ARGS give --threads
#   WAIT         1: wait for the merge to finish (sbatch --wait) and exit with its status
# Works from any directory.
set -euo pipefail

die() { echo "elo_slurm.sh: $*" >&2; exit 2; }

[[ $# -ge 1 ]] || die "usage: tools/elo_slurm.sh N MATCH-ARGS... --out DIR"
n=$1
shift
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N must be a positive whole number, not '$n'"
command -v sbatch >/dev/null || die "Slurm's sbatch is not installed (Debian: apt install slurm-wlm)"

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
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

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
read -r -a extra <<< "${SBATCH_ARGS:-}"

# The shard's command, quoted for the shell sbatch --wrap starts; the task id and the thread
# count are expanded in the job.
shard_cmd=$(printf '%q ' "$REPLAB" match "${args[@]}")
shard_cmd+="--shard \$SLURM_ARRAY_TASK_ID/$n --out $(printf '%q' "$shards")/\$SLURM_ARRAY_TASK_ID --quiet"
if [[ -z $threads ]]; then
    shard_cmd+=" --threads \${SLURM_CPUS_PER_TASK:-1}"
fi

array=$(sbatch --parsable "${extra[@]}" --job-name=replab-match --array="1-$n" \
    --output="$shards/slurm-%a.out" --wrap "$shard_cmd")
array=${array%%;*}

dirs=()
for k in $(seq 1 "$n"); do dirs+=("$shards/$k"); done
merge_cmd=$(printf '%q ' "$REPLAB" merge "${dirs[@]}" --out "$out")
wait_flag=()
[[ ${WAIT:-0} == 1 ]] && wait_flag=(--wait)
echo "array job $array: $n shards into $shards"
merge=$(sbatch --parsable "${extra[@]}" "${wait_flag[@]}" --job-name=replab-merge \
    --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$shards/slurm-merge.out" --wrap "$merge_cmd")
echo "merge job ${merge%%;*}: $out"
