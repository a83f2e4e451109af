#!/bin/sh
# Regenerates docs/options.md from the stages' option tables (`quire options`). The options
# test fails until the committed file equals this output; review the diff before committing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
quire=${QUIRE:-$root/build/cli/quire}
"$quire" options > "$root/docs/options.md.tmp"
mv "$root/docs/options.md.tmp" "$root/docs/options.md"
git -C "$root" diff --stat -- docs/options.md || true
