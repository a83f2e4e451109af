#!/bin/sh
# The overlay `quire inspect` draws on the fixture pages listed in fixtures/inspect/pages.txt
# equals its golden (fixtures/inspect/golden/<book>/page-NNNN.json): the boxes, their kinds,
# numbers, colours and reasons, not the pixels. A difference prints a unified diff.
# Goldens are regenerated only by tools/update-goldens.sh.
#   inspect_test.sh QUIRE SOURCE_DIR WORK_DIR
set -u
quire=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
export OMP_THREAD_LIMIT=1
status=0
checked=0
while read -r name pages; do
  case $name in ''|'#'*) continue ;; esac
  golden=$src/fixtures/inspect/golden/$name
  if [ ! -d "$golden" ]; then
    echo "FAIL: $name has no inspect golden (run tools/update-goldens.sh $name and review the result)"
    status=1
    continue
  fi
  if ! "$quire" inspect "$src/fixtures/books/$name.pdf" --pages "$pages" -o "$work/$name" --jobs 1 2>"$work/$name.err"; then
    cat "$work/$name.err"
    echo "FAIL: $name: quire inspect failed"
    status=1
    continue
  fi
  [ -f "$work/$name/index.html" ] || { echo "FAIL: $name: no index.html"; status=1; }
  for png in "$work/$name"/page-*.png; do
    head -c 8 "$png" | od -An -c | grep -q 'P   N   G' || { echo "FAIL: $png is not a PNG"; status=1; }
  done
  mkdir -p "$work/$name.json"
  cp "$work/$name"/page-*.json "$work/$name.json/"
  if diff -ru "$golden" "$work/$name.json"; then
    echo "ok: $name pages $pages match their inspect golden"
  else
    echo "FAIL: $name's overlay differs from its golden (above); if intended, run tools/update-goldens.sh $name"
    status=1
  fi
  checked=$((checked + 1))
done < "$src/fixtures/inspect/pages.txt"
# Bad input: a one-line error naming the file and the page, a nonzero exit, no folder.
rc=0
"$quire" inspect "$src/fixtures/books/fx-plain.pdf" --pages 900-901 -o "$work/bad" 2>"$work/bad.err" || rc=$?
if [ "$rc" -eq 0 ] || [ -e "$work/bad" ] || [ "$(wc -l < "$work/bad.err")" -ne 1 ] ||
   ! grep -q 'fx-plain.pdf: page 900: ' "$work/bad.err"; then
  echo "FAIL: a page outside the book: exit $rc, error: $(cat "$work/bad.err")"
  status=1
fi
printf 'not a pdf\n' > "$work/bad.pdf"
rc=0
"$quire" inspect "$work/bad.pdf" -o "$work/bad" 2>"$work/bad.err" || rc=$?
if [ "$rc" -eq 0 ] || [ -e "$work/bad" ] || ! grep -q 'bad.pdf: ' "$work/bad.err"; then
  echo "FAIL: not a PDF: exit $rc, error: $(cat "$work/bad.err")"
  status=1
fi
[ "$checked" -gt 0 ] || { echo "FAIL: no inspect golden was checked"; status=1; }
exit $status
