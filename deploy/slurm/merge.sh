#!/usr/bin/env bash
# Joins the shard outputs of build-array.sh into WORK/corpus.
#SBATCH --job-name=quire-merge
#SBATCH --output=quire-merge-%j.log
set -euo pipefail
work=${1:?work folder}
count=${2:?number of shards}
map=${3:-}
books=${4:-}
quire=${QUIRE:-quire}
shards=()
for ((i = 0; i < count; i++)); do shards+=("$work/shards/$i"); done
args=(merge "${shards[@]}" -o "$work/corpus")
[ -n "$map" ] && args+=(--map "$map" --pdf-dir "$books")
exec "$quire" "${args[@]}"
