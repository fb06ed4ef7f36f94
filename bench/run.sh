#!/bin/sh
# Executor benchmarks (see bench/exec_bench.c). Builds the release library with the
# Makefile, compiles the benchmark against it with the flags the build recorded, and runs
# each benchmark from the repository root. Every figure is a ratio to a reference measured
# in the same run.
#
#   sh bench/run.sh [overhead|scaling|overlap]...     (default: all three)
set -eu
cd "$(dirname "$0")/.."
make build/release/libdalic.a >/dev/null
PKG_LIBS=$(sed -n 's/^PKG_LIBS := //p' build/release/config.mk)
mkdir -p build/release/bench
cc -std=gnu11 -O2 -g -pthread -Iinclude -I. -D_GNU_SOURCE bench/exec_bench.c build/release/libdalic.a \
	$PKG_LIBS -lm -o build/release/bench/exec_bench
[ $# -gt 0 ] || set -- overhead scaling overlap
for b in "$@"; do
	build/release/bench/exec_bench "$b"
done
