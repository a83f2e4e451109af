#!/usr/bin/env bash
# `quire merge` against the number of shards: 100, 300 and 1,000 shard outputs of one book
# each (or the counts given), to show that the merge is linear in the books and what a
# cluster run's merge costs per book (deploy/README.md).
#
# The shards are made as tests/pipeline/merge_scale_test.cpp makes them: two fixture books
# (fx-plain, no figures; fx-classic, with figures) are built once as real shards, and each
# shard of the benchmark is one of them renamed (its id written anew in its text files,
# its images hard-linked) with a shard.json naming every book. The merge writes the whole
# corpus: books copied, corpus.jsonl, manifest.json and the site.
#
# Whole-process wall time (the shell's clock), CPU time and peak RSS (/usr/bin/time), the
# median over BENCH_ROUNDS rounds (default 3), and the wall milliseconds per book.
#
# usage: bench/merge.sh [QUIRE_BINARY] [COUNT...]      (default counts: 100 300 1000)
#   BENCH_MERGE_JOBS: --jobs of the merge (default: all cores)
#   BENCH_MERGE_ARGS: more arguments of the merge, e.g. --no-site
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
quire=$(realpath "${1:-$here/build/cli/quire}")
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(100 300 1000)
rounds=${BENCH_ROUNDS:-3}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "BENCH_ROUNDS must be a positive number, not '$rounds'"; exit 1; }
jobs=${BENCH_MERGE_JOBS:-$(getconf _NPROCESSORS_ONLN)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Two real shards of the two template books.
mkdir -p "$work/in"
ln -s "$here/fixtures/books/fx-plain.pdf" "$work/in/zq-book-0000.pdf"
ln -s "$here/fixtures/books/fx-classic.pdf" "$work/in/zq-book-0001.pdf"
for i in 0 1; do
  rc=0
  "$quire" build "$work/in" -o "$work/real$i" --quiet --shard "$i/2" || rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo "quire build --shard $i/2 failed (exit $rc)"; exit 1; }
done

# make_shards N DIR: N shards of one book each, zq-book-0000 ... in DIR/s0 ... DIR/s<N-1>.
make_shards() {
  python3 - "$1" "$2" "$work" <<'PY'
import json, os, sys
n, out, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
ids = ["zq-book-%04d" % i for i in range(n)]
# shard.json as quire writes it: two-space indent, keys in this order, a final newline.
books = json.dumps(ids, indent=2).replace("\n", "\n  ")
for i, book in enumerate(ids):
    src_id = "zq-book-%04d" % (i % 2)
    src = os.path.join(work, "real%d" % (i % 2), "books", src_id)
    dst = os.path.join(out, "s%d" % i, "books", book)
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for f in files:
            a, b = os.path.join(root, f), os.path.join(dst, rel, f)
            if f.endswith(".png"):
                os.link(a, b)
            else:
                with open(a, "rb") as fa, open(b, "wb") as fb:
                    fb.write(fa.read().replace(src_id.encode(), book.encode()))
    with open(os.path.join(out, "s%d" % i, "shard.json"), "w") as f:
        f.write('{\n  "format": "quire-shard/1",\n  "index": %d,\n  "count": %d,\n  "books": %s\n}\n' % (i, n, books))
PY
}

measure() {
  local t="$work/time" start end
  start=$EPOCHREALTIME
  /usr/bin/time -f "%e %U %S %M" -o "$t" "$@" >/dev/null 2>"$work/err" || { echo "FAILED: $*" >&2; cat "$work/err" >&2; echo "nan nan nan"; return; }
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" '{printf "%.3f %.2f %.0f\n", e - s, $2+$3, $4/1024}' "$t"
}
median() { sort -n | awk '{v[NR]=$1} END{print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

extra=${BENCH_MERGE_ARGS:-}
echo "quire merge of N one-book shards (--jobs $jobs${extra:+ $extra}; $rounds rounds, medians; largest peak RSS)"
printf "%7s %9s %8s %8s %8s %10s %9s\n" shards chapters wall_s cpu_s rss_mb ms/book out_mb
for n in "${counts[@]}"; do
  rm -rf "$work/shards"
  mkdir -p "$work/shards"
  make_shards "$n" "$work/shards"
  dirs=()
  for ((i = 0; i < n; i++)); do dirs+=("$work/shards/s$i"); done
  : >"$work/res"
  for ((round = 1; round <= rounds; round++)); do
    rm -rf "$work/merged"
    # shellcheck disable=SC2086
    measure "$quire" merge "${dirs[@]}" -o "$work/merged" --jobs "$jobs" $extra >>"$work/res"
  done
  wall=$(awk '{print $1}' "$work/res" | median)
  cpu=$(awk '{print $2}' "$work/res" | median)
  rss=$(awk '$3>m{m=$3} END{print m+0}' "$work/res")
  chapters=$(wc -l <"$work/merged/corpus.jsonl")
  size=$(du -sm "$work/merged" | awk '{print $1}')
  printf "%7d %9d %8.3f %8.2f %8d %10.2f %9d\n" "$n" "$chapters" "$wall" "$cpu" "$rss" \
    "$(awk -v w="$wall" -v n="$n" 'BEGIN{print 1000*w/n}')" "$size"
done
