#!/usr/bin/env bash
# One book's build profiled stage by stage: a sampling profile with call graphs (perf, DWARF
# unwinding, so a Release build serves), then bench/profile_stages.py's table of the share of
# CPU time under each stage and the functions each spends it in.
#
# usage: bench/profile.sh BOOK.pdf [QUIRE_BINARY] [JOBS]     (perf: apt-get install linux-perf)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
book=$(realpath "$1")
quire=${2:-$here/build/cli/quire}
jobs=${3:-1}
command -v perf >/dev/null || { echo "perf missing (apt-get install linux-perf)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/in"
ln -s "$book" "$work/in/"
perf record -q -e cpu-clock -F 1000 --call-graph dwarf,32768 -o "$work/perf.data" -- \
  "$quire" build "$work/in" -o "$work/out" --jobs "$jobs" --quiet >/dev/null 2>&1 || true
perf script -i "$work/perf.data" 2>/dev/null | python3 "$here/bench/profile_stages.py"
