#!/usr/bin/env bash
# Sharded quire build as a Slurm job array; the merge runs as a dependent job.
#
#   deploy/slurm/submit.sh BOOKS_DIR WORK_DIR [N] [MAP]
# or by hand:
#   jid=$(sbatch --parsable --array=0-3 deploy/slurm/build-array.sh BOOKS WORK [MAP])
#   sbatch --dependency=afterok:$jid deploy/slurm/merge.sh WORK 4 [MAP BOOKS]
#
#SBATCH --job-name=quire-shard
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --output=quire-shard-%A_%a.log
set -euo pipefail
books=${1:?books folder}
work=${2:?work folder}
map=${3:-}
quire=${QUIRE:-quire}
index=${SLURM_ARRAY_TASK_ID:?run this as an array job (sbatch --array=0-N)}
count=${SLURM_ARRAY_TASK_COUNT:?run this as an array job}
export OMP_THREAD_LIMIT=1
args=(build "$books" -o "$work/shards/$index" --shard "$index/$count" --jobs "${SLURM_CPUS_PER_TASK:-2}" --log json)
[ -n "$map" ] && args+=(--map "$map")
status=0
"$quire" "${args[@]}" || status=$?
# 3 = built with warnings: the shard is complete, the merge may go on.
[ "$status" -eq 3 ] && status=0
exit "$status"
