/* print() calls of a debug pipeline that compute with values (np.array(node.get()[0]).shape,
 * f-strings, comprehensions): the script's interpreter stays alive with the definition and
 * renders them every iteration with that iteration's batches; an error in one is the
 * iteration's error, with the print's file:line:col. */
#include "tests/testlib.h"

#include "debugmode/session.h"
#include "engine/graphdef.h"
#include "frontend/script.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TestSuite(script_print_eval, .timeout = 30);

#define PRINT_EVAL_HEAD                                                                            \
	"import numpy as np\nimport nvidia.dali\nimport nvidia.dali.fn as fn\n"                    \
	"import nvidia.dali.types as types\n"                                                      \
	"@nvidia.dali.pipeline.experimental.pipeline_def(batch_size=2, num_threads=1, "            \
	"device_id=None, debug=True)\n"                                                            \
	"def p(k=3):\n"                                                                            \
	"    data = fn.constant(idata=[1, 2, 3, 4, 5, 6], shape=[3, 2], dtype=types.INT32)\n"      \
	"    i = fn.cast(data * k, dtype=types.INT16)\n"

static dalic_graphdef_t *print_eval_load(const char *body)
{
	char text[2048];
	snprintf(text, sizeof text, "%s%s    return i\npipe = p()\n", PRINT_EVAL_HEAD, body);
	const char *path = tl_write_temp("print_eval", ".py", text);
	dalic_graphdef_t *def = NULL;
	ASSERT_OK(dalic_script_load(path, NULL, &def));
	unlink(path);
	return def;
}

/* Runs n iterations of def in debug mode; returns what the prints wrote (free()). */
static char *print_eval_run(const dalic_graphdef_t *def, int n)
{
	dalic_debug_t *s;
	ASSERT_OK(dalic_debug_open_def(def, &s));
	tl_capture_t cap = {0};
	dalic_debug_set_print(s, tl_capture_fn, &cap);
	for (int i = 0; i < n; i++)
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	dalic_debug_close(s);
	return cap.text ? cap.text : strdup("");
}

Test(script_print_eval, numpy_of_a_sample_prints_every_iteration)
{
	dalic_graphdef_t *def = print_eval_load(
	    "    print(np.array(i.get()[0]).shape)\n"
	    "    print('sum', np.array(i.get()[1]).sum(), len(i.get()))\n");
	cr_assert_eq(def->num_prints, 2);
	cr_expect_geq(def->prints[0].eval, 0, "rendered by the script");
	cr_expect_eq(def->prints[0].pos.line, 9);
	char *out = print_eval_run(def, 2);
	/* 3 * (1 + ... + 6) = 63 */
	cr_expect_str_eq(out, "(3, 2)\nsum 63 2\n(3, 2)\nsum 63 2\n");
	free(out);
	dalic_graphdef_free(def);
}

Test(script_print_eval, tensors_print_as_dali_prints_them)
{
	dalic_graphdef_t *def = print_eval_load(
	    "    t = i.get()\n"
	    "    print(f'{t[1]}', t.shape(), t[0].shape(), t.dtype, sep=' | ')\n"
	    "    print(t.as_array().tolist()[1][2], [int(np.array(s).max()) for s in t], end='!\\n')\n");
	char *out = print_eval_run(def, 1);
	cr_expect_str_eq(out, "TensorCPU(\n"
	                      "    [[ 3  6]\n"
	                      "     [ 9 12]\n"
	                      "     [15 18]],\n"
	                      "    dtype=DALIDataType.INT16,\n"
	                      "    device=\"cpu\",\n"
	                      "    shape=(3, 2)) | [(3, 2), (3, 2)] | [3, 2] | DALIDataType.INT16\n"
	                      "[15, 18] [18, 18]!\n");
	free(out);
	dalic_graphdef_free(def);
}

Test(script_print_eval, names_keep_their_traced_values)
{
	/* k is the pipeline function's parameter: the print reads the value it had when traced */
	dalic_graphdef_t *def = print_eval_load(
	    "    label = 'x%d' % k\n"
	    "    print(label, int(np.array(i.get()[0])[0, 0]) // k)\n"
	    "    label = 'changed'\n");
	char *out = print_eval_run(def, 1);
	cr_expect_str_eq(out, "x3 1\n");
	free(out);
	dalic_graphdef_free(def);
}

Test(script_print_eval, clones_share_the_interpreter)
{
	dalic_graphdef_t *def = print_eval_load("    print(np.array(i.get()[1]).shape[::-1])\n");
	dalic_graphdef_t *copy = dalic_graphdef_clone(def);
	cr_assert(copy);
	dalic_graphdef_free(def); /* the clone keeps the script alive */
	char *out = print_eval_run(copy, 2);
	cr_expect_str_eq(out, "(2, 3)\n(2, 3)\n");
	free(out);
	dalic_graphdef_free(copy);
}

Test(script_print_eval, an_error_in_a_print_is_the_iterations_error)
{
	dalic_graphdef_t *def = print_eval_load("    print(np.array(i.get()[1])[5])\n");
	dalic_debug_t *s;
	ASSERT_OK(dalic_debug_open_def(def, &s));
	tl_capture_t cap = {0};
	dalic_debug_set_print(s, tl_capture_fn, &cap);
	cr_expect_neq(dalic_debug_next(s), 0);
	const char *err = dalic_debug_last_error(s);
	EXPECT_HAS(err, ":9:11: IndexError: index 5 is out of bounds for axis 0 with size 3");
	EXPECT_HAS(err, "    print(np.array(i.get()[1])[5])\n          ^");
	cr_expect_null(cap.text, "the failed print wrote nothing");
	free(cap.text);
	dalic_debug_close(s);
	dalic_graphdef_free(def);
}

Test(script_print_eval, dalic_run_prints_the_shapes_of_a_real_module)
{
	tl_cmd_t c = tl_dalic(NULL, "run samples/scripts/real/debug_shapes.py -n 4");
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "(300, 451, 3)\n[[300, 451, 3], [300, 451, 3], [300, 451, 3]]\n"
	                  "labels: [0, 0, 0]\n"
	                  "(451, 300, 3)\n[[451, 300, 3], [300, 451, 3], [300, 451, 3]]\n"
	                  "labels: [0, 0, 0]\n"
	                  "(400, 600, 3)\n[[400, 600, 3], [400, 600, 3], [200, 300, 3]]\n"
	                  "labels: [1, 1, 1]\n"
	                  "(512, 512, 3)\n[[512, 512, 3], [427, 640, 3], [427, 640, 3]]\n"
	                  "labels: [2, 2, 2]\n");
	tl_cmd_free(&c);
}
