/* Unit tests: python_function with the script's numpy subset — the function gets each sample
 * as a numpy array of the input's type (as DALI hands it) and may return numpy arrays, which
 * keep their dtype; a numpy function outside the subset is an error naming the operator, the
 * sample and the line. Values checked against DALI 2.4's run of the same module. */
#include "tests/testlib.h"

#include <unistd.h>

static const char pyfn_numpy_module[] =
    "import nvidia.dali.fn as fn\n"
    "import numpy as np\n"
    "from nvidia.dali import pipeline_def\n"
    "def rev2(x):\n"
    "    return np.array(x)[::-1] * 2\n"
    "def halves(x):\n"
    "    return x.astype(np.float32) / 2\n"
    "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)\n"
    "def pipe():\n"
    "    x = fn.constant(idata=[1, 2, 3], shape=[3])\n"
    "    return fn.python_function(x, function=rev2), fn.python_function(x, function=halves)\n"
    "p = pipe()\n";

Test(script_pyfn_numpy, inputs_are_arrays_of_the_input_type_and_array_results_keep_theirs)
{
	const char *path = tl_write_temp("pyfnnp", ".py", pyfn_numpy_module);
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_load(path, NULL, NULL, &p));
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *r = dalic_pipeline_output(p, 0), *h = dalic_pipeline_output(p, 1);
	/* DALI: [6 4 2] int32 and [0.5 1. 1.5] float32 */
	cr_assert_eq(dalic_batch_dtype(r), DALIC_INT32);
	cr_assert_eq(dalic_batch_dtype(h), DALIC_FLOAT);
	for (int s = 0; s < 2; s++) {
		const int32_t *ri = dalic_batch_data(r, s);
		const float *hf = dalic_batch_data(h, s);
		cr_expect_eq(dalic_batch_shape(r, s)[0], 3);
		cr_expect(ri[0] == 6 && ri[1] == 4 && ri[2] == 2, "%d %d %d", ri[0], ri[1], ri[2]);
		cr_expect(hf[0] == 0.5f && hf[1] == 1.0f && hf[2] == 1.5f, "%g %g %g", hf[0], hf[1],
		          hf[2]);
	}
	dalic_pipeline_destroy(p);
	unlink(path);
}

Test(script_pyfn_numpy, a_numpy_function_outside_the_subset_names_operator_sample_and_line)
{
	const char *path = tl_write_temp("pyfnnp", ".py",
	                                 "import nvidia.dali.fn as fn\n"
	                                 "import numpy as np\n"
	                                 "from nvidia.dali import pipeline_def\n"
	                                 "def f(x):\n"
	                                 "    return np.flip(x, 0)\n"
	                                 "@pipeline_def(batch_size=2, num_threads=1, "
	                                 "device_id=None, seed=1)\n"
	                                 "def pipe():\n"
	                                 "    x = fn.constant(idata=[1, 2, 3], shape=[3])\n"
	                                 "    return fn.python_function(x, function=f)\n"
	                                 "p = pipe()\n");
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_load(path, NULL, NULL, &p));
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EUNSUPPORTED);
	EXPECT_ERROR_HAS("(python_function): sample 0: ");
	cr_expect(tl_text_has(dalic_last_error(),
	                      ":5:12: AttributeError: module 'numpy' has no attribute 'flip'", false),
	          "%s", dalic_last_error());
	dalic_pipeline_destroy(p);
	unlink(path);
}

/* a debug pipeline's value-computing print() and python_function share the load's
 * interpreter (sdruntime.h): the print shows the function's result every iteration */
Test(script_pyfn_numpy, a_debug_print_computing_with_values_and_python_function_both_run)
{
	const char *path = tl_write_temp("pyfnnp", ".py",
	                                 "import nvidia.dali.fn as fn\n"
	                                 "import numpy as np\n"
	                                 "from nvidia.dali import pipeline_def\n"
	                                 "def f(x):\n"
	                                 "    return [v * 10 for v in x] + [7]\n"
	                                 "@pipeline_def(batch_size=2, num_threads=1, "
	                                 "device_id=None, seed=1, debug=True)\n"
	                                 "def pipe():\n"
	                                 "    x = fn.constant(idata=[1, 2, 3], shape=[3])\n"
	                                 "    y = fn.python_function(x, function=f)\n"
	                                 "    print(np.array(y.get()[0]).shape, "
	                                 "int(np.array(y.get()[1]).sum()))\n"
	                                 "    return y\n"
	                                 "p = pipe()\n");
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 3 2>&1", path);
	cr_expect_eq(c.status, 0, "%s", c.out);
	/* [10, 20, 30, 7]: shape (4,), sum 67, printed in each of the 3 iterations */
	cr_expect(tl_text_has(c.out, "(4,) 67\n(4,) 67\n(4,) 67\n", false), "%s", c.out);
	tl_cmd_free(&c);
	unlink(path);
}
