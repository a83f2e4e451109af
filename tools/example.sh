#!/usr/bin/env bash
# The built-in example, from a fresh Debian machine: installs what quire needs, builds it, and
# builds the corpus and reading site of the fixture books with their learning map.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
tools/build.sh
export OMP_THREAD_LIMIT=1  # Tesseract's OpenMP is slower than one thread per page (see README)
status=0
build/cli/quire build fixtures/books --map examples/fixtures/map.toml -o out/example || status=$?
echo
echo "Open out/example/site/index.html in a browser (file://$(pwd)/out/example/site/index.html)."
echo "The corpus is in out/example/ (corpus.jsonl, manifest.json, books/)."
exit "$status"
