/*
 * The video readers' arguments (see video_reader_op.h): outputs by argument, then each
 * variant's checks with DALI's messages (legacy: video_reader_op.h / video_loader.h;
 * experimental: video_reader_decoder_op.cc, video_utils.h).
 */
#include "kernels/common/video_reader_op.h"

#include "engine/graphdef.h"

#include <stdlib.h>
#include <string.h>

static bool video_args_nonempty(const dalic_opdef_t *def, const char *name)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, name);
	if (!v || v->kind == DALIC_V_NONE)
		return false;
	return v->kind == DALIC_V_STRING && !v->is_list ? v->s[0][0] != 0 : v->n > 0;
}

static bool video_args_given(const dalic_opdef_t *def, const char *name)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, name);
	return v && v->kind != DALIC_V_NONE;
}

/* -1 for a value DALI refuses (reported at init). */
static int video_args_frame_num(const char *s)
{
	if (!s || !strcmp(s, "none") || !strcmp(s, "False"))
		return VIDEO_FRAME_NUM_NONE;
	if (!strcmp(s, "scalar") || !strcmp(s, "True"))
		return VIDEO_FRAME_NUM_SCALAR;
	if (!strcmp(s, "sequence"))
		return VIDEO_FRAME_NUM_SEQUENCE;
	return -1;
}

int dalic_video_reader_outputs(const dalic_opdef_t *def, bool legacy)
{
	const dalic_value_t *fnum = dalic_graphdef_op_arg(def, "enable_frame_num");
	const dalic_value_t *ts = dalic_graphdef_op_arg(def, "enable_timestamps");
	bool has_fnum = fnum && fnum->kind == DALIC_V_STRING &&
	                video_args_frame_num(fnum->s[0]) != VIDEO_FRAME_NUM_NONE;
	bool has_ts = ts && ts->kind == DALIC_V_BOOL && ts->b[0];
	bool files = video_args_nonempty(def, "filenames"), list = video_args_nonempty(def, "file_list");
	if (legacy) {
		bool labels = (files && video_args_given(def, "labels")) || list ||
		              video_args_nonempty(def, "file_root");
		bool nums = labels && (list || files);
		return 1 + labels + (nums && has_fnum) + (nums && has_ts);
	}
	bool labels = video_args_given(def, "labels") || video_args_given(def, "file_list") ||
	              video_args_given(def, "file_root");
	return 1 + labels + has_fnum + has_ts;
}

static int video_args_pad_mode(dalic_op_ctx_t *ctx, video_reader_t *r)
{
	const char *s = dalic_arg_string(ctx, "pad_mode");
	if (!dalic_video_pad_parse(s, &r->pad))
		return DALIC_OK;
	return dalic_op_fail(ctx, NULL, -1,
	                     "Invalid pad_mode: %s. Valid options are: none, constant, edge, "
	                     "reflect_1001, reflect_101",
	                     s ? s : "None");
}

static int video_args_fill(dalic_op_ctx_t *ctx, video_reader_t *r)
{
	const dalic_value_t *fill = dalic_arg(ctx, "fill_value");
	if (fill->kind == DALIC_V_NONE || fill->n < 1)
		return dalic_op_fail(ctx, NULL, -1, "fill_value must contain at least one value");
	if (fill->n > (int)sizeof r->fill)
		return dalic_op_fail(ctx, NULL, -1, "fill_value has %d values; at most %d", fill->n,
		                     (int)sizeof r->fill);
	for (int i = 0; i < fill->n; i++) {
		if (fill->i[i] < 0 || fill->i[i] > 255)
			return dalic_op_fail(ctx, NULL, -1, "fill_value must be in range [0, 255]");
		r->fill[i] = (uint8_t)fill->i[i];
	}
	r->nfill = fill->n;
	return DALIC_OK;
}

static int video_args_list_options(dalic_op_ctx_t *ctx, video_reader_t *r)
{
	if (r->legacy) {
		r->list_format = dalic_arg_bool(ctx, "file_list_frame_num");
		/* include_preceding_frame rounds outwards: start down, end up */
		r->round_start_down = r->round_end_down = false;
		r->include_end = dalic_arg_bool(ctx, "file_list_include_preceding_frame");
		return DALIC_OK;
	}
	const char *fmt = dalic_arg_string(ctx, "file_list_format");
	const char *rounding = dalic_arg_string(ctx, "file_list_rounding");
	if (fmt && !strcmp(fmt, "frames"))
		r->list_format = 1;
	else if (fmt && !strcmp(fmt, "timestamps"))
		r->list_format = 0;
	else
		return dalic_op_fail(ctx, NULL, -1, "Invalid file_list_format: %s", fmt ? fmt : "None");
	static const char *const roundings[] = {"start_down_end_up", "start_up_end_down", "all_up",
	                                        "all_down"};
	int k = 0;
	while (k < 4 && (!rounding || strcmp(rounding, roundings[k])))
		k++;
	if (k == 4)
		return dalic_op_fail(ctx, NULL, -1, "Invalid file_list_rounding: %s",
		                     rounding ? rounding : "None");
	r->round_start_down = k == 0 || k == 3;
	r->round_end_down = k == 1 || k == 3;
	r->include_end = dalic_arg_bool(ctx, "file_list_include_end");
	return DALIC_OK;
}

/* Which source of videos, labels and the per-variant output rules. */
static int video_args_sources(dalic_op_ctx_t *ctx, video_reader_t *r)
{
	const dalic_value_t *files = dalic_arg(ctx, "filenames");
	const dalic_value_t *labels = dalic_arg(ctx, "labels");
	const char *root = dalic_arg_string(ctx, "file_root"), *list = dalic_arg_string(ctx, "file_list");
	bool has_files = files->kind != DALIC_V_NONE && files->n > 0;
	bool has_root = root && *root, has_list = list && *list;
	bool has_labels = labels->kind != DALIC_V_NONE;
	int nfiles = has_files ? files->n : 0, nlabels = has_labels ? labels->n : 0;
	if (r->legacy) {
		if (has_files + has_root + has_list != 1)
			return dalic_op_fail(ctx, NULL, -1,
			                     "Only one of `filenames`, `file_root` or `file_list` argument "
			                     "must be specified at once");
		bool nums_ok = has_list || (has_files && has_labels);
		if (!nums_ok && r->frame_num != VIDEO_FRAME_NUM_NONE)
			return dalic_op_fail(ctx, NULL, -1,
			                     "frame numbers can be enabled only when `file_list`, or "
			                     "`filenames` with `labels` argument are passed");
		if (!nums_ok && r->timestamps)
			return dalic_op_fail(ctx, NULL, -1,
			                     "timestamps can be enabled only when `file_list`, or "
			                     "`filenames` with `labels` argument are passed");
		if (has_labels && !has_files)
			return dalic_op_fail(ctx, NULL, -1,
			                     "The argument ``labels`` is valid only when file paths are "
			                     "provided with `filenames` argument.");
		if (has_files && nlabels && nlabels != nfiles)
			return dalic_op_fail(ctx, NULL, -1, "Provided %d labels for %d files.", nlabels,
			                     nfiles);
		r->labels_out = has_labels || has_list || has_root;
		r->nums_out = r->labels_out && (has_list || has_files);
	} else {
		int given = dalic_arg_given(ctx, "file_list") + dalic_arg_given(ctx, "file_root") +
		            dalic_arg_given(ctx, "filenames");
		if (given != 1)
			return dalic_op_fail(ctx, NULL, -1,
			                     "Only one of the following arguments can be provided: "
			                     "``file_list``, ``file_root``, ``filenames``");
		if (has_labels && nlabels != nfiles)
			return dalic_op_fail(ctx, NULL, -1,
			                     "Number of provided files and labels should match. Provided "
			                     "%d files and %d labels.",
			                     nfiles, nlabels);
		r->labels_out = has_labels || dalic_arg_given(ctx, "file_list") ||
		                dalic_arg_given(ctx, "file_root");
		r->nums_out = true;
	}
	for (int i = 0; i < nlabels; i++)
		if (labels->i[i] < INT32_MIN || labels->i[i] > INT32_MAX)
			return dalic_op_fail(ctx, NULL, -1, "``labels``[%d] = %lld is out of range: labels "
			                     "are 32-bit integers", i, (long long)labels->i[i]);
	return DALIC_OK;
}

static int video_args_common(dalic_op_ctx_t *ctx, video_reader_t *r)
{
	int64_t len = dalic_arg_int(ctx, "sequence_length"), stride = dalic_arg_int(ctx, "stride");
	int64_t step = dalic_arg_int(ctx, "step");
	if (len < 1 || len > (1 << 20))
		return dalic_op_fail(ctx, NULL, -1, "sequence_length must be in [1, 1048576] (got %lld)",
		                     (long long)len);
	if (stride < 1 || stride > (1 << 20))
		return dalic_op_fail(ctx, NULL, -1, "%s (got %lld)",
		                     r->legacy ? "Stride should be > 0" : "stride must be in [1, 1048576]",
		                     (long long)stride);
	if (step > (1 << 30))
		return dalic_op_fail(ctx, NULL, -1, "step %lld is too large", (long long)step);
	r->seq_len = (int)len;
	r->stride = (int)stride;
	r->step = step <= 0 ? (int)(len * stride) : (int)step;
	r->frame_num = video_args_frame_num(dalic_arg_string(ctx, "enable_frame_num"));
	if (r->frame_num < 0)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Invalid enable_frame_num value: '%s'. Valid values are: 'none', "
		                     "'scalar', 'sequence'.",
		                     dalic_arg_string(ctx, "enable_frame_num"));
	r->timestamps = dalic_arg_bool(ctx, "enable_timestamps");
	int64_t type = dalic_arg_int(ctx, "image_type");
	if (type != DALIC_RGB && type != DALIC_YCbCr)
		return dalic_op_fail(ctx, NULL, -1, "%s (got %lld)",
		                     r->legacy ? "Image type must be RGB or YCbCr." : "Invalid image type",
		                     (long long)type);
	r->image_type = type == DALIC_YCbCr ? DALIC_VIDEO_YCBCR : DALIC_VIDEO_RGB;
	r->shard_id = (int)dalic_arg_int(ctx, "shard_id");
	r->num_shards = (int)dalic_arg_int(ctx, "num_shards");
	r->stick = dalic_arg_bool(ctx, "stick_to_shard");
	r->pad_last = dalic_arg_bool(ctx, "pad_last_batch");
	r->shuffle = dalic_arg_bool(ctx, "random_shuffle");
	r->initial_fill = dalic_arg_int(ctx, "initial_fill");
	return DALIC_OK;
}

static int video_args_variant(dalic_op_ctx_t *ctx, video_reader_t *r)
{
	if (r->legacy) {
		r->dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
		if (r->dtype != DALIC_UINT8 && r->dtype != DALIC_FLOAT)
			return dalic_op_fail(ctx, NULL, -1, "Data type must be FLOAT or UINT8.");
		r->normalized = dalic_arg_bool(ctx, "normalized");
		r->skip_vfr = dalic_arg_bool(ctx, "skip_vfr_check");
		r->pad = dalic_arg_bool(ctx, "pad_sequences") ? VIDEO_PAD_ZERO_TAIL : VIDEO_PAD_NONE;
		return DALIC_OK;
	}
	r->dtype = DALIC_UINT8;
	r->skip_vfr = true;
	r->uniform = dalic_arg_bool(ctx, "uniform_sample");
	DALIC_TRY(video_args_fill(ctx, r));
	return video_args_pad_mode(ctx, r);
}

int dalic_video_reader_parse(dalic_op_ctx_t *ctx, video_reader_t *r, bool legacy)
{
	r->legacy = legacy;
	int rc = video_args_common(ctx, r);
	if (!rc)
		rc = video_args_variant(ctx, r);
	if (!rc)
		rc = video_args_sources(ctx, r);
	if (!rc)
		rc = video_args_list_options(ctx, r);
	if (!rc && r->shuffle && (r->initial_fill < 1 || r->initial_fill > (1 << 24)))
		rc = dalic_op_fail(ctx, NULL, -1, "initial_fill %lld must be in [1, 16777216]",
		                   (long long)r->initial_fill);
	if (!rc && (r->num_shards < 1 || r->shard_id < 0 || r->num_shards <= r->shard_id))
		rc = dalic_op_fail(ctx, NULL, -1,
		                   "num_shards needs to be greater than shard_id (got shard_id %d, "
		                   "num_shards %d)",
		                   r->shard_id, r->num_shards);
	r->num_threads = ctx->num_threads > 0 ? ctx->num_threads : 1;
	if (!rc) {
		r->selected = calloc((size_t)ctx->max_batch_size, sizeof(int32_t));
		r->workers = calloc((size_t)r->num_threads, sizeof(video_worker_t));
		if (!r->selected || !r->workers)
			rc = dalic_op_fail(ctx, NULL, -1, "out of memory");
	}
	for (int t = 0; !rc && t < r->num_threads; t++)
		r->workers[t].dec.next = -1;
	return rc;
}
