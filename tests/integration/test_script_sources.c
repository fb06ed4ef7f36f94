/* external_source(source=...) run by dalic's interpreter (frontend/script/dali/sdsource.h):
 * each kind of source DALI takes, the end of an epoch and reset as DALI's Pipeline has them
 * (nvidia/dali/_utils/external_source_impl.py, pipeline.py), the definition-time errors, and
 * a source polled hundreds of times in constant memory (the runtime heap, py/pyarena.h).
 * Expected values are worked out by hand from each source's code. */
#include "tests/testlib.h"

#include "engine/pipeline.h"
#include "frontend/script/dali/sdruntime.h"
#include "frontend/script/py/pyarena.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

TestSuite(script_sources, .timeout = 60);

#define SRC_HEAD                                                                                   \
	"import numpy as np\n"                                                                     \
	"from nvidia.dali import pipeline_def, fn, types\n"

static dalic_pipeline_t *src_load(const char *text)
{
	const char *path = tl_write_temp("sources", ".py", text);
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_load(path, NULL, NULL, &p));
	unlink(path);
	return p;
}

/* Output o of the last run as "v v|v|..." (int32 samples, '|' between samples). */
static const char *src_out(dalic_pipeline_t *p, int o)
{
	static char buf[512];
	const dalic_batch_t *b = dalic_pipeline_output(p, o);
	cr_assert_not_null(b);
	cr_assert_eq(dalic_batch_dtype(b), DALIC_INT32);
	size_t n = 0;
	buf[0] = 0;
	for (int s = 0; s < dalic_batch_num_samples(b); s++) {
		const int64_t *sh = dalic_batch_shape(b, s);
		int64_t count = 1;
		for (int d = 0; d < dalic_batch_ndim(b); d++)
			count *= sh[d];
		const int32_t *v = dalic_batch_data(b, s);
		for (int64_t i = 0; i < count; i++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d",
			                      i   ? " "
			                      : s ? "|"
			                          : "",
			                      v[i]);
	}
	return buf;
}

static void src_run_expect(dalic_pipeline_t *p, const char *want)
{
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(src_out(p, 0), want);
}

static void src_expect_end(dalic_pipeline_t *p)
{
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EEND);
}

/* a generator function without cycle is called once, when the pipeline is defined: after
 * the end and reset its exhausted generator ends the next epoch at once (DALI) */
Test(script_sources, generator_function_runs_then_ends_the_epoch)
{
	dalic_pipeline_t *p =
	    src_load(SRC_HEAD "def gen():\n"
	                      "    for i in range(2):\n"
	                      "        yield [np.array([i, 10 + i], dtype=np.int32),\n"
	                      "               np.array([100 + i], dtype=np.int32)]\n"
	                      "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                      "def pipe():\n"
	                      "    return fn.external_source(source=gen)\n"
	                      "p = pipe()\n");
	src_run_expect(p, "0 10|100");
	src_run_expect(p, "1 11|101");
	src_expect_end(p);
	ASSERT_OK(dalic_pipeline_reset(p));
	src_expect_end(p);
	dalic_pipeline_destroy(p);
}

/* the tutorial's iterator class: __next__ rewinds itself and raises StopIteration */
Test(script_sources, iterator_class_ends_and_restarts_after_reset)
{
	dalic_pipeline_t *p = src_load(
	    SRC_HEAD "class It(object):\n"
	             "    def __init__(self, n):\n"
	             "        self.n = n\n"
	             "    def __iter__(self):\n"
	             "        self.i = 0\n"
	             "        return self\n"
	             "    def __next__(self):\n"
	             "        if self.i >= self.n:\n"
	             "            self.__iter__()\n"
	             "            raise StopIteration\n"
	             "        b = [np.array([self.i * 2 + k], dtype=np.int32) for k in range(2)]\n"
	             "        self.i += 1\n"
	             "        return b\n"
	             "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	             "def pipe():\n"
	             "    return fn.external_source(source=It(2))\n"
	             "p = pipe()\n");
	for (int epoch = 0; epoch < 2; epoch++) {
		src_run_expect(p, "0|1");
		src_run_expect(p, "2|3");
		src_expect_end(p);
		ASSERT_OK(dalic_pipeline_reset(p));
	}
	dalic_pipeline_destroy(p);
}

/* batch_info=True: BatchInfo(iteration, epoch_idx); epoch_idx counts resets */
Test(script_sources, callable_with_batch_info_sees_iteration_and_epoch)
{
	dalic_pipeline_t *p = src_load(
	    SRC_HEAD "def cb(info):\n"
	             "    if info.iteration >= 2:\n"
	             "        raise StopIteration\n"
	             "    return [np.array([info.iteration, info.epoch_idx], dtype=np.int32)] * 2\n"
	             "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	             "def pipe():\n"
	             "    return fn.external_source(source=cb, batch_info=True)\n"
	             "p = pipe()\n");
	src_run_expect(p, "0 0|0 0");
	src_run_expect(p, "1 0|1 0");
	src_expect_end(p);
	ASSERT_OK(dalic_pipeline_reset(p));
	src_run_expect(p, "0 1|0 1");
	src_run_expect(p, "1 1|1 1");
	src_expect_end(p);
	dalic_pipeline_destroy(p);
}

/* batch=True without batch_info: the batch index as an int; a no-argument callable */
Test(script_sources, callables_take_the_batch_index_or_nothing)
{
	dalic_pipeline_t *p =
	    src_load(SRC_HEAD "calls = []\n"
	                      "def by_index(i):\n"
	                      "    return np.full((2, 1), i * 3, dtype=np.int32)\n"
	                      "def no_arg():\n"
	                      "    calls.append(1)\n"
	                      "    return np.full((2, 2), len(calls), dtype=np.int32)\n"
	                      "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                      "def pipe():\n"
	                      "    return (fn.external_source(source=by_index),\n"
	                      "            fn.external_source(source=no_arg))\n"
	                      "p = pipe()\n");
	for (int it = 0; it < 3; it++) {
		char want[64];
		ASSERT_OK(dalic_pipeline_run(p));
		snprintf(want, sizeof want, "%d|%d", it * 3, it * 3);
		cr_expect_str_eq(src_out(p, 0), want);
		snprintf(want, sizeof want, "%d %d|%d %d", it + 1, it + 1, it + 1, it + 1);
		cr_expect_str_eq(src_out(p, 1), want);
	}
	dalic_pipeline_destroy(p);
}

/* batch=False: SampleInfo(idx_in_epoch, idx_in_batch, iteration, epoch_idx) per sample; a
 * StopIteration inside a batch drops it and ends the epoch */
Test(script_sources, per_sample_callable_gets_sample_info)
{
	dalic_pipeline_t *p = src_load(
	    SRC_HEAD "def sample(si):\n"
	             "    if si.idx_in_epoch >= 5:\n"
	             "        raise StopIteration\n"
	             "    return np.array([si.idx_in_epoch, si.idx_in_batch, si.iteration,\n"
	             "                     si.epoch_idx], dtype=np.int32)\n"
	             "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	             "def pipe():\n"
	             "    return fn.external_source(source=sample, batch=False)\n"
	             "p = pipe()\n");
	src_run_expect(p, "0 0 0 0|1 1 0 0");
	src_run_expect(p, "2 0 1 0|3 1 1 0");
	src_expect_end(p);
	ASSERT_OK(dalic_pipeline_reset(p));
	src_run_expect(p, "0 0 0 1|1 1 0 1");
	dalic_pipeline_destroy(p);
}

/* num_outputs=2 over a list of (batch, batch) tuples, cycle='quiet' wrapping around */
Test(script_sources, num_outputs_tuples_and_quiet_cycle)
{
	dalic_pipeline_t *p = src_load(
	    SRC_HEAD "data = [(np.array([[1], [2]], dtype=np.int32),\n"
	             "         np.array([[5], [6]], dtype=np.int32)),\n"
	             "        (np.array([[3], [4]], dtype=np.int32),\n"
	             "         np.array([[7], [8]], dtype=np.int32))]\n"
	             "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	             "def pipe():\n"
	             "    a, b = fn.external_source(source=data, num_outputs=2, cycle='quiet')\n"
	             "    return a, b\n"
	             "p = pipe()\n");
	const char *want[][2] = {{"1|2", "5|6"}, {"3|4", "7|8"}, {"1|2", "5|6"}, {"3|4", "7|8"}};
	for (int it = 0; it < 4; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		cr_expect_str_eq(src_out(p, 0), want[it][0], "iteration %d", it);
		cr_expect_str_eq(src_out(p, 1), want[it][1], "iteration %d", it);
	}
	dalic_pipeline_destroy(p);
}

/* cycle='raise': a fresh generator each epoch; a generator object without cycle is used once */
Test(script_sources, raise_cycle_restarts_a_generator_object_does_not)
{
	const char *body = SRC_HEAD "def g():\n"
	                            "    yield [np.array([1], dtype=np.int32)]\n"
	                            "    yield [np.array([2], dtype=np.int32)]\n"
	                            "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                            "def pipe():\n"
	                            "    return fn.external_source(source=%s)\n"
	                            "p = pipe()\n";
	char text[1024];
	snprintf(text, sizeof text, body, "g, cycle='raise'");
	dalic_pipeline_t *p = src_load(text);
	for (int epoch = 0; epoch < 2; epoch++) {
		src_run_expect(p, "1");
		src_run_expect(p, "2");
		src_expect_end(p);
		ASSERT_OK(dalic_pipeline_reset(p));
	}
	dalic_pipeline_destroy(p);
	snprintf(text, sizeof text, body, "g()");
	p = src_load(text);
	src_run_expect(p, "1");
	src_run_expect(p, "2");
	src_expect_end(p);
	ASSERT_OK(dalic_pipeline_reset(p));
	src_expect_end(p);
	dalic_pipeline_destroy(p);
}

static void src_load_fails(const char *call, const char *want)
{
	char text[1024];
	snprintf(text, sizeof text,
	         SRC_HEAD "def g():\n"
	                  "    yield [np.array([1], dtype=np.int32)]\n"
	                  "def two(a, b):\n"
	                  "    return a\n"
	                  "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                  "def pipe():\n"
	                  "    return fn.external_source(%s)\n"
	                  "p = pipe()\n",
	         call);
	const char *path = tl_write_temp("sources", ".py", text);
	dalic_pipeline_t *p = NULL;
	cr_expect_neq(dalic_pipeline_load(path, NULL, NULL, &p), DALIC_OK, "%s", call);
	EXPECT_ERROR_HAS(want);
	EXPECT_ERROR_HAS(":9:12: ");
	dalic_pipeline_destroy(p);
	unlink(path);
}

Test(script_sources, definition_errors_are_dalis)
{
	src_load_fails("source=g, cycle='sometimes'",
	               "ValueError: Invalid value 'sometimes' for the argument `cycle`");
	src_load_fails("source=g(), cycle=True", "TypeError: Cannot cycle through a generator");
	src_load_fails("source=two", "Found more than one positional argument");
	src_load_fails("source=lambda: 1, cycle='quiet'",
	               "ValueError: The argument `cycle` can only be specified if `source` is "
	               "iterable.");
	src_load_fails("source=3", "TypeError: The `source` must be callable, iterable or a "
	                           "parameterless generator function.");
}

Test(script_sources, data_outside_numpy_arrays_is_an_error_naming_feed)
{
	dalic_pipeline_t *p = src_load(SRC_HEAD "@pipeline_def(batch_size=2, num_threads=1, "
	                                        "device_id=None)\n"
	                                        "def pipe():\n"
	                                        "    return fn.external_source(source=lambda: 7)\n"
	                                        "p = pipe()\n");
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EOP);
	EXPECT_ERROR_HAS("the source gave a batch of type 'int'; dalic takes numpy arrays");
	EXPECT_ERROR_HAS("--feed __ExternalSource_0=PATH");
	dalic_pipeline_destroy(p);
}

/* an endless generator of 256 KiB batches: after warming up, 300 more iterations leave the
 * interpreter's memory where it was (a collection after each poll) */
Test(script_sources, an_endless_generator_runs_in_constant_memory)
{
	dalic_pipeline_t *p =
	    src_load(SRC_HEAD "def gen():\n"
	                      "    i = 0\n"
	                      "    seen = []\n"
	                      "    while True:\n"
	                      "        i += 1\n"
	                      "        seen = [i] + seen[:3]\n"
	                      "        yield [np.zeros((256, 1024), dtype=np.uint8) + (i % 7)]\n"
	                      "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                      "def pipe():\n"
	                      "    return fn.external_source(source=gen)\n"
	                      "p = pipe()\n");
	const dalic_graphdef_t *def = dalic_pipeline_graphdef(p);
	cr_assert_not_null(def->runtime);
	const sdruntime_t *rt = (const sdruntime_t *)def->runtime;
	for (int i = 0; i < 20; i++)
		ASSERT_OK(dalic_pipeline_run(p));
	size_t warm = dalic_pyarena_used(rt->I->a);
	for (int i = 0; i < 300; i++)
		ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *b = dalic_pipeline_output(p, 0);
	cr_expect_eq(((const uint8_t *)dalic_batch_data(b, 0))[5], 320 % 7);
	size_t after = dalic_pyarena_used(rt->I->a);
	cr_expect_leq(after, warm + 4096, "arena grew from %zu to %zu bytes", warm, after);
	dalic_pipeline_destroy(p);
}

/* debug mode records what a Python source gave: a restart replays the same batches (a
 * generator cannot be asked again), and the iterations after them poll it further */
Test(script_sources, debug_restart_replays_a_generators_batches)
{
	dalic_pipeline_t *p =
	    src_load(SRC_HEAD "def gen():\n"
	                      "    i = 0\n"
	                      "    while True:\n"
	                      "        i += 1\n"
	                      "        yield [np.array([i], dtype=np.int32)]\n"
	                      "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                      "def pipe():\n"
	                      "    return fn.external_source(source=gen)\n"
	                      "p = pipe()\n");
	dalic_debug_t *s = tl_debug_open(p);
	const int want[] = {1, 2, 1, 2, 3};
	for (int k = 0; k < 5; k++) {
		if (k == 2)
			ASSERT_DEBUG_OK(s, dalic_debug_restart(s));
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
		const dalic_batch_t *b = dalic_debug_output(s, 0);
		cr_assert_not_null(b);
		cr_expect_eq(*(const int32_t *)dalic_batch_data(b, 0), want[k], "step %d", k);
	}
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}
