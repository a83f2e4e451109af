#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine: installs, builds, runs ctest.
#   tools/test.sh              Release build in build/, every test
#   tools/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
tools/deps.sh
if [ -f tests/browser/package.json ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --silent) || echo "warning: npm ci failed; the browser test will skip"
fi
export OMP_THREAD_LIMIT=1
if [ "$mode" = --sanitize ]; then
  # -O1 and line tables only (-g1): the sanitizers' own advice, and the build takes a
  # fraction of the time that -O2 with full debug information does; reports keep file:line.
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUIRE_SANITIZE=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" >/dev/null
  cmake --build build-asan -j"$(getconf _NPROCESSORS_ONLN)"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export LSAN_OPTIONS=suppressions=$(pwd)/tools/lsan.supp
  cd build-asan
  # The cluster and browser tests exercise no code of ours beyond what the others run.
  ctest --output-on-failure -j2 --timeout 1200 -E "slurm|browser"
else
  tools/build.sh
  cd build
  ctest --output-on-failure -j2 --timeout 900
fi
