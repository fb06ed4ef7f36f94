/*
 * readers.video_resize through the public API (the legacy reader on the emulated GPU device,
 * on clips the test writes whose frames carry their number and clip id as 16-pixel blocks):
 * a nearest-neighbour 2x enlargement whose blocks still read as the frame numbers, labels
 * and frame numbers beside the frames, resize_shorter giving the same bytes as readers.video
 * followed by resize, float normalized output, and resize's argument errors.
 */
#include "tests/testlib.h"
#include "tests/testlib/video_clip.h"

TestSuite(video_resize, .timeout = 60, .fini = tl_tmpdir_remove);

static const char *video_resize_clip(const char *name, tl_clip_t *c)
{
	tl_clip_defaults(c);
	const char *path = tl_tmp_path(name);
	char err[512];
	cr_assert_eq(tl_clip_write(path, c, err, sizeof err), 0, "%s: %s", path, err);
	return path;
}

static dalic_pipeline_t *video_resize_pipeline(int batch)
{
	dalic_pipeline_params_t params = tl_mode_params(&tl_modes[0], batch, 2);
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	return p;
}

static dalic_op_t *video_resize_op(dalic_pipeline_t *p, const char *name, const char *path)
{
	dalic_op_t *op = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, name, "gpu", &op));
	ASSERT_OK(dalic_op_set_strings(op, "filenames", 1, &path));
	ASSERT_OK(dalic_op_set_ints(op, "labels", 1, (int64_t[]){7}));
	ASSERT_OK(dalic_op_set_int(op, "sequence_length", 3));
	return op;
}

/* Block row `row` of frame f of sample i, read at the centres of blocks `scale` times the
 * clip's 16 pixels (channel 0 above 128 = 1, least significant bit first). */
static int video_resize_bits(const dalic_batch_t *b, int i, int f, int row, int scale)
{
	const int64_t *sh = dalic_batch_shape(b, i);
	const uint8_t *px = (const uint8_t *)dalic_batch_data(b, i) + (size_t)f * sh[1] * sh[2] * 3;
	int v = 0, block = 16 * scale;
	for (int bit = 0; (bit + 1) * block <= sh[2]; bit++) {
		int x = bit * block + block / 2, y = row * block + block / 2;
		v |= (px[((size_t)y * sh[2] + x) * 3] > 128) << bit;
	}
	return v;
}

Test(video_resize, nearest_2x_keeps_the_frame_blocks)
{
	tl_clip_t c = {.codec = "mjpeg", .frames = 9, .gop = 1, .clip_id = 5};
	const char *path = video_resize_clip("c.avi", &c);
	dalic_pipeline_t *p = video_resize_pipeline(2);
	dalic_op_t *op = video_resize_op(p, "readers.video_resize", path);
	ASSERT_OK(dalic_op_set_float(op, "resize_x", 320));
	ASSERT_OK(dalic_op_set_float(op, "resize_y", 192));
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_NN));
	ASSERT_OK(dalic_op_set_string(op, "enable_frame_num", "scalar"));
	cr_assert_eq(dalic_op_num_outputs(op), 3);
	for (int o = 0; o < 3; o++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, o), NULL));
	ASSERT_OK(dalic_pipeline_build(p));
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *v = dalic_pipeline_output(p, 0), *lab = dalic_pipeline_output(p, 1);
	const dalic_batch_t *num = dalic_pipeline_output(p, 2);
	cr_expect_str_eq(dalic_batch_layout(v), "FHWC");
	cr_expect_eq(dalic_batch_dtype(v), DALIC_UINT8);
	for (int i = 0; i < 2; i++) {
		tl_expect_shape(v, i, 4, (int64_t[]){3, 192, 320, 3});
		cr_expect_eq(*(const int32_t *)dalic_batch_data(lab, i), 7);
		cr_expect_eq(*(const int32_t *)dalic_batch_data(num, i), 3 * i);
		for (int f = 0; f < 3; f++) {
			cr_expect_eq(video_resize_bits(v, i, f, 0, 2), 3 * i + f,
			             "sample %d frame %d", i, f);
			cr_expect_eq(video_resize_bits(v, i, f, 1, 2), 5, "clip id");
		}
	}
	dalic_pipeline_destroy(p);
}

Test(video_resize, same_bytes_as_the_reader_then_resize)
{
	tl_clip_t c = {.codec = "libvpx-vp9", .frames = 12, .clip_id = 2};
	const char *path = video_resize_clip("c.webm", &c);
	dalic_pipeline_t *p = video_resize_pipeline(2);
	dalic_op_t *vr = video_resize_op(p, "readers.video_resize", path);
	ASSERT_OK(dalic_op_set_float(vr, "resize_shorter", 48));
	ASSERT_OK(dalic_op_set_int(vr, "interp_type", DALIC_INTERP_CUBIC));
	dalic_op_t *rd = video_resize_op(p, "readers.video", path);
	dalic_op_t *rs = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, "resize", "gpu", &rs));
	ASSERT_OK(dalic_op_add_input(rs, dalic_op_output(rd, 0), "gpu"));
	ASSERT_OK(dalic_op_set_float(rs, "resize_shorter", 48));
	ASSERT_OK(dalic_op_set_int(rs, "interp_type", DALIC_INTERP_CUBIC));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(vr, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(rs, 0), NULL));
	ASSERT_OK(dalic_pipeline_build(p));
	for (int it = 0; it < 3; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *a = dalic_pipeline_output(p, 0),
		                    *b = dalic_pipeline_output(p, 1);
		/* 96x160 with the shorter side 48: 48x80 */
		tl_expect_shape(a, 0, 4, (int64_t[]){3, 48, 80, 3});
		tl_expect_same_batch(b, a, "video_resize vs video + resize");
	}
	dalic_pipeline_destroy(p);
}

Test(video_resize, float_normalized_output)
{
	tl_clip_t c = {.codec = "mjpeg", .frames = 6, .gop = 1};
	const char *path = video_resize_clip("f.avi", &c);
	dalic_pipeline_t *p = video_resize_pipeline(1);
	dalic_op_t *op = video_resize_op(p, "readers.video_resize", path);
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
	ASSERT_OK(dalic_op_set_bool(op, "normalized", true));
	ASSERT_OK(dalic_op_set_floats(op, "size", 2, (const double[]){30, 40}));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	ASSERT_OK(dalic_pipeline_build(p));
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *v = dalic_pipeline_output(p, 0);
	cr_assert_eq(dalic_batch_dtype(v), DALIC_FLOAT);
	tl_expect_shape(v, 0, 4, (int64_t[]){3, 30, 40, 3});
	const float *px = dalic_batch_data(v, 0);
	float lo = 1, hi = 0;
	for (int k = 0; k < 3 * 30 * 40 * 3; k++) {
		lo = px[k] < lo ? px[k] : lo;
		hi = px[k] > hi ? px[k] : hi;
	}
	/* the gradient spans most of [0, 1]; linear resampling keeps it inside */
	cr_expect(lo >= -1e-6f && lo < 0.2f, "min %g", lo);
	cr_expect(hi <= 1 + 1e-6f && hi > 0.8f, "max %g", hi);
	dalic_pipeline_destroy(p);
}

Test(video_resize, conflicting_sizes_are_refused)
{
	tl_clip_t c = {.codec = "mjpeg", .frames = 6, .gop = 1};
	const char *path = video_resize_clip("e.avi", &c);
	dalic_pipeline_t *p = video_resize_pipeline(1);
	dalic_op_t *op = video_resize_op(p, "readers.video_resize", path);
	ASSERT_OK(dalic_op_set_float(op, "resize_shorter", 48));
	ASSERT_OK(dalic_op_set_float(op, "resize_x", 40));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	int rc = dalic_pipeline_build(p);
	if (!rc)
		rc = dalic_pipeline_run(p);
	cr_expect_neq(rc, DALIC_OK);
	EXPECT_ERROR_HAS("readers__VideoResize");
	dalic_pipeline_destroy(p);
}
