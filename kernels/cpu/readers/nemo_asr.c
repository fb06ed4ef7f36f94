/*
 * readers.nemo_asr (DALI's readers__NemoAsr / NemoAsrReader): speech samples listed in NVIDIA
 * NeMo manifests — JSON lines with audio_filepath, and optionally duration and offset
 * (seconds) and text — decoded as DALI's NemoAsrLoader does:
 *  - each line must be a JSON object with an audio_filepath; other lines are skipped with a
 *    warning; min_duration / max_duration (when > 0) drop entries by their manifest duration
 *    (an entry without one has -1); the index output counts the kept lines of its manifest;
 *  - the audio is [offset, offset + duration) of the file (the whole file without duration),
 *    in frames truncated from seconds * rate, then downmixed and resampled to sample_rate
 *    with DALI's windowed sinc of `quality` (audio_decode.h), as dtype (INT16 / INT32 /
 *    FLOAT);
 *  - outputs: the audio ([frames] downmixed, else [frames, channels]), then as asked the
 *    file's own sample rate (float scalar — the rate before resampling, as DALI), the text
 *    (uint8, no terminator) and the index (int64 [1]);
 *  - the order is DALI's Loader over the kept entries (reader_core.h), as FileLabelLoader:
 *    random_shuffle shuffles the list once with mt19937(524287) first, shuffle_after_epoch
 *    reshuffles it every epoch.
 * Paths are used as written (relative to the working directory, as DALI opens them). Headers
 * are read in setup (the shapes), samples decoded per sample in parallel; a file libsndfile
 * cannot open fails naming the sample and the file.
 */
#include "engine/checked.h"
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "kernels/common/audio_decode.h"
#include "kernels/common/reader_core.h"
#include "kernels/common/thread_scratch.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nemo_entry {
	char *path, *text;
	double duration, offset;
	int64_t index;
} nemo_entry_t;

typedef struct nemo_sample {
	dalic_audio_info_t info;
	int64_t offset, frames; /* in the file's frames */
} nemo_sample_t;

typedef struct nemo_reader {
	dalic_rdcore_t core;
	nemo_entry_t *v;
	int n, cap;
	dalic_dtype_t dtype;
	bool downmix, read_sr, read_text, read_idxs;
	double sample_rate;
	float min_duration, max_duration;
	dalic_audio_window_t window;
	dalic_thread_scratch_t scratch;
	nemo_sample_t *s; /* per sample slot */
	/* manifest lines skipped while listing, warned about at the first run */
	int skipped;
	char first_skipped[160];
	bool warned;
} nemo_reader_t;
_Static_assert(offsetof(nemo_reader_t, core) == 0, "the state starts with the reader core");

static const rdcore_kind_t nemo_kind = {.list_shuffle = true, .epoch = RDCORE_EPOCH_LIST};

static int nemo_outputs_for(const dalic_opdef_t *def)
{
	static const char *const flags[] = {"read_sample_rate", "read_text", "read_idxs"};
	static const bool defaults[] = {true, true, false};
	int n = 1;
	for (int k = 0; k < 3; k++) {
		const dalic_value_t *v = dalic_graphdef_op_arg(def, flags[k]);
		n += v && v->kind != DALIC_V_NONE ? dalic_value_get_i(v, 0) != 0 : defaults[k];
	}
	return n;
}

/* The number DALI's rapidjson (normal precision) reads from the text a manifest writer
 * printed for v: significand digits gathered as an integer up to 2^53, the rest as a double
 * up to 17 digits, then one multiplication or division by a power of ten. That is not
 * always the correctly rounded value cJSON gives (0.22999999999999998 reads as 0.23), and the
 * frame counts truncated from seconds * rate must be DALI's. The text is taken to be the
 * shortest that reads back as v (Python's json, NeMo's manifests). */
static double nemo_rapidjson_double(double v)
{
	char text[40];
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(text, sizeof text, "%.*g", digits, v);
		if (strtod(text, NULL) == v)
			break;
	}
	const char *p = text;
	bool minus = *p == '-';
	p += minus;
	uint64_t i64 = 0;
	double d = 0;
	bool use_double = false;
	int exp_frac = 0, digits = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (!use_double && i64 <= (UINT64_MAX - 9) / 10) {
			i64 = i64 * 10 + (uint64_t)(*p - '0');
		} else {
			if (!use_double)
				d = (double)i64;
			use_double = true;
			d = d * 10.0 + (*p - '0');
		}
		digits += i64 != 0 || d > 0;
	}
	if (*p == '.') {
		p++;
		for (; !use_double && *p >= '0' && *p <= '9' && i64 <= 0x1FFFFFFFFFFFFFull; p++) {
			i64 = i64 * 10 + (uint64_t)(*p - '0');
			exp_frac--;
			digits += i64 != 0;
		}
		if (!use_double)
			d = (double)i64;
		use_double = true;
		for (; *p >= '0' && *p <= '9'; p++)
			if (digits < 17) {
				d = d * 10.0 + (*p - '0');
				exp_frac--;
				digits += d > 0.0;
			}
	}
	if (!use_double)
		d = (double)i64;
	int e = 0;
	if (*p == 'e' || *p == 'E')
		e = atoi(p + 1);
	int pw = e + exp_frac;
	if (pw < -308) /* rapidjson's FastPath never divides by 1e309 or more */
		d = pw + 308 < -308 ? 0.0 : d / 1e308 / pow(10, -(pw + 308));
	else if (pw >= 0)
		d *= pow(10, pw);
	else
		d /= pow(10, -pw);
	return minus ? -d : d;
}

static void nemo_skip_line(nemo_reader_t *r, const char *why, const char *line)
{
	if (!r->skipped++)
		snprintf(r->first_skipped, sizeof r->first_skipped, "%s: %.100s", why, line);
}

/* One manifest line: an entry, a skipped line, or an error (out of memory). */
static int nemo_parse_line(dalic_op_ctx_t *ctx, nemo_reader_t *r, const char *line, int64_t *index)
{
	cJSON *j = cJSON_Parse(line);
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		nemo_skip_line(r, "Skipping invalid manifest line", line);
		return DALIC_OK;
	}
	const cJSON *path = cJSON_GetObjectItemCaseSensitive(j, "audio_filepath");
	const cJSON *dur = cJSON_GetObjectItemCaseSensitive(j, "duration");
	const cJSON *off = cJSON_GetObjectItemCaseSensitive(j, "offset");
	const cJSON *text = cJSON_GetObjectItemCaseSensitive(j, "text");
	nemo_entry_t e = {.duration = -1.0, .offset = 0.0, .index = *index};
	if (cJSON_IsNumber(dur))
		e.duration = nemo_rapidjson_double(dur->valuedouble);
	if (cJSON_IsNumber(off))
		e.offset = nemo_rapidjson_double(off->valuedouble);
	if (!cJSON_IsString(path) || !*path->valuestring) {
		cJSON_Delete(j);
		nemo_skip_line(r, "Skipping manifest line without an audio filepath", line);
		return DALIC_OK;
	}
	if ((r->max_duration > 0 && e.duration > (double)r->max_duration) ||
	    (r->min_duration > 0 && e.duration < (double)r->min_duration)) {
		cJSON_Delete(j);
		return DALIC_OK; /* DALI drops these without a word */
	}
	e.path = strdup(path->valuestring);
	e.text = strdup(r->read_text && cJSON_IsString(text) ? text->valuestring : "");
	cJSON_Delete(j);
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 64;
		nemo_entry_t *v = realloc(r->v, sizeof *v * (size_t)cap);
		if (v) {
			r->v = v;
			r->cap = cap;
		}
	}
	if (!e.path || !e.text || r->n == r->cap) {
		free(e.path);
		free(e.text);
		return dalic_op_fail(ctx, NULL, -1, "out of memory reading the manifests");
	}
	r->v[r->n++] = e;
	++*index;
	return DALIC_OK;
}

static int nemo_parse_manifest(dalic_op_ctx_t *ctx, nemo_reader_t *r, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return dalic_op_fail(ctx, NULL, -1, "Could not open NEMO ASR manifest file: \"%s\"",
		                     path);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int64_t index = 0; /* DALI counts each manifest's kept lines from 0 */
	int rc = DALIC_OK;
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = 0;
		rc = nemo_parse_line(ctx, r, line, &index);
	}
	free(line);
	fclose(f);
	return rc;
}

/* DALI's PrepareMetadata: every manifest in order, then the core shuffles and positions. */
static int nemo_prepare(dalic_op_ctx_t *ctx)
{
	nemo_reader_t *r = ctx->state;
	if (r->core.ready)
		return DALIC_OK;
	const dalic_value_t *m = dalic_arg(ctx, "manifest_filepaths");
	for (int k = 0; k < m->n; k++)
		DALIC_TRY(nemo_parse_manifest(ctx, r, m->s[k]));
	if (r->n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No files found.");
	return dalic_rdcore_set_size(&r->core, ctx, r->n);
}

static void nemo_fini(dalic_op_ctx_t *ctx)
{
	nemo_reader_t *r = ctx->state;
	for (int i = 0; i < r->n; i++) {
		free(r->v[i].path);
		free(r->v[i].text);
	}
	free(r->v);
	free(r->s);
	dalic_audio_window_free(&r->window);
	dalic_thread_scratch_free(&r->scratch);
	dalic_rdcore_fini(&r->core);
}

static int nemo_init_state(dalic_op_ctx_t *ctx, nemo_reader_t *r)
{
	DALIC_TRY(dalic_rdcore_init(&r->core, ctx, &nemo_kind));
	r->core.prepare = nemo_prepare;
	r->dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (r->dtype != DALIC_INT16 && r->dtype != DALIC_INT32 && r->dtype != DALIC_FLOAT)
		return dalic_op_fail(
		    ctx, NULL, -1,
		    "Unsupported output type: %s. Supported types are int16, int32, "
		    "and float.",
		    dalic_dtype_cname(r->dtype));
	r->downmix = dalic_arg_bool(ctx, "downmix");
	r->read_sr = dalic_arg_bool(ctx, "read_sample_rate");
	r->read_text = dalic_arg_bool(ctx, "read_text");
	r->read_idxs = dalic_arg_bool(ctx, "read_idxs");
	r->sample_rate = dalic_arg_float(ctx, "sample_rate");
	r->min_duration = (float)dalic_arg_float(ctx, "min_duration");
	r->max_duration = (float)dalic_arg_float(ctx, "max_duration");
	if (r->sample_rate > 0) {
		double q = dalic_arg_float(ctx, "quality");
		if (!(q >= 0 && q <= 100))
			return dalic_op_fail(ctx, NULL, -1,
			                     "Resampling quality must be in [0..100] range, got %g",
			                     q);
		int lobes, coeffs;
		dalic_audio_quality_params(q, &lobes, &coeffs);
		DALIC_TRY(dalic_audio_window_init(&r->window, lobes, coeffs));
	}
	if (!(r->s = calloc((size_t)ctx->max_batch_size, sizeof *r->s)))
		return dalic_op_fail(ctx, NULL, -1, "out of memory for the reader state");
	DALIC_TRY(dalic_thread_scratch_init(ctx, &r->scratch));
	return r->core.lazy ? DALIC_OK : nemo_prepare(ctx);
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int nemo_init(dalic_op_ctx_t *ctx)
{
	int rc = nemo_init_state(ctx, ctx->state);
	if (rc)
		nemo_fini(ctx);
	return rc;
}

static bool nemo_resamples(const nemo_reader_t *r, int i)
{
	return r->sample_rate > 0 && (double)r->s[i].info.sample_rate != r->sample_rate;
}

/* Sample i's header: DALI's ProcessOffsetAndLength and DecodedAudioShape. */
static int nemo_probe(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, nemo_reader_t *r, int i,
                      const nemo_entry_t *e)
{
	nemo_sample_t *s = &r->s[i];
	char err[256];
	dalic_audio_file_t *f = dalic_audio_open_path(e->path, &s->info, err, sizeof err);
	if (!f)
		return dalic_op_fail(ctx, ws, i, "Failed to open audio file \"%s\": %s", e->path,
		                     err);
	dalic_audio_close(f);
	double rate = s->info.sample_rate;
	s->offset = e->offset >= 0 ? (int64_t)(e->offset * rate) : 0;
	s->frames = e->duration >= 0 ? (int64_t)(e->duration * rate) : s->info.frames;
	if (s->offset + s->frames > s->info.frames)
		s->frames = s->info.frames - s->offset;
	if (s->offset > s->info.frames || s->frames <= 0)
		return dalic_op_fail(
		    ctx, ws, i,
		    "\"%s\": offset %g s and duration %g s leave no audio in a file "
		    "of %lld frames at %d Hz",
		    e->path, e->offset, e->duration, (long long)s->info.frames,
		    s->info.sample_rate);
	int64_t len = s->frames, elems;
	if (nemo_resamples(r, i) &&
	    (len = dalic_audio_resampled_length(s->frames, rate, r->sample_rate)) < 0)
		return dalic_op_fail(ctx, ws, i, "resampling \"%s\" gives too many frames",
		                     e->path);
	if (!dalic_ck_mul_i64(s->info.frames, (int64_t)s->info.channels + 1, &elems))
		return dalic_op_fail(ctx, ws, i, "\"%s\": %lld frames of %d channels are too many",
		                     e->path, (long long)s->info.frames, s->info.channels);
	int64_t *shape = dalic_batch_shape_mut(ws->outputs[0], i);
	shape[0] = len;
	if (!r->downmix)
		shape[1] = s->info.channels;
	return DALIC_OK;
}

static void nemo_warn_skipped(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, nemo_reader_t *r)
{
	if (r->warned || !r->skipped)
		return;
	r->warned = true;
	dalic_op_warn(ctx, ws, -1, r->skipped, "%d manifest line(s) skipped; the first: %s",
	              r->skipped, r->first_skipped);
}

static int nemo_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	nemo_reader_t *r = ctx->state;
	DALIC_TRY(nemo_prepare(ctx));
	nemo_warn_skipped(ctx, ws, r);
	int n = ws->batch_size, o = 0;
	dalic_batch_t *audio = ws->outputs[o++];
	dalic_batch_t *sr = r->read_sr ? ws->outputs[o++] : NULL;
	dalic_batch_t *text = r->read_text ? ws->outputs[o++] : NULL;
	dalic_batch_t *idx = r->read_idxs ? ws->outputs[o++] : NULL;
	DALIC_TRY(dalic_batch_set_meta(audio, n, r->dtype, r->downmix ? 1 : 2));
	dalic_batch_set_layout(audio, "");
	if (sr)
		DALIC_TRY(dalic_batch_set_meta(sr, n, DALIC_FLOAT, 0));
	if (text)
		DALIC_TRY(dalic_batch_set_meta(text, n, DALIC_UINT8, 1));
	if (idx)
		DALIC_TRY(dalic_batch_set_meta(idx, n, DALIC_INT64, 1));
	dalic_rdcore_next_batch(&r->core, n);
	for (int i = 0; i < n; i++) {
		const nemo_entry_t *e = &r->v[r->core.selected[i]];
		for (int k = 0; k < o; k++)
			ws->outputs[k]->sources[i] = e->path;
		DALIC_TRY(nemo_probe(ctx, ws, r, i, e));
		if (text)
			dalic_batch_shape_mut(text, i)[0] = (int64_t)strlen(e->text);
		if (idx)
			dalic_batch_shape_mut(idx, i)[0] = 1;
	}
	return DALIC_OK;
}

static int nemo_decode(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, nemo_reader_t *r, int i,
                       int thread, const nemo_entry_t *e)
{
	nemo_sample_t *s = &r->s[i];
	dalic_audio_job_t job = {
	    .info = &s->info,
	    .frames = s->frames,
	    .dtype = r->dtype,
	    .downmix = r->downmix,
	    .window = nemo_resamples(r, i) ? &r->window : NULL,
	    .target = r->sample_rate,
	    .out_len = dalic_batch_shape(ws->outputs[0], i)[0],
	};
	int64_t floats = dalic_audio_job_scratch(&job);
	if (floats < 0)
		return dalic_op_fail(ctx, ws, i, "decoder scratch memory is too large");
	int rc = DALIC_OK;
	float *buf = NULL;
	if (floats > 0 && !(buf = dalic_thread_scratch_get(ctx, ws, i, &r->scratch, thread,
	                                                   (size_t)floats * sizeof(float), &rc)))
		return rc;
	char err[512];
	dalic_audio_info_t again;
	dalic_audio_file_t *f = dalic_audio_open_path(e->path, &again, err, sizeof err);
	if (!f)
		return dalic_op_fail(ctx, ws, i, "Failed to open audio file \"%s\": %s", e->path,
		                     err);
	if (s->offset > 0 && dalic_audio_seek(f, s->offset)) {
		dalic_audio_close(f);
		return dalic_op_fail(ctx, ws, i, "\"%s\": cannot seek to frame %lld", e->path,
		                     (long long)s->offset);
	}
	rc = dalic_audio_job_run(f, &job, ws->outputs[0]->ptrs[i], buf, err, sizeof err);
	dalic_audio_close(f);
	return rc ? dalic_op_fail(ctx, ws, i, "\"%s\": %s", e->path, err) : DALIC_OK;
}

static int nemo_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	nemo_reader_t *r = ctx->state;
	const nemo_entry_t *e = &r->v[r->core.selected[i]];
	int o = 1;
	if (r->read_sr)
		*(float *)ws->outputs[o++]->ptrs[i] = (float)r->s[i].info.sample_rate;
	if (r->read_text) {
		size_t n = strlen(e->text);
		if (n)
			memcpy(ws->outputs[o]->ptrs[i], e->text, n);
		o++;
	}
	if (r->read_idxs)
		*(int64_t *)ws->outputs[o++]->ptrs[i] = e->index;
	return nemo_decode(ctx, ws, r, i, thread, e);
}

static const dalic_arg_schema_t args[] = {
    {"manifest_filepaths", DALIC_ARG_STRING_LIST, NULL, "NeMo manifest files (JSON lines)."},
    {"read_sample_rate", DALIC_ARG_BOOL, "True",
     "Output each sample's rate in Hz (the file's own rate), float."},
    {"read_text", DALIC_ARG_BOOL, "True", "Output each transcript as uint8 text."},
    {"read_idxs", DALIC_ARG_BOOL, "False",
     "Output each sample's index among its manifest's kept lines, int64 [1]."},
    {"sample_rate", DALIC_ARG_FLOAT, "-1.0", "If positive, resample the audio to this rate."},
    {"quality", DALIC_ARG_FLOAT, "50.0",
     "Resampling quality, 0..100: 3 sinc lobes at 0, 16 at 50, 64 at 100."},
    {"downmix", DALIC_ARG_BOOL, "True", "Average all channels into one (1-D output)."},
    {"dtype", DALIC_ARG_DTYPE, "FLOAT", "Output data type: INT16, INT32 or FLOAT."},
    {"min_duration", DALIC_ARG_FLOAT, "0.0",
     "If positive, entries whose manifest duration is shorter are left out."},
    {"max_duration", DALIC_ARG_FLOAT, "0.0",
     "If positive, entries whose manifest duration is longer are left out."},
    {"normalize_text", DALIC_ARG_BOOL, "None", "Deprecated; accepted and ignored (as DALI)."},
    DALIC_READER_COMMON_ARGS,
    DALIC_READER_EPOCH_ARGS,
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(nemo_reader_t),
    .init = nemo_init,
    .setup = nemo_setup,
    .run_sample = nemo_run_sample,
    .fini = nemo_fini,
    .reader_meta = dalic_rdcore_op_meta,
    .reset = dalic_rdcore_op_reset,
    .ckpt_save = dalic_rdcore_op_ckpt_save,
    .ckpt_restore = dalic_rdcore_op_ckpt_restore,
    .skip = dalic_rdcore_op_skip,
};

DALIC_OPERATOR(readers__NemoAsr) = {
    .name = "readers__NemoAsr",
    .fn = "readers.nemo_asr",
    .aliases = {"NemoAsrReader"},
    .module = "nvidia.dali.fn.readers",
    .doc = "Reads speech samples (audio, sample rate, transcript, index) listed in NeMo "
           "JSON-lines manifests.",
    .min_inputs = 0,
    .max_inputs = 0,
    .num_outputs = 4,
    .outputs_for = nemo_outputs_for,
    .devices = DALIC_DEV_CPU,
    .random = true,
    .is_reader = true,
    .args = args,
    .cpu = &kernel,
};
