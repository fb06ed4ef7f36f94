/*
 * experimental.inputs.video through the public API: clips the test writes (their frames carry
 * their number, tests/testlib/video_clip.h) fed whole with dalic_pipeline_feed_input, streamed
 * out as batches of sequences over several iterations — the batch outline of DALI's
 * DetermineBatchOutline worked out by hand, 'partial' and 'pad' last sequences, the next
 * queued video after one ends, every executor mode — and the errors: no data, a feed that is
 * not a video or not uint8, a bad policy.
 */
#include "tests/testlib.h"
#include "tests/testlib/video_clip.h"

#include <stdlib.h>
#include <string.h>

TestSuite(input_video, .timeout = 60, .fini = tl_tmpdir_remove);

static uint8_t *input_video_clip(const char *name, tl_clip_t *c, size_t *n)
{
	tl_clip_defaults(c);
	const char *path = tl_tmp_path(name);
	char err[512];
	cr_assert_eq(tl_clip_write(path, c, err, sizeof err), 0, "%s: %s", path, err);
	return tl_read_file(path, n);
}

static dalic_pipeline_t *input_video_pipe(const dalic_pipeline_params_t *prm, int seq,
                                          const char *policy)
{
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(prm, &p));
	dalic_op_t *op = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, "experimental.inputs.video", "cpu", &op));
	ASSERT_OK(dalic_op_set_name(op, "vin"));
	ASSERT_OK(dalic_op_set_int(op, "sequence_length", seq));
	if (policy)
		ASSERT_OK(dalic_op_set_string(op, "last_sequence_policy", policy));
	tl_output(p, op);
	return p;
}

static void input_video_feed_named(dalic_pipeline_t *p, const uint8_t *data, size_t n,
                                   const char *name)
{
	int64_t shape = (int64_t)n;
	ASSERT_OK(dalic_pipeline_feed_input_sources(p, "vin", DALIC_UINT8, 1, 1, &shape, data,
	                                            NULL, name ? &name : NULL));
}

static void input_video_feed(dalic_pipeline_t *p, const uint8_t *data, size_t n)
{
	input_video_feed_named(p, data, n, NULL);
}

/* Every sequence of b names the video it came from (NULL: none was given). */
static void input_video_expect_source(const dalic_batch_t *b, const char *name)
{
	for (int i = 0; i < dalic_batch_num_samples(b); i++)
		if (name)
			cr_expect_str_eq(dalic_batch_source(b, i), name, "sample %d", i);
		else
			cr_expect_null(dalic_batch_source(b, i), "sample %d", i);
}

/* Frame number shown by frame f of sample i (FHWC uint8). */
static int input_video_frame_of(const dalic_batch_t *b, int i, int f)
{
	const int64_t *sh = dalic_batch_shape(b, i);
	const uint8_t *px = (const uint8_t *)dalic_batch_data(b, i) + (size_t)f * sh[1] * sh[2] * 3;
	return tl_clip_read_bits(px, (int)sh[2], (int)sh[1], 3, 0);
}

/* The next output holds `n` sequences of the given lengths, frames counting on from *next
 * (frames past `real[i]` must be zero padding). */
static void input_video_expect(const dalic_batch_t *b, int n, const int *len, const int *real,
                               int *next)
{
	cr_assert_eq(dalic_batch_num_samples(b), n);
	cr_assert_str_eq(dalic_batch_layout(b), "FHWC");
	for (int i = 0; i < n; i++) {
		tl_expect_shape(b, i, 4, (int64_t[]){len[i], 96, 160, 3});
		for (int f = 0; f < real[i]; f++)
			cr_expect_eq(input_video_frame_of(b, i, f), (*next)++, "sample %d frame %d",
			             i, f);
		size_t frame = 96 * 160 * 3;
		const uint8_t *px = dalic_batch_data(b, i);
		for (size_t e = (size_t)real[i] * frame; e < (size_t)len[i] * frame; e++)
			cr_assert_eq(px[e], 0, "padding of sample %d at %zu", i, e);
	}
}

Test(input_video, partial_outline_then_the_next_video)
{
	/* 23 frames, 4 per sequence, batch 3: one full batch (12), then 11 frames = two full
	 * sequences and a 3-frame one. The second video (9 frames) gives [4, 4, 1]. */
	size_t na, nb;
	tl_clip_t a = {.codec = "libvpx-vp9", .frames = 23};
	tl_clip_t b = {.codec = "mjpeg", .frames = 9, .gop = 1};
	uint8_t *va = input_video_clip("a.webm", &a, &na);
	uint8_t *vb = input_video_clip("b.avi", &b, &nb);
	dalic_pipeline_params_t prm = tl_mode_params(&tl_modes[0], 3, 2);
	dalic_pipeline_t *p = input_video_pipe(&prm, 4, NULL);
	ASSERT_OK(dalic_pipeline_build(p));
	input_video_feed_named(p, va, na, "clips/a.webm"); /* its sequences name it */
	input_video_feed(p, vb, nb);
	int next = 0;
	input_video_expect(tl_run(p, 0), 3, (int[]){4, 4, 4}, (int[]){4, 4, 4}, &next);
	input_video_expect_source(dalic_pipeline_output(p, 0), "clips/a.webm");
	input_video_expect(tl_run(p, 0), 3, (int[]){4, 4, 3}, (int[]){4, 4, 3}, &next);
	input_video_expect_source(dalic_pipeline_output(p, 0), "clips/a.webm");
	cr_expect_eq(next, 23);
	next = 0;
	input_video_expect(tl_run(p, 0), 3, (int[]){4, 4, 1}, (int[]){4, 4, 1}, &next);
	input_video_expect_source(dalic_pipeline_output(p, 0), NULL);
	cr_expect_eq(next, 9);
	/* nothing more fed: DALI's words */
	const char *err = tl_run_fails(p, DALIC_ESTATE);
	cr_expect(strstr(err, "no data was fed") != NULL, "%s", err);
	dalic_pipeline_destroy(p);
	free(va);
	free(vb);
}

Test(input_video, pad_fills_the_last_sequence_in_every_mode)
{
	/* 13 frames, 5 per sequence, batch 2: [5, 5], then [5 = 3 frames + 2 zero frames]. */
	size_t n;
	tl_clip_t c = {.codec = "mjpeg", .frames = 13, .gop = 1};
	uint8_t *v = input_video_clip("c.avi", &c, &n);
	TL_FOR_EACH_MODE(m)
	{
		dalic_pipeline_params_t prm = tl_mode_params(m, 2, 2);
		dalic_pipeline_t *p = input_video_pipe(&prm, 5, "pad");
		ASSERT_OK(dalic_pipeline_build(p));
		for (int k = 0; k < 3; k++) /* enough fed for the prefetching modes */
			input_video_feed(p, v, n);
		int next = 0;
		input_video_expect(tl_run(p, 0), 2, (int[]){5, 5}, (int[]){5, 5}, &next);
		input_video_expect(tl_run(p, 0), 1, (int[]){5}, (int[]){3}, &next);
		cr_expect_eq(next, 13, "mode %s", m->name);
		next = 0;
		input_video_expect(tl_run(p, 0), 2, (int[]){5, 5}, (int[]){5, 5}, &next);
		dalic_pipeline_destroy(p);
	}
	free(v);
}

Test(input_video, exact_multiple_has_no_partial_batch)
{
	size_t n;
	tl_clip_t c = {.codec = "mjpeg", .frames = 12, .gop = 1};
	uint8_t *v = input_video_clip("d.avi", &c, &n);
	dalic_pipeline_params_t prm = tl_mode_params(&tl_modes[0], 2, 1);
	dalic_pipeline_t *p = input_video_pipe(&prm, 3, "pad");
	ASSERT_OK(dalic_pipeline_build(p));
	input_video_feed(p, v, n);
	int next = 0;
	input_video_expect(tl_run(p, 0), 2, (int[]){3, 3}, (int[]){3, 3}, &next);
	input_video_expect(tl_run(p, 0), 2, (int[]){3, 3}, (int[]){3, 3}, &next);
	cr_expect_eq(next, 12);
	tl_run_fails(p, DALIC_ESTATE);
	dalic_pipeline_destroy(p);
	free(v);
}

Test(input_video, feeds_that_are_not_videos)
{
	dalic_pipeline_params_t prm = tl_mode_params(&tl_modes[0], 2, 1);
	dalic_pipeline_t *p = input_video_pipe(&prm, 3, NULL);
	ASSERT_OK(dalic_pipeline_build(p));
	uint8_t junk[1000];
	for (int i = 0; i < 1000; i++)
		junk[i] = (uint8_t)i;
	int64_t shape = 1000;
	int rc = dalic_pipeline_feed_input(p, "vin", DALIC_UINT8, 1, 1, &shape, junk, NULL);
	cr_expect_eq(rc, DALIC_EOP);
	cr_expect(strstr(dalic_last_error(),
	                 "Failed to create video decoder for provided video data") != NULL,
	          "%s", dalic_last_error());
	cr_expect(strstr(dalic_last_error(), "'vin'") != NULL, "%s", dalic_last_error());
	float f[4] = {0};
	shape = 4;
	rc = dalic_pipeline_feed_input(p, "vin", DALIC_FLOAT, 1, 1, &shape, f, NULL);
	cr_expect_eq(rc, DALIC_EINVAL);
	cr_expect(strstr(dalic_last_error(), "encoded bytes (uint8, 1 dim)") != NULL, "%s",
	          dalic_last_error());
	dalic_pipeline_destroy(p);
}

Test(input_video, bad_policy_fails_the_build)
{
	dalic_pipeline_params_t prm = tl_mode_params(&tl_modes[0], 2, 1);
	dalic_pipeline_t *p = input_video_pipe(&prm, 3, "cut");
	cr_expect_neq(dalic_pipeline_build(p), DALIC_OK);
	cr_expect(strstr(dalic_last_error(),
	                 "Provided `last_sequence_policy` is not supported: cut") != NULL,
	          "%s", dalic_last_error());
	dalic_pipeline_destroy(p);
}
