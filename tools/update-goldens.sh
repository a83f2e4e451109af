#!/bin/sh
# Regenerates the golden corpora: for every fixture book fixtures/books/<name>.pdf, the corpus
# that the built quire makes of it alone is written to fixtures/golden/<name>/ (without the
# site/ folder, which is made from the corpus files and which `quire diff` does not compare).
#
#   tools/update-goldens.sh [--quire PATH] [NAME...]
#
# PATH defaults to $QUIRE, else build/cli/quire; NAMEs limit the run to some books
# (e.g. fx-plain). The overlays of `quire inspect` on the pages fixtures/inspect/pages.txt
# lists go to fixtures/inspect/golden/<name>/ too. Goldens change only through this script:
# review `git diff fixtures/golden` before committing, as a change there is a change in what
# quire writes.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
quire=${QUIRE:-$root/build/cli/quire}
golden=${QUIRE_GOLDEN_DIR:-$root/fixtures/golden}
inspect_golden=${QUIRE_INSPECT_GOLDEN_DIR:-$root/fixtures/inspect/golden}

while [ $# -gt 0 ]; do
  case $1 in
    --quire) quire=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "update-goldens: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ -x "$quire" ] || { echo "update-goldens: no quire binary at $quire (build it, or pass --quire PATH)" >&2; exit 2; }

if [ $# -gt 0 ]; then
  books=$*
else
  books=$(cd "$root/fixtures/books" && ls *.pdf | sed 's/\.pdf$//')
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$golden"
status=0
for name in $books; do
  pdf=$root/fixtures/books/$name.pdf
  [ -f "$pdf" ] || { echo "update-goldens: no fixture book $pdf" >&2; status=1; continue; }
  # One thread: goldens must not depend on scheduling (determinism is tested separately).
  rc=0
  "$quire" build "$pdf" -o "$tmp/$name" --jobs 1 || rc=$?
  # 0: built; 3: built with warnings (they are recorded in book.json, which the golden keeps).
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    echo "update-goldens: $name: quire build failed (exit $rc); its golden is left as it was" >&2
    status=1
    continue
  fi
  rm -rf "$tmp/$name/site"
  rm -rf "$golden/$name"
  mv "$tmp/$name" "$golden/$name"
  echo "updated $golden/$name ($(find "$golden/$name" -type f | wc -l) files)"
done
# The inspect overlays of the pages listed in fixtures/inspect/pages.txt: their page-NNNN.json
# (the boxes drawn) go to fixtures/inspect/golden/<name>/; the images are not kept.
while read -r name pages; do
  case $name in ''|'#'*) continue ;; esac
  case " $books " in *" $name "*) ;; *) continue ;; esac
  rc=0
  "$quire" inspect "$root/fixtures/books/$name.pdf" --pages "$pages" -o "$tmp/inspect-$name" --jobs 1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "update-goldens: $name: quire inspect failed (exit $rc); its inspect golden is left as it was" >&2
    status=1
    continue
  fi
  rm -rf "$inspect_golden/$name"
  mkdir -p "$inspect_golden/$name"
  cp "$tmp/inspect-$name"/page-*.json "$inspect_golden/$name/"
  echo "updated $inspect_golden/$name (pages $pages)"
done < "$root/fixtures/inspect/pages.txt"
[ "$status" -eq 0 ] && echo "review the changes with: git diff --stat -- fixtures/golden"
exit $status
