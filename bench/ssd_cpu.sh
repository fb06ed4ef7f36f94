#!/bin/sh
# Issue 14's target: the SSD-style CPU pipeline (bench/ssd_cpu_pipe.py; batch 32, 2 threads)
# under dalic against real DALI 2.4 CPU on the same files in the same run, rounds alternating
# (bench/ssd_cpu_driver.py). Target: dalic >= 1.3x DALI's images/s. Needs a Python with
# nvidia-dali (DALIC_DALI_PYTHON, as tests/dali/check.sh; default build/dali-venv/bin/python).
#   sh bench/ssd_cpu.sh [iterations per round] [rounds]     (default 10 and 3)
set -e
cd "$(dirname "$0")/.."
PY=${DALIC_DALI_PYTHON:-build/dali-venv/bin/python}
make build/release/dalic >/dev/null
exec "$PY" bench/ssd_cpu_driver.py bench/ssd_cpu_pipe.py build/release/dalic "${1:-10}" "${2:-3}" \
	2>/dev/null
