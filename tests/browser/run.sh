#!/bin/sh
# Runs the browser test over a corpus. Exit 77 (skipped) when node, chromium or the npm
# packages are missing.
#   run.sh demo  DEMO_PROGRAM SOURCE_DIR WORK_DIR   corpus from the fixtures' ground truth
#   run.sh build QUIRE_BINARY SOURCE_DIR WORK_DIR   corpus built by `quire build` from the fixture PDFs
set -eu
mode=$1 prog=$2 src=$3 work=$4
here=$(dirname "$0")
command -v node >/dev/null 2>&1 || { echo "SKIP: node is not installed"; exit 77; }
[ -x "${QUIRE_CHROMIUM:-/usr/bin/chromium}" ] || { echo "SKIP: chromium is not installed"; exit 77; }
[ -d "$here/node_modules/playwright-core" ] || { echo "SKIP: run 'npm ci' in $here"; exit 77; }
rm -rf "$work/out"
mkdir -p "$work"
case $mode in
  demo) "$prog" "$src" "$work/out" ;;
  build) "$prog" build "$src/fixtures/books" --map "$src/examples/fixtures/map.toml" -o "$work/out" ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
exec node "$here/site_test.mjs" "$work/out" "$work/screenshots"
