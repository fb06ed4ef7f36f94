#!/bin/sh
# Issue 26's cost target: the ResNet-50-style CPU pipeline (as bench/resnet_cpu.sh) with every
# tracer on (stats;trace;nvtx where built, plus the stats served on a socket to a reading
# client) against no tracer, alternating rounds in one process (see bench/tracers.c).
# Goal: >= 0.97 samples/s on/off.
#   sh bench/tracers.sh [iterations]      (default 70: 7 rounds of 10)
set -e
cd "$(dirname "$0")/.."
B=build/release
make $B/libdalic.a >/dev/null
LIBS=$(sed -n 's/^PKG_LIBS := //p' $B/config.mk)
mkdir -p $B/bench
cc -std=gnu11 -O2 -g -pthread -Iinclude -I. -D_GNU_SOURCE bench/tracers.c $B/libdalic.a \
	$LIBS -lm -o $B/bench/tracers
LIST=$B/bench/tracers.list
sh bench/rn50_list.sh $LIST
$B/bench/tracers $LIST "${1:-70}"
