#!/bin/sh
# Installs the Debian packages dalic builds against, when they are missing.
# Run by the Makefile before the first build; harmless to run again.
set -e
PKGS="pkg-config libturbojpeg0-dev libjpeg-dev libjpeg-turbo-progs libncurses-dev libglib2.0-dev \
libgraphviz-dev libprotobuf-c-dev protobuf-c-compiler libchafa-dev libcriterion-dev libpng-dev libcjson-dev \
libsndfile1-dev libfftw3-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev \
liblmdb-dev lmdb-utils libopenmpi-dev openmpi-bin"
missing=""
for p in $PKGS; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "dalic: installing missing packages:$missing"
if [ "$(id -u)" = 0 ]; then SUDO=""
elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"
else
	echo "dalic: cannot install as non-root without sudo; run as root:" >&2
	echo "  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
if ! $SUDO apt-get install -y -qq $missing; then
	echo "dalic: install failed; run: apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
