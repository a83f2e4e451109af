#!/bin/sh
# Two builds of the fixture books, one with --jobs 1 and one with --jobs 2, must be byte
# identical, site and EPUBs included (DESIGN.md invariant 2). No map, so that the check does not
# depend on how layout numbers chapters.
#   determinism.sh QUIRE_BINARY SOURCE_DIR WORK_DIR
set -eu
quire=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
for jobs in 1 2; do
  rc=0
  "$quire" build "$src/fixtures/books" -o "$work/jobs$jobs" \
    --jobs "$jobs" --epub 2>"$work/jobs$jobs.log" || rc=$?
  # 0: built; 3: built with warnings. Anything else is not a corpus to compare.
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    echo "quire build --jobs $jobs failed (exit $rc):"
    cat "$work/jobs$jobs.log"
    exit 1
  fi
done
"$quire" diff "$work/jobs2" "$work/jobs1"
diff -r "$work/jobs1" "$work/jobs2"
echo "identical: $(find "$work/jobs1" -type f | wc -l) files"
