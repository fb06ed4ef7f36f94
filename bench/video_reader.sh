#!/bin/sh
# Issue 16's video target: experimental.readers.video (sequences of 30 frames, step 30: every
# frame once; batch 4, 2 threads) against a plain libavformat/libavcodec + swscale loop
# decoding the same clips to RGB24 on 2 threads, alternating rounds in one process (see
# bench/video_reader.c). Target: >= 0.9x. The clips: 8 copies of `make`'s
# build/release/clips/large.mp4 (H.264 640x352, 120 frames, key frame every 30, B-frames).
#   sh bench/video_reader.sh [iterations]    (default: one epoch per round, 5 rounds)
set -e
cd "$(dirname "$0")/.."
B=build/release
make $B/libdalic.a $B/clips/.made >/dev/null
LIBS=$(sed -n 's/^PKG_LIBS := //p' $B/config.mk)
mkdir -p $B/bench
cc -std=gnu11 -O2 -g -pthread -Iinclude -I. -D_GNU_SOURCE bench/video_reader.c $B/libdalic.a \
	$LIBS -lm -o $B/bench/video_reader
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
for k in 1 2 3 4 5 6 7 8; do
	cp $B/clips/large.mp4 "$D/clip$k.mp4"
done
$B/bench/video_reader "$D"/clip*.mp4 ${1:+-n "$1"}
