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
	if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import nvidia.dali, numpy, numba' 2>/dev/null; then
		if ! python3 -m venv "$VENV"; then
			echo "check-dali: cannot make $VENV (Debian: apt-get install python3-venv)," \
			     "or set DALIC_DALI_PYTHON to a python that has nvidia-dali, numpy and numba (the numba_function cases)" >&2
			exit 1
		fi
		"$VENV/bin/pip" install --quiet --disable-pip-version-check nvidia-dali-cuda130 numpy numba
	fi
	PY=$VENV/bin/python
fi
exec "$PY" tests/dali/oracle.py --dalic build/release/dalic "$@"
