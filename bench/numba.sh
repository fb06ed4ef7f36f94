#!/bin/sh
# numba_function interpreted: CPU time (user+sys) of `dalic run -n N` for the same pipeline
# with an element loop run_fn (bench/numba/loop.py), a slice-store run_fn (slice.py) and none
# (none.py), R interleaved rounds; with DALIC_DALI_PYTHON set, DALI 2.4's CPU per iteration
# for loop.py and none.py (numba compiled; needs numba in that environment).
# Usage: sh bench/numba.sh [N] [R]   (from the repository root, after make)
N=${1:-10}
R=${2:-2}
DALIC=${DALIC:-build/release/dalic}
for r in $(seq "$R"); do
	for s in none loop slice; do
		/usr/bin/time -f "round $r $s cpu %U+%S s" "$DALIC" run bench/numba/$s.py -n "$N" >/dev/null
	done
done
if [ -n "$DALIC_DALI_PYTHON" ]; then
	"$DALIC_DALI_PYTHON" - <<'PY'
import runpy, time
for name in ["none", "loop"]:
    p = runpy.run_path("bench/numba/%s.py" % name)["pipe"]
    p.build()
    p.run()
    t0 = time.process_time()
    for _ in range(50):
        p.run()
    print("DALI %s cpu per iteration %.3f ms" % (name, (time.process_time() - t0) * 20))
PY
fi
