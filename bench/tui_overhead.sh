#!/bin/sh
# What the workbench costs the pipeline it watches, and how often it redraws.
#
#   bench/tui_overhead.sh [PIPELINE] [ITERATIONS] [REPEATS]
#
# Runs the same pipeline for the same number of iterations with `dalic run` (no TUI, no
# stats) and with `dalic tui` in headless mode (runner thread at full speed, stats collector
# with memory statistics and tracing, batch extraction, a frame drawn every 50 ms), in
# alternation so both see the same machine load. Two figures per pair:
#   - throughput: samples per second of the running phase, tui / run;
#   - CPU: user+system seconds per iteration of the whole process, tui / run — what the
#     workbench takes from the cores the pipeline could use; steadier than throughput on a
#     loaded machine.
# Also `dalic stats` (the same stats collector with memory statistics, no TUI) for each pair:
# tui / stats separates what the workbench adds from what collecting statistics costs.
# Medians over the pairs are printed last, with the TUI's frames per second while running
# and its frame draw time (mean / max).
set -eu
DALIC=${DALIC:-build/release/dalic}
PIPELINE=${1:-samples/scripts/getting_started.py}
ITERS=${2:-300}
REPEATS=${3:-5}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '<Space>\nwait iteration %s\nq\n' "$ITERS" > "$tmp/keys"

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "pipeline: $PIPELINE, $ITERS iterations, $REPEATS pairs, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-4s %12s %12s %7s %10s %10s %7s %6s %12s\n' pair run_samp/s tui_samp/s ratio \
	run_cpu/it tui_cpu/it ratio fps draw_ms
: > "$tmp/ratios"
: > "$tmp/stats_ratios"
: > "$tmp/cpu_ratios"
: > "$tmp/fps"
i=1
while [ "$i" -le "$REPEATS" ]; do
	/usr/bin/time -f '%U %S' -o "$tmp/run_time" "$DALIC" run "$PIPELINE" -n "$ITERS" --json > "$tmp/run_out"
	base=$(sed -n 's/.*"samples_per_second":[[:space:]]*\([0-9.eE+-]*\).*/\1/p' "$tmp/run_out")
	stats=$("$DALIC" stats "$PIPELINE" -n "$ITERS" | sed -n 's/^samples_per_second: //p')
	/usr/bin/time -f '%U %S' -o "$tmp/tui_time" "$DALIC" tui "$PIPELINE" --keys "$tmp/keys" \
		--dump "$tmp/dumps" > "$tmp/tui_out"
	line=$(cat "$tmp/tui_out")
	tui=$(echo "$line" | sed -n 's/.*samples_per_second \([0-9.]*\).*/\1/p')
	tui_iters=$(echo "$line" | sed -n 's/.*iterations \([0-9]*\),.*/\1/p')
	fps=$(echo "$line" | sed -n 's/.*(\([0-9.]*\) per second).*/\1/p')
	draw=$(echo "$line" | sed -n 's/.*draw mean \([0-9.]*\) ms max \([0-9.]*\) ms.*/\1\/\2/p')
	run_cpu=$(awk -v n="$ITERS" '{ printf "%.3f", ($1 + $2) * 1000 / n }' "$tmp/run_time")
	tui_cpu=$(awk -v n="$tui_iters" '{ printf "%.3f", ($1 + $2) * 1000 / n }' "$tmp/tui_time")
	ratio=$(awk -v a="$tui" -v b="$base" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
	cpu_ratio=$(awk -v a="$tui_cpu" -v b="$run_cpu" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
	echo "$ratio" >> "$tmp/ratios"
	awk -v a="$tui" -v b="$stats" 'BEGIN { printf "%.3f\n", (b > 0 ? a / b : 0) }' >> "$tmp/stats_ratios"
	echo "$cpu_ratio" >> "$tmp/cpu_ratios"
	echo "$fps" >> "$tmp/fps"
	printf '%-4s %12.1f %12.1f %7s %10s %10s %7s %6s %12s\n' "$i" "$base" "$tui" "$ratio" \
		"${run_cpu}ms" "${tui_cpu}ms" "$cpu_ratio" "$fps" "$draw"
	i=$((i + 1))
done
awk -v t="$(median "$tmp/ratios")" -v c="$(median "$tmp/cpu_ratios")" -v f="$(median "$tmp/fps")" \
	-v s="$(median "$tmp/stats_ratios")" 'BEGIN {
	printf "median throughput tui/run: %.3f (%+.1f%%)\n", t, (t - 1) * 100
	printf "median throughput tui/stats (what the workbench adds to collection): %.3f (%+.1f%%)\n", s, (s - 1) * 100
	printf "median CPU per iteration tui/run: %.3f (%+.1f%%)\n", c, (c - 1) * 100
	printf "median screen updates per second while running: %.1f\n", f
}'
