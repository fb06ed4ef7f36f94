/* Unit tests: python_function in pipeline scripts — the script's function runs while the
 * pipeline runs (per sample, per batch, several outputs), in every executor mode; bodies
 * outside what dalic evaluates are refused at load naming the function and the construct;
 * errors at run time name the operator, the function and the sample; the operator cannot be
 * serialized, as in DALI. */
#include "tests/testlib.h"

TestSuite(script_pyfn, .timeout = 60);

static const char *const pyfn_module =
    "import nvidia.dali.fn as fn\n"
    "import nvidia.dali.types as types\n"
    "from nvidia.dali import pipeline_def\n"
    "from functools import partial\n"
    "def mirror(x):\n"
    "    return x[::-1]\n"
    "def stats(x, scale):\n"
    "    return [sum(x), len(x)], [v * scale for v in x]\n"
    "def rows(xs):\n"
    "    return [[len(xs), i] for i in range(len(xs))]\n"
    "class Clip:\n"
    "    def __init__(self, hi):\n"
    "        self.hi = hi\n"
    "    def __call__(self, x):\n"
    "        return [min(v, self.hi) for v in x]\n"
    "@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=5)\n"
    "def pipe():\n"
    "    x = fn.constant(idata=[3, 1, 2], shape=[3])\n"
    "    f = fn.constant(fdata=[0.5, 1.5], shape=[2])\n"
    "    m = fn.python_function(x, function=mirror)\n"
    "    s, d = fn.python_function(x, function=partial(stats, scale=2), num_outputs=2)\n"
    "    b = fn.python_function(x, function=rows, batch_processing=True)\n"
    "    c = fn.python_function(x, function=Clip(2))\n"
    "    g = fn.python_function(f, function=lambda v: [w * 2 for w in v])\n"
    "    return m, s, d, b, c, g\n"
    "p = pipe()\n";

static void pyfn_expect_ints(const dalic_batch_t *b, int sample, const int64_t *want, int n,
                             const char *what)
{
	cr_assert_eq(dalic_batch_ndim(b), 1, "%s", what);
	cr_assert_eq(dalic_batch_shape(b, sample)[0], n, "%s", what);
	const void *d = dalic_batch_data(b, sample);
	for (int i = 0; i < n; i++) {
		int64_t got = dalic_batch_dtype(b) == DALIC_INT32 ? ((const int32_t *)d)[i]
		                                                  : ((const int64_t *)d)[i];
		cr_expect_eq(got, want[i], "%s[%d]", what, i);
	}
}

Test(script_pyfn, functions_run_per_sample_per_batch_with_several_outputs)
{
	const char *path = tl_write_temp("pyfn", ".py", pyfn_module);
	static const struct {
		bool pipelined, async;
	} modes[] = {{false, false}, {true, false}, {true, true}};
	for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
		dalic_pipeline_override_t o;
		dalic_pipeline_override_init(&o);
		o.fields = DALIC_PARAM_EXEC_PIPELINED | DALIC_PARAM_EXEC_ASYNC;
		o.params.exec_pipelined = modes[m].pipelined;
		o.params.exec_async = modes[m].async;
		dalic_pipeline_t *p;
		ASSERT_OK(dalic_pipeline_load(path, NULL, &o, &p));
		for (int it = 0; it < 3; it++) {
			ASSERT_OK(dalic_pipeline_run(p), "mode %zu", m);
			for (int s = 0; s < 2; s++) {
				/* indexing keeps the input's type, as numpy does */
				const dalic_batch_t *mb = dalic_pipeline_output(p, 0);
				cr_expect_eq(dalic_batch_dtype(mb), DALIC_INT32);
				pyfn_expect_ints(mb, s, (int64_t[]){2, 1, 3}, 3, "mirror");
				pyfn_expect_ints(dalic_pipeline_output(p, 1), s, (int64_t[]){6, 3}, 2,
				                 "sum, len");
				pyfn_expect_ints(dalic_pipeline_output(p, 2), s, (int64_t[]){6, 2, 4}, 3,
				                 "scaled");
				pyfn_expect_ints(dalic_pipeline_output(p, 3), s, (int64_t[]){2, s}, 2,
				                 "per batch");
				pyfn_expect_ints(dalic_pipeline_output(p, 4), s, (int64_t[]){2, 1, 2}, 3,
				                 "clip");
				const dalic_batch_t *g = dalic_pipeline_output(p, 5);
				cr_expect_eq(dalic_batch_dtype(g), DALIC_FLOAT);
				const float *gv = dalic_batch_data(g, s);
				cr_expect(gv[0] == 1.0f && gv[1] == 3.0f, "lambda: %g %g", gv[0], gv[1]);
			}
		}
		dalic_pipeline_destroy(p);
	}
	unlink(path);
}

static const char *pyfn_load_error(const char *body_and_pipe, int code)
{
	static char msg[4096];
	char src[4096];
	snprintf(src, sizeof src,
	         "import nvidia.dali.fn as fn\n"
	         "import numpy as np\n"
	         "from nvidia.dali import pipeline_def\n"
	         "counter = 0\n"
	         "%s"
	         "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)\n"
	         "def pipe():\n"
	         "    x = fn.constant(idata=[1, 2], shape=[2])\n"
	         "    return fn.python_function(x, function=f)\n"
	         "p = pipe()\n",
	         body_and_pipe);
	const char *path = tl_write_temp("pyfn", ".py", src);
	dalic_pipeline_t *p = NULL;
	int rc = dalic_pipeline_load(path, NULL, NULL, &p);
	dalic_pipeline_destroy(p);
	unlink(path);
	EXPECT_STATUS(rc, code);
	snprintf(msg, sizeof msg, "%s", dalic_last_error());
	char *slash = strstr(msg, path);
	(void)slash;
	return msg;
}

Test(script_pyfn, bodies_outside_the_subset_are_refused_naming_the_construct)
{
	/* numpy is modelled (a subset); scipy is not */
	const char *m = pyfn_load_error("import scipy.ndimage as nd\n"
	                                "def f(x):\n"
	                                "    return nd.rotate(x, 90)\n",
	                                DALIC_EUNSUPPORTED);
	cr_expect(tl_text_has(m, ":11:12: python_function 'f': it uses 'nd' (the module "
	                         "scipy.ndimage, which dalic does not model) (in 'f', line 6)",
	                      false),
	          "%s", m);
	m = pyfn_load_error("def f(x):\n"
	                    "    global counter\n"
	                    "    counter += 1\n"
	                    "    return x\n",
	                    DALIC_EUNSUPPORTED);
	cr_expect(tl_text_has(m, "python_function 'f': it uses a `global` statement", false), "%s",
	          m);
	/* a helper the function calls is checked too */
	m = pyfn_load_error("def helper(v):\n"
	                    "    return fn.flip(v)\n"
	                    "def f(x):\n"
	                    "    return helper(x)\n",
	                    DALIC_EUNSUPPORTED);
	cr_expect(tl_text_has(m, "python_function 'f': it uses 'fn' (function): DALI operators and "
	                         "pipelines do not run inside a python_function (in 'helper'",
	                      false),
	          "%s", m);
	m = pyfn_load_error("def f(x):\n"
	                    "    return missing(x)\n",
	                    DALIC_EUNSUPPORTED);
	cr_expect(tl_text_has(m, "it uses 'missing', which is not defined when the module has run",
	                      false),
	          "%s", m);
	m = pyfn_load_error("f = 3\n", DALIC_EINVAL);
	cr_expect(tl_text_has(m, "TypeError: python_function: `function` must be callable, not "
	                         "'int'",
	                      false),
	          "%s", m);
}

Test(script_pyfn, errors_at_run_time_name_the_function_and_sample)
{
	const char *path = tl_write_temp("pyfn", ".py",
	                                 "import nvidia.dali.fn as fn\n"
	                                 "from nvidia.dali import pipeline_def\n"
	                                 "def f(x):\n"
	                                 "    return [int('nope')]\n"
	                                 "def g(x):\n"
	                                 "    return 'text'\n"
	                                 "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                                 "def bad_parse():\n"
	                                 "    return fn.python_function(fn.constant(idata=[1]), "
	                                 "function=f)\n"
	                                 "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                                 "def bad_result():\n"
	                                 "    return fn.python_function(fn.constant(idata=[1]), "
	                                 "function=g)\n"
	                                 "a = bad_parse()\n"
	                                 "b = bad_result()\n");
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_load(path, "a", NULL, &p));
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EINVAL);
	EXPECT_ERROR_HAS("operator '__PythonFunction_1' (python_function): sample 0:");
	EXPECT_ERROR_HAS(":4:13: ValueError: invalid literal for int() with base 10: 'nope'");
	dalic_pipeline_destroy(p);
	ASSERT_OK(dalic_pipeline_load(path, "b", NULL, &p));
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EINVAL);
	EXPECT_ERROR_HAS("python_function 'g': the result holds a 'str'");
	/* DALI cannot serialize the operator either */
	void *buf = NULL;
	size_t len = 0;
	dalic_pipeline_t *q;
	ASSERT_OK(dalic_pipeline_load(path, "b", NULL, &q));
	EXPECT_STATUS(dalic_pipeline_serialize(q, &buf, &len), DALIC_EUNSUPPORTED);
	EXPECT_ERROR_HAS("Could not serialize the operator");
	free(buf);
	dalic_pipeline_destroy(q);
	dalic_pipeline_destroy(p);
	unlink(path);
}
