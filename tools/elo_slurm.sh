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

SCRIPT=elo_slurm.sh
# shellcheck source=tools/shard_args.sh
source "$(dirname "${BASH_SOURCE[0]}")/shard_args.sh"
command -v sbatch >/dev/null || die "Slurm's sbatch is not installed (Debian: apt install slurm-wlm)"
# Absolute, so that the jobs find it whatever directory they start in.
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

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
