#!/bin/sh
# Gathers the pipeline modules of public repositories that `dalic check` is measured on
# (docs/scripts-modules.md) from local clones, into OUTDIR; they are not kept in this tree.
#   tools/wild_modules.sh OUTDIR CLONE...     e.g. clones of NVIDIA/DALI,
#   triton-inference-server/dali_backend and NVIDIA/DeepLearningExamples
# Takes every tracked .py file that imports nvidia.dali and makes a pipeline (pipeline_def or
# a Pipeline), leaving out clients and tests; names it <repo>__<path with / as _>.
# Then: build/release/dalic check OUTDIR
set -e
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR CLONE..." >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
for clone in "$@"; do
	repo=$(basename "$(cd "$clone" && pwd)" .git)
	# a fetched mirror (/work/.mirror/OWNER+NAME/repo): name it after OWNER+NAME
	[ "$repo" = repo ] && repo=$(basename "$(dirname "$(cd "$clone" && pwd)")" | sed 's/.*+//')
	git -C "$clone" grep -l -E "nvidia\.dali" HEAD -- '*.py' | sed 's/^HEAD://' |
	while read -r p; do
		case "$p" in *client*|*test*) continue ;; esac
		git -C "$clone" show "HEAD:$p" | grep -q -E "pipeline_def|Pipeline[(),]" || continue
		git -C "$clone" show "HEAD:$p" >"$out/${repo}__$(echo "$p" | tr / _)"
	done
done
echo "$(ls "$out" | wc -l) modules in $out"
