#!/bin/sh
# The EPUBs of the fixture books, built alone and on the example map, pass epubcheck with no
# error and no warning. Exits 77 (skipped) only where epubcheck is not installed (Debian's
# package `epubcheck`, which tools/deps.sh installs for CI).
#   epubcheck.sh QUIRE_BINARY SOURCE_DIR WORK_DIR
set -u
quire=$1 src=$2 work=$3
jar=${EPUBCHECK_JAR:-/usr/share/java/epubcheck.jar}
if [ -f "$jar" ] && command -v java >/dev/null; then
  # The client compiler alone and one GC thread: epubcheck runs seconds, not long enough for
  # the JVM's optimising compiler to pay off, and the test shares the machine.
  epubcheck() { java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -jar "$jar" "$@"; }
elif command -v epubcheck >/dev/null && epubcheck --version >/dev/null 2>&1; then
  :
else
  echo "skipped: epubcheck is not installed (apt-get install epubcheck)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
export OMP_THREAD_LIMIT=1
status=0
build() {
  name=$1
  shift
  rc=0
  "$quire" build "$@" -o "$work/$name" --epub --jobs 2 --quiet 2>"$work/$name.log" || rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    cat "$work/$name.log"
    echo "FAIL: quire build $name exited $rc"
    status=1
  fi
}
build books "$src/fixtures/books"
build map --map "$src/examples/fixtures/map.toml" --pdf-dir "$src/fixtures/books"
checked=0
for epub in "$work"/books/epub/*.epub "$work"/map/epub/*.epub; do
  [ -f "$epub" ] || continue
  checked=$((checked + 1))
  if epubcheck "$epub" >"$epub.txt" 2>&1 && grep -q '0 fatals / 0 errors / 0 warnings' "$epub.txt"; then
    echo "ok: $(basename "$(dirname "$(dirname "$epub")")")/$(basename "$epub")"
  else
    cat "$epub.txt"
    echo "FAIL: $epub"
    status=1
  fi
done
# Each fixture book and each build's learning map.
expected=$(( $(ls "$src"/fixtures/books/*.pdf | wc -l) + 1 + 2 + 1 ))
if [ "$checked" -ne "$expected" ]; then
  echo "FAIL: $checked EPUBs checked, $expected expected"
  status=1
fi
exit $status
