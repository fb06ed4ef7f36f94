/*
 * decoders.video through the public API: readers.file's bytes of clips the test writes
 * (tests/testlib/video_clip.h: frames carry their number as blocks) decoded whole, as a range
 * with stride padded past the end, as a frame list with reflection, per-sample arguments;
 * errors naming the file; and sequence-aware operators (flip, crop) on the decoded FHWC
 * frames.
 */
#include "tests/testlib.h"
#include "tests/testlib/video_clip.h"

TestSuite(video_decoder, .timeout = 60, .fini = tl_tmpdir_remove);

static const char *video_decoder_clip(const char *name, tl_clip_t *c)
{
	tl_clip_defaults(c);
	const char *path = tl_tmp_path(name);
	char err[512];
	cr_assert_eq(tl_clip_write(path, c, err, sizeof err), 0, "%s: %s", path, err);
	return path;
}

/* readers.file over `n` files in order -> decoders.video "Dec" (returned), not yet an output. */
static dalic_op_t *video_decoder_chain(dalic_pipeline_t *p, int n, const char *const *files)
{
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_strings(rd, "files", n, files));
	dalic_op_t *dec = tl_op(p, "decoders.video");
	ASSERT_OK(dalic_op_set_name(dec, "Dec"));
	tl_input(dec, dalic_op_output(rd, 0));
	return dec;
}

/* Frame number shown by frame f of sample i (FHWC uint8). */
static int video_decoder_frame_of(const dalic_batch_t *b, int i, int f)
{
	const int64_t *sh = dalic_batch_shape(b, i);
	const uint8_t *px = (const uint8_t *)dalic_batch_data(b, i) + (size_t)f * sh[1] * sh[2] * 3;
	return tl_clip_read_bits(px, (int)sh[2], (int)sh[1], 3, 0);
}

Test(video_decoder, whole_clips_of_two_codecs)
{
	tl_clip_t a = {.codec = "libx264", .frames = 14, .clip_id = 1};
	tl_clip_t b = {.codec = "mjpeg", .frames = 9, .gop = 1, .width = 64, .height = 48};
	const char *files[] = {video_decoder_clip("a.mp4", &a), video_decoder_clip("b.avi", &b)};
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_output(p, video_decoder_chain(p, 2, files));
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_batch_t *v = tl_run(p, 0);
	cr_assert_str_eq(dalic_batch_layout(v), "FHWC");
	cr_assert_eq(dalic_batch_dtype(v), DALIC_UINT8);
	tl_expect_shape(v, 0, 4, (int64_t[]){14, 96, 160, 3});
	tl_expect_shape(v, 1, 4, (int64_t[]){9, 48, 64, 3});
	for (int k = 0; k < 14; k++)
		cr_expect_eq(video_decoder_frame_of(v, 0, k), k);
	for (int k = 0; k < 9; k++)
		cr_expect_eq(video_decoder_frame_of(v, 1, k), k);
	dalic_pipeline_destroy(p);
}

Test(video_decoder, range_with_stride_padded_with_fill_value)
{
	tl_clip_t c = {.codec = "libvpx-vp9", .frames = 10, .clip_id = 2};
	const char *files[] = {video_decoder_clip("c.webm", &c)};
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *dec = video_decoder_chain(p, 1, files);
	ASSERT_OK(dalic_op_set_int(dec, "start_frame", 3));
	ASSERT_OK(dalic_op_set_int(dec, "stride", 3));
	ASSERT_OK(dalic_op_set_int(dec, "sequence_length", 5));
	ASSERT_OK(dalic_op_set_ints(dec, "fill_value", 3, (int64_t[]){10, 20, 30}));
	tl_output(p, dec);
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_batch_t *v = tl_run(p, 0);
	/* Frames 3, 6, 9, then 12 and 15 lie past the clip: constant frames. */
	tl_expect_shape(v, 0, 4, (int64_t[]){5, 96, 160, 3});
	for (int k = 0; k < 3; k++)
		cr_expect_eq(video_decoder_frame_of(v, 0, k), 3 + 3 * k);
	size_t frame = 96 * 160 * 3;
	const uint8_t *px = dalic_batch_data(v, 0);
	for (size_t e = 3 * frame; e < 5 * frame; e++)
		cr_assert_eq(px[e], 10 * (1 + (int)(e % 3)), "padding at %zu", e);
	dalic_pipeline_destroy(p);
}

/* A decoders.video of reader `rd`'s output 0, as the next pipeline output. */
static dalic_op_t *video_decoder_more(dalic_pipeline_t *p, dalic_op_t *rd)
{
	dalic_op_t *dec = tl_op(p, "decoders.video");
	tl_input(dec, dalic_op_output(rd, 0));
	return dec;
}

Test(video_decoder, frame_list_reflected_and_pad_none_shortens)
{
	tl_clip_t c = {.codec = "libx264", .frames = 8, .bframes = 2, .clip_id = 4};
	const char *files[] = {video_decoder_clip("d.mp4", &c)};
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_strings(rd, "files", 1, files));
	dalic_op_t *pick = video_decoder_more(p, rd);
	/* reflect_101 about 0 and 8: -2 -> 2, 9 -> 5, 12 -> 2; in the list's order. */
	ASSERT_OK(dalic_op_set_ints(pick, "frames", 6, (int64_t[]){5, -2, 9, 0, 12, 5}));
	ASSERT_OK(dalic_op_set_string(pick, "pad_mode", "reflect_101"));
	tl_output(p, pick);
	dalic_op_t *none = video_decoder_more(p, rd);
	ASSERT_OK(dalic_op_set_int(none, "start_frame", 2));
	ASSERT_OK(dalic_op_set_int(none, "stride", 4));
	ASSERT_OK(dalic_op_set_int(none, "sequence_length", 6));
	ASSERT_OK(dalic_op_set_string(none, "pad_mode", "none"));
	tl_output(p, none);
	dalic_op_t *edge = video_decoder_more(p, rd);
	ASSERT_OK(dalic_op_set_int(edge, "start_frame", 5));
	ASSERT_OK(dalic_op_set_int(edge, "end_frame", 11));
	ASSERT_OK(dalic_op_set_string(edge, "pad_mode", "edge"));
	tl_output(p, edge);
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_batch_t *v = tl_run(p, 0);
	const int want[] = {5, 2, 5, 0, 2, 5};
	tl_expect_shape(v, 0, 4, (int64_t[]){6, 96, 160, 3});
	for (int k = 0; k < 6; k++)
		cr_expect_eq(video_decoder_frame_of(v, 0, k), want[k], "position %d", k);
	/* 'none': frames 2 and 6 only. */
	v = dalic_pipeline_output(p, 1);
	tl_expect_shape(v, 0, 4, (int64_t[]){2, 96, 160, 3});
	cr_expect_eq(video_decoder_frame_of(v, 0, 0), 2);
	cr_expect_eq(video_decoder_frame_of(v, 0, 1), 6);
	/* 'edge': 5 6 7 7 7 7. */
	v = dalic_pipeline_output(p, 2);
	tl_expect_shape(v, 0, 4, (int64_t[]){6, 96, 160, 3});
	for (int k = 0; k < 6; k++)
		cr_expect_eq(video_decoder_frame_of(v, 0, k), k < 3 ? 5 + k : 7, "position %d", k);
	dalic_pipeline_destroy(p);
}

Test(video_decoder, per_sample_start_and_length)
{
	tl_clip_t c = {.codec = "mjpeg", .frames = 12, .gop = 1, .clip_id = 5};
	const char *path = video_decoder_clip("e.avi", &c);
	const char *files[] = {path, path, path};
	dalic_pipeline_t *p = tl_pipeline(3);
	tl_source(p, "start");
	tl_source(p, "len");
	dalic_op_t *dec = video_decoder_chain(p, 3, files);
	ASSERT_OK(dalic_op_set_arg_input(dec, "start_frame", "start"));
	ASSERT_OK(dalic_op_set_arg_input(dec, "sequence_length", "len"));
	tl_output(p, dec);
	ASSERT_OK(dalic_pipeline_build(p));
	const int32_t start[] = {0, 4, 10}, len[] = {2, 3, 1};
	const int64_t one[] = {1, 1, 1};
	tl_feed(p, "start", DALIC_INT32, 1, 3, one, start, NULL);
	tl_feed(p, "len", DALIC_INT32, 1, 3, one, len, NULL);
	const dalic_batch_t *v = tl_run(p, 0);
	for (int i = 0; i < 3; i++) {
		tl_expect_shape(v, i, 4, (int64_t[]){len[i], 96, 160, 3});
		for (int k = 0; k < len[i]; k++)
			cr_expect_eq(video_decoder_frame_of(v, i, k), start[i] + k, "sample %d", i);
	}
	dalic_pipeline_destroy(p);
}

Test(video_decoder, errors_name_the_file_and_sample)
{
	tl_clip_t c = {.codec = "mjpeg", .frames = 4, .gop = 1};
	const char *files[] = {video_decoder_clip("ok.avi", &c), tl_tmp_path("text.mp4")};
	tl_write_text(files[1], "not a video at all");
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_output(p, video_decoder_chain(p, 2, files));
	ASSERT_OK(dalic_pipeline_build(p));
	tl_run_fails(p, DALIC_EOP);
	EXPECT_ERROR_HAS("Failed to create video decoder");
	EXPECT_ERROR_HAS("text.mp4");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *dec = video_decoder_chain(p, 1, files);
	ASSERT_OK(dalic_op_set_int(dec, "start_frame", 4));
	tl_output(p, dec);
	ASSERT_OK(dalic_pipeline_build(p));
	tl_run_fails(p, DALIC_EOP);
	EXPECT_ERROR_HAS("Start frame 4 is out of bounds");
	dalic_pipeline_destroy(p);
}

Test(video_decoder, flip_runs_per_frame_on_decoded_video)
{
	tl_clip_t c = {.codec = "libvpx-vp9", .frames = 6, .clip_id = 3};
	const char *files[] = {video_decoder_clip("f.webm", &c)};
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *dec = video_decoder_chain(p, 1, files);
	tl_output(p, dec);
	dalic_op_t *flip = tl_op(p, "flip");
	tl_input(flip, dalic_op_output(dec, 0));
	ASSERT_OK(dalic_op_set_int(flip, "horizontal", 1));
	ASSERT_OK(dalic_op_set_int(flip, "vertical", 1));
	tl_output(p, flip);
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_batch_t *v = tl_run(p, 0), *f = dalic_pipeline_output(p, 1);
	cr_assert_str_eq(dalic_batch_layout(f), "FHWC");
	tl_expect_shape(f, 0, 4, (int64_t[]){6, 96, 160, 3});
	const uint8_t *a = dalic_batch_data(v, 0), *b = dalic_batch_data(f, 0);
	for (int k = 0; k < 6; k++)
		for (int y = 0; y < 96; y++)
			for (int x = 0; x < 160; x++)
				for (int ch = 0; ch < 3; ch++) {
					size_t from = (((size_t)k * 96 + y) * 160 + x) * 3 + ch;
					size_t to = (((size_t)k * 96 + 95 - y) * 160 + 159 - x) * 3 + ch;
					if (a[from] != b[to])
						cr_assert_fail("frame %d (%d, %d) channel %d", k, x, y, ch);
				}
	dalic_pipeline_destroy(p);
}

Test(video_decoder, crop_cuts_every_frame_of_decoded_video)
{
	tl_clip_t c = {.codec = "mjpeg", .frames = 4, .gop = 1, .clip_id = 1};
	const char *files[] = {video_decoder_clip("g.avi", &c)};
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *dec = video_decoder_chain(p, 1, files);
	tl_output(p, dec);
	dalic_op_t *crop = tl_op(p, "crop");
	tl_input(crop, dalic_op_output(dec, 0));
	ASSERT_OK(dalic_op_set_floats(crop, "crop", 2, (const double[]){40, 64}));
	ASSERT_OK(dalic_op_set_float(crop, "crop_pos_x", 0.25));
	ASSERT_OK(dalic_op_set_float(crop, "crop_pos_y", 0.5));
	tl_output(p, crop);
	ASSERT_OK(dalic_pipeline_build(p));
	const dalic_batch_t *v = tl_run(p, 0), *o = dalic_pipeline_output(p, 1);
	cr_assert_str_eq(dalic_batch_layout(o), "FHWC");
	tl_expect_shape(o, 0, 4, (int64_t[]){4, 40, 64, 3});
	/* window: x from round(0.25 * (160 - 64)) = 24, y from round(0.5 * (96 - 40)) = 28 */
	const uint8_t *in = dalic_batch_data(v, 0), *out = dalic_batch_data(o, 0);
	for (int k = 0; k < 4; k++)
		for (int y = 0; y < 40; y++)
			cr_assert_arr_eq(out + (((size_t)k * 40 + y) * 64) * 3,
			                 in + (((size_t)k * 96 + 28 + y) * 160 + 24) * 3, 64 * 3,
			                 "frame %d row %d", k, y);
	dalic_pipeline_destroy(p);
}
