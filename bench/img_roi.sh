#!/bin/sh
# Issue 21: decoders.image_random_crop's saving per file against decoders.image (whole image)
# and a libturbojpeg full decode, one thread (bench/img_roi.c); every JPEG under samples/images.
#   sh bench/img_roi.sh [iterations]      (default 6 batches of 32 per round, 5 rounds)
set -e
cd "$(dirname "$0")/.."
B=build/release
make $B/libdalic.a >/dev/null
LIBS=$(sed -n 's/^PKG_LIBS := //p' $B/config.mk)
mkdir -p $B/bench
cc -std=gnu11 -O2 -g -pthread -Iinclude -I. -D_GNU_SOURCE bench/img_roi.c $B/libdalic.a \
	$LIBS -lm -o $B/bench/img_roi
$B/bench/img_roi "${1:-6}" $(find "$PWD/samples/images" -name '*.jpg' | sort)
