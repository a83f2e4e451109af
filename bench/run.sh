#!/usr/bin/env bash
# Side-by-side benchmark on the same books in one run: mutool convert -F text, pdftotext,
# quire extract (jobs 1 and 2) and quire build (jobs 1 and 2, cold, then cached; and at one
# job with every page kept in memory, then with every page out of it: --spill-after).
# Whole-process wall time, CPU time and peak RSS from /usr/bin/time.
#
# usage: bench/run.sh [QUIRE_BINARY] [PDF...]
#   default books: octave.pdf, the R manuals (refman.pdf included), when installed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
quire=${1:-$here/build/cli/quire}
shift || true
books=("$@")
if [ ${#books[@]} -eq 0 ]; then
  for f in /usr/share/doc/octave/octave.pdf /usr/share/R/doc/manual/R-intro.pdf \
           /usr/share/R/doc/manual/R-data.pdf /usr/share/R/doc/manual/R-exts.pdf \
           /usr/share/R/doc/manual/refman.pdf; do
    [ -f "$f" ] && books+=("$f")
  done
fi
[ ${#books[@]} -gt 0 ] || { echo "no books to benchmark (install octave-doc and r-doc-pdf)"; exit 0; }
command -v mutool >/dev/null || { echo "mutool missing (apt-get install mupdf-tools)"; exit 1; }
command -v pdftotext >/dev/null || { echo "pdftotext missing (apt-get install poppler-utils)"; exit 1; }
export OMP_THREAD_LIMIT=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure NAME CMD...: prints "wall cpu rss_mb" for one run of CMD
measure() {
  local t="$work/time"
  /usr/bin/time -f "%e %U %S %M" -o "$t" "$@" >/dev/null 2>"$work/err" || { echo "FAILED: $*" >&2; cat "$work/err" >&2; echo "nan nan nan"; return; }
  awk '{printf "%.2f %.2f %.0f\n", $1, $2+$3, $4/1024}' "$t"
}

printf "%-14s %6s | %-28s %8s %8s %8s %10s\n" book pages tool wall_s cpu_s rss_mb "x mutool"
for pdf in "${books[@]}"; do
  name=$(basename "$pdf" .pdf)
  pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/{print $2}')
  mkdir -p "$work/in-$name" && ln -sf "$pdf" "$work/in-$name/"
  declare -A r=()
  r[mutool]=$(measure mutool convert -F text -o "$work/m.txt" "$pdf")
  r[pdftotext]=$(measure pdftotext "$pdf" "$work/p.txt")
  r[extract-j1]=$(measure "$quire" extract "$pdf" -o "$work/x.jsonl" --jobs 1)
  r[extract-j2]=$(measure "$quire" extract "$pdf" -o "$work/x.jsonl" --jobs 2)
  r[build-j1]=$(measure "$quire" build "$work/in-$name" -o "$work/out1" --jobs 1 --quiet)
  r[build-j2]=$(measure "$quire" build "$work/in-$name" -o "$work/out2" --jobs 2 --quiet)
  # Memory against the page budget: every page in memory, and every page out of it.
  r[build-j1-pages-in-memory]=$(measure "$quire" build "$work/in-$name" -o "$work/out4" --jobs 1 --quiet --spill-after -1)
  r[build-j1-every-page-out]=$(measure "$quire" build "$work/in-$name" -o "$work/out5" --jobs 1 --quiet --spill-after 0)
  rm -rf "$work/cache"
  measure "$quire" build "$work/in-$name" -o "$work/out3" --jobs 2 --quiet --cache "$work/cache" >/dev/null
  r[build-cached]=$(measure "$quire" build "$work/in-$name" -o "$work/out3" --jobs 2 --quiet --cache "$work/cache")
  base=$(echo "${r[mutool]}" | awk '{print $1}')
  for tool in mutool pdftotext extract-j1 extract-j2 build-j1 build-j2 build-cached build-j1-pages-in-memory build-j1-every-page-out; do
    read -r wall cpu rss <<<"${r[$tool]}"
    ratio=$(awk -v a="$wall" -v b="$base" 'BEGIN{ if (b>0) printf "%.2f", a/b; else print "-" }')
    printf "%-14s %6s | %-28s %8s %8s %8s %10s\n" "$name" "$pages" "$tool" "$wall" "$cpu" "$rss" "$ratio"
  done
  j1=$(echo "${r[build-j1]}" | awk '{print $1}'); j2=$(echo "${r[build-j2]}" | awk '{print $1}')
  c=$(echo "${r[build-cached]}" | awk '{print $1}')
  awk -v a="$j1" -v b="$j2" -v c="$c" -v n="$name" 'BEGIN{ if (b>0 && a>0) printf "%-14s speed-up jobs 2 vs 1: %.2fx; cached rebuild: %.1f%% of a cold jobs-2 build\n", n, a/b, 100*c/b }'
  unset r
done

# The batch: every book above in one folder, where books are built in parallel.
if [ ${#books[@]} -gt 1 ]; then
  mkdir -p "$work/all"
  for pdf in "${books[@]}"; do ln -sf "$pdf" "$work/all/"; done
  m=$(measure bash -c "for f in $work/all/*.pdf; do mutool convert -F text -o $work/m.txt \$f; done")
  a=$(measure "$quire" build "$work/all" -o "$work/outa1" --jobs 1 --quiet)
  b=$(measure "$quire" build "$work/all" -o "$work/outa2" --jobs 2 --quiet)
  rm -rf "$work/cache"
  measure "$quire" build "$work/all" -o "$work/outa3" --jobs 2 --quiet --cache "$work/cache" >/dev/null
  c=$(measure "$quire" build "$work/all" -o "$work/outa3" --jobs 2 --quiet --cache "$work/cache")
  base=$(echo "$m" | awk '{print $1}')
  for row in "mutool:$m" "build-j1:$a" "build-j2:$b" "build-cached:$c"; do
    tool=${row%%:*}; read -r wall cpu rss <<<"${row#*:}"
    ratio=$(awk -v a="$wall" -v b="$base" 'BEGIN{ if (b>0) printf "%.2f", a/b; else print "-" }')
    printf "%-14s %6s | %-28s %8s %8s %8s %10s\n" "all-books" "" "$tool" "$wall" "$cpu" "$rss" "$ratio"
  done
  j1=$(echo "$a" | awk '{print $1}'); j2=$(echo "$b" | awk '{print $1}'); cw=$(echo "$c" | awk '{print $1}')
  awk -v a="$j1" -v b="$j2" -v c="$cw" 'BEGIN{ if (b>0 && a>0) printf "all-books      speed-up jobs 2 vs 1: %.2fx; cached rebuild: %.1f%% of a cold jobs-2 build\n", a/b, 100*c/b }'
fi
