#!/bin/sh
# Two builds of the fixture books, one with --jobs 1 and one with --jobs 2, must be byte
# identical, site and EPUBs included (DESIGN.md invariant 2). No map, so that the check does not
# depend on how layout numbers chapters. BOOKS picks the books: `text`, those with a text layer;
# `scanned`, the scanned twins (named *-scan, read by OCR); default, all.
#   determinism.sh QUIRE_BINARY SOURCE_DIR WORK_DIR [text|scanned]
set -eu
quire=$1 src=$2 work=$3 books=${4:-all}
rm -rf "$work"
mkdir -p "$work/books"
found=0
for pdf in "$src"/fixtures/books/*.pdf; do
  case "$(basename "$pdf" .pdf)" in
  *-scan) kind=scanned ;;
  *) kind=text ;;
  esac
  [ "$books" = all ] || [ "$books" = "$kind" ] || continue
  ln -s "$pdf" "$work/books/"
  found=$((found + 1))
done
if [ "$found" -eq 0 ]; then
  echo "no fixture book matches '$books'"
  exit 1
fi
for jobs in 1 2; do
  rc=0
  "$quire" build "$work/books" -o "$work/jobs$jobs" \
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
