#!/usr/bin/env bash
# Installs every Debian package quire needs to build, test and benchmark. Run as root.
set -euo pipefail
if [ "$(id -u)" != 0 ]; then
  exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  build-essential cmake pkg-config git ca-certificates python3 \
  libmupdf-dev mupdf-tools libfreetype-dev libharfbuzz-dev libjbig2dec0-dev libjpeg-dev \
  libopenjp2-7-dev libgumbo-dev libmujs-dev zlib1g-dev \
  libpoppler-cpp-dev poppler-utils \
  libtesseract-dev libleptonica-dev tesseract-ocr tesseract-ocr-eng \
  libicu-dev libboost-program-options-dev nlohmann-json3-dev libtomlplusplus-dev libcmark-gfm-dev libcmark-gfm-extensions-dev nettle-dev \
  libgtest-dev libpng-dev libjemalloc-dev libhunspell-dev hunspell-en-us libhyphen-dev hyphen-en-us qpdf groff \
  r-doc-pdf octave-doc texlive-latex-recommended texlive-plain-generic \
  chromium epubcheck default-jre-headless \
  slurmctld slurmd slurm-client munge \
  clang libclang-rt-dev \
  time >/dev/null
# Node.js and npm drive the browser test; machines that already have a Node.js (for example
# from another package source) keep theirs: Debian's npm conflicts with other builds of it.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
