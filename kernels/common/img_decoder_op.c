/* Shared parts of the image decoder operators (see img_decoder_op.h). */
#include "kernels/common/img_decoder_op.h"

#include "engine/error.h"
#include "engine/memory.h"

#include <stdio.h>
#include <stdlib.h>

int dalic_img_decoder_op_init(dalic_op_ctx_t *ctx, img_decoder_op_t *op)
{
	op->output_type = (int)dalic_arg_int(ctx, "output_type");
	if (op->output_type < DALIC_RGB || op->output_type > DALIC_ANY_DATA)
		return dalic_op_fail(ctx, NULL, -1, "unknown output_type %d", op->output_type);
	op->adjust_orientation = dalic_arg_bool(ctx, "adjust_orientation");
	dalic_dtype_t dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (dtype != DALIC_UINT8)
		return dalic_fail(DALIC_EUNSUPPORTED,
				  "operator '%s' (%s): dtype %s is not supported; the decoders "
				  "produce UINT8",
				  ctx->inst, ctx->schema->name, dalic_dtype_name(dtype));
	/* One decoder per worker thread, plus one in case the executor's own thread joins. */
	op->num_threads = ctx->num_threads + 1;
	op->threads = calloc((size_t)op->num_threads, sizeof *op->threads);
	op->info = calloc((size_t)ctx->max_batch_size, sizeof *op->info);
	op->window = calloc((size_t)ctx->max_batch_size, sizeof *op->window);
	op->refused = calloc((size_t)ctx->max_batch_size, sizeof *op->refused);
	op->probe = dalic_img_decoder_new();
	if (!op->threads || !op->info || !op->window || !op->refused || !op->probe)
		return dalic_op_fail(ctx, NULL, -1, "out of memory for decoder state");
	return DALIC_OK;
}

void dalic_img_decoder_op_fini(img_decoder_op_t *op)
{
	for (int t = 0; op->threads && t < op->num_threads; t++)
		dalic_img_decoder_free(op->threads[t]);
	free(op->threads);
	dalic_img_decoder_free(op->probe);
	free(op->info);
	free(op->window);
	free(op->refused);
}

/* The codec's warnings about sample i, one log entry per distinct message. */
static void img_decoder_op_warnings(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                    const img_warnings_t *w)
{
	long kept = 0;
	for (int k = 0; k < w->count; k++) {
		dalic_op_warn(ctx, ws, i, w->w[k].repeats, "%s", w->w[k].msg);
		kept += w->w[k].repeats;
	}
	if (w->total > kept)
		dalic_op_warn(ctx, ws, i, w->total - kept, "other warnings (more than %d kinds)",
		              IMG_WARN_MAX);
}

/* Probes sample i; a sample DALI refuses fails the pipeline, or (scan) is marked refused. */
static int img_decoder_op_probe(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_decoder_op_t *op,
                                int i)
{
	const dalic_batch_t *in = ws->inputs[0];
	char err[512];
	op->refused[i] = false;
	int rc = dalic_img_probe(op->probe, in->ptrs[i], (size_t)dalic_batch_sample_elems(in, i),
	                         op->adjust_orientation, &op->info[i], err, sizeof err);
	img_decoder_op_warnings(ctx, ws, i, dalic_img_warnings(op->probe));
	const char *why = rc ? err : dalic_img_refused_type(&op->info[i], op->output_type);
	if (!why) {
		op->window[i] = (img_rect_t){0, 0, img_oriented_w(&op->info[i]),
		                             img_oriented_h(&op->info[i])};
		return DALIC_OK;
	}
	op->refused[i] = true;
	op->info[i] = (img_info_t){.width = 1, .height = 1, .channels = 3, .orientation = 1};
	op->window[i] = (img_rect_t){0, 0, 1, 1};
	return dalic_op_sample_error(ctx, ws, i, "cannot decode image: %s", why);
}

int dalic_img_decoder_op_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_decoder_op_t *op)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (in->dtype != DALIC_UINT8 || in->ndim != 1)
		return dalic_op_fail(ctx, ws, -1,
				     "expects encoded images as 1-D uint8 samples, got %s with %d "
				     "dims",
				     dalic_dtype_name(in->dtype), in->ndim);
	if (ws->batch_size > ctx->max_batch_size)
		return dalic_op_fail(ctx, ws, -1, "batch of %d exceeds max batch size %d",
				     ws->batch_size, ctx->max_batch_size);
	int rc = dalic_batch_set_meta(out, ws->batch_size, DALIC_UINT8, 3);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, "HWC");
	op->scanning = dalic_op_scanning(ctx);
	for (int i = 0; i < ws->batch_size; i++) {
		out->sources[i] = in->sources[i];
		DALIC_TRY(img_decoder_op_probe(ctx, ws, op, i));
	}
	return DALIC_OK;
}

int dalic_img_decoder_op_set_shape(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_decoder_op_t *op,
                                   int i)
{
	const img_info_t *info = &op->info[i];
	const img_rect_t *win = &op->window[i];
	int64_t *shape = dalic_batch_shape_mut(ws->outputs[0], i);
	bool empty = op->refused[i] || op->scanning;
	shape[0] = empty ? 0 : win->h;
	shape[1] = empty ? 0 : win->w;
	shape[2] = dalic_img_output_channels(info, op->output_type);
	if (op->refused[i])
		return DALIC_OK;
	uint64_t library;
	uint64_t need = (uint64_t)win->w * (uint64_t)win->h * (uint64_t)shape[2] +
			dalic_img_decode_memory(info, op->output_type, win, &library);
	if (need > SIZE_MAX || dalic_mem_charge((size_t)need)) {
		char size[64];
		snprintf(size, sizeof size, "%llu bytes are too many", (unsigned long long)need);
		return dalic_op_fail(ctx, ws, i,
		                     "cannot decode a %dx%d %s%s image into %lld "
		                     "channels: %s",
		                     info->width, info->height,
		                     info->progressive ? "progressive " : "",
		                     dalic_img_format_name(info->format), (long long)shape[2],
		                     need > SIZE_MAX ? size : dalic_last_error());
	}
	dalic_mem_uncharge((size_t)need); /* a check: the buffers are charged when allocated */
	return DALIC_OK;
}

int dalic_img_decoder_op_set_window(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_decoder_op_t *op,
                                    int i, int64_t y, int64_t x, int64_t h, int64_t w)
{
	int64_t H = img_oriented_h(&op->info[i]), W = img_oriented_w(&op->info[i]);
	if (y < 0 || x < 0 || h <= 0 || w <= 0 || y > H - h || x > W - w)
		return dalic_op_fail(ctx, ws, i,
		                     "The cropping window [%lld..%lld, %lld..%lld] is not valid for "
		                     "image dimensions [%lld x %lld]",
		                     (long long)y, (long long)(y + h), (long long)x,
		                     (long long)(x + w), (long long)H, (long long)W);
	op->window[i] = (img_rect_t){(int)x, (int)y, (int)w, (int)h};
	return DALIC_OK;
}

int dalic_img_decoder_op_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_decoder_op_t *op, int i,
                             int thread)
{
	if (thread < 0 || thread >= op->num_threads)
		return dalic_op_fail(ctx, ws, i, "worker thread %d outside the %d expected", thread,
				     op->num_threads);
	if (op->refused[i])
		return DALIC_OK;
	if (!op->threads[thread] && !(op->threads[thread] = dalic_img_decoder_new()))
		return dalic_op_fail(ctx, ws, i, "out of memory for a decoder");
	const dalic_batch_t *in = ws->inputs[0];
	char err[512];
	/* a scan's samples are empty: the codec decodes into its own scratch and drops the
	 * pixels (dalic_img_decode with no output) */
	uint8_t *target = op->scanning ? NULL : ws->outputs[0]->ptrs[i];
	/* the codec's own allocations are not dalic's: charge them for the decode's duration */
	uint64_t library;
	dalic_img_decode_memory(&op->info[i], op->output_type, &op->window[i], &library);
	if (dalic_mem_charge((size_t)library))
		return dalic_op_fail(ctx, ws, i, "cannot decode %s image: the decoder's memory: %s",
				     dalic_img_format_name(op->info[i].format), dalic_last_error());
	int rc = dalic_img_decode(op->threads[thread], in->ptrs[i],
			    (size_t)dalic_batch_sample_elems(in, i), &op->info[i], op->output_type,
			    &op->window[i], target, err, sizeof err);
	dalic_mem_uncharge((size_t)library);
	img_decoder_op_warnings(ctx, ws, i, dalic_img_warnings(op->threads[thread]));
	if (rc)
		return dalic_op_sample_error(ctx, ws, i, "cannot decode %s image: %s",
		                             dalic_img_format_name(op->info[i].format), err);
	return DALIC_OK;
}
