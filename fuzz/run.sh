#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS (default 60) with a seed
# corpus made from the fixtures. Crashes are written to fuzz/artifacts/.
#   fuzz/run.sh [SECONDS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
build=$here/build-fuzz
CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DQUIRE_FUZZ=ON -DBUILD_TESTING=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(getconf _NPROCESSORS_ONLN)" --target fuzz_pages_jsonl fuzz_map fuzz_pdf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$here/fuzz/artifacts" "$work/pdf" "$work/jsonl" "$work/map"
cp "$here"/fixtures/books/*.pdf "$work/pdf/"
for f in "$here"/fixtures/books/fx-plain.pdf; do
  "${QUIRE:-$here/build/cli/quire}" extract "$f" -o "$work/jsonl/$(basename "$f" .pdf).jsonl" 2>/dev/null || true
done
cp "$here"/examples/*/map.toml "$work/map/" 2>/dev/null || true
for t in fuzz_pages_jsonl fuzz_map fuzz_pdf; do
  case $t in fuzz_pdf) seeds=$work/pdf ;; fuzz_map) seeds=$work/map ;; *) seeds=$work/jsonl ;; esac
  echo "== $t for ${secs}s"
  "$build/fuzz/$t" "$seeds" -max_total_time="$secs" -rss_limit_mb=4096 -timeout=30 \
    -artifact_prefix="$here/fuzz/artifacts/$t-" -print_final_stats=1 2>&1 | grep -E "^(#|stat::|==|SUMMARY)" | tail -8
done
