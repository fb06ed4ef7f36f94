#!/bin/sh
# warp_affine against real DALI (CPU) in the same run: the sample photos decoded, then four
# chained warp_affine rotations (linear, fill), batch 4, 2 threads; images/s of each, rounds
# alternating, and the ratio dalic / DALI. The same pipeline without the warps is measured
# too, so the warps' own cost can be read off. Needs a Python with nvidia-dali
# (DALIC_DALI_PYTHON, as tests/dali/check.sh; default build/dali-venv/bin/python).
#   sh bench/warp_affine.sh [iterations]     (default 30 per round, 3 rounds)
set -e
cd "$(dirname "$0")/.."
PY=${DALIC_DALI_PYTHON:-build/dali-venv/bin/python}
N=${1:-30}
make build/release/dalic >/dev/null
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
for warps in 0 4; do
	cat >"$D/warp$warps.py" <<PY
from nvidia.dali import pipeline_def, fn, types
@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def warp_pipe():
    jpegs, labels = fn.readers.file(file_root="$PWD/samples/images")
    out = fn.decoders.image(jpegs, output_type=types.RGB)
    mt = fn.transforms.rotation(angle=17.0, center=[200.0, 150.0])
    for _ in range($warps):
        out = fn.warp_affine(out, mt, fill_value=0.0)
    return out
pipe = warp_pipe()
PY
done
cat >"$D/run.py" <<'PY'
import runpy, sys, time
pipe = runpy.run_path(sys.argv[1])["pipe"]
pipe.build()
for _ in range(3):
    pipe.run()
n = int(sys.argv[2])
t = time.time()
for _ in range(n):
    pipe.run()
print("%.2f" % (n * 4 / (time.time() - t)))
PY
for warps in 0 4; do
	dali=0 dalic=0
	for round in 1 2 3; do
		a=$("$PY" "$D/run.py" "$D/warp$warps.py" "$N" 2>/dev/null)
		b=$(build/release/dalic run "$D/warp$warps.py" -n "$((N + 3))" |
			sed -n 's/^samples_per_second: //p')
		dali=$(echo "$dali + $a" | bc -l) dalic=$(echo "$dalic + $b" | bc -l)
	done
	printf '%d warps: DALI %.1f images/s, dalic %.1f images/s, ratio %.2f\n' "$warps" \
		"$(echo "$dali / 3" | bc -l)" "$(echo "$dalic / 3" | bc -l)" \
		"$(echo "$dalic / $dali" | bc -l)"
done
