/* experimental.remap (a GPU operator, emulated on the CPU): NN flips through the maps in both
 * pixel origins, LINEAR half-pixel averages and the zero border, sequences with per-frame
 * maps, integer rounding, and the errors. */
#include "tests/testlib.h"

TestSuite(ops_remap, .timeout = 20, .fini = tl_tmpdir_remove);

/* A pipeline (device 0: gpu operators run emulated) with sources in, mx, my -> remap. */
static dalic_pipeline_t *ops_remap_pipeline(dalic_op_t **op)
{
	dalic_pipeline_params_t params = tl_mode_params(&tl_modes[0], 1, 1);
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	tl_source(p, "in");
	tl_source(p, "mx");
	tl_source(p, "my");
	ASSERT_OK(dalic_pipeline_add_op(p, "experimental.remap", "gpu", op));
	ASSERT_OK(dalic_op_set_name(*op, "remap"));
	tl_input(*op, "in");
	tl_input(*op, "mx");
	tl_input(*op, "my");
	tl_output(p, *op);
	return p;
}

/* 2x3 image, 1 channel: 10 y + x */
static const uint8_t ops_remap_img[6] = {0, 1, 2, 10, 11, 12};

static void ops_remap_feed(dalic_pipeline_t *p, const float *mx, const float *my)
{
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){2, 3, 1}, ops_remap_img, "HWC");
	tl_feed(p, "mx", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, mx, NULL);
	tl_feed(p, "my", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, my, NULL);
}

Test(ops_remap, nn_flips_in_both_origins)
{
	/* corner origin (default): x = 2, 1, 0 are pixels 2, 1, 0 -> a horizontal flip; rows
	 * y = 1, 0 flip vertically */
	dalic_op_t *op;
	dalic_pipeline_t *p = ops_remap_pipeline(&op);
	ASSERT_OK(dalic_op_set_int(op, "interp", DALIC_INTERP_NN));
	ops_remap_feed(p, (float[]){2, 1, 0, 2, 1, 0}, (float[]){1, 1, 1, 0, 0, 0});
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){2, 3, 1});
	tl_expect_values(out, 0, 6, (double[]){12, 11, 10, 2, 1, 0});
	dalic_pipeline_destroy(p);

	/* center origin: 1.6 rounds to pixel 2, 0.4 to 0; -0.6 and 3.0 are outside: 0 */
	p = ops_remap_pipeline(&op);
	ASSERT_OK(dalic_op_set_int(op, "interp", DALIC_INTERP_NN));
	ASSERT_OK(dalic_op_set_string(op, "pixel_origin", "center"));
	ops_remap_feed(p, (float[]){1.6f, 0.4f, -0.6f, 3, 0, 0}, (float[]){0, 0, 0, 0, 1, 0.7f});
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){2, 0, 0, 0, 10, 10});
	dalic_pipeline_destroy(p);
}

Test(ops_remap, linear_averages_and_zero_border)
{
	/* center origin: x = 0.5 between pixels 0 and 1 -> 0.5 -> rounds to 1; (1.5, 0.5) mixes
	 * 1, 2, 11, 12 -> 6.5 -> 7; x = 2.5 mixes pixel 2 with the 0 outside -> 1; y = 1.5: row 1
	 * and zeros -> 5 */
	dalic_op_t *op;
	dalic_pipeline_t *p = ops_remap_pipeline(&op);
	ASSERT_OK(dalic_op_set_string(op, "pixel_origin", "center"));
	ops_remap_feed(p, (float[]){0.5f, 1.5f, 2.5f, 0, 0, 1}, (float[]){0, 0.5f, 0, 1.5f, 0, 0});
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){1, 7, 1, 5, 0, 1});
	dalic_pipeline_destroy(p);
}

Test(ops_remap, sequences_with_per_frame_maps)
{
	/* two 1x2 frames; frame 0 swaps its pixels, frame 1 keeps them (corner origin) */
	dalic_op_t *op;
	dalic_pipeline_t *p = ops_remap_pipeline(&op);
	ASSERT_OK(dalic_op_set_int(op, "interp", DALIC_INTERP_NN));
	tl_feed(p, "in", DALIC_FLOAT, 4, 1, (int64_t[]){2, 1, 2, 1}, (float[]){1, 2, 3, 4}, "FHWC");
	tl_feed(p, "mx", DALIC_FLOAT, 3, 1, (int64_t[]){2, 1, 2}, (float[]){1, 0, 0, 1}, NULL);
	tl_feed(p, "my", DALIC_FLOAT, 3, 1, (int64_t[]){2, 1, 2}, (float[]){0, 0, 0, 0}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	tl_expect_values(out, 0, 4, (double[]){2, 1, 3, 4});
	dalic_pipeline_destroy(p);
}

Test(ops_remap, errors)
{
	dalic_op_t *op;
	dalic_pipeline_t *p = ops_remap_pipeline(&op);
	ASSERT_OK(dalic_op_set_string(op, "pixel_origin", "middle"));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Undefined pixel_origin parameter");
	EXPECT_ERROR_HAS("'remap'");
	dalic_pipeline_destroy(p);

	p = ops_remap_pipeline(&op);
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){1, 3, 2}, ops_remap_img, "HWC");
	tl_feed(p, "mx", DALIC_FLOAT, 2, 1, (int64_t[]){1, 3}, (float[]){0, 0, 0}, NULL);
	tl_feed(p, "my", DALIC_FLOAT, 2, 1, (int64_t[]){1, 3}, (float[]){0, 0, 0}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Only images with 1 and 3 channels");
	dalic_pipeline_destroy(p);

	p = ops_remap_pipeline(&op);
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){2, 3, 1}, ops_remap_img, "HWC");
	tl_feed(p, "mx", DALIC_FLOAT, 2, 1, (int64_t[]){3, 2}, (float[]){0, 0, 0, 0, 0, 0}, NULL);
	tl_feed(p, "my", DALIC_FLOAT, 2, 1, (int64_t[]){3, 2}, (float[]){0, 0, 0, 0, 0, 0}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Output and maps shapes do not match");
	dalic_pipeline_destroy(p);

	p = ops_remap_pipeline(&op);
	tl_feed(p, "in", DALIC_INT32, 3, 1, (int64_t[]){1, 1, 1}, (int32_t[]){1}, "HWC");
	tl_feed(p, "mx", DALIC_FLOAT, 2, 1, (int64_t[]){1, 1}, (float[]){0}, NULL);
	tl_feed(p, "my", DALIC_FLOAT, 2, 1, (int64_t[]){1, 1}, (float[]){0}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unsupported input type: int32");
	dalic_pipeline_destroy(p);
}

/* The script front end (fn and ops APIs) and the protobuf round trip through `dalic`. */
Test(ops_remap, scripts_and_protobuf)
{
	const char *script = tl_write_temp(
	    "remap", ".py",
	    "from nvidia.dali import pipeline_def, fn, ops, types\n"
	    "\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=0)\n"
	    "def remap_pipe():\n"
	    "    img = fn.constant(idata=[0, 1, 2, 10, 11, 12], shape=[2, 3, 1],\n"
	    "                      dtype=types.UINT8, layout='HWC')\n"
	    "    mx = fn.constant(fdata=[2.0, 1.0, 0.0, 2.0, 1.0, 0.0], shape=[2, 3])\n"
	    "    my = fn.constant(fdata=[0.0, 0.0, 0.0, 1.0, 1.0, 1.0], shape=[2, 3])\n"
	    "    a = fn.experimental.remap(img.gpu(), mx.gpu(), my.gpu(), interp=types.INTERP_NN)\n"
	    "    b = ops.experimental.Remap(device='gpu', pixel_origin='center')(img.gpu(),\n"
	    "                                                                   mx.gpu(), "
	    "my.gpu())\n"
	    "    return a, b\n"
	    "\n"
	    "pipe = remap_pipe()\n");
	char path[256];
	snprintf(path, sizeof path, "%s", script);
	const char *pb = tl_tmp_path("remap.pb");
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 1", path);
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "__Remap_");
	EXPECT_HAS(c.out, "[2, 3, 1] x 2");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "serialize %s -o %s", path, pb);
	cr_expect_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s -n 1", pb);
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "[2, 3, 1] x 2");
	tl_cmd_free(&c);
	unlink(path);
}
