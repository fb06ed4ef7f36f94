/*
 * A log-linear histogram of durations (nanoseconds) that executor threads update with
 * relaxed atomics and readers copy without stopping them. Values below 16 ns have one bucket
 * each; above, every power of two is split into 16 equal buckets, so a bucket is at most
 * 1/16 of its lower bound wide and a percentile read from its midpoint is within about 3%.
 * Values beyond 2^40 ns (~18 minutes) land in the last bucket. The histogram is a fixed
 * array: recording never allocates.
 */
#ifndef DALIC_STATS_HISTOGRAM_H
#define DALIC_STATS_HISTOGRAM_H

#include "dalic_stats.h"

#include <stdatomic.h>
#include <stdint.h>

#define DALIC_HIST_SUB 16
#define DALIC_HIST_MAX_EXP 40
#define DALIC_HIST_BUCKETS (DALIC_HIST_SUB + (DALIC_HIST_MAX_EXP - 3) * DALIC_HIST_SUB)

typedef struct dalic_hist {
	_Atomic int64_t count;
	_Atomic int64_t total;
	_Atomic int64_t min; /* INT64_MAX when empty */
	_Atomic int64_t max;
	_Atomic int64_t buckets[DALIC_HIST_BUCKETS];
} dalic_hist_t;

void dalic_hist_init(dalic_hist_t *h);
/* Adds one value; negative values count as 0. Thread-safe, lock-free. */
void dalic_hist_record(dalic_hist_t *h, int64_t ns);
/* Bucket index of a value, and the bounds [lo, hi) of a bucket (exposed for tests). */
int dalic_hist_bucket(int64_t ns);
void dalic_hist_bucket_bounds(int bucket, int64_t *lo, int64_t *hi);
/* Count, total, mean, min, p50, p90, p99, max of what was recorded so far. */
void dalic_hist_summary(const dalic_hist_t *h, dalic_stats_timing_t *out);
/* Value below which a fraction q (0..1) of the recorded values lie (bucket midpoint clamped
 * to the recorded min and max); 0 when empty. */
int64_t dalic_hist_quantile(const dalic_hist_t *h, double q);

/* Atomic running maximum / minimum. */
static inline void dalic_atomic_max(_Atomic int64_t *a, int64_t v)
{
	int64_t cur = atomic_load_explicit(a, memory_order_relaxed);
	while (v > cur && !atomic_compare_exchange_weak_explicit(a, &cur, v, memory_order_relaxed,
	                                                         memory_order_relaxed))
		;
}

static inline void dalic_atomic_min(_Atomic int64_t *a, int64_t v)
{
	int64_t cur = atomic_load_explicit(a, memory_order_relaxed);
	while (v < cur && !atomic_compare_exchange_weak_explicit(a, &cur, v, memory_order_relaxed,
	                                                         memory_order_relaxed))
		;
}

#endif
