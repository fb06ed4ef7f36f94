#!/bin/sh
# Runs the executor tests (tests/unit/test_exec_*.c) under ThreadSanitizer.
#
#   sh tests/unit/tsan/run.sh ['exec*/*']
#   TSAN_TESTS='tests/unit/test_stats_serve.c' sh tests/unit/tsan/run.sh 'stats_serve/*'
#
# TSAN_TESTS picks other test sources (default: the executor's).
# `make SANITIZE=thread test` cannot run them: Criterion 2.4 aborts at start-up under TSan
# (its inheritable arena collides with TSan's memory layout; Criterion issue #274). So this
# builds the TSan library with the Makefile (build/san-thread/libdalic.a) and links the same
# test sources against a minimal Criterion stand-in (criterion/criterion.h + runner.c here).
# TSan reports fail the run (halt_on_error).
set -eu
cd "$(dirname "$0")/../../.."
FILTER=${1:-'exec*/*'}
TESTS=${TSAN_TESTS:-tests/unit/test_exec_*.c}
make SANITIZE=thread build/san-thread/libdalic.a >/dev/null
OUT=build/san-thread/tests/exec_tsan
mkdir -p "$(dirname "$OUT")"
PKG_LIBS=$(sed -n 's/^PKG_LIBS := //p' build/san-thread/config.mk)
cc -std=gnu11 -O1 -g -fsanitize=thread -pthread -D_GNU_SOURCE \
	-Itests/unit/tsan -Iinclude -I. -Ibuild/san-thread/gen \
	tests/unit/tsan/runner.c $TESTS tests/testlib/core.c tests/testlib/exec.c \
	tests/testlib/files.c tests/testlib/stats.c \
	build/san-thread/libdalic.a $PKG_LIBS -lm -o "$OUT"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" "$OUT" --filter "$FILTER"
