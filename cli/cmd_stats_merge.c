/*
 * `dalic stats-merge DIR`: the cluster view of a run of one pipeline per rank, from the
 * stats-rank-N.json files each rank wrote with `dalic stats --stats-dir DIR` (torchrun or
 * SLURM without MPI; docs/scale-out.md). Prints a per-rank table, each operator's time per
 * rank, the epoch coverage of the readers' shards, imbalance and stragglers; --json the
 * merged document; --trace FILE one Chrome trace with a process per rank. Exit status 0, or 3
 * when a rank is a straggler, the ranks are imbalanced or a reader's epoch is not covered
 * exactly once (a CI job can fail on it), 1 when the files cannot be merged.
 */
#include "cli/cli.h"
#include "cli/stats_merge.h"

#include <stdlib.h>
#include <string.h>

/* True when the merged document flags anything. */
static bool smerge_flagged(const cJSON *m)
{
	const cJSON *c;
	bool bad = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "stragglers")) > 0 ||
	           cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "missing_ranks")) > 0 ||
	           cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
	               cJSON_GetObjectItemCaseSensitive(m, "imbalance"), "imbalanced"));
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(m, "coverage"))
	bad |= !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "complete"));
	return bad;
}

static int smerge_main(int argc, char **argv)
{
	const char *dir = NULL, *trace = NULL;
	bool json = false;
	double tol = DALIC_MERGE_TOLERANCE;
	for (int i = 1; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			trace = argv[++i];
		} else if (!strcmp(argv[i], "--tolerance") && i + 1 < argc) {
			tol = strtod(argv[++i], &end);
			if (*end || end == argv[i] || !(tol > 0 && tol < 1))
				return dalic_cli_fail(2, "--tolerance: '%s' is not a number in (0, 1)",
				                      argv[i]);
		} else if (argv[i][0] != '-' && !dir) {
			dir = argv[i];
		} else {
			return dalic_cli_fail(2, "stats-merge: unknown option '%s' (see dalic "
			                         "stats-merge --help)",
			                      argv[i]);
		}
	}
	if (!dir)
		return dalic_cli_fail(2, "stats-merge: which directory? (dalic stats-merge DIR)");
	dalic_merge_set_t set;
	if (dalic_merge_load_dir(dir, &set))
		return 1;
	cJSON *m = dalic_merge_analyze(&set, tol);
	int rc = m ? DALIC_OK : dalic_cli_fail(DALIC_ENOMEM, "out of memory");
	if (!rc && trace)
		rc = dalic_merge_trace(dir, &set, trace);
	if (!rc && json) {
		if (trace)
			cJSON_AddStringToObject(m, "trace_file", trace);
		char *text = cJSON_Print(m);
		rc = text ? DALIC_OK : dalic_cli_fail(DALIC_ENOMEM, "out of memory");
		if (text)
			puts(text);
		free(text);
	} else if (!rc) {
		dalic_merge_print(m, stdout);
		if (trace)
			printf("\n# Output\ntrace_file: %s\n", trace);
	}
	bool flagged = !rc && smerge_flagged(m);
	cJSON_Delete(m);
	dalic_merge_free(&set);
	return rc ? 1 : flagged ? 3 : 0;
}

DALIC_COMMAND(stats_merge) = {
    .name = "stats-merge",
    .summary = "merge the ranks' stats-rank-N.json: per-rank table, stragglers, coverage",
    .usage = "usage: dalic stats-merge DIR [--json] [--trace FILE] [--tolerance F]\n"
             "  DIR              where each rank ran dalic stats PIPELINE --stats-dir DIR\n"
             "  --json           the merged document (docs/scale-out.md)\n"
             "  --trace FILE     one Chrome trace of the ranks' trace-rank-N.json, a process\n"
             "                   per rank (open it in Perfetto)\n"
             "  --tolerance F    a straggler runs below (1-F) x the median rank's samples/s;\n"
             "                   imbalanced: fastest/slowest above 1/(1-F) (default 0.2)\n"
             "Exit status 3 when a rank straggles, the ranks are imbalanced, a rank is\n"
             "missing or a reader's epoch is not covered exactly once by the shards.\n",
    .main = smerge_main,
};
