/*
 * Jobs of slow items (dalic_pool_job_t.single, set by the executor for samples that took
 * 200 us or more each): every item is its own chunk, so the threads finish a batch together;
 * other jobs keep chunks of about a quarter of a thread's share.
 */
#include "engine/threadpool.h"
#include "tests/testlib/exec.h"

#include <string.h>

TestSuite(exec_pool_single, .timeout = 60);

typedef struct exec_pool_single_job {
	atomic_int runs[64];
	atomic_int chunks, biggest;
} exec_pool_single_job_t;

static int exec_pool_single_item(void *arg, int item, int thread)
{
	(void)thread;
	atomic_fetch_add(&((exec_pool_single_job_t *)arg)->runs[item], 1);
	return DALIC_OK;
}

static void exec_pool_single_chunk(void *arg, int thread, int first, int count, int64_t t0,
                                   int64_t t1, int64_t cpu_ns)
{
	(void)thread, (void)first, (void)t0, (void)t1, (void)cpu_ns;
	exec_pool_single_job_t *j = arg;
	atomic_fetch_add(&j->chunks, 1);
	int seen = atomic_load(&j->biggest);
	while (count > seen && !atomic_compare_exchange_weak(&j->biggest, &seen, count))
		;
}

static void exec_pool_single_run(dalic_pool_t *pool, bool single, int *chunks, int *biggest)
{
	static exec_pool_single_job_t j;
	memset(&j, 0, sizeof j);
	dalic_pool_job_t job = {.fn = exec_pool_single_item,
	                        .chunk_done = exec_pool_single_chunk,
	                        .arg = &j,
	                        .count = 64,
	                        .single = single};
	ASSERT_OK(dalic_pool_run(pool, &job));
	for (int i = 0; i < 64; i++)
		cr_expect_eq(atomic_load(&j.runs[i]), 1, "item %d", i);
	*chunks = atomic_load(&j.chunks);
	*biggest = atomic_load(&j.biggest);
}

Test(exec_pool_single, slow_items_go_one_at_a_time)
{
	dalic_pool_t *pool;
	ASSERT_OK(dalic_pool_create(2, NULL, &pool));
	int chunks, biggest;
	exec_pool_single_run(pool, true, &chunks, &biggest);
	cr_expect_eq(chunks, 64);
	cr_expect_eq(biggest, 1);
	/* 64 items on 2 threads: chunks of 64 / (2 * 4) = 8 */
	exec_pool_single_run(pool, false, &chunks, &biggest);
	cr_expect_eq(chunks, 8);
	cr_expect_eq(biggest, 8);
	dalic_pool_destroy(pool);
}
