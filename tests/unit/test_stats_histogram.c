/*
 * The collector's building blocks: the log-linear histogram (bucket bounds, percentiles
 * within 3% of exact ones, exact min/max/mean) and the lock-free trace ring, both hammered
 * by several threads at once to show that no update is lost and no event comes back torn.
 */
#include "tests/testlib.h"

#include "stats/histogram.h"
#include "stats/trace_ring.h"

#include <pthread.h>
#include <stdlib.h>

TestSuite(stats_histogram, .timeout = 60);

Test(stats_histogram, buckets_contain_their_values)
{
	int64_t values[] = {0,
	                    1,
	                    15,
	                    16,
	                    17,
	                    31,
	                    32,
	                    33,
	                    1000,
	                    1023,
	                    1024,
	                    999999,
	                    123456789,
	                    (int64_t)1 << 40,
	                    ((int64_t)1 << 41) - 1};
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		int b = dalic_hist_bucket(values[i]);
		int64_t lo, hi;
		dalic_hist_bucket_bounds(b, &lo, &hi);
		cr_expect(b >= 0 && b < DALIC_HIST_BUCKETS);
		if (b < DALIC_HIST_BUCKETS - 1)
			cr_expect(lo <= values[i] && values[i] < hi, "%lld in [%lld, %lld)",
			          (long long)values[i], (long long)lo, (long long)hi);
		/* a bucket is at most 1/16 of its lower bound wide */
		cr_expect_leq((hi - lo) * 16, lo < 16 ? 16 : lo);
	}
	/* adjacent buckets tile the line */
	for (int b = 0; b + 1 < DALIC_HIST_BUCKETS; b++) {
		int64_t lo, hi, lo2, hi2;
		dalic_hist_bucket_bounds(b, &lo, &hi);
		dalic_hist_bucket_bounds(b + 1, &lo2, &hi2);
		cr_assert_eq(hi, lo2, "gap after bucket %d", b);
	}
}

static int stats_histogram_cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

Test(stats_histogram, percentiles_close_to_exact)
{
	static dalic_hist_t h;
	dalic_hist_init(&h);
	enum { N = 10000 };
	static int64_t v[N];
	srand(3);
	int64_t sum = 0;
	for (int i = 0; i < N; i++) {
		/* a skewed distribution: most around 1 ms, a tail to 50 ms */
		v[i] = 900000 + rand() % 200000 + (i % 50 == 0 ? rand() % 50000000 : 0);
		sum += v[i];
		dalic_hist_record(&h, v[i]);
	}
	qsort(v, N, sizeof v[0], stats_histogram_cmp64);
	dalic_stats_timing_t t;
	dalic_hist_summary(&h, &t);
	cr_expect_eq(t.count, N);
	cr_expect_eq(t.total_ns, sum);
	cr_expect_eq(t.min_ns, v[0]);
	cr_expect_eq(t.max_ns, v[N - 1]);
	double qs[] = {0.5, 0.9, 0.99};
	int64_t got[] = {t.p50_ns, t.p90_ns, t.p99_ns};
	for (int i = 0; i < 3; i++) {
		int64_t exact = v[(int)(qs[i] * N) - 1];
		double err = (double)llabs(got[i] - exact) / (double)exact;
		cr_expect_leq(err, 0.035, "q%.2f: %lld vs exact %lld", qs[i], (long long)got[i],
		              (long long)exact);
	}
	/* small exact values stay exact */
	dalic_hist_init(&h);
	for (int i = 1; i <= 10; i++)
		dalic_hist_record(&h, i);
	cr_expect_eq(dalic_hist_quantile(&h, 0.5), 5);
	cr_expect_eq(dalic_hist_quantile(&h, 1.0), 10);
	cr_expect_eq(dalic_hist_quantile(&h, 0.0), 1);
	dalic_hist_init(&h);
	dalic_hist_summary(&h, &t);
	cr_expect_eq(t.count, 0);
	cr_expect_eq(t.p99_ns, 0);
}

enum { THREADS = 4, PER_THREAD = 200000 };

typedef struct stats_histogram_hammer {
	dalic_hist_t *h;
	dalic_trace_ring_t *r;
	int id;
} stats_histogram_hammer_t;

static void *stats_histogram_hammer(void *arg)
{
	stats_histogram_hammer_t *a = arg;
	for (int i = 0; i < PER_THREAD; i++) {
		int64_t v = (int64_t)(a->id + 1) * 1000 + i % 1000;
		dalic_hist_record(a->h, v);
		/* t1 - t0 == iteration * 3 + id: a torn event breaks the relation */
		dalic_trace_event_t ev = {.type = DALIC_TRACE_NODE,
		                          .id = a->id,
		                          .thread = a->id,
		                          .a = i,
		                          .b = -i,
		                          .iteration = i,
		                          .t0 = v,
		                          .t1 = v + (int64_t)i * 3 + a->id};
		dalic_trace_ring_push(a->r, &ev);
	}
	return NULL;
}

static int stats_histogram_torn;
static int64_t stats_histogram_delivered;

static void stats_histogram_check_event(void *user, const dalic_trace_event_t *ev)
{
	(void)user;
	stats_histogram_delivered++;
	if (ev->t1 - ev->t0 != ev->iteration * 3 + ev->id || ev->a != (int)ev->iteration ||
	    ev->b != -ev->a || ev->thread != ev->id || ev->type != DALIC_TRACE_NODE)
		stats_histogram_torn++;
}

Test(stats_histogram, concurrent_writers_lose_nothing_and_tear_nothing)
{
	static dalic_hist_t h;
	dalic_hist_init(&h);
	dalic_trace_ring_t r;
	ASSERT_OK(dalic_trace_ring_init(&r, 1 << 14));
	pthread_t th[THREADS];
	stats_histogram_hammer_t args[THREADS];
	for (int i = 0; i < THREADS; i++) {
		args[i] = (stats_histogram_hammer_t){&h, &r, i};
		pthread_create(&th[i], NULL, stats_histogram_hammer, &args[i]);
	}
	/* read while they write: whatever comes back must be whole */
	for (int k = 0; k < 20; k++)
		dalic_trace_ring_each(&r, stats_histogram_check_event, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	dalic_stats_timing_t t;
	dalic_hist_summary(&h, &t);
	cr_expect_eq(t.count, THREADS * PER_THREAD);
	cr_expect_eq(t.min_ns, 1000);
	cr_expect_eq(t.max_ns, THREADS * 1000 + 999);
	int64_t buckets = 0;
	for (int b = 0; b < DALIC_HIST_BUCKETS; b++)
		buckets += atomic_load(&h.buckets[b]);
	cr_expect_eq(buckets, THREADS * PER_THREAD);
	cr_expect_eq(stats_histogram_torn, 0, "%d torn events", stats_histogram_torn);
	cr_expect_eq(dalic_trace_ring_recorded(&r), THREADS * PER_THREAD);
	stats_histogram_delivered = 0;
	int64_t n = dalic_trace_ring_each(&r, stats_histogram_check_event, NULL);
	/* a writer stalled for a whole lap of the ring loses its event (or leaves an older one
	 * in its slot): at most one per writer in flight is missing, and counted as dropped */
	cr_expect_leq(n, 1 << 14);
	cr_expect_geq(n, (1 << 14) - THREADS, "%lld of %d events came back", (long long)n, 1 << 14);
	int64_t dropped = dalic_trace_ring_dropped(&r);
	cr_expect_geq(dropped, THREADS * PER_THREAD - (1 << 14));
	cr_expect_leq(dropped, THREADS * PER_THREAD - (1 << 14) + 1000);
	cr_expect_eq(stats_histogram_torn, 0);
	dalic_trace_ring_reset(&r);
	cr_expect_eq(dalic_trace_ring_each(&r, stats_histogram_check_event, NULL), 0);
	dalic_trace_ring_free(&r);
}
