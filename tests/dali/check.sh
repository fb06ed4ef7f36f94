#!/bin/sh
# `make check-dali`: the oracle suite against real NVIDIA DALI (CPU pipelines, device_id=None).
# Makes a virtual environment in build/dali-venv (about 200 MB from PyPI) the first time;
# DALIC_DALI_PYTHON=/path/to/python uses an existing one that has nvidia-dali and numpy.
#   tests/dali/check.sh [oracle.py options: --filter NAME, --keep DIR, CASE.py...]
set -e
cd "$(dirname "$0")/../.."
PY=${DALIC_DALI_PYTHON:-}
if [ -z "$PY" ]; then
	VENV=build/dali-venv
	if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import nvidia.dali, numpy' 2>/dev/null; then
		python3 -m venv "$VENV"
		"$VENV/bin/pip" install --quiet --disable-pip-version-check nvidia-dali-cuda130 numpy
	fi
	PY=$VENV/bin/python
fi
exec "$PY" tests/dali/oracle.py --dalic build/release/dalic "$@"
