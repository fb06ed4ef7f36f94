#!/bin/sh
# Writes compile_commands.json for editors: tools/compdb.sh "CC FLAGS" FILES...
cmd="$1"; shift
dir=$(pwd)
echo "["
sep=""
for f in "$@"; do
	printf '%s  {"directory": "%s", "file": "%s", "command": "%s -c %s"}' "$sep" "$dir" "$f" "$cmd" "$f"
	sep=",
"
done
echo
echo "]"
