#!/bin/sh
# Every fixture book has a golden corpus (fixtures/golden/<name>/), and rebuilding the book
# gives exactly that corpus: `quire diff` prints a unified diff per chapter otherwise.
# Goldens are regenerated only by tools/update-goldens.sh, and the diff is reviewed.
#   golden_test.sh QUIRE SOURCE_DIR WORK_DIR
set -u
quire=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
export OMP_THREAD_LIMIT=1
status=0
for pdf in "$src"/fixtures/books/*.pdf; do
  name=$(basename "$pdf" .pdf)
  golden=$src/fixtures/golden/$name
  if [ ! -f "$golden/manifest.json" ]; then
    echo "FAIL: $name has no golden (run tools/update-goldens.sh $name and review the result)"
    status=1
    continue
  fi
  rc=0
  "$quire" build "$pdf" -o "$work/$name" --jobs 1 --quiet || rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    echo "FAIL: $name: quire build exited $rc"
    status=1
    continue
  fi
  if "$quire" diff "$work/$name" "$golden"; then
    echo "ok: $name matches its golden"
  else
    echo "FAIL: $name differs from its golden (above); if the change is intended, run tools/update-goldens.sh $name"
    status=1
  fi
done
exit $status
