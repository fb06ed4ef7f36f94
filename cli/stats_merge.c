/*
 * The ranks' statistics documents: loading them (a directory, or texts gathered through MPI)
 * and checking they form one run (stats_merge.h). The analysis is in stats_merge_analyze.c.
 */
#include "cli/stats_merge.h"
#include "cli/cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int merge_rank_of(const cJSON *doc)
{
	return (int)cJSON_GetNumberValue(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "rank"), "rank"));
}

static int merge_world_of(const cJSON *doc)
{
	return (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(doc, "rank"), "world"));
}

/* A rank's document: a `rank` object with integer rank < world, and the collector's numbers. */
static bool merge_is_rank_doc(const cJSON *doc)
{
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(doc, "rank");
	const cJSON *rank = cJSON_GetObjectItemCaseSensitive(r, "rank");
	const cJSON *world = cJSON_GetObjectItemCaseSensitive(r, "world");
	return cJSON_IsObject(r) && cJSON_IsNumber(rank) && cJSON_IsNumber(world) &&
	       rank->valuedouble >= 0 && world->valuedouble >= 1 &&
	       rank->valuedouble < world->valuedouble &&
	       cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(doc, "samples_per_second")) &&
	       cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "operators"));
}

int dalic_merge_add_text(dalic_merge_set_t *set, const char *text, const char *what)
{
	cJSON *doc = cJSON_Parse(text);
	if (!doc)
		return dalic_cli_fail(DALIC_EINVAL, "%s: not JSON (near '%.20s')", what,
		                      cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "");
	if (!merge_is_rank_doc(doc)) {
		cJSON_Delete(doc);
		return dalic_cli_fail(DALIC_EINVAL,
		                      "%s: not a rank's statistics document (no rank/world, or no "
		                      "samples_per_second; written by dalic stats --stats-dir)",
		                      what);
	}
	cJSON **grown = realloc(set->docs, (size_t)(set->num + 1) * sizeof *grown);
	if (!grown) {
		cJSON_Delete(doc);
		return dalic_cli_fail(DALIC_ENOMEM, "out of memory");
	}
	set->docs = grown;
	set->docs[set->num++] = doc;
	return DALIC_OK;
}

/* stats-rank-N.json: N into *rank. */
static bool merge_rank_file(const char *name, int *rank)
{
	char tail[16];
	return sscanf(name, "stats-rank-%d%15s", rank, tail) == 2 && !strcmp(tail, ".json") &&
	       *rank >= 0;
}

int dalic_merge_load_dir(const char *dir, dalic_merge_set_t *set)
{
	*set = (dalic_merge_set_t){0};
	DIR *d = opendir(dir);
	if (!d)
		return dalic_cli_fail(DALIC_EIO, "cannot open the stats directory '%s'", dir);
	struct dirent *e;
	int rc = DALIC_OK;
	while (!rc && (e = readdir(d))) {
		int rank;
		if (!merge_rank_file(e->d_name, &rank))
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		void *buf;
		size_t len;
		if (dalic_cli_slurp(path, &buf, &len)) {
			rc = DALIC_EIO;
			break;
		}
		rc = dalic_merge_add_text(set, buf, path);
		free(buf);
		if (!rc && merge_rank_of(set->docs[set->num - 1]) != rank)
			rc = dalic_cli_fail(DALIC_EINVAL, "%s: the document is rank %d's", path,
			                    merge_rank_of(set->docs[set->num - 1]));
	}
	closedir(d);
	if (!rc && !set->num)
		rc = dalic_cli_fail(DALIC_EINVAL,
		                    "%s: no stats-rank-N.json (run each rank with dalic stats "
		                    "--stats-dir %s)",
		                    dir, dir);
	if (!rc)
		rc = dalic_merge_finish(set);
	if (rc)
		dalic_merge_free(set);
	return rc;
}

static int merge_cmp_rank(const void *a, const void *b)
{
	return merge_rank_of(*(cJSON *const *)a) - merge_rank_of(*(cJSON *const *)b);
}

int dalic_merge_finish(dalic_merge_set_t *set)
{
	qsort(set->docs, (size_t)set->num, sizeof *set->docs, merge_cmp_rank);
	for (int i = 0; i < set->num; i++) {
		if (i && merge_rank_of(set->docs[i]) == merge_rank_of(set->docs[i - 1]))
			return dalic_cli_fail(DALIC_EINVAL, "two documents of rank %d",
			                      merge_rank_of(set->docs[i]));
		if (merge_world_of(set->docs[i]) != merge_world_of(set->docs[0]))
			return dalic_cli_fail(DALIC_EINVAL,
			                      "rank %d ran in a world of %d, rank %d in one of %d: not "
			                      "one run",
			                      merge_rank_of(set->docs[0]), merge_world_of(set->docs[0]),
			                      merge_rank_of(set->docs[i]), merge_world_of(set->docs[i]));
	}
	return DALIC_OK;
}

void dalic_merge_free(dalic_merge_set_t *set)
{
	for (int i = 0; i < set->num; i++)
		cJSON_Delete(set->docs[i]);
	free(set->docs);
	*set = (dalic_merge_set_t){0};
}
