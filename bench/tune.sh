#!/bin/sh
# How long `dalic tune` takes and how stable its recommendation is (issue 18): runs the tune
# RUNS times on one pipeline (default: samples/scripts/getting_started.py) with any extra
# tune flags, and prints per run the wall time, trials, whether the budget ran out and the
# recommendation, then how many runs agree with the most common answer.
#   sh bench/tune.sh [RUNS [PIPELINE [tune flags...]]]
# e.g. sh bench/tune.sh 5 samples/scripts/getting_started.py --budget 60
set -e
cd "$(dirname "$0")/.."
B=build/release
DALIC=${DALIC:-$B/dalic} # another build can be measured: DALIC=/path/to/dalic
[ -x "$DALIC" ] || make $B/dalic
RUNS=${1:-5}
PIPE=${2:-samples/scripts/getting_started.py}
[ $# -gt 2 ] && shift 2 || set --
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "dalic tune $PIPE $* ($RUNS runs; load average: $(cut -d' ' -f1-3 /proc/loadavg))"
i=1
while [ $i -le $RUNS ]; do
	t0=$(date +%s.%N)
	"$DALIC" tune "$PIPE" --json "$@" > "$TMP/run$i.json" 2>/dev/null
	t1=$(date +%s.%N)
	rec=$(jq -r '.settings[.recommended].name as $n | if .recommended == 0 then "keep the current settings" else $n end' "$TMP/run$i.json")
	echo "$rec" >> "$TMP/answers"
	printf 'run %d: %6.1f s, %3d trials, %2d rounds, budget spent: %-5s -> %s\n' $i \
		"$(echo "$t1 - $t0" | bc)" "$(jq .trials "$TMP/run$i.json")" \
		"$(jq .rounds "$TMP/run$i.json")" "$(jq .budget_spent "$TMP/run$i.json")" "$rec"
	jq -r '.settings[1:][] | "        \(.name): \(.verdict) \((.gain // 0) * 1000 | round / 10)% [\((.gain_lo // 0) * 1000 | round / 10), \((.gain_hi // 0) * 1000 | round / 10)] (\(.trials) trials)"' "$TMP/run$i.json"
	i=$((i + 1))
done
echo "stability: $(sort "$TMP/answers" | uniq -c | sort -rn | head -1 | awk -v n=$RUNS '{c=$1; $1=""; printf "%d/%d runs answered%s", c, n, $0}')"
