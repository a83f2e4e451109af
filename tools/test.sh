#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine: installs, builds, runs ctest.
#   tools/test.sh              Release build in build/, every test
#   tools/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build (clang) in build-asan/
#   tools/test.sh --tsan       ThreadSanitizer build in build-tsan/, the tests that use threads
#   tools/test.sh --fuzz SECS  the libFuzzer targets of that build for SECS seconds each
# Warnings are errors in the Release build (the sanitizers' instrumentation makes GCC warn
# falsely, so theirs stay warnings). The machine has every package the tests need (tools/deps.sh installs
# them), so a skipped test is a failure unless tests/allowed-skips.txt names it for this mode.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
tools/deps.sh
if [ -f tests/browser/package.json ] && [ "$mode" != --fuzz ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --silent) || echo "warning: npm ci failed; the browser test will skip"
fi
export OMP_THREAD_LIMIT=1
root=$(pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# check_skips MODE: fails when ctest's log names a skipped test that tests/allowed-skips.txt
# does not allow in MODE.
check_skips() {
  local bad=0 name
  while read -r name; do
    [ -n "$name" ] || continue
    if ! awk -v m="$1" -v n="$name" '!/^#/ && NF >= 2 && ($1 == "all" || $1 == m) && n ~ ("^" $2 "$") {ok=1} END{exit !ok}' \
         "$root/tests/allowed-skips.txt"; then
      echo "error: test $name was skipped; every package it needs is installed here" >&2
      bad=1
    fi
  done < <(sed -n '/The following tests did not run:/,/^$/p' "$log" | sed -nE 's/^[[:space:]]*[0-9]+ - ([^ ]+).*/\1/p')
  return $bad
}

case "$mode" in
--sanitize)
  tools/asan-build.sh
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export LSAN_OPTIONS=suppressions=$root/tools/lsan.supp
  cd build-asan
  # The cluster and browser tests exercise no code of ours beyond what the others run; nor do
  # epubcheck's (its minutes are the Java validator's; the EPUB writer runs in Epub.*) and the
  # thousand-shard merge's (merges of a few shards run the same code in Shards.* and
  # MergeScale.EveryShardList*).
  ctest --output-on-failure -j2 --timeout 1200 -E "slurm|browser|export_epubcheck|MergeScale.AThousand" 2>&1 | tee "$log"
  check_skips sanitize
  ;;
--tsan)
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUIRE_TSAN=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" >/dev/null
  # Every test that runs work on several threads: the pools, and the same bytes at any --jobs.
  threaded="Parallel|Threads|AnyJob|AnyThread|OnThreads|Determinism|ParallelWorkers|export_determinism_jobs"
  # Only the programs that hold such tests are built; the check after the run fails when a
  # threaded test lives in a program left out here.
  cmake --build build-tsan -j"$(getconf _NPROCESSORS_ONLN)" --target quire model_tests clean_tests \
    extract_tests extract_cli_tests ocr_tests figures_tests layout_tests export_tests pipeline_tests
  export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
  cd build-tsan
  # The scanned twin's whole build (export_determinism_jobs_ocr) takes minutes here, nearly all
  # of them in OCR; OCR on threads is OcrScan.ParallelWorkersGiveTheSameResult.
  left_out=export_determinism_jobs_ocr
  ctest --output-on-failure -j2 --timeout 1800 -R "$threaded" -E "$left_out" 2>&1 | tee "$log"
  check_skips tsan
  if [ -d "$root/build" ]; then
    # Every threaded test of the whole build (the Release one in build/) ran here.
    count() { (cd "$1" && ctest -N -R "$threaded" -E "$left_out" | sed -n 's/^Total Tests: //p'); }
    want=$(count "$root/build") got=$(count "$root/build-tsan")
    if [ "$want" != "$got" ]; then
      echo "error: $got threaded tests ran under ThreadSanitizer, build/ has $want; add their program to tools/test.sh --tsan" >&2
      exit 1
    fi
  fi
  ;;
--fuzz)
  secs=${2:-30}
  [ -x build/cli/quire ] || tools/build.sh -DQUIRE_WERROR=ON
  fuzz/run.sh "$secs"
  ;;
"")
  tools/build.sh -DQUIRE_WERROR=ON
  cd build
  ctest --output-on-failure -j2 --timeout 900 2>&1 | tee "$log"
  check_skips release
  ;;
*)
  echo "usage: tools/test.sh [--sanitize | --tsan | --fuzz SECONDS]" >&2
  exit 2
  ;;
esac
