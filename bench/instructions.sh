#!/usr/bin/env bash
# One book's build counted in instructions (valgrind's callgrind), for each quire binary given,
# beside `mutool convert -F text` on the same book: the total and each stage's share, and the
# ratio to mutool. Instruction counts do not move with the machine's load, so two binaries
# compare on a shared machine where their wall times would not (they still are not times:
# cache misses and the second thread are not in them). One job; slow (about 50x a build).
# Two kinds of instruction count more here than they cost: valgrind's CPU has no SHA
# extensions, so the file's digest runs nettle's generic code (refman.pdf: 307 M instructions
# under valgrind, 0.15% of a build's perf samples natively), and a `rep stosb` memset counts
# once per byte.
#
# usage: bench/instructions.sh BOOK.pdf [QUIRE_BINARY...]   (valgrind: apt-get install valgrind)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
book=$(realpath "$1")
shift
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=("$here/build/cli/quire")
command -v valgrind >/dev/null || { echo "valgrind missing (apt-get install valgrind)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/in"
ln -s "$book" "$work/in/"
count() {  # count OUT.cg CMD...: runs CMD under callgrind
  local out=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1 || true
}
count "$work/mutool.cg" mutool convert -F text -o "$work/mutool.txt" "$book"
# The stages: the frame each stage's instructions pass through (inclusive).
stages='quire::extract_document\(|quire::clean_document\(|quire::layout_document\(|quire::verify_book\(|quire::export_book\(quire::Book&, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&, std::function|quire::export_index\(std'
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ && !done {gsub(",", "", $1); print $1; done = 1}'; }
mutool=$(total "$work/mutool.cg")
printf '%s\nmutool convert -F text: %d M instructions\n' "$(basename "$book")" $((mutool / 1000000))
i=0
for bin in "${binaries[@]}"; do
  i=$((i + 1))
  count "$work/q$i.cg" "$bin" build "$work/in" -o "$work/out$i" --jobs 1 --quiet
  t=$(total "$work/q$i.cg")
  printf '\n%s: %d M instructions, %s x mutool\n' "$bin" $((t / 1000000)) "$(awk -v a="$t" -v b="$mutool" 'BEGIN {printf "%.2f", a / b}')"
  callgrind_annotate --inclusive=yes "$work/q$i.cg" 2>/dev/null | grep -E "$stages" | grep -v 'lambda\|parallel_for' |
    awk -v t="$t" '{n = $1; gsub(",", "", n); name = $0; sub(/^[^?]*\?\?\?:quire::/, "", name); sub(/\(.*/, "", name);
         if (!seen[name]++) printf "  %-16s %8d M  %5.1f%%\n", name, n / 1e6, 100 * n / t}'
done
