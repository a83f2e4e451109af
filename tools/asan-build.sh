#!/usr/bin/env bash
# The sanitizer build in build-asan/: clang, AddressSanitizer and UndefinedBehaviorSanitizer,
# every library instrumented for libFuzzer's coverage. One build serves the sanitizer test run
# (tools/test.sh --sanitize) and the fuzzers (fuzz/run.sh), so CI compiles the tree once for
# both.
#   tools/asan-build.sh [TARGET...]   every target when none is named
# -O1 and line tables only (-g1): the sanitizers' own advice, and the build takes a fraction
# of the time that -O2 with full debug information does; reports keep file:line. ccache, where
# installed, makes the build of unchanged sources a matter of seconds, from any checkout
# (paths are taken relative to CCACHE_BASEDIR).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$here}
fi
# A build-asan/ that GCC made (before this build was clang's) is made anew: CMake keeps the
# compiler it first found, and GCC knows no -fsanitize=fuzzer-no-link.
cache=$here/build-asan/CMakeCache.txt
if [ -f "$cache" ] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' "$cache"; then rm -rf "$here/build-asan"; fi
CC=clang CXX=clang++ cmake -S "$here" -B "$here/build-asan" -DQUIRE_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "${launcher[@]}" >/dev/null
targets=()
[ $# -gt 0 ] && targets=(--target "$@")
cmake --build "$here/build-asan" -j"$(getconf _NPROCESSORS_ONLN)" "${targets[@]}"
