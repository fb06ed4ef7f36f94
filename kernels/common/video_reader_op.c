/* The video readers' body: listing, sequences, decoding (see video_reader_op.h). */
#include "kernels/common/video_reader_op.h"

#include "engine/checked.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- listing and indexing -------------------------------------------------------------------
 */

static int video_reader_list(dalic_op_ctx_t *ctx, video_reader_t *r)
{
	const dalic_value_t *files = dalic_arg(ctx, "filenames");
	const dalic_value_t *labels = dalic_arg(ctx, "labels");
	const char *root = dalic_arg_string(ctx, "file_root"), *list = dalic_arg_string(ctx, "file_list");
	int rc = 0;
	if (root && *root) {
		rc = dalic_video_files_scan(&r->files, root, r->err, sizeof r->err);
	} else if (list && *list) {
		rc = dalic_video_files_parse(&r->files, list, r->err, sizeof r->err);
	} else if (files->kind != DALIC_V_NONE) {
		bool has_labels = labels->kind != DALIC_V_NONE;
		for (int i = 0; i < files->n && !rc; i++) {
			int32_t label = !has_labels ? 0 : labels->n ? (int32_t)labels->i[i] : i;
			rc = dalic_video_files_add(&r->files, files->s[i], label, 0, 0, r->err,
			                           sizeof r->err);
		}
	}
	if (rc)
		return dalic_op_fail(ctx, NULL, -1, "%s", r->err);
	if (!r->files.n)
		return dalic_op_fail(ctx, NULL, -1, "No files were read.");
	return DALIC_OK;
}

/* DALI's FrameIndex::GetFrameIdxByTimestamp (2.4): an exact match, else the first frame after
 * ts (or the one before it when rounding down); 0 when every frame is earlier. */
static int video_reader_frame_at(const video_index_t *ix, int64_t ts, bool down)
{
	for (int i = 0; i < ix->n; i++) {
		if (ix->pts[i] == ts)
			return i;
		if (ix->pts[i] > ts)
			return down && i > 0 ? i - 1 : i;
	}
	return 0;
}

static int video_reader_clamp_int(double v)
{
	return !(v > -1e9) ? -1000000000 : v > 1e9 ? 1000000000 : (int)v;
}

/* The legacy reader's file_list range (video_loader.h): frames or seconds at the stream's
 * average frame rate, negative values counting from the end. */
static int video_reader_range_legacy(dalic_op_ctx_t *ctx, video_reader_t *r, video_file_t *f,
                                     double fps)
{
	int n = f->index.n, sf, ef;
	const char *what = r->list_format ? "frame number" : "time";
	if (r->list_format) {
		sf = f->start >= 0 ? video_reader_clamp_int(f->start) : n + video_reader_clamp_int(f->start);
		ef = f->end > 0 ? video_reader_clamp_int(f->end) : n + video_reader_clamp_int(f->end);
	} else {
		double s = f->start * fps, e = f->end * fps;
		/* include_preceding_frame widens the range; otherwise it rounds inwards */
		int si = video_reader_clamp_int(r->include_end ? floor(s) : ceil(s));
		int ei = video_reader_clamp_int(r->include_end ? ceil(e) : floor(e));
		sf = f->start >= 0 ? si : n + si;
		ef = f->end > 0 ? ei : n + ei;
	}
	if (sf > ef)
		return dalic_op_fail(ctx, NULL, -1, "Start %s should be lesser or equal to end %s for "
		                     "a file %s", what, what, f->path);
	if (sf > n || ef > n)
		return dalic_op_fail(ctx, NULL, -1, "%s %s is greater than %s for file %s (%d frames)",
		                     sf > n ? "Start" : "End", what,
		                     r->list_format ? "total number of frames" : "video duration",
		                     f->path, n);
	f->start_frame = sf < 0 ? 0 : sf;
	f->end_frame = ef;
	return DALIC_OK;
}

/* experimental.readers.video's file_list range (DALI 2.4): rounding per file_list_rounding,
 * include_end only clamping the end to the video. */
static void video_reader_range_experimental(video_reader_t *r, video_file_t *f)
{
	const video_index_t *ix = &f->index;
	int n = ix->n;
	if (r->list_format) {
		double s = f->start < 0 ? n + f->start : f->start;
		double e = f->end < 0 ? n + f->end : f->end;
		f->start_frame = video_reader_clamp_int(r->round_start_down ? floor(s) : ceil(s));
		f->end_frame = video_reader_clamp_int(r->round_end_down ? floor(e) : ceil(e));
	} else {
		int64_t ts = (int64_t)(f->start * ix->tb_den / ix->tb_num);
		int64_t te = (int64_t)(f->end * ix->tb_den / ix->tb_num);
		f->start_frame = video_reader_frame_at(ix, ts, r->round_start_down);
		f->end_frame = video_reader_frame_at(ix, te, r->round_end_down);
	}
	if (r->include_end && f->end_frame > n)
		f->end_frame = n;
}

static int video_reader_add_seq(video_reader_t *r, int64_t *cap, int file, int start, int frames)
{
	if (r->nseqs == *cap) {
		int64_t grown = *cap ? 2 * *cap : 64;
		video_seq_t *v = grown < (1 << 28) ? realloc(r->seqs, sizeof *v * (size_t)grown) : NULL;
		if (!v)
			return -1;
		r->seqs = v;
		*cap = grown;
	}
	r->seqs[r->nseqs++] = (video_seq_t){file, start, frames};
	return 0;
}

static int video_reader_sequences(video_reader_t *r, int file, int64_t *cap)
{
	const video_file_t *f = &r->files.v[file];
	int sf = f->start_frame, ef = f->end_frame, len = r->seq_len, stride = r->stride;
	if (r->uniform)
		return video_reader_add_seq(r, cap, file, sf, len);
	int64_t s = sf;
	int rc = 0;
	if (r->legacy) {
		int64_t span = 1 + (int64_t)(len - 1) * stride;
		for (; s < ef && s + span <= ef && !rc; s += r->step)
			rc = video_reader_add_seq(r, cap, file, (int)s, len);
		for (; r->pad == VIDEO_PAD_ZERO_TAIL && s < ef && !rc; s += r->step)
			rc = video_reader_add_seq(r, cap, file, (int)s, (int)(1 + (ef - 1 - s) / stride));
		return rc;
	}
	int64_t span = (int64_t)len * stride;
	for (; s + span <= ef && !rc; s += r->step)
		rc = video_reader_add_seq(r, cap, file, (int)s, len);
	if (!rc && r->pad != VIDEO_PAD_NONE && s < ef)
		rc = video_reader_add_seq(r, cap, file, (int)s, len);
	return rc;
}

static int video_reader_index_file(dalic_op_ctx_t *ctx, video_reader_t *r, int i, int64_t *cap)
{
	video_file_t *f = &r->files.v[i];
	video_dec_t d;
	if (dalic_video_open(&d, f->path, NULL, 0, f->path, r->err, sizeof r->err))
		return dalic_op_fail(ctx, NULL, -1, "%s", r->err);
	int rc = dalic_video_build_index(&d, &f->index, r->err, sizeof r->err);
	dalic_video_close(&d);
	double fps = rc ? 0 : (double)f->index.fps_num / f->index.fps_den;
	if (rc)
		return dalic_op_fail(ctx, NULL, -1, "%s", r->err);
	if (r->legacy && !r->skip_vfr && f->index.vfr)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Variable frame rate videos are unsupported. This heuristic can "
		                     "yield false positives. The check can be disabled via the "
		                     "skip_vfr_check flag. Check failed for file: %s",
		                     f->path);
	f->start_frame = 0;
	f->end_frame = f->index.n;
	if (f->start != 0 || f->end != 0) {
		if (r->legacy)
			DALIC_TRY(video_reader_range_legacy(ctx, r, f, fps));
		else
			video_reader_range_experimental(r, f);
		if (!r->legacy && f->start_frame >= f->end_frame)
			return dalic_op_fail(ctx, NULL, -1,
			                     "Empty frame range [%d, %d) for file %s (file_list entry "
			                     "%g %g; DALI skips such entries with a warning)",
			                     f->start_frame, f->end_frame, f->path, f->start, f->end);
	}
	if (video_reader_sequences(r, i, cap))
		return dalic_op_fail(ctx, NULL, -1, "out of memory for the sequences of %s", f->path);
	return DALIC_OK;
}

static int video_reader_prepare(dalic_op_ctx_t *ctx, video_reader_t *r)
{
	if (r->ready)
		return DALIC_OK;
	DALIC_TRY(video_reader_list(ctx, r));
	int64_t cap = 0;
	for (int i = 0; i < r->files.n; i++)
		DALIC_TRY(video_reader_index_file(ctx, r, i, &cap));
	if (!r->nseqs && r->legacy)
		return dalic_op_fail(ctx, NULL, -1,
		                     "There are no valid sequences in the provided dataset, check the "
		                     "length of the available videos and the requested sequence "
		                     "length.");
	if (dalic_video_loader_init(&r->loader, r->nseqs, r->shard_id, r->num_shards, r->stick,
	                            r->pad_last, r->shuffle, r->initial_fill, ctx->seed, r->err,
	                            sizeof r->err))
		return dalic_op_fail(ctx, NULL, -1, "%s", r->err);
	r->ready = true;
	return DALIC_OK;
}

int dalic_video_reader_init(dalic_op_ctx_t *ctx, video_reader_t *r, bool legacy)
{
	int rc = dalic_video_reader_parse(ctx, r, legacy);
	if (!rc && !dalic_arg_bool(ctx, "lazy_init"))
		rc = video_reader_prepare(ctx, r);
	if (rc)
		dalic_video_reader_fini(r);
	return rc;
}

void dalic_video_reader_fini(video_reader_t *r)
{
	dalic_video_files_free(&r->files);
	free(r->seqs);
	dalic_video_loader_free(&r->loader);
	free(r->selected);
	for (int t = 0; r->workers && t < r->num_threads; t++) {
		dalic_video_close(&r->workers[t].dec);
		dalic_img_scratch_free(&r->workers[t].order);
		dalic_img_scratch_free(&r->workers[t].frame);
		dalic_img_scratch_free(&r->workers[t].plan);
	}
	free(r->workers);
	memset(r, 0, sizeof *r);
}

/* ---- a batch -----------------------------------------------------------------------------------
 */

static int video_reader_set_meta(dalic_batch_t *b, int n, dalic_dtype_t t)
{
	int rc = dalic_batch_set_meta(b, n, t, 1);
	if (!rc)
		dalic_batch_set_layout(b, "");
	return rc;
}

int dalic_video_reader_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, video_reader_t *r,
                             dalic_batch_t *frames)
{
	DALIC_TRY(video_reader_prepare(ctx, r));
	if (!r->legacy && dalic_arg_input(ws, "pad_mode"))
		return dalic_op_fail(ctx, ws, -1, "pad_mode per sample is not supported by the reader "
		                     "(DALI reads it once): give one string");
	if (r->pad == VIDEO_PAD_CONSTANT && r->nfill != 1 && r->nfill != 3)
		return dalic_op_fail(ctx, ws, -1,
		                     "Fill value size must be 1 or equal to the number of channels. Got "
		                     "%d with num_channels=3",
		                     r->nfill);
	int n = ws->batch_size, o = 1;
	dalic_batch_t *label = r->labels_out ? ws->outputs[o++] : NULL;
	dalic_batch_t *nums = r->nums_out && r->frame_num ? ws->outputs[o++] : NULL;
	dalic_batch_t *times = r->nums_out && r->timestamps ? ws->outputs[o++] : NULL;
	/* readers.video_resize resizes the frames as decoded: its output keeps their type (DALI
	 * 2.4 sizes its output with the decoded batch's type) */
	DALIC_TRY(dalic_batch_set_meta(frames, n, r->dtype, 4));
	dalic_batch_set_layout(frames, "FHWC");
	if (label)
		DALIC_TRY(video_reader_set_meta(label, n, DALIC_INT32));
	if (nums)
		DALIC_TRY(video_reader_set_meta(nums, n, DALIC_INT32));
	if (times)
		DALIC_TRY(video_reader_set_meta(times, n, DALIC_FLOAT64));
	for (int i = 0; i < n; i++) {
		int32_t s = dalic_video_loader_next(&r->loader, i == 0);
		const video_file_t *f = &r->files.v[r->seqs[s].file];
		r->selected[i] = s;
		int64_t *shape = dalic_batch_shape_mut(frames, i);
		shape[0] = r->seq_len;
		shape[1] = f->index.height;
		shape[2] = f->index.width;
		shape[3] = 3;
		frames->sources[i] = f->path;
		if (label) {
			dalic_batch_shape_mut(label, i)[0] = 1;
			label->sources[i] = f->path;
		}
		if (nums) {
			dalic_batch_shape_mut(nums, i)[0] =
			    r->frame_num == VIDEO_FRAME_NUM_SCALAR ? 1 : r->seq_len;
			nums->sources[i] = f->path;
		}
		if (times) {
			dalic_batch_shape_mut(times, i)[0] = r->seq_len;
			times->sources[i] = f->path;
		}
	}
	return DALIC_OK;
}

/* ---- decoding a sample ---------------------------------------------------------------------- */

/* Which frame each position shows, and the frame number reported for it. */
static int video_reader_plan(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, video_reader_t *r, int i,
                             int32_t *src, int32_t *num)
{
	const video_seq_t *q = &r->seqs[r->selected[i]];
	const video_file_t *f = &r->files.v[q->file];
	int n = f->index.n, sf = f->start_frame, ef = f->end_frame, total = ef - sf;
	for (int k = 0; k < r->seq_len; k++) {
		int m;
		if (r->uniform) {
			double t = r->seq_len > 1 ? (double)k / (r->seq_len - 1) : 0.0;
			m = sf + (int)floor(t * (total - 1) + 0.5);
		} else if (r->legacy) {
			m = k < q->frames ? q->start + k * r->stride : -1;
		} else {
			int64_t f0 = (int64_t)q->start + (int64_t)k * r->stride;
			m = dalic_video_boundary(r->pad, f0, sf, ef);
			if (m >= 0)
				m = dalic_video_boundary(r->pad, m, 0, n);
			if (m == -2)
				return dalic_op_fail(
				    ctx, ws, i,
				    "'%s': Unexpected out-of-bounds frame index %lld for pad_mode = 'none' "
				    "and a sample containing a ROI with %d frames. Range of valid frame "
				    "indices for this sample is [%d, %d). Change `pad_mode` to other than "
				    "'none' for out-of-bounds sampling.",
				    f->path, (long long)f0, total, sf, ef < n ? ef : n);
		}
		num[k] = m;
		src[k] = m;
	}
	return DALIC_OK;
}

/* The worker's decoder on sample i's video. */
static int video_reader_worker(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, video_reader_t *r,
                               int i, int thread, video_worker_t **out)
{
	if (thread < 0 || thread >= r->num_threads)
		return dalic_op_fail(ctx, ws, i, "worker %d outside the %d the reader was built for",
		                     thread, r->num_threads);
	video_worker_t *w = &r->workers[thread];
	const video_file_t *f = &r->files.v[r->seqs[r->selected[i]].file];
	if (!w->dec.path || strcmp(w->dec.path, f->path)) {
		dalic_video_close(&w->dec);
		char err[1024];
		if (dalic_video_open(&w->dec, f->path, NULL, 0, f->path, err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "%s", err);
		dalic_video_use_index(&w->dec, &f->index);
	}
	*out = w;
	return DALIC_OK;
}

int dalic_video_reader_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, video_reader_t *r,
                                  dalic_batch_t *frames, int i, int thread)
{
	video_worker_t *w = NULL;
	DALIC_TRY(video_reader_worker(ctx, ws, r, i, thread, &w));
	const video_seq_t *q = &r->seqs[r->selected[i]];
	const video_file_t *f = &r->files.v[q->file];
	int32_t *src = dalic_img_scratch_get(&w->plan, sizeof(int32_t) * 2 * (size_t)r->seq_len);
	if (!src)
		return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
	int32_t *num = src + r->seq_len;
	DALIC_TRY(video_reader_plan(ctx, ws, r, i, src, num));
	int o = 1;
	if (r->labels_out)
		*(int32_t *)ws->outputs[o++]->ptrs[i] = f->label;
	if (r->nums_out && r->frame_num == VIDEO_FRAME_NUM_SCALAR)
		*(int32_t *)ws->outputs[o++]->ptrs[i] = q->start;
	else if (r->nums_out && r->frame_num == VIDEO_FRAME_NUM_SEQUENCE)
		memcpy(ws->outputs[o++]->ptrs[i], num, sizeof(int32_t) * (size_t)r->seq_len);
	if (r->nums_out && r->timestamps) {
		double *ts = ws->outputs[o++]->ptrs[i];
		for (int k = 0; k < r->seq_len; k++)
			ts[k] = src[k] >= 0 ? dalic_video_seconds(&f->index, src[k]) : -1.0;
	}
	bool constant = r->pad == VIDEO_PAD_CONSTANT;
	video_frames_job_t job = {
	    .src = src,
	    .n = r->seq_len,
	    .pixels = (size_t)f->index.width * (size_t)f->index.height,
	    .image_type = r->image_type,
	    .fill = constant ? r->fill : NULL,
	    .nfill = constant ? r->nfill : 0,
	    .as_float = frames->dtype == DALIC_FLOAT,
	    .scale = r->normalized ? 1.0f / 255 : 1.0f,
	};
	char err[1024];
	if (dalic_video_decode_frames(&w->dec, &job, frames->ptrs[i], &w->order, &w->frame, err,
	                              sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s", err);
	return DALIC_OK;
}

int dalic_video_reader_meta(dalic_op_ctx_t *ctx, video_reader_t *r, dalic_reader_meta_t *out)
{
	DALIC_TRY(video_reader_prepare(ctx, r));
	out->epoch_size = r->nseqs;
	out->epoch_size_padded = dalic_video_loader_padded_size(&r->loader);
	out->number_of_shards = r->num_shards;
	out->shard_id = r->shard_id;
	out->pad_last_batch = r->pad_last;
	out->stick_to_shard = r->stick;
	return DALIC_OK;
}

int dalic_video_reader_reset(video_reader_t *r)
{
	if (r->ready)
		dalic_video_loader_restart(&r->loader);
	return DALIC_OK;
}
