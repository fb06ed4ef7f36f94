#!/bin/sh
# Builds a fuzz target with clang's libFuzzer under ASan + UBSan and runs it on a copy of
# its seed corpus: `proto` (the serialized-pipeline reader, corpus tests/fuzz/corpus_proto)
# `script` (the pipeline-script front end, corpus samples/scripts/*.py) or `image` (the JPEG
# and PNG decoders, corpus samples/images).
#
#   tests/fuzz/run.sh [proto|script|image] [SECONDS] [extra libFuzzer flags]   (default proto, 600 s)
#
# The library sources the reader needs (engine, kernels, frontend/proto_*) are compiled
# into build/fuzz/ with the sanitizers; the working corpus grows in build/fuzz/corpus_proto
# and crashes land in build/fuzz/ (crash-*, leak-*, timeout-*). Needs clang
# (apt-get install clang) and the packages `make` needs.
set -eu
cd "$(dirname "$0")/../.."
TARGET=proto
case "${1:-}" in proto|script|image) TARGET=$1; shift ;; esac
SECONDS_TO_RUN=${1:-600}
[ $# -gt 0 ] && shift
command -v clang >/dev/null || { echo "run.sh: clang is missing (apt-get install clang)" >&2; exit 1; }

# generated sources (operator table, protobuf-c code) come from the normal build
make -s build/release/config.mk build/release/gen/ops_table.c build/release/gen/dali.pb-c.c

OUT=build/fuzz
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-std=gnu11 -g -O1 -fno-omit-frame-pointer $SAN -fsanitize=fuzzer-no-link"
# the libraries the normal build links (lmdb, ffmpeg, fftw, ...), from its config.mk
PKG_CFLAGS=$(sed -n 's/^PKG_CFLAGS := //p' build/release/config.mk)
PKG_LIBS=$(sed -n 's/^PKG_LIBS := //p' build/release/config.mk)
CPPFLAGS="-Iinclude -I. -Ibuild/release/gen -D_GNU_SOURCE $PKG_CFLAGS"
mkdir -p "$OUT/obj" "$OUT/corpus_$TARGET"

SRCS="$(find engine kernels frontend debugmode stats -name "*.c" | sort) build/release/gen/ops_table.c build/release/gen/dali.pb-c.c"
OBJS=""
for src in $SRCS; do
	obj="$OUT/obj/$(echo "$src" | tr '/' '_' | sed 's/\.c$/.o/')"
	OBJS="$OBJS $obj"
	# rebuild when the source or any header changed since the object was made
	if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] ||
		[ -n "$(find engine frontend kernels debugmode stats include build/release/gen -name '*.h' -newer "$obj" | head -1)" ]; then
		echo "  CC      $src"
		clang $CPPFLAGS $CFLAGS -c "$src" -o "$obj"
	fi
done
rm -f "$OUT/libdalic_fuzz.a"
ar rcs "$OUT/libdalic_fuzz.a" $OBJS
echo "  LD      $OUT/fuzz_$TARGET"
clang $CPPFLAGS $CFLAGS -fsanitize=fuzzer tests/fuzz/fuzz_$TARGET.c "$OUT/libdalic_fuzz.a" \
	$PKG_LIBS -lm -pthread -o "$OUT/fuzz_$TARGET"

MAX_LEN=8192
case $TARGET in
proto) cp tests/fuzz/corpus_proto/* "$OUT/corpus_proto/" ;;
script) cp samples/scripts/*.py samples/scripts/real/*.py tests/dali/cases/source_*.py \
	"$OUT/corpus_script/" ;;
image) cp samples/images/*/*.jpg samples/images/*/*.png "$OUT/corpus_image/"; MAX_LEN=262144 ;;
esac
cd "$OUT"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	./fuzz_$TARGET -max_total_time="$SECONDS_TO_RUN" -max_len=$MAX_LEN -timeout=10 \
	-print_final_stats=1 "$@" corpus_$TARGET
