#!/usr/bin/env bash
# Quality per book: quire builds each book and the result is scored against its truth.
#   bench/quality.sh [path/to/quire]      (default: build/cli/quire)
# Rows: every fixture book (fixtures/books/*.gt.json, scored by tests/quality/score_corpus.py)
# and, when ../shared/eval/score.py exists, every ../shared/eval/books/*.gt.json whose PDF is
# present (scored by that score.py). Columns: word recall/precision/F1, furniture leaks per
# page, code blocks exact, figure recall, extra figures, line-end hyphen splits, chapters found.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quire="$(realpath "${1:-$root/build/cli/quire}")"
[ -x "$quire" ] || { echo "no quire binary at $quire" >&2; exit 2; }
shared="$root/../shared/eval"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf '%-24s %6s %7s %7s %7s %8s %7s %7s %5s %6s %7s %7s\n' book pages recall precis f1 furn/pg code_bl fig_rec xfig hyph chapt secs
row() {  # book pages json secs
  python3 - "$1" "$2" "$3" "$4" <<'PY'
import json, sys
b, pages, js, secs = sys.argv[1:]
s = json.loads(js)
f = lambda k, fmt="%.4f": "-" if s.get(k) is None else fmt % s[k]
print("%-24s %6s %7s %7s %7s %8s %7s %7s %5s %6s %7s %7s" % (b, pages, f("word_recall"), f("word_precision"),
      f("word_f1"), f("furniture_leaks_per_page", "%.3f"), f("code_block_exact", "%.3f"),
      f("figure_recall", "%.3f"), f("extra_figures", "%d"), f("hyphen_splits", "%d"), f("chapter_match", "%.3f"), secs))
PY
}
for gt in "$root"/fixtures/books/*.gt.json; do
  b="$(basename "$gt" .gt.json)"
  start=$(date +%s.%N)
  js="$(python3 "$root/tests/quality/run_book.py" --quire "$quire" --book "$gt" | tail -1)"
  secs=$(python3 -c "print('%.1f' % ($(date +%s.%N) - $start))")
  row "$b" "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['pages'])" "$gt")" "$js" "$secs"
done
if [ -f "$shared/score.py" ]; then
  for gt in "$shared"/books/*.gt.json; do
    b="$(basename "$gt" .gt.json)"
    pdf="$(dirname "$gt")/$b.pdf"
    [ -f "$pdf" ] || pdf="$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('pdf',''))" "$gt")"
    [ -f "$pdf" ] || continue
    mkdir -p "$tmp/$b/in"
    cp "$pdf" "$tmp/$b/in/$b.pdf"
    start=$(date +%s.%N)
    "$quire" build "$tmp/$b/in" -o "$tmp/$b/out" >/dev/null 2>&1 || { echo "$b: quire build failed"; continue; }
    secs=$(python3 -c "print('%.1f' % ($(date +%s.%N) - $start))")
    js="$(python3 "$shared/score.py" "$gt" "$tmp/$b/out" 2>/dev/null | tail -1)"
    row "$b" "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('pages','-'))" "$gt")" "$js" "$secs"
  done
fi
