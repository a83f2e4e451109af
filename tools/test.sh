#!/usr/bin/env bash
# The whole test suite, from a fresh Debian machine: installs, builds, runs ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
if [ -f tests/browser/package.json ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --silent) || echo "warning: npm ci failed; the browser test will skip"
fi
tools/build.sh
export OMP_THREAD_LIMIT=1
cd build
ctest --output-on-failure -j2 --timeout 900
