#!/usr/bin/env bash
# Typesets the fixture book "The Ringlog Handbook" (fixtures/generate/content.py, TYPESET)
# with every typesetter family installed here and writes fixtures/books/ts-<family>.pdf and
# ts-<family>.gt.json. A family whose tool is missing is skipped with a message.
#   tools/make-typeset-fixtures.sh                 # every family
#   tools/make-typeset-fixtures.sh chromium,groff  # some
#   tools/make-typeset-fixtures.sh --install       # first apt-get install the toolchains (root)
# The toolchain packages per family are listed in fixtures/generate/README.md. Afterwards run
# tools/update-goldens.sh for the books whose PDF changed (see that README on reproducibility).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--install" ]; then
  shift
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    poppler-utils chromium weasyprint groff pandoc texlive-xetex texlive-luatex tex-gyre \
    texlive-latex-extra texlive-fonts-recommended lmodern ruby-asciidoctor-pdf fop docbook-xsl xsltproc \
    dblatex librsvg2-bin context python3-sphinx latexmk libreoffice-writer-nogui >/dev/null
fi
export SOURCE_DATE_EPOCH=0 TZ=UTC
if [ -n "${1:-}" ]; then
  exec python3 fixtures/generate/make_typeset.py --only "$1"
fi
exec python3 fixtures/generate/make_typeset.py
