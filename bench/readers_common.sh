# Sourced by the reader benchmarks (readers.sh, tfrecord_pipeline.sh) from the repository
# root: $PY (a Python with numpy: DALIC_DALI_PYTHON), $DALIC (build/release/dalic, built, or
# the binary DALIC names) and $D, a scratch directory removed at exit.
PY=${DALIC_DALI_PYTHON:-build/dali-venv/bin/python}
DALIC=${DALIC:-build/release/dalic}
[ "$DALIC" != build/release/dalic ] || make build/release/dalic >/dev/null
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
