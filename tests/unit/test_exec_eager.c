/*
 * Debug mode's eager executor on the engine's node path and worker pool, under concurrency:
 * with 4 workers it produces, iteration by iteration, the bytes the async full engine
 * produces; an interrupt from another thread stops a running `continue` between operators.
 * Named test_exec_* so that `make SANITIZE=thread test` runs it under ThreadSanitizer too.
 */
#include <criterion/criterion.h>

#include "dalic.h"
#include "dalic_debug.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

TestSuite(exec_eager, .timeout = 120);

enum { EAGER_BATCH = 24, EAGER_ITERS = 4 };

/* u = random.uniform(shape=[300], range=[-1, 1]); c = cast(u, FLOAT64); f = coin_flip();
 * outputs u, c, f. Async, 4 workers, queue depth 2. */
static dalic_pipeline_t *eager_pipeline(void)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = EAGER_BATCH;
	params.num_threads = 4;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = 77;
	params.prefetch_cpu = params.prefetch_gpu = 2;
	dalic_pipeline_t *p = NULL;
	dalic_op_t *u, *c, *f;
	cr_assert_eq(dalic_pipeline_create(&params, &p), DALIC_OK, "%s", dalic_last_error());
	cr_assert_eq(dalic_pipeline_add_op(p, "random.uniform", "cpu", &u), DALIC_OK, "%s",
		     dalic_last_error());
	const int64_t shape[1] = {300};
	const double range[2] = {-1, 1};
	cr_assert_eq(dalic_op_set_ints(u, "shape", 1, shape), DALIC_OK, "%s", dalic_last_error());
	cr_assert_eq(dalic_op_set_floats(u, "range", 2, range), DALIC_OK, "%s",
		     dalic_last_error());
	cr_assert_eq(dalic_pipeline_add_op(p, "cast", "cpu", &c), DALIC_OK, "%s",
		     dalic_last_error());
	cr_assert_eq(dalic_op_set_int(c, "dtype", DALIC_FLOAT64), DALIC_OK, "%s",
		     dalic_last_error());
	cr_assert_eq(dalic_op_add_input(c, dalic_op_output(u, 0), NULL), DALIC_OK, "%s",
		     dalic_last_error());
	cr_assert_eq(dalic_pipeline_add_op(p, "random.coin_flip", "cpu", &f), DALIC_OK, "%s",
		     dalic_last_error());
	cr_assert_eq(dalic_pipeline_add_output(p, dalic_op_output(u, 0), NULL), DALIC_OK, "%s",
		     dalic_last_error());
	cr_assert_eq(dalic_pipeline_add_output(p, dalic_op_output(c, 0), NULL), DALIC_OK, "%s",
		     dalic_last_error());
	cr_assert_eq(dalic_pipeline_add_output(p, dalic_op_output(f, 0), NULL), DALIC_OK, "%s",
		     dalic_last_error());
	return p;
}

/* Same samples, same bytes. */
static void eager_expect_same(const dalic_batch_t *a, const dalic_batch_t *b, int it, int o)
{
	cr_assert_not_null(a);
	cr_assert_not_null(b);
	cr_assert_eq(dalic_batch_num_samples(a), dalic_batch_num_samples(b), "iteration %d out %d",
		     it, o);
	cr_expect_eq(dalic_batch_dtype(a), dalic_batch_dtype(b), "iteration %d out %d", it, o);
	for (int i = 0; i < dalic_batch_num_samples(a); i++) {
		size_t n = dalic_batch_sample_bytes(a, i);
		cr_assert_eq(n, dalic_batch_sample_bytes(b, i), "iteration %d out %d sample %d", it,
			     o, i);
		cr_expect(!memcmp(dalic_batch_data(a, i), dalic_batch_data(b, i), n),
			  "iteration %d out %d sample %d differs", it, o, i);
	}
}

Test(exec_eager, eager_and_async_engine_agree_on_4_workers)
{
	dalic_pipeline_t *p = eager_pipeline();
	dalic_debug_t *s = NULL;
	cr_assert_eq(dalic_debug_open(p, &s), DALIC_OK, "%s", dalic_last_error());
	for (int it = 0; it < EAGER_ITERS; it++) {
		cr_assert_eq(dalic_pipeline_run(p), DALIC_OK, "%s", dalic_last_error());
		cr_assert_eq(dalic_debug_next(s), DALIC_OK, "%s", dalic_debug_last_error(s));
		dalic_debug_status_t st;
		dalic_debug_status(s, &st);
		cr_assert_eq(st.iteration, it);
		cr_assert_eq(st.next_op, st.num_ops, "iteration %d complete", it);
		for (int o = 0; o < 3; o++)
			eager_expect_same(dalic_pipeline_output(p, o), dalic_debug_output(s, o), it, o);
	}
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

typedef struct eager_interrupter {
	dalic_debug_t *s;
	int delay_ms;
} eager_interrupter_t;

static void *eager_interrupt_later(void *arg)
{
	eager_interrupter_t *t = arg;
	struct timespec d = {0, (long)t->delay_ms * 1000000L};
	nanosleep(&d, NULL);
	dalic_debug_interrupt(t->s);
	return NULL;
}

Test(exec_eager, an_interrupt_from_another_thread_stops_continue)
{
	dalic_pipeline_t *p = eager_pipeline();
	dalic_debug_t *s = NULL;
	cr_assert_eq(dalic_debug_open(p, &s), DALIC_OK, "%s", dalic_last_error());
	eager_interrupter_t t = {s, 100};
	pthread_t tid;
	cr_assert_eq(pthread_create(&tid, NULL, eager_interrupt_later, &t), 0);
	/* no data end, no breakpoint: only the interrupt can stop it */
	cr_assert_eq(dalic_debug_continue(s, -1), DALIC_OK, "%s", dalic_debug_last_error(s));
	pthread_join(tid, NULL);
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_INTERRUPT);
	/* the session goes on from there: one more operator */
	int64_t it = st.iteration;
	int next = st.next_op;
	cr_assert_eq(dalic_debug_step(s), DALIC_OK, "%s", dalic_debug_last_error(s));
	dalic_debug_status(s, &st);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_STEP);
	if (next < st.num_ops) {
		cr_expect_eq(st.iteration, it);
		cr_expect_eq(st.next_op, next + 1);
	} else {
		cr_expect_eq(st.iteration, it + 1);
		cr_expect_eq(st.next_op, 1);
	}
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}
