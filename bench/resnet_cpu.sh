#!/bin/sh
# Issue 3's target: a ResNet-50-style CPU pipeline (readers.file -> decoders.image_random_crop
# -> resize 224x224 -> crop_mirror_normalize FLOAT CHW, mirror from coin_flip; batch 64,
# 2 threads) against a plain libturbojpeg loop decoding the same files at full size on
# 2 threads, alternating rounds in one process (see bench/resnet_cpu.c). Target: >= 1.0x.
# The file list is every JPEG under samples/images, each listed 12 times (absolute paths).
#   sh bench/resnet_cpu.sh [iterations [scan]]      (default 70: 7 rounds of 10; scan: scan.sh)
set -e
cd "$(dirname "$0")/.."
B=build/release
make $B/libdalic.a >/dev/null
LIBS=$(sed -n 's/^PKG_LIBS := //p' $B/config.mk)
mkdir -p $B/bench
cc -std=gnu11 -O2 -g -pthread -Iinclude -I. -D_GNU_SOURCE bench/resnet_cpu.c $B/libdalic.a \
	$LIBS -lm -o $B/bench/resnet_cpu
LIST=$B/bench/resnet_cpu.list
sh bench/rn50_list.sh $LIST
$B/bench/resnet_cpu $LIST "${1:-70}" $2
