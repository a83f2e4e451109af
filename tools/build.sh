#!/usr/bin/env bash
# Configures and builds quire into build/ (Release). Usage: tools/build.sh [extra cmake args]
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(getconf _NPROCESSORS_ONLN)"
