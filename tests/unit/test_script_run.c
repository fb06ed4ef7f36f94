/* End-to-end tests: pipeline scripts (samples/scripts and inline ones) loaded, built and
 * run through the engine; conditionals checked sample by sample. Run from the source root
 * (the samples read samples/images). */
#include "tests/testlib/script.h"

#include "engine/dtype.h"
#include "engine/pipeline.h"
#include "frontend/script_output.h"
#include "tests/testlib.h"

#include <criterion/redirect.h>
#include <dirent.h>

TestSuite(script_run, .timeout = 20);

static dalic_pipeline_t *script_run_load_file(const char *path)
{
	dalic_graphdef_t *g = NULL;
	ASSERT_OK(dalic_script_load(path, NULL, &g));
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
	return p;
}

static dalic_pipeline_t *script_run_load_text(const char *text)
{
	const char *path = tl_write_temp("script", ".py", text);
	dalic_pipeline_t *p = script_run_load_file(path);
	unlink(path);
	return p;
}

static const dalic_batch_t *script_run_out(dalic_pipeline_t *p, int i)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, i);
	cr_assert_not_null(b);
	return b;
}

static bool script_run_same_sample(const dalic_batch_t *a, int i, const dalic_batch_t *b, int j)
{
	size_t n = dalic_batch_sample_bytes(a, i);
	return n == dalic_batch_sample_bytes(b, j) &&
	       !memcmp(dalic_batch_data(a, i), dalic_batch_data(b, j), n);
}

Test(script_run, every_sample_script_runs)
{
	DIR *d = opendir("samples/scripts");
	cr_assert_not_null(d, "run the tests from the source root");
	int count = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 3, ".py"))
			continue;
		char path[512];
		snprintf(path, sizeof path, "samples/scripts/%s", e->d_name);
		cr_redirect_stdout(); /* the samples print while they are traced */
		dalic_pipeline_t *p = script_run_load_file(path);
		EXPECT_OK(dalic_pipeline_run(p), "%s", path);
		cr_expect_gt(dalic_pipeline_num_outputs(p), 0, "%s", path);
		dalic_pipeline_destroy(p);
		count++;
	}
	closedir(d);
	cr_expect_geq(count, 10);
}

Test(script_run, conditional_rotate_changes_only_the_chosen_samples)
{
	dalic_pipeline_t *p = script_run_load_file("samples/scripts/conditional_rotate.py");
	for (int it = 0; it < 3; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *res = script_run_out(p, 0), *orig = script_run_out(p, 1),
		                    *pred = script_run_out(p, 2);
		int n = dalic_batch_num_samples(orig), taken = 0;
		cr_assert_eq(dalic_batch_num_samples(res), n);
		for (int i = 0; i < n; i++) {
			bool rotated = tl_at(pred, i, 0) != 0;
			taken += rotated;
			cr_expect_eq(script_run_same_sample(res, i, orig, i), !rotated,
			             "iteration %d sample %d: rotated %d", it, i, rotated);
		}
	}
	dalic_pipeline_destroy(p);
}

Test(script_run, manual_split_merge_keeps_order)
{
	dalic_pipeline_t *p = script_run_load_file("samples/scripts/manual_split_merge.py");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *merged = script_run_out(p, 0), *value = script_run_out(p, 1),
	                    *pred = script_run_out(p, 2);
	const dalic_batch_t *negated = script_run_out(p, 3), *validated = script_run_out(p, 4);
	int trues = 0;
	for (int i = 0; i < 8; i++) {
		bool t = tl_at(pred, i, 0) != 0;
		trues += t;
		cr_expect_float_eq(tl_at(merged, i, 0), tl_at(value, i, 0) + (t ? 10 : 0), 1e-5,
		                   "sample %d", i);
		cr_expect_eq(tl_at(negated, i, 0), !t);
		cr_expect_eq(tl_at(validated, i, 0), t);
	}
	cr_expect(trues > 0 && trues < 8, "the seed gives both branches samples");
	cr_expect_eq(dalic_batch_dtype(negated), DALIC_BOOL);
	dalic_pipeline_destroy(p);
}

Test(script_run, helper_function_conditionals_per_sample)
{
	dalic_pipeline_t *p = script_run_load_file("samples/scripts/helper_conditional.py");
	for (int it = 0; it < 2; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *res = script_run_out(p, 0), *value = script_run_out(p, 1);
		for (int i = 0; i < 8; i++) {
			double v = tl_at(value, i, 0), want = v;
			bool low = v<30, high = v> 70;
			if (low && !high)
				want = v * 2;
			else if (high || low)
				want = v - 1;
			cr_expect_float_eq(tl_at(res, i, 0), want, 1e-4, "value %g", v);
		}
	}
	dalic_pipeline_destroy(p);
}

Test(script_run, nested_dict_conditional_per_sample)
{
	dalic_pipeline_t *p = script_run_load_file("samples/scripts/nested_dict_conditional.py");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *value = script_run_out(p, 0), *first = script_run_out(p, 1),
	                    *second = script_run_out(p, 2);
	const dalic_batch_t *pred = script_run_out(p, 3);
	for (int i = 0; i < 6; i++) {
		bool t = tl_at(pred, i, 0) != 0;
		double x = t ? tl_at(first, i, 0) : tl_at(first, i, 0) - 1;
		cr_expect_float_eq(tl_at(value, i, 0), t ? x * 100 : x, 1e-3, "sample %d", i);
		cr_expect_float_eq(tl_at(second, i, 0), t ? 1.0 : 2.0, 1e-6, "sample %d", i);
	}
	dalic_pipeline_destroy(p);
}

Test(script_run, tracing_prints_while_the_definition_runs, .init = cr_redirect_stdout)
{
	dalic_pipeline_t *p = script_run_load_file("samples/scripts/tracing.py");
	fflush(stdout);
	cr_expect_stdout_eq_str("Python condition: only this branch is traced\n"
	                        "DataNode condition: tracing the true branch with "
	                        "DataNode(name=\"__Split_3[0]\", device=\"cpu\")\n"
	                        "DataNode condition: tracing the false branch with "
	                        "DataNode(name=\"__Split_3[1]\", device=\"cpu\")\n");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *res = script_run_out(p, 0), *pred = script_run_out(p, 1);
	for (int i = 0; i < 4; i++) {
		double r = tl_at(res, i, 0);
		if (tl_at(pred, i, 0))
			cr_expect(r >= 200 && r < 202, "doubled value + offset: %g", r);
		else
			cr_expect(r <= -100 && r > -101, "negated value + offset: %g", r);
	}
	dalic_pipeline_destroy(p);
}

Test(script_run, arithmetic_sample_values)
{
	dalic_pipeline_t *p = script_run_load_file("samples/scripts/arithmetic.py");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *clamped = script_run_out(p, 3), *magnitude = script_run_out(p, 4),
	                    *pos = script_run_out(p, 5);
	cr_expect_eq(dalic_batch_dtype(pos), DALIC_BOOL);
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 4; k++) {
			double c = tl_at(clamped, i, k), m = tl_at(magnitude, i, k);
			cr_expect(c >= -1 && c <= 1, "clamp(a, -1.0, 1.0): %g", c);
			cr_expect(m >= 0 && m <= 3.17, "sqrt(abs(a)) for |a| <= 10: %g", m);
			/* a > 0 exactly when its clamp is > 0 */
			cr_expect_eq(tl_at(pos, i, k) != 0, c > 0);
		}
	dalic_pipeline_destroy(p);
}

Test(script_run, predicate_restrictions_are_dalis)
{
	dalic_pipeline_t *p =
	    script_run_load_text("from nvidia.dali import pipeline_def, fn\n"
	                         "@pipeline_def(batch_size=2, num_threads=1, device_id=None,\n"
	                         "              enable_conditionals=True)\n"
	                         "def pipe():\n"
	                         "    x = fn.random.uniform(shape=[2])\n"
	                         "    if x > 0:\n"
	                         "        x = x + 1\n"
	                         "    return x\n"
	                         "p = pipe()\n");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Conditions inside `if` statements are restricted to scalar (0-d "
	                "tensors) inputs, that are placed on CPU. Got a 1-d input as a "
	                "condition of the `if` statement.");
	dalic_pipeline_destroy(p);
	p = script_run_load_text("from nvidia.dali import pipeline_def, fn\n"
	                         "@pipeline_def(batch_size=2, num_threads=1, device_id=None,\n"
	                         "              enable_conditionals=True)\n"
	                         "def pipe():\n"
	                         "    x = fn.random.uniform()\n"
	                         "    return x and x\n"
	                         "p = pipe()\n");
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Logical expression `and` is restricted to scalar (0-d tensors) "
	                "inputs of `bool` type, that are placed on CPU. Got an input of type "
	                "float as the left argument in logical expression.");
	dalic_pipeline_destroy(p);
}

/* `if` takes numeric predicates; `not` bool ones only (DALI 2.4 refuses others, cond_not). */
Test(script_run, numeric_predicates_work_in_if)
{
	dalic_pipeline_t *p =
	    script_run_load_text("from nvidia.dali import pipeline_def, fn, types\n"
	                         "@pipeline_def(batch_size=8, num_threads=1, device_id=None,\n"
	                         "              enable_conditionals=True, seed=3)\n"
	                         "def pipe():\n"
	                         "    c = fn.random.coin_flip()\n"
	                         "    if c:\n"
	                         "        v = types.Constant(1.0, device='cpu')\n"
	                         "    else:\n"
	                         "        v = types.Constant(-1.0, device='cpu')\n"
	                         "    return v, c, not fn.cast(c, dtype=types.BOOL)\n"
	                         "p = pipe()\n");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *v = script_run_out(p, 0), *c = script_run_out(p, 1),
	                    *nc = script_run_out(p, 2);
	cr_expect_eq(dalic_batch_dtype(c), DALIC_INT32);
	for (int i = 0; i < 8; i++) {
		cr_expect_eq(tl_at(v, i, 0), tl_at(c, i, 0) ? 1.0 : -1.0);
		cr_expect_eq(tl_at(nc, i, 0), !tl_at(c, i, 0));
	}
	dalic_pipeline_destroy(p);
}

/* Graph shape and first-iteration outputs of every sample ("name dtype ndim [shape0]"). */
static const struct {
	const char *file, *ops, *outputs;
} samples[] = {
    {"argument_input_flip.py",
     "readers__File:__File_0 decoders__Image:__Image_1 Resize:__Resize_2 "
     "random__CoinFlip:__CoinFlip_3 Flip:__Flip_4",
     "__Flip_4 UINT8 3 [64,64,3]; __Resize_2 UINT8 3 [64,64,3]; __CoinFlip_3 INT32 0 []"},
    {"arithmetic.py",
     "random__Uniform:__Uniform_0 random__Uniform:__Uniform_1 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_2 _ArithmeticGenericOp:___ArithmeticGenericOp_3 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_4 _ArithmeticGenericOp:___ArithmeticGenericOp_5 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_6 _ArithmeticGenericOp:___ArithmeticGenericOp_7 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_8 _ArithmeticGenericOp:___ArithmeticGenericOp_9 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_10",
     "___ArithmeticGenericOp_2 FLOAT 1 [4]; ___ArithmeticGenericOp_5 FLOAT 1 [4]; "
     "___ArithmeticGenericOp_6 FLOAT 1 [4]; ___ArithmeticGenericOp_7 FLOAT 1 [4]; "
     "___ArithmeticGenericOp_9 FLOAT 1 [4]; ___ArithmeticGenericOp_10 BOOL 1 [4]"},
    {"conditional_rotate.py",
     "readers__File:__File_0 decoders__Image:__Image_1 Resize:__Resize_2 "
     "random__CoinFlip:__CoinFlip_3 _conditional__Split:__Split_4 Rotate:__Rotate_5 "
     "_conditional__Merge:__Merge_6",
     "__Merge_6 UINT8 3 [128,128,3]; __Resize_2 UINT8 3 [128,128,3]; __CoinFlip_3 BOOL 0 []; "
     "__File_0[1] INT32 1 [1]"},
    {"define_graph.py", "readers__File:__File_0 decoders__Image:__Image_1 Resize:__Resize_2",
     "__Resize_2 UINT8 3 [96,144,3]; __File_0[1] INT32 1 [1]"},
    {"getting_started.py",
     "readers__File:__File_0 decoders__Image:__Image_1 Resize:__Resize_2 "
     "CropMirrorNormalize:__CropMirrorNormalize_3",
     "__CropMirrorNormalize_3 FLOAT 3 [3,224,224]; __File_0[1] INT32 1 [1]"},
    {"helper_conditional.py",
     "random__Uniform:__Uniform_0 _ArithmeticGenericOp:___ArithmeticGenericOp_1 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_2 "
     "_conditional__ValidateLogical:__ValidateLogical_3 _conditional__Split:__Split_4 "
     "_conditional__Not_:__Not__5 _conditional__ValidateLogical:__ValidateLogical_6 "
     "_conditional__Split:__Split_7 _conditional__Merge:__Merge_8 "
     "_conditional__Split:__Split_9 _ArithmeticGenericOp:___ArithmeticGenericOp_10 "
     "_conditional__Split:__Split_11 _conditional__ValidateLogical:__ValidateLogical_12 "
     "_conditional__Split:__Split_13 _conditional__Split:__Split_14 "
     "_conditional__Split:__Split_15 _conditional__ValidateLogical:__ValidateLogical_16 "
     "_conditional__Merge:__Merge_17 _conditional__Split:__Split_18 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_19 _conditional__Merge:__Merge_20 "
     "_conditional__Merge:__Merge_21",
     "__Merge_21 FLOAT 0 []; __Uniform_0 FLOAT 0 []"},
    {"manual_split_merge.py",
     "random__Uniform:__Uniform_0 random__CoinFlip:__CoinFlip_1 _conditional__Split:__Split_2 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_3 _conditional__Merge:__Merge_4 "
     "_conditional__Not_:__Not__5 _conditional__ValidateLogical:__ValidateLogical_6",
     "__Merge_4 FLOAT 0 []; __Uniform_0 FLOAT 0 []; __CoinFlip_1 BOOL 0 []; "
     "__Not__5 BOOL 0 []; __ValidateLogical_6 BOOL 0 []"},
    {"nested_dict_conditional.py",
     "random__Uniform:__Uniform_0 random__CoinFlip:__CoinFlip_1 _conditional__Split:__Split_2 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_3 Constant:__Constant_4 "
     "_conditional__Split:__Split_5 _ArithmeticGenericOp:___ArithmeticGenericOp_6 "
     "Constant:__Constant_7 _conditional__Split:__Split_8 _conditional__Merge:__Merge_9 "
     "_conditional__Merge:__Merge_10 _conditional__Merge:__Merge_11",
     "__Merge_11 FLOAT 0 []; __Merge_9 FLOAT 0 []; __Merge_10 FLOAT 0 []; "
     "__CoinFlip_1 BOOL 0 []"},
    {"tracing.py",
     "random__Uniform:__Uniform_0 _ArithmeticGenericOp:___ArithmeticGenericOp_1 "
     "random__CoinFlip:__CoinFlip_2 _conditional__Split:__Split_3 "
     "_ArithmeticGenericOp:___ArithmeticGenericOp_4 _ArithmeticGenericOp:___ArithmeticGenericOp_5 "
     "_conditional__Merge:__Merge_6",
     "__Merge_6 FLOAT 0 []; __CoinFlip_2 BOOL 0 []"},
    {"two_pipelines.py",
     "readers__File:__File_0 decoders__Image:__Image_1 RandomResizedCrop:__RandomResizedCrop_2 "
     "random__CoinFlip:__CoinFlip_3 Flip:__Flip_4",
     "__Flip_4 UINT8 3 [96,96,3]; __File_0[1] INT32 1 [1]"},
    {"with_pipeline.py",
     "readers__File:OrderedReader readers__File:ShuffledReader decoders__Image:__Image_0 "
     "decoders__Image:__Image_1",
     "__Image_0 UINT8 3 [300,451,1]; OrderedReader[1] INT32 1 [1]; __Image_1 UINT8 3 "
     "[300,451,3]; ShuffledReader[1] INT32 1 [1]"},
};

Test(script_run, samples_graph_shapes_and_outputs, .init = cr_redirect_stdout)
{
	for (size_t s = 0; s < sizeof samples / sizeof *samples; s++) {
		char path[256], got[2048] = "";
		snprintf(path, sizeof path, "samples/scripts/%s", samples[s].file);
		dalic_graphdef_t *g = NULL;
		ASSERT_OK(dalic_script_load(path, NULL, &g));
		cr_expect_str_eq(tl_def_ops(g), samples[s].ops, "%s", path);
		dalic_pipeline_t *p = NULL;
		ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
		ASSERT_OK(dalic_pipeline_run(p), "%s", path);
		for (int o = 0; o < dalic_pipeline_num_outputs(p); o++) {
			const dalic_batch_t *b = script_run_out(p, o);
			size_t k = strlen(got);
			k += (size_t)snprintf(got + k, sizeof got - k, "%s%s %s %d [",
			                      o ? "; " : "", dalic_pipeline_output_name(p, o),
			                      dalic_dtype_name(dalic_batch_dtype(b)),
			                      dalic_batch_ndim(b));
			for (int d = 0; d < dalic_batch_ndim(b); d++)
				k += (size_t)snprintf(got + k, sizeof got - k, "%s%lld",
				                      d ? "," : "",
				                      (long long)dalic_batch_shape(b, 0)[d]);
			snprintf(got + k, sizeof got - k, "]");
		}
		cr_expect_str_eq(got, samples[s].outputs, "%s", path);
		dalic_pipeline_destroy(p);
	}
}

Test(script_run, print_goes_to_the_chosen_stream)
{
	FILE *f = tmpfile();
	cr_assert_not_null(f);
	dalic_script_set_print_stream(f);
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn\n"
	                   "print('module', 1.0, None, [1, 'a'], {'k': (2,)}, sep='|')\n"
	                   "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                   "def pipe():\n"
	                   "    x = fn.random.uniform()\n"
	                   "    print(x, x.gpu(), end='!\\n')\n"
	                   "    return x\n"
	                   "p = pipe()\n",
	                   NULL);
	dalic_script_set_print_stream(NULL);
	dalic_graphdef_free(g);
	char buf[512] = "";
	rewind(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	cr_expect_str_eq(buf, "module|1.0|None|[1, 'a']|{'k': (2,)}\n"
	                      "DataNode(name=\"__Uniform_0\", device=\"cpu\") "
	                      "DataNode(name=\"__Uniform_0\", device=\"gpu\")!\n");
}

Test(script_run, second_pipeline_of_a_file_by_name)
{
	dalic_graphdef_t *g = NULL;
	ASSERT_OK(dalic_script_load("samples/scripts/two_pipelines.py", "validation", &g));
	cr_expect_str_eq(g->name, "validation");
	cr_expect_str_eq(tl_def_ops(g), "readers__File:__File_0 decoders__Image:__Image_1 "
	                                "Resize:__Resize_2");
	cr_expect_str_eq(tl_def_arg(g, 0, "random_shuffle"), "False");
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
	ASSERT_OK(dalic_pipeline_run(p));
	const int64_t dims[] = {96, 96, 3};
	tl_expect_shape(script_run_out(p, 0), 1, 3, dims);
	cr_expect_eq(dalic_batch_num_samples(script_run_out(p, 0)), 2);
	dalic_pipeline_destroy(p);
}

Test(script_run, conditional_operators_report_dalis_errors)
{
	dalic_pipeline_t *p = script_run_load_text(
	    "from nvidia.dali import pipeline_def, fn, types\n"
	    "@pipeline_def(batch_size=6, num_threads=1, device_id=None, seed=4)\n"
	    "def pipe():\n"
	    "    x = fn.random.uniform()\n"
	    "    c = fn.random.coin_flip(dtype=types.BOOL)\n"
	    "    t, f = fn._conditional.split(x, predicate=c)\n"
	    "    t = fn.cast(t, dtype=types.INT32)\n"
	    "    return fn._conditional.merge(t, f, predicate=c)\n"
	    "p = pipe()\n");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Divergent data found in different branches of conditional "
	                "operation. All paths in conditional operation are merged into one "
	                "batch which must have consistent type, number of dimensions, layout "
	                "and other metadata. Found distinct types: int32 and float.");
	dalic_pipeline_destroy(p);
	p = script_run_load_text(
	    "from nvidia.dali import pipeline_def, fn, types\n"
	    "@pipeline_def(batch_size=6, num_threads=1, device_id=None, seed=4)\n"
	    "def pipe():\n"
	    "    x = fn.random.uniform()\n"
	    "    c = fn.random.coin_flip(dtype=types.BOOL)\n"
	    "    t, f = fn._conditional.split(c, predicate=c)\n"
	    "    return fn._conditional.split(x, predicate=t)[0]\n"
	    "p = pipe()\n");
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Split description must cover whole input, got 6 input samples and ");
	dalic_pipeline_destroy(p);
}
