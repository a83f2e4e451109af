#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS (default 60) with a seed
# corpus made from the fixtures. A crash, leak, timeout or out-of-memory of any target is
# printed and makes the script fail (CI runs it); its input is written to fuzz/artifacts/.
#   fuzz/run.sh [SECONDS]
# FUZZ_SEED=N fixes libFuzzer's random seed, so that a run can be repeated mutation for
# mutation (CI fixes it: a gate that passes or fails by chance is no gate); unset, each run
# explores anew.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
build=$here/build-asan
# The sanitizer test run's build (tools/asan-build.sh): only the targets and the libraries
# they link are built here.
"$here/tools/asan-build.sh" fuzz_pages_jsonl fuzz_map fuzz_pdf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$here/fuzz/artifacts" "$work/pdf" "$work/jsonl" "$work/map"
cp "$here"/fixtures/books/*.pdf "$work/pdf/"
for f in "$here"/fixtures/books/fx-plain.pdf; do
  "${QUIRE:-$here/build/cli/quire}" extract "$f" -o "$work/jsonl/$(basename "$f" .pdf).jsonl" 2>/dev/null || true
done
cp "$here"/examples/*/map.toml "$work/map/" 2>/dev/null || true
# Fontconfig's cache, which Poppler fills, lives as long as the process by design: not a leak
# of quire's (the same suppressions as the sanitizer test run).
export LSAN_OPTIONS=suppressions=$here/tools/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
seed=()
[ -n "${FUZZ_SEED:-}" ] && seed=(-seed="$FUZZ_SEED")
failed=0
for t in fuzz_pages_jsonl fuzz_map fuzz_pdf; do
  case $t in fuzz_pdf) seeds=$work/pdf ;; fuzz_map) seeds=$work/map ;; *) seeds=$work/jsonl ;; esac
  echo "== $t for ${secs}s"
  log=$work/$t.log
  status=0
  "$build/fuzz/$t" "$seeds" -max_total_time="$secs" -rss_limit_mb=4096 -timeout=30 \
    -artifact_prefix="$here/fuzz/artifacts/$t-" -print_final_stats=1 "${seed[@]}" >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    # The whole report: the sanitizer's stack, and the artifact's path to reproduce it with
    # "$build/fuzz/$t" ARTIFACT.
    tail -n 80 "$log"
    echo "error: $t failed (exit $status)" >&2
    failed=1
    continue
  fi
  grep -E "^(#|stat::|SUMMARY)" "$log" | tail -8
done
exit $failed
