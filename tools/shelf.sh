#!/usr/bin/env bash
# Builds the shelf of PDFs installed under /usr/share/doc and R's manuals with a quire binary,
# for tools/shelf-diff.py.   tools/shelf.sh BINARY OUT [jobs]
set -euo pipefail
bin=$1 out=$2 jobs=${3:-2}
in=$(mktemp -d)
trap 'rm -rf "$in"' EXIT
find /usr/share/doc /usr/share/R/doc -name '*.pdf' 2>/dev/null | sort | while read -r f; do
  ln -sf "$f" "$in/$(echo "${f#/usr/share/}" | tr / _)"
done
rm -rf "$out"
"$bin" build "$in" -o "$out" --quiet --jobs "$jobs" || true
