#!/bin/sh
# Issue 20's target: `dalic scan`'s decode (the ResNet-50-style pipeline of resnet_cpu.sh turned
# into its data scan: readers.file -> whole-image decoders.image, batch 64, 2 threads, pixels
# not kept) against the plain libturbojpeg loop decoding the same files at full size on 2
# threads, alternating rounds in one process (bench/resnet_cpu.c in "scan" mode).
# Target: >= 0.95x.
#   sh bench/scan.sh [iterations]      (default 70: 7 rounds of 10)
set -e
cd "$(dirname "$0")/.."
sh bench/resnet_cpu.sh "${1:-70}" scan
