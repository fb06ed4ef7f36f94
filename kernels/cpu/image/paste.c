/*
 * paste (DALI's Paste): places each HWC uint8 image on a larger canvas filled with fill_value.
 * The canvas is ratio times the image (float32 product truncated, as DALI computes it), at
 * least min_canvas_size (truncated) on each side; the image's top-left corner is at
 * paste_x * (canvas W - W), paste_y * (canvas H - H), truncated. ratio, paste_x, paste_y and
 * min_canvas_size may be per-sample argument inputs.
 *
 * fill_value holds one value or n_channels values, each cast to uint8 as C++ casts an int
 * (300 is 44). DALI writes the canvas as a repeating run of those n_channels bytes, so when
 * n_channels differs from the image's channels the colour pattern runs across pixels; dalic
 * writes the same pattern (and, unlike DALI, never past the run's end).
 */
#include "engine/dtype.h"
#include "engine/kernel.h"

#include <stdlib.h>
#include <string.h>

#define PASTE_MAX_CHANNELS 1024

typedef struct paste_geometry {
	int64_t y, x; /* where the image goes */
} paste_geometry_t;

typedef struct paste_state {
	uint8_t fill[PASTE_MAX_CHANNELS];
	int nfill;            /* n_channels */
	paste_geometry_t *at; /* per sample */
} paste_state_t;

static int paste_init(dalic_op_ctx_t *ctx)
{
	paste_state_t *st = ctx->state;
	int64_t c = dalic_arg_int(ctx, "n_channels");
	if (c > PASTE_MAX_CHANNELS)
		return dalic_op_fail(ctx, NULL, -1,
		                     "n_channels of more than 1024 is not supported");
	if (c < 1)
		return dalic_op_fail(ctx, NULL, -1, "n_channels must be positive, got %lld",
		                     (long long)c);
	const dalic_value_t *fill = dalic_arg(ctx, "fill_value");
	if (fill->n != 1 && fill->n != c)
		return dalic_op_fail(
		    ctx, NULL, -1,
		    "Argument \"fill_value\" expects either a single value or a list "
		    "of %lld elements. %d given.",
		    (long long)c, fill->n);
	st->nfill = (int)c;
	for (int k = 0; k < st->nfill; k++)
		st->fill[k] = (uint8_t)dalic_value_get_i(fill, fill->n == 1 ? 0 : k);
	st->at = calloc((size_t)ctx->max_batch_size, sizeof *st->at);
	return st->at ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

static void paste_fini(dalic_op_ctx_t *ctx)
{
	paste_state_t *st = ctx->state;
	free(st->at);
}

/* float * int truncated to an int, as DALI's static_cast<int>(f * n); fails when it does
 * not fit. */
static int paste_scale(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *what, float f,
                       int64_t n, int64_t *out)
{
	float v = f * (float)n;
	if (!(v > -2147483648.0f && v < 2147483648.0f))
		return dalic_op_fail(ctx, ws, i, "%s: %g is out of range", what, (double)v);
	*out = (int64_t)v;
	return DALIC_OK;
}

/* The canvas shape of sample i (into out) and where the image goes. */
static int paste_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const int64_t *shape,
                        int64_t *out)
{
	paste_state_t *st = ctx->state;
	double ratio, min_canvas, px, py;
	int rc;
	if ((rc = dalic_arg_float_at(ctx, ws, "ratio", i, &ratio)) ||
	    (rc = dalic_arg_float_at(ctx, ws, "min_canvas_size", i, &min_canvas)) ||
	    (rc = dalic_arg_float_at(ctx, ws, "paste_x", i, &px)) ||
	    (rc = dalic_arg_float_at(ctx, ws, "paste_y", i, &py)))
		return rc;
	if (!((float)ratio >= 1.0f))
		return dalic_op_fail(ctx, ws, i, "ratio of less than 1 is not supported");
	if (!((float)min_canvas >= 0.0f))
		return dalic_op_fail(ctx, ws, i,
		                     "min_canvas_size_ of less than 0 is not supported");
	if (!((float)px >= 0 && (float)px <= 1))
		return dalic_op_fail(ctx, ws, i, "paste_x must be in range [0, 1]");
	if (!((float)py >= 0 && (float)py <= 1))
		return dalic_op_fail(ctx, ws, i, "paste_y must be in range [0, 1]");
	int64_t h = 0, w = 0, m = 0;
	if ((rc = paste_scale(ctx, ws, i, "ratio * H", (float)ratio, shape[0], &h)) ||
	    (rc = paste_scale(ctx, ws, i, "ratio * W", (float)ratio, shape[1], &w)) ||
	    (rc = paste_scale(ctx, ws, i, "min_canvas_size", (float)min_canvas, 1, &m)))
		return rc;
	out[0] = h > m ? h : m;
	out[1] = w > m ? w : m;
	out[2] = shape[2];
	if ((rc = paste_scale(ctx, ws, i, "paste_y", (float)py, out[0] - shape[0], &st->at[i].y)) ||
	    (rc = paste_scale(ctx, ws, i, "paste_x", (float)px, out[1] - shape[1], &st->at[i].x)))
		return rc;
	return DALIC_OK;
}

static int paste_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (in->layout[0] && strcmp(in->layout, "HWC"))
		return dalic_op_fail(
		    ctx, ws, -1,
		    "The layout \"%s\" does not match any of the allowed layouts for "
		    "input 0. Valid layouts are: HWC",
		    in->layout);
	if (in->ndim != 3)
		return dalic_op_fail(ctx, ws, -1, "Expects 3-dimensional image input.");
	if (in->dtype != DALIC_UINT8)
		return dalic_op_fail(ctx, ws, -1, "only uint8 images are supported, got %s",
		                     dalic_dtype_cname(in->dtype));
	int rc = dalic_batch_set_meta(out, ws->batch_size, DALIC_UINT8, 3);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, "HWC");
	for (int i = 0; i < ws->batch_size; i++) {
		if ((rc = paste_sample(ctx, ws, i, dalic_batch_shape(in, i),
		                       dalic_batch_shape_mut(out, i))))
			return rc;
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* n bytes of the canvas at p with the fill pattern, restarting at p. */
static void paste_fill(const paste_state_t *st, uint8_t *p, size_t n)
{
	if (st->nfill == 1) {
		memset(p, st->fill[0], n);
		return;
	}
	for (size_t j = 0; j < n; j++)
		p[j] = st->fill[j % (size_t)st->nfill];
}

static int paste_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const paste_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const int64_t *ish = dalic_batch_shape(in, i), *osh = dalic_batch_shape(out, i);
	size_t c = (size_t)ish[2], row = (size_t)osh[1] * c, in_row = (size_t)ish[1] * c;
	size_t left = (size_t)st->at[i].x * c, right = row - left - in_row;
	uint8_t *o = out->ptrs[i];
	const uint8_t *src = in->ptrs[i];
	for (int64_t y = 0; y < osh[0]; y++, o += row) {
		if (y < st->at[i].y || y >= st->at[i].y + ish[0]) {
			paste_fill(st, o, row);
			continue;
		}
		paste_fill(st, o, left);
		if (in_row)
			memcpy(o + left, src + (size_t)(y - st->at[i].y) * in_row, in_row);
		paste_fill(st, o + left + in_row, right);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"ratio", DALIC_ARG_FLOAT, NULL, "Canvas size as a multiple of the image size (>= 1).",
     .tensor = true},
    {"fill_value", DALIC_ARG_INT_LIST, NULL, "Canvas colour: one value or n_channels values."},
    {"n_channels", DALIC_ARG_INT, "3", "Number of channels of the fill colour."},
    {"paste_x", DALIC_ARG_FLOAT, "0.5", "Horizontal position of the image, 0 to 1.",
     .tensor = true},
    {"paste_y", DALIC_ARG_FLOAT, "0.5", "Vertical position of the image, 0 to 1.", .tensor = true},
    {"min_canvas_size", DALIC_ARG_FLOAT, "0.0", "Smallest canvas side after scaling.",
     .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(paste_state_t),
    .init = paste_init,
    .setup = paste_setup,
    .run_sample = paste_run_sample,
    .fini = paste_fini,
};

DALIC_OPERATOR(Paste) = {
    .name = "Paste",
    .fn = "paste",
    .doc = "Pastes uint8 HWC images on a larger canvas of input size * ratio filled with "
           "fill_value.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
