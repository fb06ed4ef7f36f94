#!/bin/sh
# Issues 3 and 21: a ResNet-50-style CPU pipeline (readers.file -> decoders.image_random_crop
# -> resize 224x224 -> crop_mirror_normalize FLOAT CHW, mirror from coin_flip; batch 64,
# 2 threads) against (a) a plain libturbojpeg loop decoding the same files at full size on
# 2 threads, alternating rounds in one process (bench/resnet_cpu.c; target >= 1.0x), and
# (b) real DALI 2.4 CPU running the same pipeline (bench/resnet_cpu_dali.py; target >= 1.6x),
# the processes alternating round by round. Both synchronous, queues of one. Needs a Python
# with nvidia-dali for (b) (DALIC_DALI_PYTHON as tests/dali/check.sh; default
# build/dali-venv/bin/python); without one only (a) runs.
# The file list is every JPEG under samples/images, each listed 12 times (absolute paths).
#   sh bench/resnet_cpu.sh [iterations [scan]]  (default 63: 3 rounds of 21; scan: scan.sh)
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
N=${1:-63}
PY=${DALIC_DALI_PYTHON:-build/dali-venv/bin/python}
if [ -n "$2" ] || ! "$PY" -c 'import nvidia.dali' 2>/dev/null; then
	[ -n "$2" ] || echo "no nvidia-dali in $PY: DALI not measured (set DALIC_DALI_PYTHON)"
	exec $B/bench/resnet_cpu $LIST "$N" $2
fi
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
R=3 PER=$(((N + 2) / 3))
dali=0 dalic=0 dcpu=0 pcpu=0 loop=0
for round in $(seq $R); do
	set -- $("$PY" bench/resnet_cpu_dali.py "$PWD/$LIST" "$PER" 2>/dev/null)
	a=$1 ac=$2
	$B/bench/resnet_cpu $LIST "$((PER * 7))" >"$OUT"
	b=$(sed -n 's/^pipeline ([^)]*): \([0-9.]*\) images\/s, \([0-9.]*\) ms.*/\1/p' "$OUT")
	bc_=$(sed -n 's/^pipeline ([^)]*): \([0-9.]*\) images\/s, \([0-9.]*\) ms.*/\2/p' "$OUT")
	l=$(sed -n 's/^decode-only loop ([^)]*): \([0-9.]*\) images\/s.*/\1/p' "$OUT")
	echo "round $round: DALI $a images/s ($ac ms CPU/image), dalic $b images/s ($bc_ ms" \
	     "CPU/image), decode-only loop $l images/s"
	dali=$(echo "$dali + $a" | bc -l) dalic=$(echo "$dalic + $b" | bc -l)
	dcpu=$(echo "$dcpu + $ac" | bc -l) pcpu=$(echo "$pcpu + $bc_" | bc -l)
	loop=$(echo "$loop + $l" | bc -l)
done
echo "last round of dalic against the decode-only loop:"
sed 's/^/  /' "$OUT"
printf 'dalic / DALI: %.2f images/s, %.2f by CPU time (target >= 1.6)\n' \
	"$(echo "$dalic / $dali" | bc -l)" "$(echo "$dcpu / $pcpu" | bc -l)"
printf 'dalic / decode-only loop: %.2f images/s (target >= 1.0)\n' \
	"$(echo "$dalic / $loop" | bc -l)"
