/*
 * The merged document as text (stats_merge.h): `# Ranks` table, `# Operators` (mean time per
 * iteration per rank), `# Coverage` per reader, `# Summary` with imbalance and stragglers.
 */
#include "cli/stats_merge.h"

#include <string.h>

static double mprint_num(const cJSON *o, const char *k)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(x) ? x->valuedouble : 0;
}

static const char *mprint_str(const cJSON *o, const char *k)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
	return s ? s : "?";
}

/* The numbers of an array as "a, b, c" ("none" when empty). */
static void mprint_list(FILE *f, const cJSON *arr)
{
	const cJSON *x;
	bool first = true;
	cJSON_ArrayForEach(x, arr)
	{
		fprintf(f, "%s%d", first ? "" : ", ", (int)x->valuedouble);
		first = false;
	}
	if (first)
		fputs("none", f);
}

static void mprint_ranks(const cJSON *m, FILE *f)
{
	fprintf(f, "# Ranks\n%-5s %-12s %9s %11s %-15s %-24s %10s %8s\n", "rank", "host", "samples",
	        "samples/s", "verdict", "bottleneck (share)", "memory_MiB", "read");
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(m, "ranks"))
	{
		char bott[64];
		snprintf(bott, sizeof bott, "%s (%.0f%%)", mprint_str(r, "bottleneck"),
		         100 * mprint_num(r, "bottleneck_share"));
		fprintf(f, "%-5d %-12.12s %9.0f %11.1f %-15s %-24.24s %10.1f %8.0f%s\n",
		        (int)mprint_num(r, "rank"), mprint_str(r, "host"), mprint_num(r, "samples"),
		        mprint_num(r, "samples_per_second"), mprint_str(r, "verdict"), bott,
		        mprint_num(r, "memory_bytes") / (1 << 20), mprint_num(r, "samples_read"),
		        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "straggler")) ? "  STRAGGLER"
		                                                                       : "");
	}
}

static void mprint_operators(const cJSON *m, FILE *f)
{
	fprintf(f, "\n# Operators (mean time per run, ms)\n%-36s", "operator");
	const cJSON *r, *op;
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(m, "ranks"))
	fprintf(f, " %9s%-3d", "rank ", (int)mprint_num(r, "rank"));
	fprintf(f, " slowest\n");
	cJSON_ArrayForEach(op, cJSON_GetObjectItemCaseSensitive(m, "operators"))
	{
		fprintf(f, "%-36.36s", mprint_str(op, "name"));
		const cJSON *v;
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(op, "mean_ns"))
		{
			if (cJSON_IsNumber(v))
				fprintf(f, " %12.3f", v->valuedouble * 1e-6);
			else
				fprintf(f, " %12s", "-");
		}
		fprintf(f, " rank %d\n", (int)mprint_num(op, "slowest_rank"));
	}
}

static void mprint_coverage(const cJSON *m, FILE *f)
{
	fprintf(f, "\n# Coverage\n");
	const cJSON *c;
	int n = 0;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(m, "coverage"))
	{
		n++;
		fprintf(f, "reader %s: %.0f samples in %d shards, %.0f read by %d ranks (%.2f epochs "
		           "on the slowest); ",
		        mprint_str(c, "reader"), mprint_num(c, "epoch_size"),
		        (int)mprint_num(c, "num_shards"), mprint_num(c, "samples_read"),
		        (int)mprint_num(c, "ranks"), mprint_num(c, "min_epochs_read"));
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "complete"))) {
			fprintf(f, "every sample in exactly one rank's shard\n");
			continue;
		}
		if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "consistent"))) {
			fprintf(f, "INCONSISTENT: the ranks disagree on the data set size or the number "
			           "of shards\n");
			continue;
		}
		fprintf(f, "INCOMPLETE: shards read by no rank: ");
		mprint_list(f, cJSON_GetObjectItemCaseSensitive(c, "missing_shards"));
		fprintf(f, "; shards read by several ranks: ");
		mprint_list(f, cJSON_GetObjectItemCaseSensitive(c, "duplicated_shards"));
		fputc('\n', f);
	}
	if (!n)
		fprintf(f, "no reader (nothing sharded)\n");
}

void dalic_merge_print(const cJSON *m, FILE *f)
{
	mprint_ranks(m, f);
	mprint_operators(m, f);
	mprint_coverage(m, f);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "total");
	const cJSON *im = cJSON_GetObjectItemCaseSensitive(m, "imbalance");
	fprintf(f, "\n# Summary\nworld: %d\nranks_found: %d\nmissing_ranks: ",
	        (int)mprint_num(m, "world"), (int)mprint_num(m, "ranks_found"));
	mprint_list(f, cJSON_GetObjectItemCaseSensitive(m, "missing_ranks"));
	fprintf(f, "\ntotal_samples: %.0f\ntotal_iterations: %.0f\ntotal_samples_per_second: %.1f\n"
	           "total_samples_read: %.0f\n",
	        mprint_num(t, "samples"), mprint_num(t, "iterations"),
	        mprint_num(t, "samples_per_second"), mprint_num(t, "samples_read"));
	const cJSON *ratio = cJSON_GetObjectItemCaseSensitive(im, "ratio");
	if (cJSON_IsNumber(ratio))
		fprintf(f, "imbalance: %.2f", ratio->valuedouble);
	else
		fprintf(f, "imbalance: infinite");
	fprintf(f, " (fastest/slowest samples/s: rank %d %.1f, rank %d %.1f)%s\n",
	        (int)mprint_num(im, "fastest_rank"), mprint_num(im, "fastest_samples_per_second"),
	        (int)mprint_num(im, "slowest_rank"), mprint_num(im, "slowest_samples_per_second"),
	        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(im, "imbalanced")) ? " IMBALANCED"
	                                                                         : "");
	fprintf(f, "stragglers: ");
	mprint_list(f, cJSON_GetObjectItemCaseSensitive(m, "stragglers"));
	fprintf(f, " (below %.0f%% of the median rank's %.1f samples/s)\n",
	        100 * (1 - mprint_num(im, "tolerance")), mprint_num(im, "median_samples_per_second"));
}
