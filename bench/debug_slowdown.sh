#!/bin/sh
# Debug mode vs the full engine on the image pipeline, same process, same run (issue 8):
# builds bench/debug_slowdown.c against build/release/libdalic.a and runs it from the repo
# root. Target: slowdown <= 1.5 with inspection idle.
#   sh bench/debug_slowdown.sh [iterations [batch [threads [rounds]]]]
set -e
cd "$(dirname "$0")/.."
B=build/release
[ -f $B/libdalic.a ] || make $B/libdalic.a
LIBS=$(sed -n 's/^PKG_LIBS := //p' $B/config.mk)
OUT=$B/bench/debug_slowdown
mkdir -p $B/bench
cc -std=gnu11 -O2 -I. -Iinclude -o $OUT bench/debug_slowdown.c $B/libdalic.a $LIBS -lm -pthread
exec $OUT "$@"
