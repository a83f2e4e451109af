#!/usr/bin/env bash
# OCR speed: seconds per page of `quire extract` on a scanned book (every page OCR'd) with
# 1 and 2 worker threads, OpenMP limited to one thread as quire expects. Whole-process wall
# and CPU time (so Tesseract's start-up per worker is included), the run with the best wall
# time of RUNS runs. The load average is printed: other processes on the machine slow it.
#
# usage: bench/ocr.sh [QUIRE_BINARY] [PDF]
#   default PDF: fixtures/books/fx-classic-scan.pdf (16 pages, 300 dpi 1-bit scan)
#   RUNS=3 by default (environment)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
quire=${1:-$here/build/cli/quire}
pdf=${2:-$here/fixtures/books/fx-classic-scan.pdf}
runs=${RUNS:-3}
[ -x "$quire" ] || { echo "no quire binary at $quire (build it, or pass its path)"; exit 1; }
[ -f "$pdf" ] || { echo "no PDF at $pdf"; exit 1; }
cpus=$(getconf _NPROCESSORS_ONLN)  # before the export: GNU nproc obeys OMP_THREAD_LIMIT
# Debian's libtesseract uses OpenMP; it must be limited before the process starts.
export OMP_THREAD_LIMIT=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# best JOBS: "wall cpu pages" of the run with the smallest wall time of $runs runs.
best() {
  local jobs=$1 best="" line wall cpu pages
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$quire" extract "$pdf" --ocr force --jobs "$jobs" \
      -o "$work/pages.jsonl" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    read -r wall u s < <(tail -n 1 "$work/time")
    cpu=$(awk -v u="$u" -v s="$s" 'BEGIN{print u+s}')
    pages=$(grep -c '"ocr":true' "$work/pages.jsonl" || true)
    line="$wall $cpu $pages"
    if [ -z "$best" ] || awk -v a="$wall" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then best=$line; fi
  done
  echo "$best"
}

echo "OCR benchmark: $(basename "$pdf"), best of $runs, OMP_THREAD_LIMIT=1, $cpus CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %6s %8s %8s %12s %12s\n' jobs pages "wall s" "CPU s" "wall s/page" "CPU s/page"
for jobs in 1 2; do
  read -r wall cpu pages < <(best "$jobs")
  awk -v j="$jobs" -v w="$wall" -v c="$cpu" -v p="$pages" \
    'BEGIN{printf "%-5s %6d %8.2f %8.2f %12.3f %12.3f\n", j, p, w, c, (p>0?w/p:0), (p>0?c/p:0)}'
done
