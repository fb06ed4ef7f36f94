/*
 * The tuner's trial engine (stats/tune.h) on synthetic pipelines whose best setting is known
 * by construction: sleeping operators (no CPU work, so a loaded machine barely moves them)
 * with set times, and a simulated slow consumer. The engine must pick the setting built to
 * win, by a margin far beyond the noise, and answer "no measurable difference" for settings
 * that cannot matter; plus the small-sample statistics checked against hand-computed values.
 */
#include "tests/testlib.h"

#include "stats/tune.h"

#include <math.h>

TestSuite(tune_engine, .timeout = 60);

Test(tune_engine, t_quantiles_and_intervals)
{
	/* printed tables of Student's t, to their 3 decimals */
	cr_expect_float_eq(dalic_tune_t95(1), 12.706, 5e-4);
	cr_expect_float_eq(dalic_tune_t95(4), 2.776, 5e-4);
	cr_expect_float_eq(dalic_tune_t95(30), 2.042, 5e-4);
	cr_expect_float_eq(dalic_tune_t95(120), 1.980, 5e-4);
	cr_expect_float_eq(dalic_tune_t_quantile(3, 0.995), 5.841, 5e-4);
	cr_expect_float_eq(dalic_tune_t_quantile(5, 0.999), 5.893, 5e-4);
	cr_expect_float_eq(dalic_tune_t_quantile(10, 0.9975), 3.581, 5e-4);
	cr_expect_float_eq(dalic_tune_t_quantile(2, 0.9), 1.886, 5e-4);
	cr_expect(isinf(dalic_tune_t95(0)));
	/* 1..5: mean 3, s = sqrt(2.5), half = 2.776 * s / sqrt(5) = 1.96294 */
	double x[] = {1, 2, 3, 4, 5}, m, h;
	dalic_tune_mean_ci(x, 5, &m, &h);
	cr_expect_float_eq(m, 3, 1e-12);
	cr_expect_float_eq(h, 2.776 * sqrt(2.5) / sqrt(5), 1e-3);
	dalic_tune_mean_ci(x, 1, &m, &h);
	cr_expect(isinf(h), "one value has no interval");
	double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
	cr_expect_float_eq(dalic_tune_median(odd, 3), 2, 1e-12);
	cr_expect_float_eq(dalic_tune_median(even, 4), 2.5, 1e-12);
	cr_expect_float_eq(odd[0], 3, 0, "median leaves its input alone");
	double q[100];
	for (int i = 0; i < 100; i++)
		q[i] = 100 - i; /* 100..1 */
	cr_expect_float_eq(dalic_tune_quantile(q, 100, 0.99), 99, 1e-12); /* rank round(98.01) */
	cr_expect_float_eq(dalic_tune_quantile(q, 100, 0.5), 51, 1e-12);  /* rank round(49.5) */
}

/* One sleeping operator (output 0 of the pipeline): `batch_op` sleeps once per batch on the
 * stage thread (num_threads cannot matter), else per sample on the worker pool. */
static dalic_pipeline_t *tune_engine_pipeline(bool batch_op, int batch, int threads, int depth,
                                              int64_t sleep_us)
{
	dalic_pipeline_params_t prm;
	dalic_pipeline_params_init(&prm);
	prm.batch_size = batch;
	prm.num_threads = threads;
	prm.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	prm.seed = 7;
	prm.prefetch_cpu = prm.prefetch_gpu = depth;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	dalic_op_t *op = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, batch_op ? "_test__SleepBatch" : "_test__Sleep", "cpu",
	                                &op));
	ASSERT_OK(dalic_op_set_string(op, "output", "value"));
	ASSERT_OK(dalic_op_set_int(op, "sleep_us", sleep_us));
	tl_output(p, op);
	return p;
}

static dalic_tune_t *tune_engine_create(dalic_pipeline_t *p, double consumer_ms,
                                        double jitter_ms)
{
	dalic_tune_options_t o;
	dalic_tune_options_init(&o);
	o.iterations = 8;
	o.warmup = 1;
	o.budget_s = 6;
	/* the noise floor: a loaded machine moves even sleeps by a few percent (thread start-up,
	 * wake-up latency); the settings built to win do so by 60% or more */
	o.ci = 0.05;
	o.consumer_ms = consumer_ms;
	o.consumer_jitter_ms = jitter_ms;
	dalic_tune_t *t = NULL;
	ASSERT_OK(dalic_tune_create(p, &o, &t));
	ASSERT_OK(dalic_tune_calibrate(t));
	return t;
}

static dalic_tune_setting_t *tune_engine_add(dalic_tune_t *t, const char *name, int threads,
                                             int depth, int64_t bytes_per_sample)
{
	dalic_pipeline_params_t p = t->s[0].params;
	p.num_threads = threads;
	p.prefetch_cpu = p.prefetch_gpu = depth;
	p.bytes_per_sample = bytes_per_sample;
	dalic_tune_setting_t *s = dalic_tune_add(t, &p, "", "%s", name);
	cr_assert_not_null(s);
	return s;
}

static void tune_engine_expect_measured(const dalic_tune_t *t)
{
	for (int i = 0; i < t->n; i++) {
		const dalic_tune_setting_t *s = &t->s[i];
		cr_expect_eq(s->status, DALIC_OK, "%s failed: %s", s->name, s->error);
		cr_expect_geq(s->num_trials, 2, "%s: %d trials", s->name, s->num_trials);
		cr_expect_gt(s->median_sps, 0, "%s", s->name);
		cr_expect_leq(s->p50_ms, s->p99_ms, "%s", s->name);
		cr_expect_leq(s->gain_lo, s->gain, "%s", s->name);
		cr_expect_leq(s->gain, s->gain_hi, "%s", s->name);
	}
	/* every trial of a setting is paired with a baseline trial */
	int paired = 0;
	for (int i = 1; i < t->n; i++)
		paired += t->s[i].num_trials;
	cr_expect_eq(t->s[0].num_trials, paired);
	cr_expect_eq(t->trials_run, 2 * paired);
}

/* 4 samples x 6 ms on the pool: 24 ms an iteration with one thread, 6 ms with four. A
 * pipeline-wide bytes_per_sample presizes nothing in a CPU-only pipeline (DALI's rule). */
Test(tune_engine, picks_the_thread_count_built_to_win)
{
	dalic_pipeline_t *p = tune_engine_pipeline(false, 4, 1, 2, 6000);
	dalic_tune_t *t = tune_engine_create(p, 0, 0);
	tune_engine_add(t, "num_threads=4", 4, 2, 0);
	tune_engine_add(t, "bytes_per_sample=4096", 1, 2, 4096);
	ASSERT_OK(dalic_tune_run(t));
	tune_engine_expect_measured(t);
	cr_expect_eq(t->s[1].verdict, DALIC_TUNE_FASTER, "gain %.3f [%.3f, %.3f]", t->s[1].gain,
	             t->s[1].gain_lo, t->s[1].gain_hi);
	cr_expect_gt(t->s[1].gain, 1.5, "4 threads: 4x by construction, got %+.0f%%",
	             100 * t->s[1].gain);
	cr_expect_eq(t->s[2].verdict, DALIC_TUNE_SAME, "bytes_per_sample: %+.1f%% [%+.1f, %+.1f]",
	             100 * t->s[2].gain, 100 * t->s[2].gain_lo, 100 * t->s[2].gain_hi);
	cr_expect_eq(t->recommended, 1, "%s", t->reason);
	EXPECT_HAS(t->reason, "num_threads=4 is faster beyond the noise");
	/* nothing consumes slowly: the cpu stage sets the pace and is busy most of the time */
	cr_expect_gt(t->s[0].mean.stage_busy[0], 0.5,
	             "one thread: the cpu stage is busy %.2f of the time",
	             t->s[0].mean.stage_busy[0]);
	dalic_tune_free(t);
	dalic_pipeline_destroy(p);
}

/* 8 ms a batch on the stage thread, a consumer holding each batch 10 ± 10 ms: with one
 * queue slot (the one the consumer holds) the pipeline cannot work ahead, so an iteration
 * costs producer + consumer (~18 ms); with three it overlaps them (~11 ms). num_threads
 * cannot matter: the operator does not use the pool. */
Test(tune_engine, finds_deeper_prefetch_for_a_slow_bursty_consumer)
{
	dalic_pipeline_t *p = tune_engine_pipeline(true, 2, 2, 1, 4000);
	dalic_tune_t *t = tune_engine_create(p, 10, 10);
	tune_engine_add(t, "prefetch_queue_depth=3", 2, 3, 0);
	tune_engine_add(t, "num_threads=4", 4, 1, 0);
	ASSERT_OK(dalic_tune_run(t));
	tune_engine_expect_measured(t);
	const dalic_tune_setting_t *deep = &t->s[1], *thr = &t->s[2], *b = &t->s[0];
	cr_expect_eq(deep->verdict, DALIC_TUNE_FASTER, "%+.1f%% [%+.1f, %+.1f]",
	             100 * deep->gain, 100 * deep->gain_lo, 100 * deep->gain_hi);
	cr_expect_gt(deep->gain, 0.3, "expected ~+60%%, got %+.0f%%", 100 * deep->gain);
	cr_expect_eq(thr->verdict, DALIC_TUNE_SAME, "num_threads: %+.1f%% [%+.1f, %+.1f]",
	             100 * thr->gain, 100 * thr->gain_lo, 100 * thr->gain_hi);
	cr_expect_eq(t->recommended, 1, "%s", t->reason);
	/* the mechanism: the consumer waits ~half the time with one slot, little with three */
	cr_expect_gt(b->mean.consumer_wait, deep->mean.consumer_wait + 0.2,
	             "consumer wait %.2f (depth 1) vs %.2f (depth 3)", b->mean.consumer_wait,
	             deep->mean.consumer_wait);
	dalic_tune_free(t);
	dalic_pipeline_destroy(p);
}

/* Nothing can matter: the batch sleeps on the stage thread and nothing consumes slowly. */
Test(tune_engine, keeps_the_settings_when_nothing_matters)
{
	dalic_pipeline_t *p = tune_engine_pipeline(true, 2, 2, 2, 4000);
	dalic_tune_t *t = tune_engine_create(p, 0, 0);
	tune_engine_add(t, "num_threads=1", 1, 2, 0);
	tune_engine_add(t, "num_threads=4", 4, 2, 0);
	ASSERT_OK(dalic_tune_run(t));
	tune_engine_expect_measured(t);
	for (int i = 1; i < t->n; i++)
		cr_expect_eq(t->s[i].verdict, DALIC_TUNE_SAME, "%s: %+.1f%% [%+.1f, %+.1f]",
		             t->s[i].name, 100 * t->s[i].gain, 100 * t->s[i].gain_lo,
		             100 * t->s[i].gain_hi);
	cr_expect_eq(t->recommended, 0, "%s", t->reason);
	EXPECT_STARTS(t->reason, "keep the current settings: no setting is faster beyond the noise");
	dalic_tune_free(t);
	dalic_pipeline_destroy(p);
}

Test(tune_engine, a_failing_setting_is_reported_and_skipped)
{
	dalic_pipeline_t *p = tune_engine_pipeline(true, 2, 2, 2, 1000);
	dalic_tune_t *t = tune_engine_create(p, 0, 0);
	dalic_tune_setting_t *bad = tune_engine_add(t, "batch_size=0", 2, 2, 0);
	bad->params.batch_size = 0;
	tune_engine_add(t, "num_threads=1", 1, 2, 0);
	ASSERT_OK(dalic_tune_run(t));
	cr_expect_neq(t->s[1].status, DALIC_OK);
	cr_expect(t->s[1].error[0], "the failure carries its message");
	cr_expect_eq(t->s[1].verdict, DALIC_TUNE_UNMEASURED);
	cr_expect_geq(t->s[2].num_trials, 2);
	cr_expect_neq(t->recommended, 1);
	dalic_tune_free(t);
	dalic_pipeline_destroy(p);
}
