/*
 * `dalic tune --apply` and what it is built on: the rewrite of the call that creates the
 * pipeline in a script (stats/tune_apply.c; keywords replaced in place or appended, strings,
 * comments and nested calls left alone), the bytes_per_sample_hint snippet, and --apply
 * through the binary on a script whose best setting is known by construction (deeper
 * prefetch for a slow consumer, see test_tune_cli.c) and on one where nothing can matter
 * (nothing is written); what it writes for a .pb, from the engine.
 */
#include "tests/testlib.h"

#include "stats/tune.h"

TestSuite(tune_apply, .timeout = 90, .fini = tl_tmpdir_remove);

static dalic_pipeline_params_t tune_apply_params(int threads, int cpu, int gpu, bool separated)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	p.batch_size = 2;
	p.num_threads = threads;
	p.prefetch_cpu = cpu;
	p.prefetch_gpu = gpu;
	p.separated_queues = separated;
	return p;
}

Test(tune_apply, rewrites_only_the_call_that_creates_the_pipeline)
{
	const char *src = "from nvidia.dali import pipeline_def\n"
	                  "# slow(num_threads=9) in a comment stays\n"
	                  "@pipeline_def(enable_conditionals=False)\n"
	                  "def slow(n):\n"
	                  "    s = \"slow(num_threads=8)\"\n"
	                  "    return fn.zeros(shape=[n])\n"
	                  "\n"
	                  "pipe = slow(3, batch_size=2, num_threads=max(1, 2),  # two\n"
	                  "            device_id=None)\n";
	dalic_pipeline_params_t base = tune_apply_params(2, 2, 2, false);
	dalic_pipeline_params_t chosen = tune_apply_params(4, 3, 2, true);
	char *out = NULL;
	ASSERT_OK(dalic_tune_rewrite_script(src, "x.py", &base, &chosen, &out));
	const char *want = "from nvidia.dali import pipeline_def\n"
	                   "# slow(num_threads=9) in a comment stays\n"
	                   "@pipeline_def(enable_conditionals=False)\n"
	                   "def slow(n):\n"
	                   "    s = \"slow(num_threads=8)\"\n"
	                   "    return fn.zeros(shape=[n])\n"
	                   "\n"
	                   "pipe = slow(3, batch_size=2, num_threads=4,  # two\n"
	                   "            device_id=None, prefetch_queue_depth={\"cpu_size\": 3, "
	                   "\"gpu_size\": 2})\n";
	cr_expect_str_eq(out, want);
	free(out);
	/* nothing differs: the text comes back as it was */
	ASSERT_OK(dalic_tune_rewrite_script(src, "x.py", &base, &base, &out));
	cr_expect_str_eq(out, src);
	free(out);
	/* an empty call gets the first argument without a comma */
	ASSERT_OK(dalic_tune_rewrite_script("@pipeline_def\ndef p():\n    pass\nx = p()\n", "y.py",
	                                    &base, &chosen, &out));
	EXPECT_HAS(out, "x = p(num_threads=4, prefetch_queue_depth={");
	free(out);
}

Test(tune_apply, scripts_it_cannot_edit_are_refused_with_the_reason)
{
	dalic_pipeline_params_t b = tune_apply_params(2, 2, 2, false);
	dalic_pipeline_params_t c = tune_apply_params(4, 2, 2, false);
	char *out = NULL;
	ASSERT_STATUS(dalic_tune_rewrite_script("pipe = Pipeline(batch_size=2)\n", "a.py", &b, &c,
	                                        &out),
	              DALIC_EUNSUPPORTED);
	EXPECT_ERROR_HAS("a.py: no @pipeline_def function");
	ASSERT_STATUS(dalic_tune_rewrite_script("@pipeline_def\ndef p():\n    pass\n", "b.py", &b,
	                                        &c, &out),
	              DALIC_EUNSUPPORTED);
	EXPECT_ERROR_HAS("b.py: no call of p(...) creates the pipeline");
	ASSERT_STATUS(dalic_tune_rewrite_script("@pipeline_def\ndef p():\n    pass\nq = p(1, (2\n",
	                                        "c.py", &b, &c, &out),
	              DALIC_EPARSE);
	EXPECT_ERROR_HAS("c.py: the call of p( has no closing parenthesis");
	cr_expect_null(out);
}

static const char tune_apply_slow[] =
    "from nvidia.dali import pipeline_def\n"
    "import nvidia.dali.fn as fn\n"
    "\n"
    "@pipeline_def\n"
    "def slow():\n"
    "    return fn._test.sleep_batch(output=\"value\", sleep_us=4000)\n"
    "\n"
    "pipe = slow(batch_size=2, num_threads=2, device_id=None, prefetch_queue_depth=1)\n";

static int tune_apply_depth(const char *path)
{
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_load(path, NULL, NULL, &p), "%s", path);
	int d = dalic_pipeline_params(p)->prefetch_cpu;
	cr_expect_eq(dalic_pipeline_params(p)->num_threads, 2, "%s: only the depth changes", path);
	dalic_pipeline_destroy(p);
	return d;
}

Test(tune_apply, writes_the_deeper_prefetch_into_a_copy_of_the_script)
{
	const char *script = tl_tmp_path("slow.py"), *out = tl_tmp_path("slow_tuned.py");
	tl_write_text(script, tune_apply_slow);
	tl_cmd_t c = tl_dalic(NULL,
	                      "tune %s --consumer-ms 10,10 --axes prefetch -n 8 --warmup 1 "
	                      "--min-trials 2 --budget 5 --ci 5 --apply %s",
	                      script, out);
	cr_assert_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "dalic tune: wrote ");
	char *text = tl_read_file(out, NULL);
	EXPECT_HAS(text, "pipe = slow(batch_size=2, num_threads=2, device_id=None, "
	                 "prefetch_queue_depth=");
	cr_expect_gt(tune_apply_depth(out), 1, "%s", text);
	free(text);
	tl_cmd_free(&c);
}

/* What --apply writes for a .pb: a clone with the setting as DALI's serialized bytes; not
 * per-operator hints, which DALI never serializes. The snippet carries those
 * (random.uniform of 1024 floats: 4096 bytes a sample). */
Test(tune_apply, serializes_the_setting_with_its_hints)
{
	dalic_pipeline_params_t prm = tune_apply_params(2, 2, 2, false);
	prm.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	prm.seed = 3;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	dalic_op_t *u = tl_op(p, "random.uniform");
	ASSERT_OK(dalic_op_set_ints(u, "shape", 1, (int64_t[]){1024}));
	tl_output(p, u);
	dalic_tune_options_t o;
	dalic_tune_options_init(&o);
	o.iterations = 2;
	o.warmup = 1;
	dalic_tune_t *t = NULL;
	ASSERT_OK(dalic_tune_create(p, &o, &t));
	ASSERT_OK(dalic_tune_calibrate(t));
	dalic_pipeline_params_t deep = prm;
	deep.prefetch_cpu = deep.prefetch_gpu = 3;
	dalic_tune_setting_t *s = dalic_tune_add(t, &deep, "", "prefetch_queue_depth=3");
	cr_assert_not_null(s);
	void *buf = NULL;
	size_t len = 0;
	ASSERT_OK(dalic_tune_serialize(t, &t->s[1], &buf, &len));
	dalic_pipeline_t *back = NULL;
	ASSERT_OK(dalic_pipeline_deserialize(buf, len, NULL, &back));
	cr_expect_eq(dalic_pipeline_params(back)->prefetch_cpu, 3);
	cr_expect_eq(dalic_pipeline_params(back)->num_threads, 2);
	dalic_tune_setting_t *h = dalic_tune_add(t, &prm, "", "hints");
	cr_assert_not_null(h);
	h->per_op_hints = true;
	void *none = NULL;
	ASSERT_STATUS(dalic_tune_serialize(t, h, &none, &len), DALIC_EUNSUPPORTED);
	EXPECT_ERROR_HAS("cannot carry per-operator bytes_per_sample_hint");
	cr_expect_null(none);
	char *text = NULL;
	size_t n = 0;
	/* the snippet names the operator by its fn name with the measured value */
	FILE *f = open_memstream(&text, &n);
	cr_assert_not_null(f);
	cr_expect_eq(dalic_tune_write_hints(t, f), 1);
	fclose(f);
	EXPECT_HAS(text, "fn.random.uniform(..., bytes_per_sample_hint=4096)");
	EXPECT_HAS(text, "--bytes-per-sample 4096");
	free(text);
	free(buf);
	dalic_pipeline_destroy(back);
	dalic_tune_free(t);
	dalic_pipeline_destroy(p);
}

/* The batch sleeps on the stage thread: the thread count cannot matter, nothing is written,
 * and the snippet carries the operator's measured hint (an INT64 per sample: 8 bytes). */
Test(tune_apply, nothing_to_apply_when_nothing_matters)
{
	const char *script = tl_tmp_path("flat.py"), *out = tl_tmp_path("flat_tuned.py");
	tl_write_text(script, tune_apply_slow);
	tl_cmd_t c = tl_dalic(NULL,
	                      "tune %s --axes threads -n 8 --warmup 1 --budget 5 "
	                      "--ci 5 --apply %s --prefetch-queue-depth 2",
	                      script, out);
	cr_assert_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "setting: keep the current settings");
	EXPECT_HAS(c.out, "nothing to apply: keep the current settings");
	EXPECT_HAS(c.out, "fn._test.sleep_batch(..., bytes_per_sample_hint=8)");
	EXPECT_HAS(c.out, "--bytes-per-sample 8");
	cr_expect_null(tl_try_read_file(out, NULL), "%s written", out);
	tl_cmd_free(&c);
}
