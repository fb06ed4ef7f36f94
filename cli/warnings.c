/* The warnings log as the commands print it (warnings.h). */
#include "cli/warnings.h"

#include <stdlib.h>
#include <string.h>

bool dalic_cli_warning_counts(const dalic_warning_t *w, const dalic_cli_warn_filter_t *f)
{
	if (!f)
		return true;
	if (f->iterations > 0 && w->iteration >= f->iterations)
		return false;
	return f->batch <= 0 || w->iteration * f->batch + w->sample < f->epoch;
}

/* Entry i when it counts. */
static bool cli_warnings_get(const dalic_pipeline_t *p, int64_t i,
                             const dalic_cli_warn_filter_t *f, dalic_warning_t *w)
{
	return dalic_pipeline_warning(p, i, w) == DALIC_OK && dalic_cli_warning_counts(w, f);
}

/* The entries that count, ordered by iteration, then sample, then as they came (pool workers
 * append in completion order). New array (free()); *n gets its length; NULL when empty or
 * out of memory. */
typedef struct cli_warnings_ref {
	int64_t iteration, index;
	int sample;
} cli_warnings_ref_t;

static int cli_warnings_cmp_ref(const void *a, const void *b)
{
	const cli_warnings_ref_t *x = a, *y = b;
	if (x->iteration != y->iteration)
		return x->iteration < y->iteration ? -1 : 1;
	if (x->sample != y->sample)
		return x->sample < y->sample ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static cli_warnings_ref_t *cli_warnings_ordered(const dalic_pipeline_t *p,
                                               const dalic_cli_warn_filter_t *f, int64_t *n)
{
	int64_t total = dalic_pipeline_num_warnings(p);
	cli_warnings_ref_t *refs = malloc(sizeof *refs * (size_t)(total > 0 ? total : 1));
	*n = 0;
	for (int64_t i = 0; refs && i < total; i++) {
		dalic_warning_t w;
		if (cli_warnings_get(p, i, f, &w))
			refs[(*n)++] = (cli_warnings_ref_t){w.iteration, i, w.sample};
	}
	if (refs)
		qsort(refs, (size_t)*n, sizeof *refs, cli_warnings_cmp_ref);
	return refs;
}

static int cli_warnings_cmp_key(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;
	return *x < *y ? -1 : *x > *y;
}

void dalic_cli_warnings_tally(const dalic_pipeline_t *p, const dalic_cli_warn_filter_t *f,
                              int64_t *entries, int64_t *samples, int64_t *refused)
{
	int64_t n = dalic_pipeline_num_warnings(p), k = 0;
	/* a sample is (iteration, index, refused): keys sorted, then counted once each */
	int64_t *keys = malloc(sizeof *keys * (size_t)(n > 0 ? n : 1));
	*entries = *samples = *refused = 0;
	for (int64_t i = 0; i < n; i++) {
		dalic_warning_t w;
		if (!cli_warnings_get(p, i, f, &w))
			continue;
		++*entries;
		if (keys)
			keys[k++] = (w.iteration << 24 | (int64_t)w.sample) << 1 | w.error;
	}
	if (!keys)
		return;
	qsort(keys, (size_t)k, sizeof *keys, cli_warnings_cmp_key);
	for (int64_t i = 0; i < k; i++) {
		if (i && keys[i] >> 1 == keys[i - 1] >> 1)
			continue;
		++*samples;
		/* an error sorts after the warnings of the same sample */
		int64_t j = i;
		while (j + 1 < k && keys[j + 1] >> 1 == keys[i] >> 1)
			j++;
		*refused += keys[j] & 1;
	}
	free(keys);
}

void dalic_cli_warnings_list(FILE *out, const dalic_pipeline_t *p,
                             const dalic_cli_warn_filter_t *f)
{
	int64_t n;
	cli_warnings_ref_t *refs = cli_warnings_ordered(p, f, &n);
	for (int64_t k = 0; refs && k < n; k++) {
		dalic_warning_t w;
		if (dalic_pipeline_warning(p, refs[k].index, &w))
			continue;
		fprintf(out, "%s iteration %lld sample %d %s: %s: %s", w.error ? "error  " : "warning",
		        (long long)w.iteration, w.sample, w.source ? w.source : "(no source)", w.op,
		        w.message);
		if (w.repeats > 1)
			fprintf(out, " (x%lld)", (long long)w.repeats);
		fputc('\n', out);
	}
	free(refs);
	if (dalic_pipeline_warnings_dropped(p))
		fprintf(out, "(%lld more not kept: the log is full)\n",
		        (long long)dalic_pipeline_warnings_dropped(p));
}

cJSON *dalic_cli_warnings_json(const dalic_pipeline_t *p, const dalic_cli_warn_filter_t *f)
{
	cJSON *arr = cJSON_CreateArray();
	int64_t n;
	cli_warnings_ref_t *refs = cli_warnings_ordered(p, f, &n);
	for (int64_t k = 0; arr && refs && k < n; k++) {
		dalic_warning_t w;
		if (dalic_pipeline_warning(p, refs[k].index, &w))
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "op", w.op);
		cJSON_AddStringToObject(o, "schema", w.schema);
		cJSON_AddNumberToObject(o, "iteration", (double)w.iteration);
		cJSON_AddNumberToObject(o, "sample", w.sample);
		if (w.source)
			cJSON_AddStringToObject(o, "source", w.source);
		else
			cJSON_AddNullToObject(o, "source");
		cJSON_AddNumberToObject(o, "record", (double)w.record);
		cJSON_AddStringToObject(o, "message", w.message);
		cJSON_AddNumberToObject(o, "repeats", (double)w.repeats);
		cJSON_AddBoolToObject(o, "error", w.error);
		cJSON_AddItemToArray(arr, o);
	}
	free(refs);
	return arr;
}
