#!/usr/bin/env bash
# Submits the shard array and the dependent merge: submit.sh BOOKS WORK [N] [MAP]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
books=${1:?books folder}
work=${2:?work folder}
n=${3:-4}
map=${4:-}
mkdir -p "$work"
jid=$(sbatch --parsable --chdir="$work" --array=0-$((n - 1)) "$here/build-array.sh" "$books" "$work" "$map")
mid=$(sbatch --parsable --chdir="$work" --dependency=afterok:"$jid" "$here/merge.sh" "$work" "$n" "$map" "$books")
echo "shards: job $jid (array 0-$((n - 1))), merge: job $mid"
