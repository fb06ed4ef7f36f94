/*
 * One Chrome trace of the ranks' traces (stats_merge.h): every rank's events become process
 * rank + 1 ("rank N (host)"), their timestamps shifted by when the rank's collector started on
 * the wall clock, relative to the earliest rank — so ranks started at different times line up
 * (on one host exactly; across hosts as well as their clocks agree).
 */
#include "cli/stats_merge.h"
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

static double mtrace_num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, a), b);
	return cJSON_IsNumber(x) ? x->valuedouble : 0;
}

static void mtrace_set_number(cJSON *o, const char *k, double v)
{
	cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	if (x)
		cJSON_SetNumberValue(x, v);
	else
		cJSON_AddNumberToObject(o, k, v);
}

/* Moves rank `doc`'s events from its trace into `events`; DALIC_EIO when it has none. */
static int mtrace_add_rank(const char *dir, const cJSON *doc, double t0, cJSON *events)
{
	int rank = (int)mtrace_num(doc, "rank", "rank");
	char path[4096];
	snprintf(path, sizeof path, "%s/trace-rank-%d.json", dir, rank);
	void *buf;
	size_t len;
	if (dalic_cli_slurp(path, &buf, &len))
		return DALIC_EIO;
	cJSON *tr = cJSON_Parse(buf);
	free(buf);
	cJSON *evs = cJSON_GetObjectItemCaseSensitive(tr, "traceEvents");
	if (!cJSON_IsArray(evs)) {
		cJSON_Delete(tr);
		return dalic_cli_fail(DALIC_EINVAL, "%s: not a Chrome trace (no traceEvents)", path);
	}
	double shift_us = (mtrace_num(doc, "rank", "start_unix_ns") - t0) * 1e-3;
	char name[300];
	const char *host = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "rank"), "host"));
	snprintf(name, sizeof name, "rank %d (%s)", rank, host ? host : "?");
	cJSON *e;
	while ((e = cJSON_DetachItemFromArray(evs, 0))) {
		mtrace_set_number(e, "pid", rank + 1);
		cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts");
		if (cJSON_IsNumber(ts))
			cJSON_SetNumberValue(ts, ts->valuedouble + shift_us);
		const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name"));
		cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
		if (n && !strcmp(n, "process_name") && args)
			cJSON_ReplaceItemInObject(args, "name", cJSON_CreateString(name));
		cJSON_AddItemToArray(events, e);
	}
	cJSON *sort = cJSON_CreateObject();
	cJSON_AddStringToObject(sort, "ph", "M");
	cJSON_AddNumberToObject(sort, "pid", rank + 1);
	cJSON_AddStringToObject(sort, "name", "process_sort_index");
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(sort, "args"), "sort_index", rank);
	cJSON_AddItemToArray(events, sort);
	cJSON_Delete(tr);
	return DALIC_OK;
}

int dalic_merge_trace(const char *dir, const dalic_merge_set_t *set, const char *out)
{
	double t0 = 0;
	for (int i = 0; i < set->num; i++) {
		double s = mtrace_num(set->docs[i], "rank", "start_unix_ns");
		t0 = !i || s < t0 ? s : t0;
	}
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "displayTimeUnit", "ms");
	cJSON *events = cJSON_AddArrayToObject(root, "traceEvents");
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < set->num; i++)
		rc = mtrace_add_rank(dir, set->docs[i], t0, events);
	char *text = rc ? NULL : cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!rc && !text)
		rc = dalic_cli_fail(DALIC_ENOMEM, "out of memory");
	if (!rc)
		rc = dalic_cli_save(out, text, strlen(text));
	free(text);
	return rc;
}
