#!/bin/sh
# The speech front end (samples/scripts/speech.py's: decoders.audio at 16 kHz mono,
# preemphasis_filter, nonsilent_region, slice, spectrogram, mel_filter_bank, to_decibels,
# normalize, pad) against real DALI (CPU) in the same run: batch 32, 2 threads, over 64
# speech-like clips from samples/c/make_audio (WAV 16 and 44.1 kHz, FLAC 22.05 kHz, OGG),
# rounds alternating; samples/s of each and the ratio dalic / DALI. Needs a Python with
# nvidia-dali (DALIC_DALI_PYTHON, as tests/dali/check.sh; default build/dali-venv/bin/python).
#   sh bench/speech_cpu.sh [iterations]     (default 20 per round, 3 rounds)
set -e
cd "$(dirname "$0")/.."
PY=${DALIC_DALI_PYTHON:-build/dali-venv/bin/python}
N=${1:-20}
make build/release/dalic build/release/samples/make_audio >/dev/null
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/clips"
build/release/samples/make_audio "$D/clips/speech" 64
sed -e "s|file_root=\"build/audio\"|file_root=\"$D/clips\"|" \
    -e 's|batch_size=4, num_threads=2|batch_size=32, num_threads=2|' \
    samples/scripts/speech.py >"$D/speech.py"
grep -q "batch_size=32" "$D/speech.py"
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
print("%.2f" % (n * 32 / (time.time() - t)))
PY
dali=0 dalic=0
for round in 1 2 3; do
	a=$("$PY" "$D/run.py" "$D/speech.py" "$N" 2>/dev/null)
	b=$(build/release/dalic run "$D/speech.py" -n "$((N + 3))" | sed -n 's/^samples_per_second: //p')
	echo "round $round: DALI $a samples/s, dalic $b samples/s"
	dali=$(echo "$dali + $a" | bc -l) dalic=$(echo "$dalic + $b" | bc -l)
done
printf 'speech pipeline: DALI %.1f samples/s, dalic %.1f samples/s, ratio %.2f\n' \
	"$(echo "$dali / 3" | bc -l)" "$(echo "$dalic / 3" | bc -l)" "$(echo "$dalic / $dali" | bc -l)"
