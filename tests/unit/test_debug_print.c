/*
 * Debug mode: printing values as DALI's debug mode does, and replaying print() records of
 * debug=True scripts.
 *
 * The expected texts were produced by numpy 2.4's np.array2string and by DALI's
 * _tensorlist_to_string / DataNodeDebug.__str__ (nvidia/dali/tensors.py, _debug_mode.py)
 * run on the same arrays, so they pin the formats, not just their shape.
 */
#include "tests/testlib.h"

#include "engine/batch.h"
#include "engine/graphdef.h"
#include "engine/pipeline.h"

TestSuite(debug_print, .timeout = 60);

/* A host batch of `n` samples of one shape, filled from `data` (n * elems values). */
static dalic_batch_t *debug_print_make_batch(dalic_dtype_t t, int n, int ndim, const int64_t *shape,
                                             const void *data)
{
	dalic_batch_t *b = calloc(1, sizeof *b);
	dalic_batch_init(b, DALIC_MEM_HOST, false, NULL);
	ASSERT_OK(dalic_batch_set_meta(b, n, t, ndim));
	for (int i = 0; i < n; i++)
		dalic_batch_set_shape(b, i, shape);
	ASSERT_OK(dalic_batch_alloc(b));
	size_t bytes = dalic_batch_sample_bytes(b, 0);
	for (int i = 0; i < n; i++)
		memcpy(b->ptrs[i], (const char *)data + bytes * (size_t)i, bytes);
	return b;
}

static void debug_print_free_batch(dalic_batch_t *b)
{
	dalic_batch_free(b);
	free(b);
}

static void debug_print_expect_sample_text(const dalic_batch_t *b, const char *slice,
                                           const char *want)
{
	char *text = NULL;
	ASSERT_OK(dalic_debug_format_sample(b, 0, slice, &text));
	cr_expect_str_eq(text, want);
	free(text);
}

Test(debug_print, samples_print_as_numpy_does)
{
	float f[] = {0.5f, 0.25f, 1, 2, -1.5f, 3};
	dalic_batch_t *b = debug_print_make_batch(DALIC_FLOAT, 1, 2, (const int64_t[]){2, 3}, f);
	debug_print_expect_sample_text(b, NULL, "[[ 0.5   0.25  1.  ]\n [ 2.   -1.5   3.  ]]");
	debug_print_free_batch(b);

	float e[] = {1e-5f, 1, 100};
	b = debug_print_make_batch(DALIC_FLOAT, 1, 1, (const int64_t[]){3}, e);
	debug_print_expect_sample_text(b, NULL, "[1.e-05 1.e+00 1.e+02]");
	debug_print_free_batch(b);

	float nf[] = {1.5f, NAN, -INFINITY};
	b = debug_print_make_batch(DALIC_FLOAT, 1, 1, (const int64_t[]){3}, nf);
	debug_print_expect_sample_text(b, NULL, "[ 1.5  nan -inf]");
	debug_print_free_batch(b);

	double r[30];
	for (int i = 0; i < 30; i++)
		r[i] = i / 7.0;
	b = debug_print_make_batch(DALIC_FLOAT64, 1, 1, (const int64_t[]){30}, r);
	debug_print_expect_sample_text(
	    b, NULL,
	    "[0.         0.14285714 0.28571429 0.42857143 0.57142857 0.71428571\n"
	    " 0.85714286 1.         1.14285714 1.28571429 1.42857143 1.57142857\n"
	    " 1.71428571 1.85714286 2.         2.14285714 2.28571429 2.42857143\n"
	    " 2.57142857 2.71428571 2.85714286 3.         3.14285714 3.28571429\n"
	    " 3.42857143 3.57142857 3.71428571 3.85714286 4.         4.14285714]");
	debug_print_free_batch(b);

	uint8_t u[1200];
	for (int i = 0; i < 1200; i++)
		u[i] = (uint8_t)(i % 251);
	b = debug_print_make_batch(DALIC_UINT8, 1, 2, (const int64_t[]){40, 30}, u);
	debug_print_expect_sample_text(
	    b, NULL,
	    "[[  0   1   2 ...  27  28  29]\n [ 30  31  32 ...  57  58  59]\n"
	    " [ 60  61  62 ...  87  88  89]\n ...\n [106 107 108 ... 133 134 135]\n"
	    " [136 137 138 ... 163 164 165]\n [166 167 168 ... 193 194 195]]");
	debug_print_free_batch(b);
}

Test(debug_print, slices_follow_numpy_indexing)
{
	int32_t v[24];
	for (int i = 0; i < 24; i++)
		v[i] = i;
	dalic_batch_t *b = debug_print_make_batch(DALIC_INT32, 1, 3, (const int64_t[]){2, 3, 4}, v);
	debug_print_expect_sample_text(b, "0:2, 1", "[[ 4  5  6  7]\n [16 17 18 19]]");
	debug_print_expect_sample_text(b, "1, ::-2, -1", "[23 15]");
	debug_print_expect_sample_text(
	    b, ":, :, 1:3",
	    "[[[ 1  2]\n  [ 5  6]\n  [ 9 10]]\n\n [[13 14]\n  [17 18]\n  [21 22]]]");
	debug_print_expect_sample_text(b, "1, 2, 3", "23");
	char *text = NULL;
	EXPECT_STATUS(dalic_debug_format_sample(b, 0, "5", &text), DALIC_EINVAL);
	EXPECT_ERROR_HAS("out of bounds for axis 0 with size 2");
	EXPECT_STATUS(dalic_debug_format_sample(b, 0, "0, 0, 0, 0", &text), DALIC_EINVAL);
	EXPECT_STATUS(dalic_debug_format_sample(b, 0, "::0", &text), DALIC_EINVAL);
	EXPECT_STATUS(dalic_debug_format_sample(b, 1, NULL, &text), DALIC_EINVAL, "one sample");
	debug_print_free_batch(b);
}

Test(debug_print, batches_print_as_dali_tensor_lists)
{
	float v[] = {1, 2, 3, 4, 5, 6};
	dalic_batch_t *b = debug_print_make_batch(DALIC_FLOAT, 2, 1, (const int64_t[]){3}, v);
	char *text = NULL;
	ASSERT_OK(dalic_debug_format_batch(b, NULL, &text));
	cr_expect_str_eq(text, "TensorListCPU(\n"
	                       "    [[1. 2. 3.]\n"
	                       "     [4. 5. 6.]],\n"
	                       "    dtype=DALIDataType.FLOAT,\n"
	                       "    num_samples=2,\n"
	                       "    shape=[(3,), (3,)])");
	free(text);
	ASSERT_OK(dalic_debug_format_batch(b, "a", &text));
	cr_expect_str_eq(text, "DataNodeDebug(\n"
	                       "    name=\"a\",\n"
	                       "    data=TensorListCPU(\n"
	                       "             [[1. 2. 3.]\n"
	                       "              [4. 5. 6.]],\n"
	                       "             dtype=DALIDataType.FLOAT,\n"
	                       "             num_samples=2,\n"
	                       "             shape=[(3,), (3,)]))");
	free(text);
	/* samples of different shapes print one after another */
	ASSERT_OK(dalic_batch_set_meta(b, 3, DALIC_INT32, 1));
	dalic_batch_set_layout(b, "X");
	for (int k = 0; k < 3; k++)
		dalic_batch_set_shape(b, k, (const int64_t[]){k + 1});
	ASSERT_OK(dalic_batch_alloc(b));
	for (int k = 0; k < 3; k++)
		for (int j = 0; j <= k; j++)
			((int32_t *)b->ptrs[k])[j] = j;
	ASSERT_OK(dalic_debug_format_batch(b, NULL, &text));
	cr_expect_str_eq(text, "TensorListCPU(\n"
	                       "    [[0]\n"
	                       "    [0 1]\n"
	                       "    [0 1 2]],\n"
	                       "    dtype=DALIDataType.INT32,\n"
	                       "    layout=\"X\",\n"
	                       "    num_samples=3,\n"
	                       "    shape=[(1,), (2,), (3,)])");
	free(text);
	/* twenty shapes are cropped to the first and last two */
	ASSERT_OK(dalic_batch_set_meta(b, 20, DALIC_UINT8, 1));
	dalic_batch_set_layout(b, "");
	for (int k = 0; k < 20; k++)
		dalic_batch_set_shape(b, k, (const int64_t[]){1});
	ASSERT_OK(dalic_batch_alloc(b));
	for (int k = 0; k < 20; k++)
		*(uint8_t *)b->ptrs[k] = (uint8_t)k;
	ASSERT_OK(dalic_debug_format_batch(b, NULL, &text));
	EXPECT_HAS(text, "shape=[(1,), (1,), ..., (1,), (1,)])");
	free(text);
	debug_print_free_batch(b);
}

/* a = external_source; c = cast(a, INT32); u = uniform() (printed, not an output) */
static dalic_pipeline_t *debug_print_pipeline(void)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "a");
	dalic_op_t *c = tl_op(p, "cast");
	tl_input(c, "a");
	ASSERT_OK(dalic_op_set_int(c, "dtype", DALIC_INT32));
	dalic_op_t *u = tl_op(p, "random.uniform");
	ASSERT_OK(dalic_op_set_name(u, "u"));
	tl_output(p, c);
	dalic_graphdef_t *def = dalic_pipeline_graphdef(p);
	dalic_srcpos_t pos = {0};
	ASSERT_OK(dalic_graphdef_add_print(def, "a is", 1, (const char *const[]){"a"}, false, pos));
	ASSERT_OK(
	    dalic_graphdef_add_print(def, "", 1, (const char *const[]){"__Cast_1"}, true, pos));
	ASSERT_OK(dalic_graphdef_add_print(def, "u", 1, (const char *const[]){"u"}, true, pos));
	def->debug = true;
	return p;
}

Test(debug_print, print_records_replay_each_iteration_when_their_nodes_are_ready)
{
	dalic_pipeline_t *p = debug_print_pipeline();
	dalic_debug_t *s = tl_debug_open(p);
	tl_capture_t cap = {0};
	dalic_debug_set_print(s, tl_capture_fn, &cap);
	tl_debug_feed_floats(s, "a", 2, (const float[]){1.5f, 2});
	tl_debug_feed_floats(s, "a", 2, (const float[]){3, 4});
	ASSERT_DEBUG_OK(s, dalic_debug_step(s)); /* a */
	cr_assert_not_null(cap.text, "print(a) right after a ran");
	cr_expect_str_eq(cap.text, "a is DataNodeDebug(\n"
	                           "    name=\"a\",\n"
	                           "    data=TensorListCPU(\n"
	                           "             [[1.5]\n"
	                           "              [2. ]],\n"
	                           "             dtype=DALIDataType.FLOAT,\n"
	                           "             num_samples=2,\n"
	                           "             shape=[(1,), (1,)]))\n");
	size_t after_a = cap.n;
	ASSERT_DEBUG_OK(s, dalic_debug_step(s)); /* cast */
	cr_expect_str_eq(cap.text + after_a,
	                 "TensorListCPU(\n"
	                 "    [[2]\n"
	                 "     [2]],\n"
	                 "    dtype=DALIDataType.INT32,\n"
	                 "    num_samples=2,\n"
	                 "    shape=[(1,), (1,)])\n",
	                 "print(c.get()): the cast rounds 1.5 half away from zero");
	size_t after_c = cap.n;
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	cr_expect(!strncmp(cap.text + after_c, "u TensorListCPU(\n", 17),
	          "the printed uniform is kept although it reaches no output: %s",
	          cap.text + after_c);
	size_t one_iteration = cap.n;
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	cr_expect_eq(cap.n > one_iteration, true, "replayed in the next iteration");
	cr_expect(strstr(cap.text + one_iteration, "[[3.]\n              [4.]]"), "%s",
	          cap.text + one_iteration);
	/* fast-forwarding with goto prints nothing */
	size_t before_goto = cap.n;
	ASSERT_DEBUG_OK(s, dalic_debug_goto(s, 1));
	cr_expect_eq(cap.n, before_goto);
	free(cap.text);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_print, a_print_of_an_unknown_node_fails_to_open)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "a");
	dalic_op_t *c = tl_op(p, "cast");
	tl_input(c, "a");
	tl_output(p, c);
	dalic_srcpos_t pos = {0};
	ASSERT_OK(dalic_graphdef_add_print(dalic_pipeline_graphdef(p), "", 1,
	                                   (const char *const[]){"nope"}, false, pos));
	dalic_debug_t *s = NULL;
	EXPECT_STATUS(dalic_debug_open(p, &s), DALIC_EGRAPH);
	cr_expect_null(s);
	EXPECT_ERROR_HAS("nope");
	dalic_pipeline_destroy(p);
}
