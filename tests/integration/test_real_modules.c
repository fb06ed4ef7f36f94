/* The real-style pipeline modules of samples/scripts/real/ (each also checked against
 * NVIDIA DALI by `make check-dali`): loaded the way their headers say, built and run, with
 * the labels and shapes their data gives. Run from the source root (samples/images). */
#include "tests/testlib.h"
#include "tests/testlib/video_clip.h"

#include "engine/pipeline.h"
#include "frontend/script.h"
#include "frontend/script_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TestSuite(real_modules, .timeout = 60);

static dalic_pipeline_t *real_load(const char *module, const char *pipeline,
                                   const char *const *args, int nargs)
{
	char path[256];
	snprintf(path, sizeof path, "samples/scripts/real/%s", module);
	dalic_script_opts_t o = {.pipeline = pipeline, .args = args, .num_args = nargs};
	dalic_graphdef_t *g = NULL;
	ASSERT_OK(dalic_script_load_opts(path, &o, &g));
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
	ASSERT_OK(dalic_pipeline_build(p));
	return p;
}

/* The int32 labels of output `i` as "a b c". */
static const char *real_labels(dalic_pipeline_t *p, int i)
{
	static char buf[256];
	const dalic_batch_t *b = dalic_pipeline_output(p, i);
	cr_assert_not_null(b);
	cr_assert_eq(dalic_batch_dtype(b), DALIC_INT32);
	size_t n = 0;
	buf[0] = 0;
	for (int s = 0; s < dalic_batch_num_samples(b); s++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d", s ? " " : "",
		                      *(const int32_t *)dalic_batch_data(b, s));
	return buf;
}

static void real_expect_shape(dalic_pipeline_t *p, int out, int sample, int ndim,
                              const int64_t *shape)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, out);
	cr_assert_eq(dalic_batch_ndim(b), ndim, "output %d", out);
	for (int d = 0; d < ndim; d++)
		cr_expect_eq(dalic_batch_shape(b, sample)[d], shape[d], "output %d sample %d dim %d",
		             out, sample, d);
}

Test(real_modules, pipelines_module_builds_the_function_picked_with_its_args)
{
	const char *args[] = {"data_dir='samples/images'", "size=160", "crop=128", "batch_size=4",
	                      "num_threads=1", "device_id=None"};
	dalic_pipeline_t *p = real_load("pipelines.py", "val_pipe", args, 6);
	ASSERT_OK(dalic_pipeline_run(p));
	real_expect_shape(p, 0, 3, 3, (const int64_t[]){3, 128, 128});
	cr_expect_eq(dalic_batch_dtype(dalic_pipeline_output(p, 0)), DALIC_FLOAT);
	cr_expect_str_eq(real_labels(p, 1), "0 0 0 0");
	ASSERT_OK(dalic_pipeline_run(p));
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(real_labels(p, 1), "1 2 2 2"); /* files 8..11: coffee_cup, then space */
	dalic_pipeline_destroy(p);
}

Test(real_modules, pipelines_module_without_a_choice_lists_both)
{
	tl_cmd_t c = tl_dalic(NULL, "run samples/scripts/real/pipelines.py");
	cr_expect_neq(c.status, 0);
	EXPECT_HAS(c.out, "defines: train_pipe, val_pipe; pick one with --pipeline NAME");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run samples/scripts/real/pipelines.py --pipeline train_pipe "
	                   "--arg data_dir='\"samples/images\"' --arg crop=96 --batch-size 4 "
	                   "--device-id none -n 2");
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "shapes: [3, 96, 96] x 4");
	tl_cmd_free(&c);
}

Test(real_modules, file_list_module_builds_its_list_with_os_and_glob)
{
	dalic_pipeline_t *p = real_load("file_list.py", NULL, NULL, 0);
	/* files 0, 3, 6, 9 of the 12 sorted images: cat, cat, coffee, space */
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(real_labels(p, 1), "0 0");
	real_expect_shape(p, 0, 1, 3, (const int64_t[]){32, 32, 1});
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(real_labels(p, 1), "1 2");
	dalic_pipeline_destroy(p);
}

Test(real_modules, config_files_module_reads_json_and_a_text_list)
{
	dalic_pipeline_t *p = real_load("config_files.py", NULL, NULL, 0);
	ASSERT_OK(dalic_pipeline_run(p));
	/* space/rocket.jpg space, cat/chelsea.jpg cat (comment and blank lines skipped) */
	cr_expect_str_eq(real_labels(p, 1), "2 0");
	real_expect_shape(p, 0, 0, 3, (const int64_t[]){3, 96, 128});
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(real_labels(p, 1), "1 0");
	dalic_pipeline_destroy(p);
}

Test(real_modules, subclass_module_takes_init_args)
{
	const char *args[] = {"batch_size=3", "num_threads=1", "device_id=None",
	                      "data_dir='samples/images'", "crop=64", "size=80"};
	dalic_pipeline_t *p = real_load("subclass_args.py", "HybridValPipe", args, 6);
	ASSERT_OK(dalic_pipeline_run(p));
	real_expect_shape(p, 0, 2, 3, (const int64_t[]){3, 64, 64});
	cr_expect_str_eq(real_labels(p, 1), "0 0 0");
	dalic_pipeline_destroy(p);
	tl_cmd_t c = tl_dalic(NULL, "run samples/scripts/real/subclass_args.py --pipeline "
	                            "HybridValPipe --arg batch_size=3");
	cr_expect_neq(c.status, 0);
	EXPECT_HAS(c.out, "needs 'num_threads'");
	tl_cmd_free(&c);
}

Test(real_modules, numpy_constants_module_computes_its_arguments)
{
	dalic_pipeline_t *p = real_load("numpy_constants.py", NULL, NULL, 0);
	ASSERT_OK(dalic_pipeline_run(p));
	/* weighted = (arange(6).reshape(2, 3) * 2 + 1) * label + [0.5, 0.25, 0.125]; label 0 */
	const dalic_batch_t *w = dalic_pipeline_output(p, 2);
	const float *v = dalic_batch_data(w, 0);
	const float want0[6] = {0.5f, 0.25f, 0.125f, 0.5f, 0.25f, 0.125f};
	for (int i = 0; i < 6; i++)
		cr_expect_float_eq(v[i], want0[i], 1e-6, "element %d", i);
	ASSERT_OK(dalic_pipeline_run(p));
	ASSERT_OK(dalic_pipeline_run(p));
	/* iteration 2: files 6..8 are coffee (label 1): 1, 3, 5, 7, 9, 11 plus the mean */
	v = dalic_batch_data(dalic_pipeline_output(p, 2), 0);
	const float want1[6] = {1.5f, 3.25f, 5.125f, 7.5f, 9.25f, 11.125f};
	for (int i = 0; i < 6; i++)
		cr_expect_float_eq(v[i], want1[i], 1e-6, "element %d", i);
	/* phase = label * pi / 4 */
	cr_expect_float_eq(*(const float *)dalic_batch_data(dalic_pipeline_output(p, 3), 0),
	                   0.78539816f, 1e-6);
	real_expect_shape(p, 1, 0, 3, (const int64_t[]){8, 8, 1});
	dalic_pipeline_destroy(p);
}

Test(real_modules, conditional_module_reads_the_dict_its_branches_fill)
{
	dalic_pipeline_t *p = real_load("conditional_augment.py", NULL, NULL, 0);
	ASSERT_OK(dalic_pipeline_run(p));
	/* out = brightness(flip(stages[1], vertical=flip), brightness), fn.flip flipping
	 * horizontally by default: the true branch (stages[1] already mirrored, flip=1, x3)
	 * gives the crop upside down and tripled, the false one the crop mirrored */
	const dalic_batch_t *out = dalic_pipeline_output(p, 0), *img = dalic_pipeline_output(p, 1);
	int branch_true = 0;
	for (int s = 0; s < 4; s++) {
		const uint8_t *o = dalic_batch_data(out, s), *x = dalic_batch_data(img, s);
		bool upside = true, mirrored = true;
		for (int y = 0; y < 48; y++)
			for (int c = 0; c < 64 * 3; c++) {
				int v = 3 * x[(47 - y) * 64 * 3 + c];
				upside &= o[y * 64 * 3 + c] == (v > 255 ? 255 : v);
				mirrored &= o[y * 64 * 3 + c] == x[y * 64 * 3 + (63 - c / 3) * 3 + c % 3];
			}
		cr_expect(upside != mirrored, "sample %d: one branch or the other", s);
		branch_true += upside;
	}
	cr_expect(branch_true > 0 && branch_true < 4, "both branches taken: %d", branch_true);
	dalic_pipeline_destroy(p);
}

Test(real_modules, debug_module_prints_every_iteration)
{
	tl_cmd_t c = tl_dalic(NULL, "run samples/scripts/real/debug_shapes.py -n 2");
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "(300, 451, 3)\n[[300, 451, 3], [300, 451, 3], [300, 451, 3]]\n"
	                  "labels: [0, 0, 0]\n(451, 300, 3)\n");
	tl_cmd_free(&c);
}

Test(real_modules, display_code_gets_one_warning_naming_its_line)
{
	const char *path = tl_write_temp(
	    "real_display", ".py",
	    "from nvidia.dali import pipeline_def\nimport nvidia.dali.fn as fn\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	    "def p():\n    return fn.random.uniform(range=(0, 1))\n"
	    "if __name__ == '__main__':\n"
	    "    pipe = p()\n    pipe.build()\n"
	    "    out, = pipe.run()\n"
	    "    print(out.as_array().shape)\n"
	    "    print(out.as_array().mean())\n");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	dalic_script_set_warning_stream(f);
	dalic_graphdef_t *g = NULL;
	int rc = dalic_script_load(path, NULL, &g);
	dalic_script_set_warning_stream(NULL);
	fclose(f);
	unlink(path);
	ASSERT_OK(rc);
	EXPECT_HAS(text, "warning: display code outside the pipeline definitions was skipped");
	EXPECT_HAS(text, ":10:5: print(): 'pipeline results.as_array().shape' comes from code "
	                 "dalic does not evaluate");
	EXPECT_HAS(text, "    print(out.as_array().shape)\n    ^");
	cr_expect_null(strstr(text, ":11:"), "one warning: %s", text);
	free(text);
	dalic_graphdef_free(g);
}

Test(real_modules, an_unevaluable_statement_in_a_definition_is_an_error)
{
	const char *path = tl_write_temp(
	    "real_strict", ".py",
	    "import matplotlib.pyplot as plt\n"
	    "from nvidia.dali import pipeline_def\nimport nvidia.dali.fn as fn\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	    "def p():\n"
	    "    x = fn.random.uniform(range=(0, 1))\n"
	    "    plt.hist(x)\n"
	    "    return x\n"
	    "pipe = p()\n");
	dalic_graphdef_t *g = NULL;
	cr_expect_neq(dalic_script_load(path, NULL, &g), 0);
	unlink(path);
	EXPECT_ERROR_HAS(":7:5: ");
	EXPECT_ERROR_HAS("matplotlib");
	EXPECT_ERROR_HAS("    plt.hist(x)\n    ^");
	dalic_graphdef_free(g);
}

Test(real_modules, main_guard_module_creates_its_pipeline_and_warns_once)
{
	tl_cmd_t c = tl_dalic(NULL, "run samples/scripts/real/main_guard.py -n 3");
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "warning: display code outside the pipeline definitions was skipped");
	EXPECT_HAS(c.out, "main_guard.py:43:5: print(): 'pipeline results.as_tensor().shape()'");
	EXPECT_HAS(c.out, "output 0: __Flip_3 dtype=UINT8 layout=\"HWC\" device=cpu samples=4\n"
	                  "  shapes: [48, 48, 3] x 4");
	cr_expect_null(strstr(strstr(c.out, "warning:") + 1, "warning:"), "one warning");
	tl_cmd_free(&c);
}

/* The graph of auto_augment_training.py with `automatic_augmentation` = policy. */
static dalic_graphdef_t *real_auto_aug_def(const char *policy)
{
	char arg[64];
	snprintf(arg, sizeof arg, "automatic_augmentation='%s'", policy);
	const char *args[] = {"data_dir='samples/images'", arg, "batch_size=4", "num_threads=1",
	                      "device_id=None", "seed=7"};
	dalic_script_opts_t o = {.pipeline = "training_pipe", .args = args, .num_args = 6};
	dalic_graphdef_t *g = NULL;
	ASSERT_OK(dalic_script_load_opts("samples/scripts/real/auto_augment_training.py", &o, &g));
	return g;
}

/* Operators of schema `name` in g; each placed at the script's call of the policy (line). */
static int real_count_ops(const dalic_graphdef_t *g, const char *name, int line)
{
	int n = 0;
	for (int i = 0; i < g->num_ops; i++) {
		const dalic_opdef_t *op = g->ops[i];
		if (strcmp(op->schema->name, name))
			continue;
		n++;
		cr_expect_str_eq(op->pos.file, "samples/scripts/real/auto_augment_training.py");
		cr_expect_eq(op->pos.line, line, "%s placed at line %d", op->inst, op->pos.line);
	}
	return n;
}

Test(real_modules, auto_aug_policies_build_from_dali_operators)
{
	/* AutoAugment's ImageNet policy, per stage the distinct augmentations of that stage:
	 * stage 0 shear_x, shear_y, rotate, equalize...; stage 1 shear_y, translate_y, rotate,
	 * equalize...; no sharpness */
	dalic_graphdef_t *g = real_auto_aug_def("autoaugment");
	cr_expect_eq(real_count_ops(g, "WarpAffine", 35), 4);
	cr_expect_eq(real_count_ops(g, "Rotate", 35), 2);
	cr_expect_eq(real_count_ops(g, "Equalize", 35), 2);
	cr_expect_eq(real_count_ops(g, "Filter", 35), 0);
	dalic_graphdef_free(g);
	/* TrivialAugment Wide: one of 14 augmentations per sample, sharpness among them */
	g = real_auto_aug_def("trivialaugment");
	cr_expect_eq(real_count_ops(g, "Filter", 37), 1);
	cr_expect_eq(real_count_ops(g, "WarpAffine", 37), 4);
	cr_expect_eq(real_count_ops(g, "Saturation", 37), 1);
	dalic_graphdef_free(g);
	/* RandAugment n=2: the suite twice */
	g = real_auto_aug_def("randaugment");
	cr_expect_eq(real_count_ops(g, "Filter", 39), 2);
	cr_expect_eq(real_count_ops(g, "Brightness", 39), 2);
	dalic_graphdef_free(g);
}

Test(real_modules, auto_aug_module_runs)
{
	const char *args[] = {"data_dir='samples/images'", "batch_size=6", "num_threads=2",
	                      "device_id=None", "seed=42"};
	dalic_pipeline_t *p = real_load("auto_augment_training.py", "training_pipe", args, 5);
	for (int it = 0; it < 2; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *b = dalic_pipeline_output(p, 0);
		cr_expect_eq(dalic_batch_dtype(b), DALIC_FLOAT);
		cr_expect_str_eq(dalic_batch_layout(b), "CHW");
		for (int s = 0; s < 6; s++)
			real_expect_shape(p, 0, s, 3, (const int64_t[]){3, 64, 64});
	}
	dalic_pipeline_destroy(p);
}

/* Whether `dir` holds the dump file of iteration it, sample s. */
static bool real_dumped(const char *dir, int it, int s)
{
	char path[512];
	snprintf(path, sizeof path, "%s/i%06d_o0_s%03d.npy", dir, it, s);
	return access(path, F_OK) == 0;
}

Test(real_modules, triton_video_module_streams_each_fed_video_over_iterations)
{
	/* a 7-frame and a 12-frame clip; 5 frames a sequence, batch 2, 'pad': the first gives
	 * one batch of 2 (5 + 2 padded), the second a batch of 2 then one of 1, then the first
	 * again */
	char err[512];
	tl_clip_t a = {.codec = "mjpeg", .frames = 7, .gop = 1};
	tl_clip_t b = {.codec = "libvpx-vp9", .frames = 12};
	tl_clip_defaults(&a);
	tl_clip_defaults(&b);
	const char *dir = tl_tmp_path("videos");
	cr_assert_eq(mkdir(dir, 0755), 0);
	cr_assert_eq(tl_clip_write(tl_tmp_path("videos/a.avi"), &a, err, sizeof err), 0, "%s", err);
	cr_assert_eq(tl_clip_write(tl_tmp_path("videos/b.webm"), &b, err, sizeof err), 0, "%s",
	             err);
	const char *dump = tl_tmp_path("dump");
	tl_cmd_t c = tl_dalic(NULL, "run samples/scripts/real/triton_video_input.py -n 4 "
	                            "--feed video=%s --dump %s",
	                      dir, dump);
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "output 0: thumbnail dtype=UINT8 layout=\"CHW\" device=cpu samples=2\n"
	                  "  shapes: [3, 48, 64] x 2");
	tl_cmd_free(&c);
	static const int want[4] = {2, 2, 1, 2};
	for (int it = 0; it < 4; it++) {
		for (int s = 0; s < want[it]; s++)
			cr_expect(real_dumped(dump, it, s), "iteration %d sample %d", it, s);
		cr_expect(!real_dumped(dump, it, want[it]), "iteration %d has %d samples", it,
		          want[it]);
	}
	/* model.dali: the module serializes as Triton's backend would */
	c = tl_dalic(NULL, "serialize samples/scripts/real/triton_video_input.py -o %s",
	             tl_tmp_path("model.dali"));
	cr_expect_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "show %s", tl_tmp_path("model.dali"));
	EXPECT_HAS(c.out, "experimental__inputs__Video");
	tl_cmd_free(&c);
	tl_tmpdir_remove();
}

/* The uint8 values of output `i`, sample by sample ("a b|c"). */
static const char *real_u8_or_i32(dalic_pipeline_t *p, int i)
{
	static char buf[256];
	const dalic_batch_t *b = dalic_pipeline_output(p, i);
	cr_assert_not_null(b);
	size_t n = 0;
	buf[0] = 0;
	for (int s = 0; s < dalic_batch_num_samples(b); s++) {
		int64_t count = 1;
		for (int d = 0; d < dalic_batch_ndim(b); d++)
			count *= dalic_batch_shape(b, s)[d];
		for (int64_t k = 0; k < count; k++) {
			int v = dalic_batch_dtype(b) == DALIC_UINT8
			            ? ((const uint8_t *)dalic_batch_data(b, s))[k]
			            : ((const int32_t *)dalic_batch_data(b, s))[k];
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d", k ? " " : s ? "|" : "", v);
		}
	}
	return buf;
}

/* the tutorial's ExternalInputIterator: data/jpeg_list.txt read in order (labels 0 2 1, then
 * 0 1 2, then 0 and around again), the JPEG bytes decoded and resized */
Test(real_modules, external_input_iterator_feeds_the_decoder)
{
	dalic_pipeline_t *p = real_load("external_input_iterator.py", NULL, NULL, 0);
	const char *want[] = {"0|2|1", "0|1|2", "0|0|2"};
	for (int it = 0; it < 3; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		cr_expect_str_eq(real_u8_or_i32(p, 1), want[it], "iteration %d", it);
		real_expect_shape(p, 0, 2, 3, (const int64_t[]){64, 96, 3});
	}
	dalic_pipeline_destroy(p);
}

/* batches of x = arange(12).reshape(4, 3) / (b + 1), y = x @ [0.5, -1.25, 2.0]: batch 0's
 * first target is 0 * 0.5 + 1 * -1.25 + 2 * 2 = 2.75, batch 1's 2.75 / 2; after the four
 * batches cycle="quiet" starts again */
Test(real_modules, generator_source_cycles_through_its_batches)
{
	dalic_pipeline_t *p = real_load("generator_source.py", NULL, NULL, 0);
	const float first_y[] = {2.75f, 1.375f, 2.75f / 3, 0.6875f, 2.75f, 1.375f};
	for (int it = 0; it < 6; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *y = dalic_pipeline_output(p, 1);
		cr_assert_eq(dalic_batch_dtype(y), DALIC_FLOAT);
		cr_expect_float_eq(*(const float *)dalic_batch_data(y, 0), first_y[it], 1e-6,
		                   "iteration %d", it);
		/* x * 2: sample 1 of batch 0 is [3, 4, 5] * 2 */
		if (it == 0)
			cr_expect_float_eq(((const float *)dalic_batch_data(dalic_pipeline_output(p, 0),
			                                                    1))[2],
			                   10.0f, 1e-6);
	}
	dalic_pipeline_destroy(p);
}

/* SampleInfo picks the file: 12 images (cat 6, coffee 3, space 3) make 3 batches of 4, the
 * info output says [label, idx_in_batch, iteration]; the 4th batch ends the epoch */
Test(real_modules, sample_callable_reads_by_sample_info)
{
	dalic_pipeline_t *p = real_load("sample_callable.py", NULL, NULL, 0);
	const char *want[] = {"0 0 0|0 1 0|0 2 0|0 3 0", "0 0 1|0 1 1|1 2 1|1 3 1",
	                      "1 0 2|2 1 2|2 2 2|2 3 2"};
	for (int it = 0; it < 3; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		cr_expect_str_eq(real_u8_or_i32(p, 1), want[it], "iteration %d", it);
		real_expect_shape(p, 0, 3, 3, (const int64_t[]){48, 64, 3});
	}
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EEND);
	dalic_pipeline_destroy(p);
}
