/*
 * Log-linear duration histogram (see histogram.h). The bucket of v >= 16 is found from the
 * position of its highest set bit e and the next four bits below it: 16 + (e-4)*16 + those
 * four bits. Readers load each counter once; a reader racing writers sees a count that may
 * differ from the buckets' sum by the few values in flight, which the quantile walk absorbs.
 */
#include "stats/histogram.h"

#include <string.h>

void dalic_hist_init(dalic_hist_t *h)
{
	atomic_store_explicit(&h->count, 0, memory_order_relaxed);
	atomic_store_explicit(&h->total, 0, memory_order_relaxed);
	atomic_store_explicit(&h->min, INT64_MAX, memory_order_relaxed);
	atomic_store_explicit(&h->max, 0, memory_order_relaxed);
	for (int i = 0; i < DALIC_HIST_BUCKETS; i++)
		atomic_store_explicit(&h->buckets[i], 0, memory_order_relaxed);
}

int dalic_hist_bucket(int64_t ns)
{
	if (ns < DALIC_HIST_SUB)
		return ns < 0 ? 0 : (int)ns;
	int e = 63 - __builtin_clzll((unsigned long long)ns);
	if (e > DALIC_HIST_MAX_EXP)
		return DALIC_HIST_BUCKETS - 1;
	int sub = (int)((ns >> (e - 4)) & (DALIC_HIST_SUB - 1));
	return DALIC_HIST_SUB + (e - 4) * DALIC_HIST_SUB + sub;
}

void dalic_hist_bucket_bounds(int bucket, int64_t *lo, int64_t *hi)
{
	if (bucket < DALIC_HIST_SUB) {
		*lo = bucket;
		*hi = bucket + 1;
		return;
	}
	int e = (bucket - DALIC_HIST_SUB) / DALIC_HIST_SUB + 4;
	int sub = (bucket - DALIC_HIST_SUB) % DALIC_HIST_SUB;
	*lo = (int64_t)(DALIC_HIST_SUB + sub) << (e - 4);
	*hi = *lo + ((int64_t)1 << (e - 4));
}

void dalic_hist_record(dalic_hist_t *h, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	atomic_fetch_add_explicit(&h->buckets[dalic_hist_bucket(ns)], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&h->total, ns, memory_order_relaxed);
	dalic_atomic_max(&h->max, ns);
	dalic_atomic_min(&h->min, ns);
	/* count last: a reader that sees the count also sees (almost always) its bucket */
	atomic_fetch_add_explicit(&h->count, 1, memory_order_release);
}

static int64_t hist_quantile_of(const int64_t *copy, int64_t n, double q, int64_t mn, int64_t mx)
{
	if (n == 0)
		return 0;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	/* rank of the wanted value, 1-based: the smallest value with rank/n >= q */
	int64_t rank = (int64_t)(q * (double)n + 0.999999);
	if (rank < 1)
		rank = 1;
	int64_t seen = 0;
	int b = 0;
	for (; b < DALIC_HIST_BUCKETS - 1; b++) {
		seen += copy[b];
		if (seen >= rank)
			break;
	}
	int64_t lo, hi;
	dalic_hist_bucket_bounds(b, &lo, &hi);
	int64_t v = b < DALIC_HIST_SUB ? lo : lo + (hi - lo) / 2;
	if (v < mn)
		v = mn;
	if (v > mx)
		v = mx;
	return v;
}

static int64_t hist_copy_buckets(const dalic_hist_t *h, int64_t *copy)
{
	int64_t n = 0;
	for (int i = 0; i < DALIC_HIST_BUCKETS; i++) {
		copy[i] = atomic_load_explicit(&h->buckets[i], memory_order_relaxed);
		n += copy[i];
	}
	return n;
}

int64_t dalic_hist_quantile(const dalic_hist_t *h, double q)
{
	int64_t copy[DALIC_HIST_BUCKETS];
	int64_t n = hist_copy_buckets(h, copy);
	return hist_quantile_of(copy, n, q, atomic_load_explicit(&h->min, memory_order_relaxed),
	                   atomic_load_explicit(&h->max, memory_order_relaxed));
}

void dalic_hist_summary(const dalic_hist_t *h, dalic_stats_timing_t *out)
{
	memset(out, 0, sizeof *out);
	out->count = atomic_load_explicit(&h->count, memory_order_acquire);
	if (out->count == 0)
		return;
	int64_t copy[DALIC_HIST_BUCKETS];
	int64_t n = hist_copy_buckets(h, copy);
	out->total_ns = atomic_load_explicit(&h->total, memory_order_relaxed);
	out->mean_ns = (double)out->total_ns / (double)out->count;
	out->min_ns = atomic_load_explicit(&h->min, memory_order_relaxed);
	out->max_ns = atomic_load_explicit(&h->max, memory_order_relaxed);
	out->p50_ns = hist_quantile_of(copy, n, 0.50, out->min_ns, out->max_ns);
	out->p90_ns = hist_quantile_of(copy, n, 0.90, out->min_ns, out->max_ns);
	out->p99_ns = hist_quantile_of(copy, n, 0.99, out->min_ns, out->max_ns);
}
