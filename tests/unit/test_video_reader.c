/*
 * The video readers through the public API, on clips the test writes (tests/testlib/
 * video_clip.h: each frame carries its frame number and clip id as black/white blocks, so a
 * decoded frame says which frame of which clip it is). experimental.readers.video: sequences
 * with stride and step, labels, frame numbers, timestamps, constant padding; readers.video
 * (legacy, emulated gpu): float output, the variable-frame-rate check; errors naming files.
 */
#include "tests/testlib.h"
#include "tests/testlib/video_clip.h"

TestSuite(video_reader, .timeout = 60, .fini = tl_tmpdir_remove);

/* Writes clip c (defaults for zero fields) to the temporary file `name`; returns its path. */
static const char *video_reader_clip(const char *name, tl_clip_t *c)
{
	tl_clip_defaults(c);
	const char *path = tl_tmp_path(name);
	char err[512];
	cr_assert_eq(tl_clip_write(path, c, err, sizeof err), 0, "%s: %s", path, err);
	return path;
}

/* Asserts frame f of FHWC uint8 sample i shows frame `want` of clip `clip`. */
static void video_reader_expect_frame(const dalic_batch_t *b, int i, int f, int want, int clip)
{
	const int64_t *sh = dalic_batch_shape(b, i);
	const uint8_t *px = (const uint8_t *)dalic_batch_data(b, i) + (size_t)f * sh[1] * sh[2] * 3;
	cr_expect_eq(tl_clip_read_bits(px, (int)sh[2], (int)sh[1], 3, 0), want,
	             "sample %d frame %d: frame number", i, f);
	cr_expect_eq(tl_clip_read_bits(px, (int)sh[2], (int)sh[1], 3, 1), clip,
	             "sample %d frame %d: clip id", i, f);
}

/* A simple-mode pipeline; `gpu`: with device 0 (emulated here) for the legacy reader. */
static dalic_pipeline_t *video_reader_pipeline(int batch, bool gpu)
{
	dalic_pipeline_params_t params = tl_mode_params(&tl_modes[0], batch, 2);
	if (!gpu)
		params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	return p;
}

static dalic_op_t *video_reader_op(dalic_pipeline_t *p, const char *name, const char *device)
{
	dalic_op_t *op = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, name, device, &op));
	return op;
}

/* The reader's first `n` outputs (their number follows the arguments) as pipeline outputs. */
static void video_reader_outputs(dalic_pipeline_t *p, dalic_op_t *op, int n)
{
	for (int o = 0; o < n; o++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, o), NULL), "output %d", o);
}

Test(video_reader, experimental_sequences_labels_numbers_times)
{
	tl_clip_t c = {.codec = "libx264", .frames = 30, .clip_id = 3};
	const char *path = video_reader_clip("h264.mp4", &c);
	dalic_pipeline_t *p = video_reader_pipeline(3, false);
	dalic_op_t *rd = video_reader_op(p, "experimental.readers.video", "cpu");
	ASSERT_OK(dalic_op_set_strings(rd, "filenames", 1, &path));
	ASSERT_OK(dalic_op_set_ints(rd, "labels", 1, (int64_t[]){5}));
	ASSERT_OK(dalic_op_set_int(rd, "sequence_length", 4));
	ASSERT_OK(dalic_op_set_int(rd, "stride", 2));
	ASSERT_OK(dalic_op_set_int(rd, "step", 3));
	ASSERT_OK(dalic_op_set_string(rd, "enable_frame_num", "sequence"));
	ASSERT_OK(dalic_op_set_bool(rd, "enable_timestamps", true));
	video_reader_outputs(p, rd, 4);
	ASSERT_OK(dalic_pipeline_build(p));
	/* Sequences start every 3 frames; batch 2 continues where batch 1 stopped. */
	for (int it = 0; it < 2; it++) {
		const dalic_batch_t *v = tl_run(p, 0);
		const dalic_batch_t *lab = dalic_pipeline_output(p, 1);
		const dalic_batch_t *num = dalic_pipeline_output(p, 2);
		const dalic_batch_t *ts = dalic_pipeline_output(p, 3);
		cr_assert_str_eq(dalic_batch_layout(v), "FHWC");
		for (int i = 0; i < 3; i++) {
			int start = 3 * (3 * it + i);
			tl_expect_shape(v, i, 4, (int64_t[]){4, 96, 160, 3});
			cr_expect_eq(tl_at(lab, i, 0), 5.0);
			for (int k = 0; k < 4; k++) {
				video_reader_expect_frame(v, i, k, start + 2 * k, 3);
				cr_expect_eq(tl_at(num, i, k), start + 2 * k);
				cr_expect_float_eq(tl_at(ts, i, k), tl_clip_time(&c, start + 2 * k), 1e-6);
			}
		}
	}
	dalic_pipeline_destroy(p);
}

Test(video_reader, experimental_constant_padding)
{
	tl_clip_t c = {.codec = "mjpeg", .frames = 12, .gop = 1, .clip_id = 6};
	const char *path = video_reader_clip("mjpeg.avi", &c);
	dalic_pipeline_t *p = video_reader_pipeline(2, false);
	dalic_op_t *rd = video_reader_op(p, "experimental.readers.video", "cpu");
	ASSERT_OK(dalic_op_set_strings(rd, "filenames", 1, &path));
	ASSERT_OK(dalic_op_set_int(rd, "sequence_length", 4));
	ASSERT_OK(dalic_op_set_int(rd, "stride", 3));
	ASSERT_OK(dalic_op_set_int(rd, "step", 6));
	ASSERT_OK(dalic_op_set_string(rd, "pad_mode", "constant"));
	ASSERT_OK(dalic_op_set_ints(rd, "fill_value", 3, (int64_t[]){7, 8, 9}));
	ASSERT_OK(dalic_op_set_string(rd, "enable_frame_num", "sequence"));
	video_reader_outputs(p, rd, 2);
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_batch_t *v = tl_run(p, 0);
	const dalic_batch_t *num = dalic_pipeline_output(p, 1);
	/* Starts 0 and 6: frames 0 3 6 9, then 6 9 and two fill frames (number -1). */
	const int want[2][4] = {{0, 3, 6, 9}, {6, 9, -1, -1}};
	size_t frame = 96 * 160 * 3;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 4; k++) {
			cr_expect_eq(tl_at(num, i, k), want[i][k], "sample %d position %d", i, k);
			if (want[i][k] >= 0) {
				video_reader_expect_frame(v, i, k, want[i][k], 6);
				continue;
			}
			const uint8_t *px = (const uint8_t *)dalic_batch_data(v, i) + k * frame;
			for (size_t e = 0; e < frame; e++)
				cr_assert_eq(px[e], 7 + (int)(e % 3), "fill at %zu", e);
		}
	dalic_pipeline_destroy(p);
}

Test(video_reader, legacy_float_normalized_with_timestamps)
{
	tl_clip_t c = {.codec = "libvpx-vp9", .frames = 16, .clip_id = 9};
	const char *path = video_reader_clip("vp9.webm", &c);
	dalic_pipeline_t *p = video_reader_pipeline(2, true);
	dalic_op_t *rd = video_reader_op(p, "readers.video", "gpu");
	ASSERT_OK(dalic_op_set_strings(rd, "filenames", 1, &path));
	ASSERT_OK(dalic_op_set_ints(rd, "labels", 1, (int64_t[]){2}));
	ASSERT_OK(dalic_op_set_int(rd, "sequence_length", 3));
	ASSERT_OK(dalic_op_set_int(rd, "dtype", DALIC_FLOAT));
	ASSERT_OK(dalic_op_set_bool(rd, "normalized", true));
	ASSERT_OK(dalic_op_set_bool(rd, "enable_frame_num", true));
	ASSERT_OK(dalic_op_set_bool(rd, "enable_timestamps", true));
	video_reader_outputs(p, rd, 4);
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_batch_t *v = tl_run(p, 0);
	const dalic_batch_t *num = dalic_pipeline_output(p, 2);
	const dalic_batch_t *ts = dalic_pipeline_output(p, 3);
	cr_assert_eq(dalic_batch_dtype(v), DALIC_FLOAT);
	/* The legacy step defaults to sequence_length * stride: starts 0 and 3. */
	uint8_t *u8 = malloc(96 * 160 * 3);
	uint8_t *ref = malloc(96 * 160 * 3);
	for (int i = 0; i < 2; i++) {
		tl_expect_shape(v, i, 4, (int64_t[]){3, 96, 160, 3});
		cr_expect_eq(tl_at(num, i, 0), 3 * i);
		for (int k = 0; k < 3; k++) {
			cr_expect_float_eq(tl_at(ts, i, k), tl_clip_time(&c, 3 * i + k), 1e-6);
			const float *f = (const float *)dalic_batch_data(v, i) + (size_t)k * 96 * 160 * 3;
			for (int e = 0; e < 96 * 160 * 3; e++) {
				cr_assert(f[e] >= 0.0f && f[e] <= 1.0f, "value %g", (double)f[e]);
				u8[e] = (uint8_t)(f[e] * 255.0f + 0.5f);
			}
			cr_expect_eq(tl_clip_read_bits(u8, 160, 96, 3, 0), 3 * i + k);
			/* The gradient below the blocks, through lossy VP9: within 12 levels. */
			tl_clip_pattern(&c, 3 * i + k, ref);
			for (int y = 48; y < 96; y += 7)
				for (int x = 8; x < 152; x += 13)
					cr_expect_leq(abs(u8[(y * 160 + x) * 3 + 1] - ref[(y * 160 + x) * 3 + 1]),
					              12, "frame %d (%d, %d)", 3 * i + k, x, y);
		}
	}
	free(u8);
	free(ref);
	dalic_pipeline_destroy(p);
}

Test(video_reader, legacy_refuses_variable_frame_rate_unless_told)
{
	tl_clip_t c = {.codec = "libx264", .frames = 12, .vfr = true, .clip_id = 1};
	const char *path = video_reader_clip("vfr.mkv", &c);
	for (int skip = 0; skip < 2; skip++) {
		dalic_pipeline_t *p = video_reader_pipeline(1, true);
		dalic_op_t *rd = video_reader_op(p, "readers.video", "gpu");
		ASSERT_OK(dalic_op_set_strings(rd, "filenames", 1, &path));
		ASSERT_OK(dalic_op_set_int(rd, "sequence_length", 2));
		ASSERT_OK(dalic_op_set_bool(rd, "skip_vfr_check", skip));
		if (!skip) {
			video_reader_outputs(p, rd, 1);
			cr_assert_neq(dalic_pipeline_build(p), DALIC_OK);
			EXPECT_ERROR_HAS("skip_vfr_check");
			EXPECT_ERROR_HAS("vfr.mkv");
		} else {
			video_reader_outputs(p, rd, 1);
			ASSERT_OK(dalic_pipeline_build(p));
			video_reader_expect_frame(tl_run(p, 0), 0, 1, 1, 1);
		}
		dalic_pipeline_destroy(p);
	}
}

Test(video_reader, missing_and_broken_files_are_named)
{
	const char *missing = tl_tmp_path("nothere.mp4");
	const char *broken = tl_tmp_path("broken.mp4");
	tl_write_text(broken, "this is no video");
	const char *paths[] = {missing, broken};
	for (int k = 0; k < 2; k++) {
		dalic_pipeline_t *p = video_reader_pipeline(1, false);
		dalic_op_t *rd = video_reader_op(p, "experimental.readers.video", "cpu");
		ASSERT_OK(dalic_op_set_strings(rd, "filenames", 1, &paths[k]));
		ASSERT_OK(dalic_op_set_int(rd, "sequence_length", 2));
		video_reader_outputs(p, rd, 1);
		cr_assert_neq(dalic_pipeline_build(p), DALIC_OK, "%s", paths[k]);
		EXPECT_ERROR_HAS(paths[k]);
		dalic_pipeline_destroy(p);
	}
}
