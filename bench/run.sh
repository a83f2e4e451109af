#!/usr/bin/env bash
# Side-by-side benchmark on the same books in one run: mutool convert -F text, pdftotext,
# quire extract (jobs 1 and 2) and quire build (jobs 1 and 2, cold, then cached; and at one
# job with every page kept in memory, then with every page out of it: --spill-after).
# Whole-process wall time (the shell's clock), CPU time and peak RSS (/usr/bin/time); first,
# the start-up time of a process that does nothing, quire's against mutool's.
#
# Each book is measured in rounds (BENCH_ROUNDS, default 3). A round runs every tool once,
# one after the other, so that a machine that speeds up or slows down over the run (a
# shared virtual machine does) moves every tool alike. The table gives the median wall and
# CPU time over the rounds and the largest peak RSS; the speed-up line also gives the lowest
# and highest of the rounds' own ratios.
#
# Then the shelf: every PDF under /usr/share/doc and /usr/share/R/doc in one folder, built at
# --jobs 1, --jobs 2 and the default --jobs (all cores), with the speed-up, the peak RSS, how
# busy the cores were (CPU time over wall time times cores) and a cached rebuild against a
# cold build. Last, `quire merge` of 100, 300 and 1,000 one-book shards (bench/merge.sh).
#
# usage: bench/run.sh [QUIRE_BINARY] [PDF...]
#   default books: octave.pdf, the R manuals (refman.pdf included), when installed.
#   BENCH_ONLY: the parts to run, of "books shelf merge" (default: all three)
#   BENCH_SHELF_LIST: a file of PDF paths, one a line, for the shelf (default: the two folders)
#   BENCH_SHELF_LIMIT: at most this many PDFs of the shelf, picked evenly over their sizes
#   BENCH_MERGE_COUNTS: the shard counts of the merge (default "100 300 1000")
# Profile commands for what these figures show: bench/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
quire=${1:-$here/build/cli/quire}
shift || true
books=()
# Absolute paths: the books are linked into folders of their own.
for f in "$@"; do books+=("$(realpath "$f")"); done
if [ ${#books[@]} -eq 0 ]; then
  for f in /usr/share/doc/octave/octave.pdf /usr/share/R/doc/manual/R-intro.pdf \
           /usr/share/R/doc/manual/R-data.pdf /usr/share/R/doc/manual/R-exts.pdf \
           /usr/share/R/doc/manual/refman.pdf; do
    [ -f "$f" ] && books+=("$f")
  done
fi
only=" ${BENCH_ONLY:-books shelf merge} "
part() { [[ "$only" == *" $1 "* ]]; }
if part books && [ ${#books[@]} -eq 0 ]; then
  echo "no books to benchmark (install octave-doc and r-doc-pdf)"
  only=${only/ books / }
fi
command -v mutool >/dev/null || { echo "mutool missing (apt-get install mupdf-tools)"; exit 1; }
command -v pdftotext >/dev/null || { echo "pdftotext missing (apt-get install poppler-utils)"; exit 1; }
rounds=${BENCH_ROUNDS:-3}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "BENCH_ROUNDS must be a positive number, not '$rounds'"; exit 1; }
export OMP_THREAD_LIMIT=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure CMD...: prints "wall cpu rss_mb" for one run of CMD. The wall time is the shell's
# clock around the run, to the millisecond (time's own is to the hundredth of a second, and a
# cached rebuild takes a few milliseconds); CPU time and peak RSS are time's.
measure() {
  local t="$work/time" start end
  start=$EPOCHREALTIME
  local rc=0
  /usr/bin/time -f "%e %U %S %M" -o "$t" "$@" >/dev/null 2>"$work/err" || rc=$?
  # A build whose books were built with warnings (3), or of which a book failed (4), when
  # the caller allows it (MEASURE_OK), is timed as it ran.
  if [ "$rc" -ne 0 ] && [[ " ${MEASURE_OK:-} " != *" $rc "* ]]; then
    echo "FAILED: $*" >&2; cat "$work/err" >&2; echo "nan nan nan"; return
  fi
  [ "$rc" -eq 0 ] || echo "$rc" >"$work/last-exit"
  end=$EPOCHREALTIME
  # (time puts "Command exited with non-zero status N" before its line when the command
  # fails: only its last line is the measure.)
  tail -n 1 "$t" | awk -v s="$start" -v e="$end" '{printf "%.3f %.2f %.0f\n", e - s, $2+$3, $4/1024}'
}

# summary FILE: the median wall, the median CPU and the largest RSS of FILE's rounds
summary() {
  sort -n -k1,1 "$1" | awk '{w[NR]=$1} END{print (NR%2 ? w[(NR+1)/2] : (w[NR/2]+w[NR/2+1])/2)}' > "$work/w"
  sort -n -k2,2 "$1" | awk '{c[NR]=$2} END{print (NR%2 ? c[(NR+1)/2] : (c[NR/2]+c[NR/2+1])/2)}' > "$work/c"
  awk '$3>m{m=$3} END{print m+0}' "$1" > "$work/r"
  printf "%.3f %.2f %.0f\n" "$(cat "$work/w")" "$(cat "$work/c")" "$(cat "$work/r")"
}

# table NAME PAGES TOOL...: one row per tool from $work/res-NAME-TOOL, with the multiple of
# mutool's median; then the speed-up of build-j2 over build-j1 (median, and the range of
# the rounds' ratios) and the cached rebuild against a cold jobs-2 build.
table() {
  local name=$1 pages=$2 tool wall cpu rss ratio base
  shift 2
  read -r base _ _ < <(summary "$work/res-$name-mutool")
  for tool in "$@"; do
    read -r wall cpu rss < <(summary "$work/res-$name-$tool")
    ratio=$(awk -v a="$wall" -v b="$base" 'BEGIN{ if (b>0) printf "%.2f", a/b; else print "-" }')
    printf "%-14s %6s | %-28s %8s %8s %8s %10s\n" "$name" "$pages" "$tool" "$wall" "$cpu" "$rss" "$ratio"
  done
  read -r j1 _ _ < <(summary "$work/res-$name-build-j1")
  read -r j2 _ _ < <(summary "$work/res-$name-build-j2")
  read -r c _ _ < <(summary "$work/res-$name-build-cached")
  if [ -s "$work/res-$name-mutool-2-at-once" ]; then
    read -r two _ _ < <(summary "$work/res-$name-mutool-2-at-once")
    awk -v a="$base" -v b="$two" -v n="$name" 'BEGIN{ if (a>0)
      printf "%-14s this machine'"'"'s second core: two mutools at once take %.2fx one'"'"'s wall time (1.00: two whole cores, 2.00: one)\n", n, b/a }'
  fi
  range=$(paste -d' ' "$work/res-$name-build-j1" "$work/res-$name-build-j2" |
          awk '$4>0{r=$1/$4; if(NR==1||r<lo)lo=r; if(NR==1||r>hi)hi=r} END{printf "%.2f-%.2fx", lo, hi}')
  awk -v a="$j1" -v b="$j2" -v c="$c" -v n="$name" -v r="$range" -v k="$rounds" 'BEGIN{ if (b>0 && a>0)
    printf "%-14s speed-up jobs 2 vs 1: %.2fx (medians; %s over %d rounds); cached rebuild: %.1f%% of a cold jobs-2 build\n",
           n, a/b, r, k, 100*c/b }'
}

# start-up CMD...: the median wall milliseconds of 21 runs of CMD, a process that does nothing.
startup() {
  local i s e
  for ((i = 0; i < 21; i++)); do
    s=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 || true
    e=$EPOCHREALTIME
    echo "$s $e"
  done | awk '{print ($2 - $1) * 1000}' | sort -n | awk '{v[NR]=$1} END{printf "%.1f", v[(NR+1)/2]}'
}
echo "start-up (median of 21 runs): quire --version $(startup "$quire" --version) ms, mutool -v $(startup mutool -v) ms"
if part books; then
echo "$rounds rounds per book; medians of wall and CPU seconds, largest peak RSS"
printf "%-14s %6s | %-28s %8s %8s %8s %10s\n" book pages tool wall_s cpu_s rss_mb "x mutool"
tools=(mutool mutool-2-at-once pdftotext extract-j1 extract-j2 build-j1 build-j2 build-cached build-j1-pages-in-memory build-j1-every-page-out)
for pdf in "${books[@]}"; do
  name=$(basename "$pdf" .pdf)
  pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/{print $2}')
  mkdir -p "$work/in-$name" && ln -sf "$pdf" "$work/in-$name/"
  rm -rf "$work/cache"
  measure "$quire" build "$work/in-$name" -o "$work/out3" --jobs 2 --quiet --cache "$work/cache" >/dev/null
  for ((round = 1; round <= rounds; round++)); do
    measure mutool convert -F text -o "$work/m.txt" "$pdf" >>"$work/res-$name-mutool"
    # Two mutools at once, each on its own core: how much of a second core this machine
    # gives. On a virtual machine two busy vCPUs can share one physical core (or its
    # turbo budget): a build's work split evenly over two jobs then runs at the speed this
    # row shows, not at twice one core's.
    measure bash -c "mutool convert -F text -o $work/m1.txt $pdf & mutool convert -F text -o $work/m2.txt $pdf; wait" \
      >>"$work/res-$name-mutool-2-at-once"
    measure pdftotext "$pdf" "$work/p.txt" >>"$work/res-$name-pdftotext"
    measure "$quire" extract "$pdf" -o "$work/x.jsonl" --jobs 1 >>"$work/res-$name-extract-j1"
    measure "$quire" extract "$pdf" -o "$work/x.jsonl" --jobs 2 >>"$work/res-$name-extract-j2"
    measure "$quire" build "$work/in-$name" -o "$work/out1" --jobs 1 --quiet >>"$work/res-$name-build-j1"
    measure "$quire" build "$work/in-$name" -o "$work/out2" --jobs 2 --quiet >>"$work/res-$name-build-j2"
    measure "$quire" build "$work/in-$name" -o "$work/out3" --jobs 2 --quiet --cache "$work/cache" >>"$work/res-$name-build-cached"
    # Memory against the page budget: every page in memory, and every page out of it.
    measure "$quire" build "$work/in-$name" -o "$work/out4" --jobs 1 --quiet --spill-after -1 >>"$work/res-$name-build-j1-pages-in-memory"
    measure "$quire" build "$work/in-$name" -o "$work/out5" --jobs 1 --quiet --spill-after 0 >>"$work/res-$name-build-j1-every-page-out"
  done
  table "$name" "$pages" "${tools[@]}"
done

# The batch: every book above in one folder, where books are built in parallel.
if [ ${#books[@]} -gt 1 ]; then
  mkdir -p "$work/all"
  for pdf in "${books[@]}"; do ln -sf "$pdf" "$work/all/"; done
  rm -rf "$work/cache"
  measure "$quire" build "$work/all" -o "$work/outa3" --jobs 2 --quiet --cache "$work/cache" >/dev/null
  for ((round = 1; round <= rounds; round++)); do
    measure bash -c "for f in $work/all/*.pdf; do mutool convert -F text -o $work/m.txt \$f; done" >>"$work/res-all-books-mutool"
    measure "$quire" build "$work/all" -o "$work/outa1" --jobs 1 --quiet >>"$work/res-all-books-build-j1"
    measure "$quire" build "$work/all" -o "$work/outa2" --jobs 2 --quiet >>"$work/res-all-books-build-j2"
    measure "$quire" build "$work/all" -o "$work/outa3" --jobs 2 --quiet --cache "$work/cache" >>"$work/res-all-books-build-cached"
  done
  table all-books "" mutool build-j1 build-j2 build-cached
fi
fi

# The shelf: many books of every size in one folder, as a user's shelf is.
if part shelf; then
  shelf=()
  if [ -n "${BENCH_SHELF_LIST:-}" ]; then
    mapfile -t shelf < <(grep -v '^$' "$BENCH_SHELF_LIST")
  else
    mapfile -t shelf < <(find /usr/share/doc /usr/share/R/doc -name '*.pdf' -type f 2>/dev/null | sort)
  fi
  if [ -n "${BENCH_SHELF_LIMIT:-}" ] && [ "${#shelf[@]}" -gt "$BENCH_SHELF_LIMIT" ]; then
    # Evenly over the sizes, the smallest and the largest included, so that a short shelf
    # has the long books and the many small ones of the whole.
    mapfile -t shelf < <(for f in "${shelf[@]}"; do printf '%s %s\n' "$(stat -L -c %s "$f")" "$f"; done | sort -n -k1,1 -k2 |
      awk -v n="$BENCH_SHELF_LIMIT" '{p[NR]=$0} END{for (i = 0; i < n; i++) { k = (n > 1) ? int(1 + i * (NR - 1) / (n - 1) + 0.5) : 1; if (!(k in seen)) { seen[k]; sub(/^[0-9]+ /, "", p[k]); print p[k] } } }')
  fi
  if [ "${#shelf[@]}" -eq 0 ]; then
    echo "no shelf: no PDFs under /usr/share/doc or /usr/share/R/doc"
  else
    mkdir -p "$work/shelf"
    k=0
    for f in "${shelf[@]}"; do
      # Names made unique by their place in the list (many manuals are called manual.pdf).
      ln -s "$f" "$work/shelf/$(printf '%03d' "$k")-$(basename "$f")"
      k=$((k + 1))
    done
    pages=$(for f in "${shelf[@]}"; do pdfinfo "$f" 2>/dev/null | awk '/^Pages:/{print $2}'; done | awk '{s+=$1} END{print s+0}')
    mb=$(du -shL "$work/shelf" | awk '{print $1}')
    cores=$(getconf _NPROCESSORS_ONLN)  # not nproc, which obeys OMP_THREAD_LIMIT
    echo
    echo "shelf: ${#shelf[@]} PDFs, $pages pages, $mb; $rounds rounds; medians of wall and CPU seconds, largest peak RSS"
    printf "%-14s %6s | %-28s %8s %8s %8s %10s\n" book pages tool wall_s cpu_s rss_mb "x mutool"
    export MEASURE_OK="3 4"
    rm -f "$work/last-exit"
    rm -rf "$work/cache"
    measure "$quire" build "$work/shelf" -o "$work/outs3" --quiet --cache "$work/cache" >"$work/res-shelf-build-cold-cache"
    for ((round = 1; round <= rounds; round++)); do
      measure bash -c "for f in $work/shelf/*.pdf; do mutool convert -F text -o $work/m.txt \$f 2>/dev/null || true; done" >>"$work/res-shelf-mutool"
      measure "$quire" build "$work/shelf" -o "$work/outs1" --jobs 1 --quiet >>"$work/res-shelf-build-j1"
      measure "$quire" build "$work/shelf" -o "$work/outs2" --jobs 2 --quiet >>"$work/res-shelf-build-j2"
      measure "$quire" build "$work/shelf" -o "$work/outs0" --quiet >>"$work/res-shelf-build-default"
      measure "$quire" build "$work/shelf" -o "$work/outs3" --quiet --cache "$work/cache" >>"$work/res-shelf-build-cached"
    done
    unset MEASURE_OK
    table shelf "$pages" mutool build-j1 build-j2 build-default build-cached
    read -r j1 _ j1rss < <(summary "$work/res-shelf-build-j1")
    read -r j2 _ j2rss < <(summary "$work/res-shelf-build-j2")
    read -r w0 c0 _ < <(summary "$work/res-shelf-build-default")
    read -r cold _ _ < <(summary "$work/res-shelf-build-cold-cache")
    read -r cached _ _ < <(summary "$work/res-shelf-build-cached")
    awk -v a="$j1" -v b="$j2" -v r1="$j1rss" -v r2="$j2rss" -v w="$w0" -v c="$c0" -v n="$cores" -v cold="$cold" -v hot="$cached" 'BEGIN{
      printf "shelf          jobs 1 -> 2: %.2fx faster, peak RSS %d -> %d MB; default --jobs (%d cores): %.0f%% CPU (%.0f%% of the cores busy)\n",
             a/b, r1, r2, n, 100*c/w, 100*c/(w*n)
      printf "shelf          cached rebuild: %.3f s, %.2f%% of the cold build that filled the cache (%.3f s)\n", hot, 100*hot/cold, cold }'
    if [ -f "$work/last-exit" ]; then
      echo "shelf          (quire build exited $(cat "$work/last-exit"): 3, books built with warnings; 4, a book failed)"
    fi
    # Output byte-identical at any --jobs, on the shelf too.
    if diff -r -q "$work/outs1" "$work/outs2" >/dev/null && diff -r -q "$work/outs1" "$work/outs0" >/dev/null &&
       diff -r -q "$work/outs1" "$work/outs3" >/dev/null; then
      echo "shelf          output at --jobs 1, 2, the default and cached: identical"
    else
      echo "shelf          OUTPUT DIFFERS between --jobs 1, 2, the default and cached"
    fi
  fi
fi

if part merge; then
  echo
  # shellcheck disable=SC2086
  BENCH_ROUNDS=$rounds "$here/bench/merge.sh" "$quire" ${BENCH_MERGE_COUNTS:-100 300 1000}
fi
