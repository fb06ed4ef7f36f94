#!/bin/sh
# Stats overhead on the image pipeline (issue 7; target <= 3% throughput loss), two ways:
#  1. stats_overhead: everything on (enable_memory_stats, a collector, tracing) against
#     everything off, same process, alternating rounds: end-to-end throughput and CPU time;
#  2. stats_hooks: each hook timed alone, times the calls per iteration, over the iteration
#     time: the figure a busy machine cannot blur.
# Builds both against build/release/libdalic.a and runs them from the repo root.
#   sh bench/stats_overhead.sh [iterations [batch [threads [rounds [async|pipelined|simple]]]]]
set -e
cd "$(dirname "$0")/.."
B=build/release
[ -f $B/libdalic.a ] || make $B/libdalic.a
LIBS=$(sed -n 's/^PKG_LIBS := //p' $B/config.mk)
mkdir -p $B/bench
CC="cc -std=gnu11 -O2 -D_GNU_SOURCE -Iinclude -I. -I$B/gen"
$CC -o $B/bench/stats_overhead bench/stats_overhead.c $B/libdalic.a $LIBS -lm -pthread
$CC -o $B/bench/stats_hooks bench/stats_hooks.c $B/libdalic.a $LIBS -lm -pthread
$B/bench/stats_overhead "$@"
echo
$B/bench/stats_hooks ${1:-30} ${2:-16} ${3:-2}
