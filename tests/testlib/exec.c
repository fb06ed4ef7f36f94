/* Shared helpers of the executor tests (see tests/testlib/exec.h). */
#include "tests/testlib/exec.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void tl_seq_source_init(tl_seq_source_t *s, int batch)
{
	memset(s, 0, sizeof *s);
	s->batch = batch;
	s->end_at = -1;
	s->fail_at = -1;
	s->seed = 12345;
}

int tl_seq_source_fn(void *user, int64_t iteration, dalic_feed_t *feed)
{
	tl_seq_source_t *s = user;
	atomic_fetch_add(&s->calls, 1);
	if (iteration == s->end_at)
		return DALIC_EEND;
	if (iteration == s->fail_at)
		return DALIC_EIO;
	if (s->max_sleep_us > 0) {
		/* called on the one thread driving the pipeline, so the seed needs no lock */
		struct timespec d = {0, (long)(rand_r(&s->seed) % (s->max_sleep_us + 1)) * 1000};
		nanosleep(&d, NULL);
	}
	int64_t v[256];
	int64_t shapes[1] = {0};
	for (int i = 0; i < s->batch; i++)
		v[i] = iteration * 100 + i;
	return dalic_feed_batch(feed, DALIC_INT64, 0, s->batch, shapes, v, NULL);
}

dalic_pipeline_t *tl_sleep_pipeline(const dalic_pipeline_params_t *params, const char *device,
                                    tl_seq_source_t *src, ...)
{
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(params, &p));
	dalic_op_t *es, *sl;
	ASSERT_OK(dalic_pipeline_add_op(p, "external_source", NULL, &es));
	ASSERT_OK(dalic_op_set_name(es, "src"));
	ASSERT_OK(dalic_pipeline_add_op(p, "_test__Sleep", device, &sl));
	bool gpu = !strcmp(device, "gpu");
	ASSERT_OK(dalic_op_add_input(sl, "src", gpu ? "gpu" : NULL));
	va_list ap;
	va_start(ap, src);
	for (const char *arg; (arg = va_arg(ap, const char *));)
		ASSERT_OK(dalic_op_set_int(sl, arg, va_arg(ap, int)));
	va_end(ap);
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(sl, 0), NULL));
	ASSERT_OK(dalic_pipeline_build(p));
	if (src)
		ASSERT_OK(dalic_pipeline_set_source(p, "src", tl_seq_source_fn, src));
	return p;
}

void tl_expect_seq_values(dalic_pipeline_t *p, int64_t k, int batch, const char *mode)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, 0);
	cr_assert_not_null(b, "%s: no output", mode);
	cr_assert_eq(dalic_batch_num_samples(b), batch, "%s", mode);
	cr_assert_eq(dalic_batch_dtype(b), DALIC_INT64, "%s", mode);
	for (int i = 0; i < batch; i++)
		cr_assert_eq(*(const int64_t *)dalic_batch_data(b, i), k * 100 + i,
		             "%s: iteration %lld sample %d", mode, (long long)k, i);
}

static void tl_log_event(tl_log_t *l, int stage, int64_t it)
{
	pthread_mutex_lock(&l->mu);
	if (l->n < (int)(sizeof l->ev / sizeof l->ev[0])) {
		l->ev[l->n].stage = stage;
		l->ev[l->n].iteration = it;
		l->n++;
	}
	pthread_mutex_unlock(&l->mu);
}

static void tl_log_on_stage(void *user, int stage, int64_t it, int64_t t0, int64_t t1)
{
	tl_log_t *l = user;
	atomic_fetch_add(&l->stage_runs[stage], 1);
	tl_log_event(l, stage, it);
}

static void tl_log_on_ready(void *user, int64_t it, int64_t t0, int64_t t1)
{
	tl_log_event(user, -1, it);
}

static void tl_log_on_chunk(void *user, const dalic_node_t *n, int64_t it, int thread, int first,
                            int count, int64_t t0, int64_t t1, int64_t cpu_ns)
{
	tl_log_t *l = user;
	atomic_fetch_add(&l->chunks, 1);
	if (thread < 0 || thread >= l->num_threads)
		atomic_fetch_add(&l->bad_thread, 1);
}

static void tl_log_on_node(void *user, const dalic_node_t *n, int64_t it, int batch, int64_t t0,
                           int64_t t1, int64_t cpu_ns)
{
	atomic_fetch_add(&((tl_log_t *)user)->node_runs, 1);
}

static void tl_log_raise_max(atomic_int *m, int v)
{
	int cur = atomic_load(m);
	while (v > cur && !atomic_compare_exchange_weak(m, &cur, v))
		;
}

static void tl_log_on_level(void *user, int queue, int occupancy, int depth, int64_t t)
{
	tl_log_t *l = user;
	tl_log_raise_max(queue == DALIC_QUEUE_CPU ? &l->max_cpu_level : &l->max_gpu_level,
	                 occupancy);
}

static void tl_log_on_wait(void *user, int kind, int64_t t0, int64_t t1)
{
	atomic_fetch_add(&((tl_log_t *)user)->waits[kind], 1);
}

void tl_log_init(tl_log_t *l, int num_threads)
{
	memset(l, 0, sizeof *l);
	pthread_mutex_init(&l->mu, NULL);
	l->num_threads = num_threads;
}

dalic_observer_t tl_log_observer(tl_log_t *l)
{
	dalic_observer_t o = {
	    .user = l,
	    .node_run = tl_log_on_node,
	    .work_chunk = tl_log_on_chunk,
	    .stage_run = tl_log_on_stage,
	    .iteration_ready = tl_log_on_ready,
	    .queue_level = tl_log_on_level,
	    .wait = tl_log_on_wait,
	};
	return o;
}

int tl_wait_stage_runs(tl_log_t *l, int stage, int n)
{
	for (int i = 0; i < 5000 && atomic_load(&l->stage_runs[stage]) < n; i++)
		tl_sleep_ms(1);
	return atomic_load(&l->stage_runs[stage]);
}
