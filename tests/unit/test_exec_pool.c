/*
 * The per-sample thread pool and worker affinity: every item runs once on a worker whose
 * index is in [0, num_threads); items really run in parallel; several stages may submit at
 * once; the lowest failing item is reported with its message; set_affinity and
 * DALI_AFFINITY_MASK pin worker i to the i-th listed CPU and nothing else.
 */

#include "engine/affinity.h"
#include "engine/threadpool.h"
#include "tests/testlib/exec.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(exec_pool, .timeout = 60);

typedef struct exec_pool_count_job {
	atomic_int runs[1000];
	atomic_int bad_thread;
	int threads;
	atomic_int chunk_items;
} exec_pool_count_job_t;

static int exec_pool_count_item(void *arg, int item, int thread)
{
	exec_pool_count_job_t *j = arg;
	atomic_fetch_add(&j->runs[item], 1);
	if (thread < 0 || thread >= j->threads)
		atomic_fetch_add(&j->bad_thread, 1);
	return DALIC_OK;
}

static void exec_pool_count_chunk(void *arg, int thread, int first, int count, int64_t t0,
                                  int64_t t1, int64_t cpu_ns)
{
	atomic_fetch_add(&((exec_pool_count_job_t *)arg)->chunk_items, count);
}

Test(exec_pool, every_item_once_on_a_worker)
{
	dalic_pool_t *pool;
	ASSERT_OK(dalic_pool_create(3, NULL, &pool));
	cr_expect_eq(dalic_pool_size(pool), 3);
	const int counts[] = {0, 1, 2, 7, 64, 1000};
	for (int c = 0; c < 6; c++) {
		static exec_pool_count_job_t j;
		memset(&j, 0, sizeof j);
		j.threads = 3;
		dalic_pool_job_t job = {.fn = exec_pool_count_item,
		                        .chunk_done = exec_pool_count_chunk,
		                        .arg = &j,
		                        .count = counts[c]};
		ASSERT_OK(dalic_pool_run(pool, &job));
		for (int i = 0; i < counts[c]; i++)
			cr_expect_eq(atomic_load(&j.runs[i]), 1, "count %d item %d", counts[c], i);
		cr_expect_eq(atomic_load(&j.bad_thread), 0);
		cr_expect_eq(atomic_load(&j.chunk_items), counts[c]);
	}
	dalic_pool_destroy(pool);
}

/* Two items that each wait for the other to start: only parallel workers finish them. */
typedef struct exec_pool_meet {
	atomic_int started;
	atomic_int timed_out;
} exec_pool_meet_t;

static int exec_pool_meet_item(void *arg, int item, int thread)
{
	exec_pool_meet_t *m = arg;
	atomic_fetch_add(&m->started, 1);
	for (int i = 0; i < 5000 && atomic_load(&m->started) < 2; i++)
		tl_sleep_ms(1);
	if (atomic_load(&m->started) < 2)
		atomic_fetch_add(&m->timed_out, 1);
	return DALIC_OK;
}

Test(exec_pool, items_run_in_parallel)
{
	dalic_pool_t *pool;
	ASSERT_OK(dalic_pool_create(2, NULL, &pool));
	exec_pool_meet_t m = {0};
	dalic_pool_job_t job = {.fn = exec_pool_meet_item, .arg = &m, .count = 2};
	ASSERT_OK(dalic_pool_run(pool, &job));
	cr_expect_eq(atomic_load(&m.timed_out), 0, "the two items did not overlap");
	dalic_pool_destroy(pool);
}

static int exec_pool_fail_item(void *arg, int item, int thread)
{
	if (item == 5 || item == 9)
		return dalic_fail(DALIC_EOP, "item %d failed", item);
	return DALIC_OK;
}

Test(exec_pool, lowest_failing_item_is_reported)
{
	dalic_pool_t *pool;
	ASSERT_OK(dalic_pool_create(4, NULL, &pool));
	for (int round = 0; round < 50; round++) {
		dalic_pool_job_t job = {.fn = exec_pool_fail_item, .count = 20};
		dalic_error_clear();
		ASSERT_STATUS(dalic_pool_run(pool, &job), DALIC_EOP);
		/* the lowest of the failing items that ran: 9 may fail and cancel 5's chunk */
		cr_expect(!strcmp(dalic_last_error(), "item 5 failed") ||
				  !strcmp(dalic_last_error(), "item 9 failed"),
			  "%s", dalic_last_error());
	}
	dalic_pool_job_t job = {.fn = exec_pool_count_item, .count = 0};
	EXPECT_OK(dalic_pool_run(pool, &job), "the pool still works");
	dalic_pool_destroy(pool);
}

typedef struct exec_pool_submitter {
	dalic_pool_t *pool;
	int ok;
} exec_pool_submitter_t;

static void *exec_pool_submit_many(void *arg)
{
	exec_pool_submitter_t *s = arg;
	static _Thread_local exec_pool_count_job_t j;
	s->ok = 1;
	for (int r = 0; r < 200; r++) {
		memset(&j, 0, sizeof j);
		j.threads = 2;
		dalic_pool_job_t job = {.fn = exec_pool_count_item, .arg = &j, .count = 1 + r % 17};
		if (dalic_pool_run(s->pool, &job))
			s->ok = 0;
		for (int i = 0; i < job.count; i++)
			if (atomic_load(&j.runs[i]) != 1)
				s->ok = 0;
	}
	return NULL;
}

Test(exec_pool, concurrent_submitters)
{
	dalic_pool_t *pool;
	ASSERT_OK(dalic_pool_create(2, NULL, &pool));
	pthread_t t[3];
	exec_pool_submitter_t s[3];
	for (int i = 0; i < 3; i++) {
		s[i].pool = pool;
		pthread_create(&t[i], NULL, exec_pool_submit_many, &s[i]);
	}
	for (int i = 0; i < 3; i++) {
		pthread_join(t[i], NULL);
		cr_expect_eq(s[i].ok, 1, "submitter %d", i);
	}
	dalic_pool_destroy(pool);
}

/* A thread index is never in use by two threads at once, even while submitters borrow
 * the indices of idle workers to help with their own jobs. */
static atomic_int exec_pool_index_busy[2];
static atomic_int exec_pool_index_clash;

static int exec_pool_exclusive_item(void *arg, int item, int thread)
{
	if (atomic_exchange(&exec_pool_index_busy[thread], 1))
		atomic_fetch_add(&exec_pool_index_clash, 1);
	for (volatile int spin = 0; spin < 200; spin++)
		;
	atomic_store(&exec_pool_index_busy[thread], 0);
	return DALIC_OK;
}

static atomic_int exec_pool_exclusive_failures;

static void *exec_pool_submit_exclusive(void *arg)
{
	for (int r = 0; r < 300; r++) {
		dalic_pool_job_t job = {.fn = exec_pool_exclusive_item, .count = 1 + r % 9};
		if (dalic_pool_run(arg, &job))
			atomic_fetch_add(&exec_pool_exclusive_failures, 1);
	}
	return NULL;
}

Test(exec_pool, an_index_is_never_used_twice_at_once)
{
	dalic_pool_t *pool;
	ASSERT_OK(dalic_pool_create(2, NULL, &pool));
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, exec_pool_submit_exclusive, pool);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	cr_expect_eq(atomic_load(&exec_pool_index_clash), 0);
	cr_expect_eq(atomic_load(&exec_pool_exclusive_failures), 0, "a job failed");
	dalic_pool_destroy(pool);
}

Test(exec_pool, affinity_mask_parsing)
{
	int cpus[4];
	cr_expect_eq(dalic_affinity_parse("3", cpus, 4), 1);
	cr_expect_eq(cpus[0], 3);
	cr_expect_eq(dalic_affinity_parse("0, 2,5", cpus, 4), 3);
	cr_expect_eq(cpus[1], 2);
	cr_expect_eq(cpus[2], 5);
	cr_expect_eq(dalic_affinity_parse("1,2,3,4,5", cpus, 4), 5, "entries beyond max counted");
	cr_expect_eq(dalic_affinity_parse("1,a", cpus, 4), -1);
	EXPECT_ERROR_HAS("entry 1");
	cr_expect_eq(dalic_affinity_parse("-1", cpus, 4), -1);
	cr_expect_eq(dalic_affinity_parse("1;2", cpus, 4), -1);
}

static int exec_pool_first_allowed_cpu(void)
{
	cpu_set_t s;
	cr_assert_eq(sched_getaffinity(0, sizeof s, &s), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &s))
			return c;
	return -1;
}

Test(exec_pool, affinity_plan_follows_set_affinity)
{
	int cpu = exec_pool_first_allowed_cpu();
	char mask[16];
	snprintf(mask, sizeof mask, "%d", cpu);
	setenv("DALI_AFFINITY_MASK", mask, 1);
	int cpus[3];
	ASSERT_OK(dalic_affinity_plan(false, 3, cpus));
	cr_expect(cpus[0] == -1 && cpus[1] == -1 && cpus[2] == -1, "no set_affinity: unpinned");
	ASSERT_OK(dalic_affinity_plan(true, 3, cpus));
	cr_expect_eq(cpus[0], cpu);
	cr_expect(cpus[1] == -1 && cpus[2] == -1, "beyond the mask: unpinned (no NVML)");
	setenv("DALI_AFFINITY_MASK", "100000", 1);
	EXPECT_STATUS(dalic_affinity_plan(true, 1, cpus), DALIC_EINVAL);
	unsetenv("DALI_AFFINITY_MASK");
	ASSERT_OK(dalic_affinity_plan(true, 2, cpus));
	cr_expect(cpus[0] == -1 && cpus[1] == -1, "set_affinity without a mask: unpinned");
}

typedef struct exec_pool_seen_cpus {
	int count[2]; /* CPUs allowed for worker 0 and 1 */
	int only[2];  /* the CPU when exactly one */
} exec_pool_seen_cpus_t;

static int exec_pool_record_affinity(void *arg, int item, int thread)
{
	exec_pool_seen_cpus_t *s = arg;
	cpu_set_t set;
	pthread_getaffinity_np(pthread_self(), sizeof set, &set);
	s->count[thread] = CPU_COUNT(&set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			s->only[thread] = c;
	return DALIC_OK;
}

Test(exec_pool, workers_pin_to_the_planned_cpus)
{
	int cpu = exec_pool_first_allowed_cpu();
	int cpus[2] = {cpu, -1};
	dalic_pool_t *pool;
	ASSERT_OK(dalic_pool_create(2, cpus, &pool));
	exec_pool_seen_cpus_t seen = {{-1, -1}, {-1, -1}};
	/* enough items that both workers take some */
	for (int r = 0; r < 200 && (seen.count[0] < 0 || seen.count[1] < 0); r++) {
		dalic_pool_job_t job = {.fn = exec_pool_record_affinity, .arg = &seen, .count = 64};
		ASSERT_OK(dalic_pool_run(pool, &job));
	}
	cr_expect_eq(seen.count[0], 1, "worker 0 pinned to one CPU");
	cr_expect_eq(seen.only[0], cpu);
	cpu_set_t all;
	sched_getaffinity(0, sizeof all, &all);
	if (seen.count[1] >= 0)
		cr_expect_eq(seen.count[1], CPU_COUNT(&all), "worker 1 left unpinned");
	dalic_pool_destroy(pool);
	int bad[1] = {CPU_SETSIZE - 1};
	cr_expect_neq(dalic_pool_create(1, bad, &pool), 0, "pinning to a missing CPU fails");
}
