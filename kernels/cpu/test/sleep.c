/*
 * _test__Sleep: a test-only operator (internal: hidden from `dalic ops`) for executor tests and
 * benchmarks. Per sample it sleeps (or spins, with busy=True) sleep_us plus a pseudo-random
 * 0..max_us microseconds, then writes its output:
 *   output="copy"   the input sample (requires the input)
 *   output="value"  INT64 scalar iteration * 1000 + sample
 *   output="thread" INT32 scalar: the pool worker that ran the sample
 * It fails on purpose at (fail_iteration, fail_sample), or on a sample whose first element
 * equals fail_value — so tests can make an operator fail through the data they feed.
 * _test__SleepBatch is the same operator working on the whole batch on the stage thread
 * instead of the worker pool, with one wait for the batch — like a device kernel, one launch
 * and one sync per batch (thread -1 in output="thread") — which is what the executor-overlap
 * benchmark uses as its "gpu" op.
 * The random delay depends only on (seed, iteration, sample), never on shared state.
 */
#include "engine/checked.h"
#include "engine/clock.h"
#include "engine/dtype.h"
#include "engine/kernel.h"

#include <string.h>
#include <time.h>

enum { OUT_COPY, OUT_VALUE, OUT_THREAD };

typedef struct sleep_state {
	int output;
	int64_t sleep_us, max_us, fail_iteration, fail_sample, fail_value;
	bool busy, has_fail_value;
} sleep_state_t;

static int sleep_init(dalic_op_ctx_t *ctx)
{
	sleep_state_t *s = ctx->state;
	const char *out = dalic_arg_string(ctx, "output");
	if (!strcmp(out, "copy"))
		s->output = OUT_COPY;
	else if (!strcmp(out, "value"))
		s->output = OUT_VALUE;
	else if (!strcmp(out, "thread"))
		s->output = OUT_THREAD;
	else
		return dalic_op_fail(ctx, NULL, -1, "output must be copy, value or thread, not '%s'",
				     out);
	s->sleep_us = dalic_arg_int(ctx, "sleep_us");
	s->max_us = dalic_arg_int(ctx, "max_us");
	const int64_t hour = 3600000000;
	if (s->sleep_us < 0 || s->sleep_us > hour || s->max_us < 0 || s->max_us > hour)
		return dalic_op_fail(ctx, NULL, -1, "sleep_us and max_us must be within [0, %lld]",
				     (long long)hour);
	s->busy = dalic_arg_bool(ctx, "busy");
	s->fail_iteration = dalic_arg_int(ctx, "fail_iteration");
	s->fail_sample = dalic_arg_int(ctx, "fail_sample");
	s->has_fail_value = dalic_arg_given(ctx, "fail_value");
	s->fail_value = s->has_fail_value ? dalic_arg_int(ctx, "fail_value") : 0;
	return DALIC_OK;
}

static int sleep_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const sleep_state_t *s = ctx->state;
	dalic_batch_t *out = ws->outputs[0];
	if (s->output == OUT_COPY) {
		if (ws->num_inputs < 1)
			return dalic_op_fail(ctx, ws, -1, "output='copy' needs an input");
		return dalic_batch_copy_meta(out, ws->inputs[0]);
	}
	dalic_dtype_t t = s->output == OUT_VALUE ? DALIC_INT64 : DALIC_INT32;
	return dalic_batch_set_meta(out, ws->batch_size, t, 0);
}

static uint64_t sleep_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void sleep_wait_us(int64_t us, bool busy)
{
	if (us <= 0)
		return;
	if (!busy) {
		struct timespec d = {us / 1000000, (us % 1000000) * 1000};
		nanosleep(&d, NULL);
		return;
	}
	const int64_t end = dalic_clock_ns() + us * 1000;
	while (dalic_clock_ns() < end)
		;
}

static int64_t sleep_first_element(const dalic_batch_t *b, int i)
{
	int64_t v;
	if (!dalic_batch_sample_elems(b, i) || !dalic_dtype_is_numeric(b->dtype) ||
	    !dalic_ck_double_to_i64(dalic_dtype_load_f64(b->dtype, b->ptrs[i], 0), &v))
		return INT64_MIN;
	return v;
}

static int64_t sleep_sample_us(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i)
{
	const sleep_state_t *s = ctx->state;
	int64_t extra = 0;
	if (s->max_us > 0)
		extra = (int64_t)(sleep_mix(ctx->seed ^ sleep_mix((uint64_t)ws->iteration * 1024 +
		                                                  (uint64_t)i)) %
		                  (uint64_t)(s->max_us + 1));
	return s->sleep_us + extra;
}

/* Everything after the wait: the planned failures, then the output. */
static int sleep_finish_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const sleep_state_t *s = ctx->state;
	if (ws->iteration == s->fail_iteration && i == s->fail_sample)
		return dalic_op_fail(ctx, ws, i, "failing on purpose (fail_iteration)");
	if (s->has_fail_value && ws->num_inputs > 0 &&
	    sleep_first_element(ws->inputs[0], i) == s->fail_value)
		return dalic_op_fail(ctx, ws, i, "failing on purpose: value %lld",
				     (long long)s->fail_value);
	dalic_batch_t *out = ws->outputs[0];
	if (s->output == OUT_COPY) {
		size_t n = dalic_batch_sample_bytes(out, i);
		if (n)
			memcpy(out->ptrs[i], ws->inputs[0]->ptrs[i], n);
	} else if (s->output == OUT_VALUE) {
		*(int64_t *)out->ptrs[i] = ws->iteration * 1000 + i;
	} else {
		*(int32_t *)out->ptrs[i] = thread;
	}
	return DALIC_OK;
}

static int sleep_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	sleep_wait_us(sleep_sample_us(ctx, ws, i), ((const sleep_state_t *)ctx->state)->busy);
	return sleep_finish_sample(ctx, ws, i, thread);
}

/* One wait for the whole batch, as a device kernel is one launch and one sync. */
static int sleep_run_batch(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	int64_t us = 0;
	for (int i = 0; i < ws->batch_size; i++)
		us += sleep_sample_us(ctx, ws, i);
	sleep_wait_us(us, ((const sleep_state_t *)ctx->state)->busy);
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < ws->batch_size; i++)
		rc = sleep_finish_sample(ctx, ws, i, -1);
	return rc;
}

static const dalic_arg_schema_t args[] = {
	{"output", DALIC_ARG_STRING, "'copy'", "copy, value or thread."},
	{"sleep_us", DALIC_ARG_INT, "0", "Microseconds to wait per sample."},
	{"max_us", DALIC_ARG_INT, "0", "Extra pseudo-random 0..max_us microseconds per sample."},
	{"busy", DALIC_ARG_BOOL, "False", "Spin instead of sleeping."},
	{"fail_iteration", DALIC_ARG_INT, "-1", "Fail at this iteration (with fail_sample)."},
	{"fail_sample", DALIC_ARG_INT, "0", "Sample that fails at fail_iteration."},
	{"fail_value", DALIC_ARG_INT, "None", "Fail on a sample whose first element equals this."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(sleep_state_t),
	.init = sleep_init,
	.setup = sleep_setup,
	.run_sample = sleep_run_sample,
};

static const dalic_kernel_t batch_kernel = {
	.state_size = sizeof(sleep_state_t),
	.init = sleep_init,
	.setup = sleep_setup,
	.run = sleep_run_batch,
};

DALIC_OPERATOR(_test__Sleep) = {
	.name = "_test__Sleep",
	.fn = "_test.sleep",
	.doc = "Test-only: waits per sample, then copies its input or writes a marker; can fail "
	       "on purpose.",
	.min_inputs = 0,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.internal = true,
	.args = args,
	.cpu = &kernel,
};

DALIC_OPERATOR(_test__SleepBatch) = {
	.name = "_test__SleepBatch",
	.fn = "_test.sleep_batch",
	.doc = "Test-only: _test.sleep working per batch on the stage thread (device-like).",
	.min_inputs = 0,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.internal = true,
	.args = args,
	.cpu = &batch_kernel,
};
