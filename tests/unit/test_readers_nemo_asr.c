/*
 * readers.nemo_asr through the public API, on WAV files the tests write with known samples
 * and manifests the tests write: the outputs (int16 samples straight from the file, the
 * file's rate, the transcript without a terminator, the index among the manifest's kept
 * lines), offsets and durations cut in frames truncated from seconds * rate, downmixing,
 * skipped lines reported as a warning, min / max duration, a second manifest's indices, the
 * outputs the read_* flags leave out, and the errors (manifest, no entries, audio file, dtype).
 */
#include "tests/testlib.h"
#include "tests/testlib/audio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(readers_nemo_asr, .timeout = 60, .fini = tl_tmpdir_remove);

/* A 16-bit WAV of `frames` frames, `channels` channels, where frame f channel c holds
 * 100 f + c (so every value tells where it came from). Returns its path. */
static const char *nemo_wav(const char *name, int rate, int channels, int frames)
{
	int16_t *v = malloc(sizeof *v * (size_t)frames * (size_t)channels);
	for (int f = 0; f < frames; f++)
		for (int c = 0; c < channels; c++)
			v[f * channels + c] = (int16_t)(100 * f + c);
	size_t n;
	void *bytes = tl_audio_wav16(v, frames, channels, rate, &n);
	const char *path = tl_tmp_path(name);
	tl_write_file(path, bytes, n);
	free(bytes);
	free(v);
	return path;
}

static dalic_op_t *nemo_reader(dalic_pipeline_t *p, const char *manifest)
{
	dalic_op_t *op = tl_op(p, "readers.nemo_asr");
	ASSERT_OK(dalic_op_set_strings(op, "manifest_filepaths", 1, &manifest));
	return op;
}

static void nemo_outputs(dalic_pipeline_t *p, dalic_op_t *op)
{
	for (int i = 0; i < dalic_op_num_outputs(op); i++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, i), NULL));
	ASSERT_OK(dalic_pipeline_build(p));
}

static void nemo_expect_text(const dalic_batch_t *b, int i, const char *want)
{
	size_t n = strlen(want);
	tl_expect_shape(b, i, 1, (int64_t[]){(int64_t)n});
	cr_expect(!n || !memcmp(dalic_batch_data(b, i), want, n), "sample %d text", i);
}

Test(readers_nemo_asr, outputs_cut_and_skipped_lines)
{
	const char *a = nemo_wav("a.wav", 1000, 1, 50), *b = nemo_wav("b.wav", 2000, 1, 40);
	char m[2048];
	/* b: offset 0.0025 s at 2000 Hz = frame 5, duration 0.01 s = 20 frames; a: no duration
	 * (all 50 frames), no text. Two lines are skipped. Index counts kept lines. */
	snprintf(m, sizeof m,
	         "{\"audio_filepath\": \"%s\", \"duration\": 0.01, \"offset\": 0.0025, "
	         "\"text\": \"hello\"}\n"
	         "not json at all\n"
	         "{\"duration\": 1.0, \"text\": \"no path\"}\n"
	         "{\"audio_filepath\": \"%s\", \"extra\": [1, 2]}\n",
	         b, a);
	const char *manifest = tl_tmp_path("m.json");
	tl_write_text(manifest, m);
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = nemo_reader(p, manifest);
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT16));
	ASSERT_OK(dalic_op_set_bool(op, "read_idxs", true));
	cr_assert_eq(dalic_op_num_outputs(op), 4);
	nemo_outputs(p, op);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *audio = dalic_pipeline_output(p, 0), *sr = dalic_pipeline_output(p, 1);
	const dalic_batch_t *text = dalic_pipeline_output(p, 2), *idx = dalic_pipeline_output(p, 3);
	cr_assert_eq(dalic_batch_dtype(audio), DALIC_INT16);
	tl_expect_shape(audio, 0, 1, (int64_t[]){20});
	tl_expect_shape(audio, 1, 1, (int64_t[]){50});
	const int16_t *s0 = dalic_batch_data(audio, 0), *s1 = dalic_batch_data(audio, 1);
	for (int f = 0; f < 20; f++)
		cr_expect_eq(s0[f], 100 * (f + 5), "frame %d", f);
	for (int f = 0; f < 50; f++)
		cr_expect_eq(s1[f], 100 * f, "frame %d", f);
	cr_expect_eq(dalic_batch_ndim(sr), 0);
	cr_expect_eq(*(const float *)dalic_batch_data(sr, 0), 2000.0f);
	cr_expect_eq(*(const float *)dalic_batch_data(sr, 1), 1000.0f);
	nemo_expect_text(text, 0, "hello");
	nemo_expect_text(text, 1, "");
	cr_expect_eq(*(const int64_t *)dalic_batch_data(idx, 0), 0);
	cr_expect_eq(*(const int64_t *)dalic_batch_data(idx, 1), 1);
	cr_assert_eq(dalic_pipeline_num_warnings(p), 1);
	dalic_warning_t w;
	ASSERT_OK(dalic_pipeline_warning(p, 0, &w));
	cr_expect(strstr(w.message, "2 manifest line(s) skipped") != NULL, "%s", w.message);
	cr_expect(strstr(w.message, "not json at all") != NULL, "%s", w.message);
	/* next iteration wraps around: b again */
	ASSERT_OK(dalic_pipeline_run(p));
	tl_expect_shape(dalic_pipeline_output(p, 0), 0, 1, (int64_t[]){20});
	dalic_pipeline_destroy(p);
}

Test(readers_nemo_asr, stereo_kept_or_downmixed_and_flags_drop_outputs)
{
	const char *st = nemo_wav("st.wav", 8000, 2, 16);
	char m[512];
	snprintf(m, sizeof m, "{\"audio_filepath\": \"%s\", \"text\": \"x\"}\n", st);
	const char *manifest = tl_tmp_path("st.json");
	tl_write_text(manifest, m);
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *kept = nemo_reader(p, manifest);
	ASSERT_OK(dalic_op_set_bool(kept, "downmix", false));
	ASSERT_OK(dalic_op_set_int(kept, "dtype", DALIC_INT16));
	ASSERT_OK(dalic_op_set_bool(kept, "read_sample_rate", false));
	ASSERT_OK(dalic_op_set_bool(kept, "read_text", false));
	cr_assert_eq(dalic_op_num_outputs(kept), 1);
	dalic_op_t *mixed = nemo_reader(p, manifest);
	ASSERT_OK(dalic_op_set_bool(mixed, "read_text", false));
	cr_assert_eq(dalic_op_num_outputs(mixed), 2);
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(kept, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(mixed, 0), NULL));
	ASSERT_OK(dalic_pipeline_build(p));
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *k = dalic_pipeline_output(p, 0), *d = dalic_pipeline_output(p, 1);
	tl_expect_shape(k, 0, 2, (int64_t[]){16, 2});
	const int16_t *kv = dalic_batch_data(k, 0);
	for (int f = 0; f < 16; f++) {
		cr_expect_eq(kv[2 * f], 100 * f);
		cr_expect_eq(kv[2 * f + 1], 100 * f + 1);
	}
	/* float: libsndfile reads int16 as v / 32768; DALI mixes with weights 1/2 in float */
	tl_expect_shape(d, 0, 1, (int64_t[]){16});
	const float *dv = dalic_batch_data(d, 0);
	for (int f = 0; f < 16; f++) {
		float l = (float)(100 * f) * (1.0f / 32768.0f),
		      r = (float)(100 * f + 1) * (1.0f / 32768.0f);
		cr_expect_float_eq(dv[f], l * 0.5f + r * 0.5f, 1e-7, "frame %d", f);
	}
	dalic_pipeline_destroy(p);
}

Test(readers_nemo_asr, durations_filter_and_second_manifest_indices)
{
	const char *a = nemo_wav("a.wav", 1000, 1, 30);
	char m1[1024], m2[512];
	snprintf(m1, sizeof m1,
	         "{\"audio_filepath\": \"%s\", \"duration\": 0.005, \"text\": \"short\"}\n"
	         "{\"audio_filepath\": \"%s\", \"duration\": 0.02, \"text\": \"kept\"}\n"
	         "{\"audio_filepath\": \"%s\", \"duration\": 0.03, \"text\": \"long\"}\n",
	         a, a, a);
	snprintf(m2, sizeof m2,
	         "{\"audio_filepath\": \"%s\", \"duration\": 0.015, \"text\": \"two\"}\n", a);
	const char *paths[] = {tl_tmp_path("m1.json"), tl_tmp_path("m2.json")};
	tl_write_text(paths[0], m1);
	tl_write_text(paths[1], m2);
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = tl_op(p, "readers.nemo_asr");
	ASSERT_OK(dalic_op_set_strings(op, "manifest_filepaths", 2, paths));
	ASSERT_OK(dalic_op_set_float(op, "min_duration", 0.01));
	ASSERT_OK(dalic_op_set_float(op, "max_duration", 0.025));
	ASSERT_OK(dalic_op_set_bool(op, "read_idxs", true));
	nemo_outputs(p, op);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *audio = dalic_pipeline_output(p, 0),
	                    *text = dalic_pipeline_output(p, 2);
	const dalic_batch_t *idx = dalic_pipeline_output(p, 3);
	tl_expect_shape(audio, 0, 1, (int64_t[]){20});
	tl_expect_shape(audio, 1, 1, (int64_t[]){15});
	nemo_expect_text(text, 0, "kept");
	nemo_expect_text(text, 1, "two");
	/* each manifest counts its kept lines from 0 */
	cr_expect_eq(*(const int64_t *)dalic_batch_data(idx, 0), 0);
	cr_expect_eq(*(const int64_t *)dalic_batch_data(idx, 1), 0);
	dalic_pipeline_destroy(p);
}

static const char *nemo_build_fails(const char *manifest, int dtype)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = nemo_reader(p, manifest);
	if (dtype >= 0)
		ASSERT_OK(dalic_op_set_int(op, "dtype", dtype));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	int rc = dalic_pipeline_build(p);
	if (!rc)
		rc = dalic_pipeline_run(p);
	cr_expect_neq(rc, DALIC_OK, "%s", manifest);
	static char msg[1024];
	snprintf(msg, sizeof msg, "%s", dalic_last_error());
	dalic_pipeline_destroy(p);
	return msg;
}

Test(readers_nemo_asr, errors_name_the_manifest_or_the_file)
{
	const char *e = nemo_build_fails(tl_tmp_path("none.json"), -1);
	EXPECT_HAS(e, "Could not open NEMO ASR manifest file: \"");
	EXPECT_HAS(e, "none.json\"");
	const char *empty = tl_tmp_path("empty.json");
	tl_write_text(empty, "\n[1, 2]\n");
	EXPECT_HAS(nemo_build_fails(empty, -1), "No files found.");
	const char *missing = tl_tmp_path("missing.json");
	tl_write_text(missing, "{\"audio_filepath\": \"/nonexistent/x.wav\"}\n");
	e = nemo_build_fails(missing, -1);
	EXPECT_HAS(e, "Failed to open audio file \"/nonexistent/x.wav\"");
	EXPECT_HAS(e, "readers__NemoAsr");
	EXPECT_HAS(nemo_build_fails(missing, DALIC_UINT8),
	           "Unsupported output type: uint8. Supported types are int16, int32, and float.");
}
