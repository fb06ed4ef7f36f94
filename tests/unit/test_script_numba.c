/* Unit tests: numba_function in pipeline scripts — run_fn writes into output arrays, per
 * sample or per batch, setup_fn shapes them, numba's typing (array elements are int64 /
 * float64 scalars, literals next to arrays are int64), @njit helpers as the identity; what
 * DALI checks at definition, build and setup fails with DALI's words; bodies outside the
 * subset are refused at load naming the function and the construct. Expected values are
 * computed by hand from the constant inputs. */
#include "tests/testlib.h"

TestSuite(script_numba, .timeout = 60);

static const char *const numba_head =
    "import numba\n"
    "from numba import njit, prange\n"
    "import nvidia.dali.fn as fn\n"
    "import nvidia.dali.types as types\n"
    "from nvidia.dali import pipeline_def\n"
    "import nvidia.dali.plugin.numba as dali_numba\n"
    "from nvidia.dali.plugin.numba.experimental import NumbaFunction\n";

/* Loads head + body (which makes `p`); runs one iteration when run is set. */
static dalic_pipeline_t *numba_load(const char *body, int want_load, int want_run)
{
	char src[8192];
	snprintf(src, sizeof src, "%s%s", numba_head, body);
	const char *path = tl_write_temp("numba", ".py", src);
	dalic_pipeline_t *p = NULL;
	int rc = dalic_pipeline_load(path, NULL, NULL, &p);
	unlink(path);
	EXPECT_STATUS(rc, want_load);
	if (rc)
		return NULL;
	EXPECT_STATUS(dalic_pipeline_run(p), want_run);
	return p;
}

Test(script_numba, setup_fn_shapes_and_run_fn_fills_per_sample)
{
	/* x = [[200, 100, 7]] (1x3 uint8); the output is 3x2: column 0 the transpose, column 1
	 * the sum of the row as numba types it (int64: 200 + 100 + 7 = 307, stored as uint8:
	 * 307 - 256 = 51) */
	dalic_pipeline_t *p = numba_load(
	    "@njit(cache=True)\n"
	    "def total(row):\n"
	    "    s = 0\n"
	    "    for v in row:\n"
	    "        s += v\n"
	    "    return s\n"
	    "def setup(outs, ins):\n"
	    "    for i in range(len(outs[0])):\n"
	    "        outs[0][i][0] = ins[0][i][1]\n"
	    "        outs[0][i][1] = 2\n"
	    "@numba.jit(nopython=True)\n"
	    "def run(out0, in0):\n"
	    "    for j in prange(in0.shape[1]):\n"
	    "        out0[j, 0] = in0[0, j]\n"
	    "        out0[j, 1] = total(in0[0])\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	    "def pipe():\n"
	    "    x = fn.constant(idata=[200, 100, 7], shape=[1, 3], dtype=types.UINT8)\n"
	    "    return dali_numba.fn.experimental.numba_function(x, run_fn=run, setup_fn=setup,\n"
	    "        out_types=[types.UINT8], in_types=[types.UINT8], outs_ndim=[2],\n"
	    "        ins_ndim=[2])\n"
	    "p = pipe()\n",
	    DALIC_OK, DALIC_OK);
	cr_assert(p);
	const dalic_batch_t *b = dalic_pipeline_output(p, 0);
	cr_assert_eq(dalic_batch_dtype(b), DALIC_UINT8);
	static const uint8_t want[6] = {200, 51, 100, 51, 7, 51};
	for (int s = 0; s < 2; s++) {
		cr_assert_eq(dalic_batch_ndim(b), 2);
		cr_expect_eq(dalic_batch_shape(b, s)[0], 3);
		cr_expect_eq(dalic_batch_shape(b, s)[1], 2);
		const uint8_t *d = dalic_batch_data(b, s);
		for (int i = 0; i < 6; i++)
			cr_expect_eq(d[i], want[i], "sample %d [%d]: %d", s, i, d[i]);
	}
	dalic_pipeline_destroy(p);
}

Test(script_numba, batch_processing_without_setup_takes_the_inputs_shapes_and_types)
{
	/* in0 = [10, 250] uint8: in0 * 2 // 3 is an int64 array in numba: [6, 166]
	 * (NEP 50 would keep uint8 and wrap 500 to 244: 81); in1 = [1.5, -2] float32:
	 * in1 * in1 + sample index */
	dalic_pipeline_t *p = numba_load(
	    "def run(outs0, outs1, ins0, ins1):\n"
	    "    for k in range(len(outs0)):\n"
	    "        outs0[k][:] = ins0[k] * 2 // 3\n"
	    "        for i in range(ins1[k].shape[0]):\n"
	    "            outs1[k][i] = ins1[k][i] * ins1[k][i] + k\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	    "def pipe():\n"
	    "    a = fn.constant(idata=[10, 250], shape=[2], dtype=types.UINT8)\n"
	    "    f = fn.constant(fdata=[1.5, -2.0], shape=[2])\n"
	    "    return tuple(NumbaFunction(run_fn=run, batch_processing=True,\n"
	    "        out_types=[types.UINT8, types.FLOAT], in_types=[types.UINT8, types.FLOAT],\n"
	    "        outs_ndim=[1, 1], ins_ndim=[1, 1])(a, f))\n"
	    "p = pipe()\n",
	    DALIC_OK, DALIC_OK);
	cr_assert(p);
	const dalic_batch_t *u = dalic_pipeline_output(p, 0), *f = dalic_pipeline_output(p, 1);
	cr_assert_eq(dalic_batch_dtype(u), DALIC_UINT8);
	cr_assert_eq(dalic_batch_dtype(f), DALIC_FLOAT);
	for (int s = 0; s < 2; s++) {
		const uint8_t *ud = dalic_batch_data(u, s);
		cr_expect(ud[0] == 6 && ud[1] == 166, "sample %d: %d %d", s, ud[0], ud[1]);
		const float *fd = dalic_batch_data(f, s);
		cr_expect(fd[0] == 2.25f + (float)s && fd[1] == 4.0f + (float)s, "sample %d: %g %g",
		          s, fd[0], fd[1]);
	}
	dalic_pipeline_destroy(p);
}

Test(script_numba, dali_checks_fail_with_dalis_words)
{
	static const char *const pipe_fmt =
	    "def run(out0, in0):\n"
	    "    out0[:] = in0\n"
	    "def neg(outs, ins):\n"
	    "    outs[0][0][0] = -3\n"
	    "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	    "def pipe():\n"
	    "    x = fn.constant(idata=[1, 2], shape=[2], dtype=types.UINT8)\n"
	    "    r = dali_numba.fn.numba_function(x, run_fn=run, %s)\n"
	    "    return tuple(r) if isinstance(r, list) else r\n"
	    "p = pipe()\n";
	static const struct {
		const char *args;
		int load, run;
		const char *msg;
	} cases[] = {
	    {"out_types=[types.UINT8], in_types=[types.UINT8], outs_ndim=[1]", DALIC_EINVAL, 0,
	     "missing 1 required keyword argument: 'ins_ndim'"},
	    {"out_types=[types.UINT8], in_types=[types.UINT8], outs_ndim=[1, 1], ins_ndim=[1]",
	     DALIC_EINVAL, 0, "AssertionError: Number of output types and output dimensions"},
	    {"out_types=[types.FLOAT16], in_types=[types.UINT8], outs_ndim=[1], ins_ndim=[1]",
	     DALIC_EINVAL, 0, "Numba does not support float16"},
	    {"out_types=[types.UINT8], in_types=[types.UINT8], outs_ndim=[1], ins_ndim=[1], "
	     "device='gpu'",
	     DALIC_EUNSUPPORTED, 0, "dalic runs numba_function on the CPU only"},
	    {"out_types=[types.UINT8, types.UINT8], in_types=[types.UINT8], outs_ndim=[1, 1], "
	     "ins_ndim=[1]",
	     DALIC_OK, DALIC_EINVAL,
	     "Size of `out_types` should match size of `in_types` when `setup_fn` isn't"},
	    {"out_types=[types.UINT8], in_types=[types.INT32], outs_ndim=[1], ins_ndim=[1]",
	     DALIC_OK, DALIC_EINVAL,
	     "Data type passed in `in_types` at index 0 doesn't match type of the input data"},
	    {"out_types=[types.UINT8], in_types=[types.UINT8], outs_ndim=[1], ins_ndim=[2]",
	     DALIC_OK, DALIC_EINVAL, "Number of dimensions passed in `ins_ndim` at index 0"},
	    {"out_types=[types.UINT8], in_types=[types.UINT8], outs_ndim=[1], ins_ndim=[1], "
	     "setup_fn=neg",
	     DALIC_OK, DALIC_EINVAL,
	     "After setup function shape for output number 0 in sample 0 at dimension 0 is "
	     "negative."},
	    {"out_types=[types.FLOAT], in_types=[types.UINT8], outs_ndim=[1], ins_ndim=[1]",
	     DALIC_OK, DALIC_EUNSUPPORTED, "without setup_fn output 0 takes input 0's type uint8"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char body[2048];
		snprintf(body, sizeof body, pipe_fmt, cases[i].args);
		dalic_pipeline_t *p = numba_load(body, cases[i].load, cases[i].run);
		cr_expect(tl_text_has(dalic_last_error(), cases[i].msg, false), "case %zu: %s", i,
		          dalic_last_error());
		dalic_pipeline_destroy(p);
	}
}

Test(script_numba, bodies_outside_the_subset_are_refused_at_load)
{
	dalic_pipeline_t *p =
	    numba_load("import scipy.ndimage as nd\n"
	               "def run(out0, in0):\n"
	               "    out0[:] = nd.rotate(in0, 90)\n"
	               "def shape_it(outs, ins):\n"
	               "    global seen\n"
	               "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	               "def pipe():\n"
	               "    x = fn.constant(idata=[1, 2], shape=[2])\n"
	               "    return dali_numba.fn.numba_function(x, run_fn=run,\n"
	               "        out_types=[types.INT32], in_types=[types.INT32],\n"
	               "        outs_ndim=[1], ins_ndim=[1])\n"
	               "p = pipe()\n",
	               DALIC_EUNSUPPORTED, 0);
	cr_expect_null(p);
	cr_expect(tl_text_has(dalic_last_error(),
	                      ":16:12: numba_function 'run': it uses 'nd' (the module "
	                      "scipy.ndimage, which dalic does not model) (in 'run', line 9)",
	                      false),
	          "%s", dalic_last_error());
	p = numba_load("def run(out0, in0):\n"
	               "    out0[:] = in0\n"
	               "def shape_it(outs, ins):\n"
	               "    global seen\n"
	               "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	               "def pipe():\n"
	               "    x = fn.constant(idata=[1, 2], shape=[2])\n"
	               "    return dali_numba.fn.numba_function(x, run_fn=run, setup_fn=shape_it,\n"
	               "        out_types=[types.INT32], in_types=[types.INT32],\n"
	               "        outs_ndim=[1], ins_ndim=[1])\n"
	               "p = pipe()\n",
	               DALIC_EUNSUPPORTED, 0);
	cr_expect(tl_text_has(dalic_last_error(),
	                      "numba_function 'run': it uses a `global` statement", false),
	          "%s", dalic_last_error());
	cr_expect(tl_text_has(dalic_last_error(), "(in 'shape_it', line 10)", false), "%s",
	          dalic_last_error());
}
