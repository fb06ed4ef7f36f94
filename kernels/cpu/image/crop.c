/*
 * crop (DALI's Crop): cuts a window out of each sample. The window comes from crop / crop_w /
 * crop_h / crop_d and crop_pos_x / _y / _z (img_window.c, DALI's CropAttr); windows reaching
 * outside the input fail, are padded with fill_values or trimmed, per out_of_bounds_policy.
 * The layout must name H and W (HWC, CHW, FHWC, DHWC...); without one, 2-, 3- and 4-D data
 * are HW, HWC and FHWC. `dtype` converts the output (saturating, rounding half away).
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/img_scratch.h"
#include "kernels/common/img_window.h"
#include "kernels/common/slice_elem.h"
#include "kernels/common/window_plans.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct crop {
	img_oob_t oob;
	img_window_t *win;      /* per sample */
	char layout[DALIC_MAX_NDIM + 1];
	_Alignas(8) uint8_t fill[64 * 8]; /* fill values in the input type, per channel */
	int nfill;
	img_scratch_t *threads; /* window before conversion, when dtype differs */
	int num_threads;
} crop_t;

static const char *crop_default_layout(int ndim)
{
	return ndim == 2 ? "HW" : ndim == 3 ? "HWC" : ndim == 4 ? "FHWC" : "";
}

static void crop_fini(dalic_op_ctx_t *ctx);

static int crop_init_state(dalic_op_ctx_t *ctx)
{
	crop_t *c = ctx->state;
	int rc = dalic_img_oob_parse(ctx, &c->oob);
	if (rc)
		return rc;
	const dalic_value_t *fill = dalic_arg(ctx, "fill_values");
	c->nfill = fill->n < 1 ? 1 : fill->n;
	if (c->nfill > 64)
		return dalic_op_fail(ctx, NULL, -1, "fill_values has %d values; at most 64", c->nfill);
	c->win = calloc((size_t)ctx->max_batch_size, sizeof *c->win);
	c->num_threads = ctx->num_threads + 1;
	c->threads = calloc((size_t)c->num_threads, sizeof *c->threads);
	return c->win && c->threads ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int crop_init(dalic_op_ctx_t *ctx)
{
	int rc = crop_init_state(ctx);
	if (rc)
		crop_fini(ctx);
	return rc;
}

static int crop_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	crop_t *c = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	snprintf(c->layout, sizeof c->layout, "%s", in->layout[0] ? in->layout
								  : crop_default_layout(in->ndim));
	if (!dalic_dtype_is_numeric(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "cannot crop %s data", dalic_dtype_name(in->dtype));
	dalic_dtype_t ot = dalic_arg_given(ctx, "dtype") ? (dalic_dtype_t)dalic_arg_int(ctx, "dtype")
							 : in->dtype;
	if (!dalic_dtype_is_numeric(ot))
		return dalic_op_fail(ctx, ws, -1, "dtype %s is not numeric", dalic_dtype_name(ot));
	int rc = dalic_batch_set_meta(out, ws->batch_size, ot, in->ndim);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, in->layout);
	const dalic_value_t *fill = dalic_arg(ctx, "fill_values");
	for (int k = 0; k < c->nfill; k++) /* padding is written in the input type, then converted */
		dalic_dtype_store_sat(in->dtype, c->fill, k, fill->n ? dalic_value_get_f(fill, k) : 0);
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *shape = dalic_batch_shape(in, i);
		if ((rc = dalic_img_window_for_sample(ctx, ws, i, c->layout, in->ndim, shape,
		                                      c->oob, &c->win[i])))
			return rc;
		dalic_batch_set_shape(out, i, c->win[i].shape);
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* The dim fill values are chosen along: the layout's C, or none. */
static int crop_channel_dim(const crop_t *c)
{
	const char *cpos = strchr(c->layout, 'C');
	return cpos ? (int)(cpos - c->layout) : -1;
}

static int crop_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	crop_t *c = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int channel_dim = crop_channel_dim(c);
	size_t es = dalic_dtype_size(in->dtype);
	if (out->dtype == in->dtype) {
		dalic_img_window_copy(in->ptrs[i], dalic_batch_shape(in, i), in->ndim, &c->win[i],
		                      es, out->ptrs[i], c->fill, c->nfill, channel_dim);
		return DALIC_OK;
	}
	if (thread < 0 || thread >= c->num_threads)
		return dalic_op_fail(ctx, ws, i, "worker thread %d outside the %d expected", thread,
				     c->num_threads);
	int64_t n = dalic_batch_sample_elems(out, i);
	void *tmp = dalic_img_scratch_get(&c->threads[thread], (size_t)n * es + 1);
	if (!tmp)
		return dalic_op_fail(ctx, ws, i, "a %lld-element window: %s", (long long)n,
				     dalic_last_error());
	dalic_img_window_copy(in->ptrs[i], dalic_batch_shape(in, i), in->ndim, &c->win[i], es, tmp,
			c->fill, c->nfill, channel_dim);
	for (int64_t k = 0; k < n; k++) /* ConvertSat from double (slice_elem.h, as the kernel) */
		dalic_slice_elem_convert_sat(out->dtype, out->ptrs[i], k, in->dtype, tmp, k);
	return DALIC_OK;
}

_Static_assert(DALIC_MAX_NDIM <= DALIC_SLICE_ELEM_MAX_NDIM, "a plan holds every rank");

/* The copy crop_run_sample makes, as one plan per sample (window_plans.h): the window
 * copied with fill values in the input type, then converted with ConvertSat. */
int dalic_crop_sample_plan(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                           dalic_slice_elem_plan_t *pl, const void **fill, size_t *fill_bytes)
{
	const crop_t *c = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const dalic_batch_t *out = ws->outputs[0];
	const int64_t *shape = dalic_batch_shape(in, i);
	memset(pl, 0, sizeof *pl);
	pl->ndim = in->ndim;
	pl->border = SLICE_BORDER_CONSTANT;
	pl->channel_dim = crop_channel_dim(c);
	pl->nfill = c->nfill;
	pl->in_type = in->dtype;
	pl->out_type = out->dtype;
	pl->fill_type = in->dtype;
	pl->cvt = DALIC_SLICE_CVT_SAT;
	for (int d = 0; d < in->ndim; d++) {
		pl->in_shape[d] = shape[d];
		pl->anchor[d] = c->win[i].anchor[d];
		pl->out_shape[d] = c->win[i].shape[d];
	}
	*fill = c->fill;
	*fill_bytes = (size_t)c->nfill * dalic_dtype_size(in->dtype);
	return DALIC_OK;
}

static void crop_fini(dalic_op_ctx_t *ctx)
{
	crop_t *c = ctx->state;
	for (int t = 0; c->threads && t < c->num_threads; t++)
		dalic_img_scratch_free(&c->threads[t]);
	free(c->threads);
	free(c->win);
}

static const dalic_arg_schema_t args[] = {
	IMG_CROP_WINDOW_ARGS,
	{"dtype", DALIC_ARG_DTYPE, "None", "Output type; the input type when not given."},
	{"image_type", DALIC_ARG_IMAGE_TYPE, "RGB", "Deprecated; ignored."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(crop_t),
	.init = crop_init,
	.setup = crop_setup,
	.run_sample = crop_run_sample,
	.fini = crop_fini,
};

DALIC_OPERATOR(Crop) = {
	.name = "Crop",
	.fn = "crop",
	.doc = "Crops a window (extent and relative anchor) out of images, volumes or sequences.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
