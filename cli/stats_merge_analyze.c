/*
 * The cluster view of the ranks' documents (stats_merge.h): per-rank rows, totals (counts are
 * sums over ranks), imbalance and stragglers from samples/s, each operator's time per rank,
 * and whether the ranks' shards cover each reader's epoch exactly once. The keys are listed
 * in docs/scale-out.md.
 */
#include "cli/stats_merge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cJSON *merge_get(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);
	return b ? cJSON_GetObjectItemCaseSensitive(x, b) : x;
}

static double merge_num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = merge_get(o, a, b);
	return cJSON_IsNumber(x) ? x->valuedouble : 0;
}

static const char *merge_str(const cJSON *o, const char *a, const char *b, const char *dflt)
{
	const char *s = cJSON_GetStringValue(merge_get(o, a, b));
	return s ? s : dflt;
}

/* Bytes the pipeline's output buffers hold (reserved), over every operator output. */
static double merge_memory(const cJSON *doc)
{
	double sum = 0;
	const cJSON *op, *out;
	cJSON_ArrayForEach(op, merge_get(doc, "operators", NULL))
	{
		cJSON_ArrayForEach(out, merge_get(op, "outputs", NULL))
		sum += merge_num(out, "reserved_memory_size", NULL);
	}
	return sum;
}

static int merge_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double merge_median(const double *v, int n)
{
	double *s = malloc((size_t)n * sizeof *s);
	if (!s)
		return 0;
	memcpy(s, v, (size_t)n * sizeof *s);
	qsort(s, (size_t)n, sizeof *s, merge_cmp_double);
	double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* One row of ranks[]. */
static cJSON *merge_rank_row(const cJSON *doc, bool straggler)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddNumberToObject(r, "rank", merge_num(doc, "rank", "rank"));
	cJSON_AddStringToObject(r, "host", merge_str(doc, "rank", "host", "?"));
	cJSON_AddStringToObject(r, "launcher", merge_str(doc, "rank", "launcher", "none"));
	cJSON_AddStringToObject(r, "pipeline", merge_str(doc, "pipeline", "source", "?"));
	cJSON_AddNumberToObject(r, "iterations", merge_num(doc, "iterations", NULL));
	cJSON_AddNumberToObject(r, "samples", merge_num(doc, "samples", NULL));
	cJSON_AddNumberToObject(r, "wall_seconds", merge_num(doc, "wall_seconds", NULL));
	cJSON_AddNumberToObject(r, "samples_per_second", merge_num(doc, "samples_per_second", NULL));
	const cJSON *v = merge_get(merge_get(doc, "waits", "verdict"), "name", NULL);
	cJSON_AddStringToObject(r, "verdict", cJSON_GetStringValue(v) ? v->valuestring : "?");
	cJSON_AddStringToObject(r, "bottleneck", merge_str(doc, "bottleneck", "operator", "-"));
	cJSON_AddNumberToObject(r, "bottleneck_share", merge_num(doc, "bottleneck", "operator_share"));
	cJSON_AddNumberToObject(r, "memory_bytes", merge_memory(doc));
	double read = 0;
	const cJSON *c;
	cJSON_ArrayForEach(c, merge_get(doc, "epoch_coverage", NULL))
	read += merge_num(c, "samples_read", NULL);
	cJSON_AddNumberToObject(r, "samples_read", read);
	cJSON_AddBoolToObject(r, "straggler", straggler);
	return r;
}

/* imbalance{} and stragglers[] from the ranks' samples/s; fills is_straggler[]. */
static void merge_balance(const dalic_merge_set_t *set, double tol, cJSON *m, bool *straggler)
{
	double *sps = malloc((size_t)set->num * sizeof *sps);
	if (!sps)
		return;
	int slow = 0, fast = 0;
	for (int i = 0; i < set->num; i++) {
		sps[i] = merge_num(set->docs[i], "samples_per_second", NULL);
		slow = sps[i] < sps[slow] ? i : slow;
		fast = sps[i] > sps[fast] ? i : fast;
	}
	double median = merge_median(sps, set->num);
	cJSON *im = cJSON_AddObjectToObject(m, "imbalance");
	cJSON_AddNumberToObject(im, "slowest_rank", merge_num(set->docs[slow], "rank", "rank"));
	cJSON_AddNumberToObject(im, "fastest_rank", merge_num(set->docs[fast], "rank", "rank"));
	cJSON_AddNumberToObject(im, "slowest_samples_per_second", sps[slow]);
	cJSON_AddNumberToObject(im, "fastest_samples_per_second", sps[fast]);
	cJSON_AddNumberToObject(im, "median_samples_per_second", median);
	if (sps[slow] > 0)
		cJSON_AddNumberToObject(im, "ratio", sps[fast] / sps[slow]);
	else
		cJSON_AddNullToObject(im, "ratio"); /* a rank delivered nothing */
	bool imbalanced = sps[fast] > 0 && (sps[slow] <= 0 || sps[fast] / sps[slow] > 1 / (1 - tol));
	cJSON_AddBoolToObject(im, "imbalanced", imbalanced);
	cJSON_AddNumberToObject(im, "tolerance", tol);
	cJSON *st = cJSON_AddArrayToObject(m, "stragglers");
	for (int i = 0; i < set->num; i++) {
		straggler[i] = sps[i] < (1 - tol) * median;
		if (straggler[i])
			cJSON_AddItemToArray(st, cJSON_CreateNumber(merge_num(set->docs[i], "rank", "rank")));
	}
	free(sps);
}

/* operators[]: each operator (by instance name, first rank's order) and its time per rank. */
static void merge_operators(const dalic_merge_set_t *set, cJSON *m)
{
	cJSON *ops = cJSON_AddArrayToObject(m, "operators");
	for (int i = 0; i < set->num; i++) {
		const cJSON *op;
		cJSON_ArrayForEach(op, merge_get(set->docs[i], "operators", NULL))
		{
			const char *name = merge_str(op, "name", NULL, NULL);
			bool known = !name;
			const cJSON *row;
			cJSON_ArrayForEach(row, ops) known |= !strcmp(merge_str(row, "name", NULL, ""), name);
			if (known)
				continue;
			cJSON *o = cJSON_CreateObject();
			cJSON_AddItemToArray(ops, o);
			cJSON_AddStringToObject(o, "name", name);
			cJSON_AddStringToObject(o, "op", merge_str(op, "op", NULL, "?"));
			cJSON *mean = cJSON_AddArrayToObject(o, "mean_ns");
			cJSON *total = cJSON_AddArrayToObject(o, "total_ns");
			double worst = -1;
			int worst_rank = -1;
			for (int k = 0; k < set->num; k++) {
				const cJSON *found = NULL, *x;
				cJSON_ArrayForEach(x, merge_get(set->docs[k], "operators", NULL))
				if (!strcmp(merge_str(x, "name", NULL, ""), name))
					found = x;
				double mn = merge_num(found, "time", "mean_ns");
				cJSON_AddItemToArray(mean, found ? cJSON_CreateNumber(mn) : cJSON_CreateNull());
				cJSON_AddItemToArray(total, found ? cJSON_CreateNumber(merge_num(found, "time", "total_ns")) : cJSON_CreateNull());
				if (found && mn > worst) {
					worst = mn;
					worst_rank = (int)merge_num(set->docs[k], "rank", "rank");
				}
			}
			cJSON_AddNumberToObject(o, "slowest_rank", worst_rank);
		}
	}
}

/* One reader's coverage: which rank read which shard, missing and doubly read shards. */
static cJSON *merge_reader_coverage(const dalic_merge_set_t *set, const char *reader)
{
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "reader", reader);
	int n = 0, ranks_with = 0;
	double size = -1, read = 0, min_epochs = INFINITY;
	bool consistent = true;
	for (int i = 0; i < set->num; i++) {
		const cJSON *x;
		cJSON_ArrayForEach(x, merge_get(set->docs[i], "epoch_coverage", NULL))
		{
			if (strcmp(merge_str(x, "reader", NULL, ""), reader))
				continue;
			int ni = (int)merge_num(x, "num_shards", NULL);
			double si = merge_num(x, "epoch_size", NULL);
			consistent &= (!n || ni == n) && (size < 0 || si == size);
			n = n ? n : ni;
			size = size < 0 ? si : size;
			read += merge_num(x, "samples_read", NULL);
			min_epochs = fmin(min_epochs, merge_num(x, "epochs_read", NULL));
			ranks_with++;
		}
	}
	cJSON_AddNumberToObject(c, "epoch_size", size);
	cJSON_AddNumberToObject(c, "num_shards", n);
	cJSON_AddBoolToObject(c, "consistent", consistent); /* same data set and shard count */
	cJSON_AddNumberToObject(c, "ranks", ranks_with);
	cJSON_AddNumberToObject(c, "samples_read", read);
	cJSON_AddNumberToObject(c, "min_epochs_read", ranks_with ? min_epochs : 0);
	cJSON *shards = cJSON_AddArrayToObject(c, "shards"); /* shard i: the ranks reading it */
	cJSON *missing = cJSON_AddArrayToObject(c, "missing_shards");
	cJSON *dup = cJSON_AddArrayToObject(c, "duplicated_shards");
	for (int s = 0; consistent && s < n && s < 1 << 20; s++) {
		cJSON *who = cJSON_CreateArray();
		cJSON_AddItemToArray(shards, who);
		for (int i = 0; i < set->num; i++) {
			const cJSON *x;
			cJSON_ArrayForEach(x, merge_get(set->docs[i], "epoch_coverage", NULL))
			if (!strcmp(merge_str(x, "reader", NULL, ""), reader) &&
			    (int)merge_num(x, "shard_id", NULL) == s)
				cJSON_AddItemToArray(who, cJSON_CreateNumber(merge_num(set->docs[i], "rank", "rank")));
		}
		int k = cJSON_GetArraySize(who);
		if (k != 1)
			cJSON_AddItemToArray(k ? dup : missing, cJSON_CreateNumber(s));
	}
	/* every sample once per epoch: DALI's shards [size*i/n, size*(i+1)/n) partition it */
	bool complete = consistent && n > 0 && !cJSON_GetArraySize(missing) &&
	                !cJSON_GetArraySize(dup);
	cJSON_AddBoolToObject(c, "complete", complete);
	return c;
}

static void merge_coverage(const dalic_merge_set_t *set, cJSON *m)
{
	cJSON *cov = cJSON_AddArrayToObject(m, "coverage");
	for (int i = 0; i < set->num; i++) {
		const cJSON *x;
		cJSON_ArrayForEach(x, merge_get(set->docs[i], "epoch_coverage", NULL))
		{
			const char *name = merge_str(x, "reader", NULL, "");
			bool known = false;
			const cJSON *c;
			cJSON_ArrayForEach(c, cov) known |= !strcmp(merge_str(c, "reader", NULL, ""), name);
			if (!known)
				cJSON_AddItemToArray(cov, merge_reader_coverage(set, name));
		}
	}
}

cJSON *dalic_merge_analyze(const dalic_merge_set_t *set, double tolerance)
{
	cJSON *m = cJSON_CreateObject();
	bool *straggler = calloc((size_t)set->num, sizeof *straggler);
	if (!m || !straggler) {
		cJSON_Delete(m);
		free(straggler);
		return NULL;
	}
	int world = (int)merge_num(set->docs[0], "rank", "world");
	cJSON_AddNumberToObject(m, "world", world);
	cJSON_AddNumberToObject(m, "ranks_found", set->num);
	cJSON *missing = cJSON_AddArrayToObject(m, "missing_ranks");
	for (int r = 0, i = 0; r < world && r < 1 << 20; r++) {
		while (i < set->num && merge_num(set->docs[i], "rank", "rank") < r)
			i++;
		if (i == set->num || merge_num(set->docs[i], "rank", "rank") != r)
			cJSON_AddItemToArray(missing, cJSON_CreateNumber(r));
	}
	merge_balance(set, tolerance, m, straggler);
	cJSON *rows = cJSON_AddArrayToObject(m, "ranks");
	double samples = 0, iters = 0, sps = 0, read = 0;
	for (int i = 0; i < set->num; i++) {
		cJSON *row = merge_rank_row(set->docs[i], straggler[i]);
		cJSON_AddItemToArray(rows, row);
		samples += merge_num(row, "samples", NULL);
		iters += merge_num(row, "iterations", NULL);
		sps += merge_num(row, "samples_per_second", NULL);
		read += merge_num(row, "samples_read", NULL);
	}
	free(straggler);
	cJSON *t = cJSON_AddObjectToObject(m, "total");
	cJSON_AddNumberToObject(t, "samples", samples);
	cJSON_AddNumberToObject(t, "iterations", iters);
	cJSON_AddNumberToObject(t, "samples_per_second", sps); /* the ranks ran side by side */
	cJSON_AddNumberToObject(t, "samples_read", read);
	merge_operators(set, m);
	merge_coverage(set, m);
	return m;
}
