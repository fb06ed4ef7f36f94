#!/bin/sh
# The file list of the ResNet-50-style benchmarks: every JPEG under samples/images, each
# listed 12 times (absolute paths, "<path> <label>" lines).   sh bench/rn50_list.sh OUT
set -e
: >"$1"
for f in $(find "$PWD/samples/images" -name '*.jpg' | sort); do
	for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
		echo "$f $k" >>"$1"
	done
done
