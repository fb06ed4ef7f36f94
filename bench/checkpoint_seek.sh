#!/bin/sh
# Issue 27's target: seek N ÷ run N on the ResNet-50-style CPU pipeline (bench/resnet_seek.py,
# the pipeline of bench/resnet_cpu.sh over the same list: every JPEG of samples/images twelve
# times), goal <= 0.02, and iteration N equal either way.
#   sh bench/checkpoint_seek.sh [N [R]]   (default 1000, 5)
# Then the restore cost against the checkpoint's epoch (bench/checkpoint_restore.c, median of
# R rounds).
set -e
cd "$(dirname "$0")/.."
OUT=build/release/bench
make build/release/libdalic.a >/dev/null
mkdir -p $OUT
cc -std=gnu11 -O2 -pthread -Iinclude -I. -D_GNU_SOURCE -o $OUT/checkpoint_seek \
	bench/checkpoint_seek.c build/release/libdalic.a \
	$(sed -n 's/^PKG_LIBS := //p' build/release/config.mk) -lm
find "$PWD/samples/images" -name '*.jpg' | sort |
	awk '{ for (k = 1; k <= 12; k++) print $0, k }' >$OUT/checkpoint_seek.list
$OUT/checkpoint_seek bench/resnet_seek.py $OUT/checkpoint_seek.list "${1:-1000}"
# restore cost against the checkpoint's epoch (bench/checkpoint_restore.c)
cc -std=gnu11 -O2 -pthread -Iinclude -I. -D_GNU_SOURCE -o $OUT/checkpoint_restore \
	bench/checkpoint_restore.c build/release/libdalic.a \
	$(sed -n 's/^PKG_LIBS := //p' build/release/config.mk) -lm
$OUT/checkpoint_restore bench/resnet_seek.py $OUT/checkpoint_seek.list "${2:-5}"
