/*
 * Largest-first scheduling (issue 21): a pool job with an order runs its items in that order,
 * one at a time, reports each chunk as the item itself, and on failure runs every item and
 * reports the lowest failing one; the executor hands out the samples of a slow operator whose
 * input sizes differ largest first, seen in the trace's per-sample events.
 */
#include "engine/threadpool.h"
#include "tests/testlib/exec.h"

#include "dalic_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(exec_order, .timeout = 60);

typedef struct exec_order_job {
	int seq[32], n, fail_a, fail_b; /* items in the order they ran (one runner) */
	atomic_int runs[32];
	int chunk_first[32], chunk_count[32], chunks;
} exec_order_job_t;

static int exec_order_item(void *arg, int item, int thread)
{
	(void)thread;
	exec_order_job_t *j = arg;
	atomic_fetch_add(&j->runs[item], 1);
	j->seq[j->n++] = item;
	if (item == j->fail_a || item == j->fail_b)
		return dalic_fail(DALIC_EOP, "item %d failed", item);
	return DALIC_OK;
}

static void exec_order_chunk(void *arg, int thread, int first, int count, int64_t t0, int64_t t1,
                             int64_t cpu_ns)
{
	(void)thread, (void)t0, (void)t1, (void)cpu_ns;
	exec_order_job_t *j = arg;
	j->chunk_first[j->chunks] = first;
	j->chunk_count[j->chunks++] = count;
}

Test(exec_order, a_pool_job_runs_its_items_in_the_given_order)
{
	dalic_pool_t *pool;
	ASSERT_OK(dalic_pool_create(1, NULL, &pool)); /* one runner: the sequence is the order */
	static const int order[10] = {7, 2, 9, 0, 5, 1, 8, 3, 6, 4};
	exec_order_job_t j = {.fail_a = -1, .fail_b = -1};
	dalic_pool_job_t job = {.fn = exec_order_item,
	                        .chunk_done = exec_order_chunk,
	                        .arg = &j,
	                        .count = 10,
	                        .order = order};
	ASSERT_OK(dalic_pool_run(pool, &job));
	cr_assert_eq(j.n, 10);
	cr_expect_eq(j.chunks, 10);
	for (int k = 0; k < 10; k++) {
		cr_expect_eq(j.seq[k], order[k], "position %d", k);
		cr_expect_eq(j.chunk_first[k], order[k], "chunk %d names its item", k);
		cr_expect_eq(j.chunk_count[k], 1, "chunk %d", k);
	}
	dalic_pool_destroy(pool);
}

Test(exec_order, a_failure_runs_every_item_and_names_the_lowest)
{
	dalic_pool_t *pool;
	ASSERT_OK(dalic_pool_create(2, NULL, &pool));
	static const int order[8] = {6, 3, 7, 1, 0, 5, 2, 4};
	for (int round = 0; round < 20; round++) {
		exec_order_job_t j = {.fail_a = 6, .fail_b = 2}; /* 6 runs first, 2 late */
		dalic_pool_job_t job = {
		    .fn = exec_order_item, .arg = &j, .count = 8, .order = order};
		ASSERT_STATUS(dalic_pool_run(pool, &job), DALIC_EOP);
		cr_expect_str_eq(dalic_last_error(), "item 2 failed");
		for (int i = 0; i < 8; i++)
			cr_expect_eq(atomic_load(&j.runs[i]), 1, "item %d ran once", i);
	}
	dalic_pool_destroy(pool);
}

/* Side of sample i's square image: all different, largest not first by index. */
static int exec_order_side(int i)
{
	return 120 + 23 * ((i * 7) % 12);
}

Test(exec_order, the_executor_hands_out_the_largest_samples_first)
{
	enum { N = 12, RUNS = 3 };
	dalic_pipeline_params_t pp;
	dalic_pipeline_params_init(&pp);
	pp.batch_size = N;
	pp.num_threads = 1; /* one runner: the trace's order is the hand-out order */
	pp.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	pp.exec_pipelined = pp.exec_async = false;
	pp.prefetch_cpu = pp.prefetch_gpu = 1;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&pp, &p));
	tl_source(p, "in");
	dalic_op_t *rs = tl_op(p, "resize");
	tl_input(rs, "in");
	ASSERT_OK(dalic_op_set_float(rs, "resize_x", 150));
	ASSERT_OK(dalic_op_set_float(rs, "resize_y", 150));
	ASSERT_OK(dalic_op_set_int(rs, "interp_type", DALIC_INTERP_CUBIC)); /* slow enough */
	tl_output(p, rs);
	dalic_stats_t *st = tl_stats_attach(p, true);
	ASSERT_OK(dalic_pipeline_build(p));
	size_t total = 0;
	int64_t shapes[N][3];
	for (int i = 0; i < N; i++) {
		shapes[i][0] = shapes[i][1] = exec_order_side(i);
		shapes[i][2] = 3;
		total += (size_t)shapes[i][0] * shapes[i][1] * 3;
	}
	uint8_t *px = malloc(total);
	cr_assert(px);
	for (size_t k = 0; k < total; k++)
		px[k] = (uint8_t)(k * 131);
	/* the first run measures the samples; later ones order them */
	for (int r = 0; r < RUNS; r++) {
		tl_feed(p, "in", DALIC_UINT8, 3, N, &shapes[0][0], px, "HWC");
		ASSERT_OK(dalic_pipeline_run(p));
	}
	char *json = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&json, &len);
	cr_assert(f);
	ASSERT_OK(dalic_stats_write_trace(st, f));
	fclose(f);
	/* the last run's per-sample events of the resize, in the order they were written */
	int seen[N], n = 0;
	for (const char *e = json; (e = strstr(e, "\"cat\":\"samples\"")); e++) {
		const char *line = e;
		while (line > json && line[-1] != '\n')
			line--;
		if (!strstr(line, "Resize") || strstr(line, "Resize") > e)
			continue;
		int it = -1, first = -1;
		const char *a = strstr(e, "\"iteration\":"), *b = strstr(e, "\"first_sample\":");
		if (a && b && sscanf(a, "\"iteration\":%d", &it) == 1 &&
		    sscanf(b, "\"first_sample\":%d", &first) == 1 && it == RUNS - 1 && n < N)
			seen[n++] = first;
	}
	cr_assert_eq(n, N, "one event per sample of the last run (%d)", n);
	for (int k = 1; k < N; k++)
		cr_expect_gt(exec_order_side(seen[k - 1]), exec_order_side(seen[k]),
		             "position %d: sample %d (side %d) before sample %d (side %d)", k,
		             seen[k - 1], exec_order_side(seen[k - 1]), seen[k],
		             exec_order_side(seen[k]));
	free(json);
	free(px);
	dalic_pipeline_destroy(p);
	dalic_stats_pipeline_destroyed(st);
	dalic_stats_destroy(st);
}
