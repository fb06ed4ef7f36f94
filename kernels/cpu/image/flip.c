/*
 * flip (DALI's Flip): mirrors each sample along W (horizontal, default 1), H (vertical) and D
 * (depthwise); each flag may be given per sample, e.g. from random.coin_flip. Layouts with W
 * and H (HWC, CHW, FHWC, DHWC, FCHW...); without one, 2-, 3- and 4-D data are HW, HWC and
 * FHWC. Works on any element type: dims after the last flipped one move as whole blocks.
 */
#include "engine/kernel.h"

#include <stdio.h>
#include <string.h>

static const char *flip_layout_of(const dalic_batch_t *b)
{
	if (b->layout[0])
		return b->layout;
	return b->ndim == 2 ? "HW" : b->ndim == 3 ? "HWC" : b->ndim == 4 ? "FHWC" : "";
}

static int flip_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const char *l = flip_layout_of(in);
	if (!strchr(l, 'W') || !strchr(l, 'H'))
		return dalic_op_fail(ctx, ws, -1, "flip needs a layout with H and W, got '%s'", l);
	int rc = dalic_batch_copy_meta(out, in);
	if (rc)
		return rc;
	for (int i = 0; i < ws->batch_size; i++)
		out->sources[i] = in->sources[i];
	return DALIC_OK;
}

static int flip_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	const char *l = flip_layout_of(in);
	static const char axes[3] = {'W', 'H', 'D'};
	static const char *const names[3] = {"horizontal", "vertical", "depthwise"};
	bool flip[DALIC_MAX_NDIM] = {false};
	int last_flipped = -1;
	for (int a = 0; a < 3; a++) {
		const char *p = strchr(l, axes[a]);
		double v;
		int rc = dalic_arg_float_at(ctx, ws, names[a], i, &v);
		if (rc)
			return rc;
		if (p && v != 0) {
			int d = (int)(p - l);
			flip[d] = true;
			last_flipped = d > last_flipped ? d : last_flipped;
		}
	}
	const int64_t *shape = dalic_batch_shape(in, i);
	size_t total = (size_t)dalic_batch_sample_elems(in, i) * dalic_dtype_size(in->dtype);
	const uint8_t *src = in->ptrs[i];
	uint8_t *dst = ws->outputs[0]->ptrs[i];
	if (total == 0)
		return DALIC_OK;
	if (last_flipped < 0) {
		memcpy(dst, src, total);
		return DALIC_OK;
	}
	/* Dims after the last flipped one form contiguous blocks that move unchanged. */
	size_t block = dalic_dtype_size(in->dtype);
	for (int d = last_flipped + 1; d < in->ndim; d++)
		block *= (size_t)shape[d];
	int64_t stride[DALIC_MAX_NDIM], pos[DALIC_MAX_NDIM] = {0};
	stride[last_flipped] = (int64_t)block;
	for (int d = last_flipped - 1; d >= 0; d--)
		stride[d] = stride[d + 1] * shape[d + 1];
	const int64_t n = shape[last_flipped];
	const size_t row = (size_t)n * block;
	for (size_t o = 0; o < total; o += row) {
		int64_t off = 0;
		for (int d = 0; d < last_flipped; d++)
			off += (flip[d] ? shape[d] - 1 - pos[d] : pos[d]) * stride[d];
		const uint8_t *s = src + off;
		uint8_t *t = dst + o;
		if (!flip[last_flipped])
			memcpy(t, s, row);
		else if (block == 1)
			for (int64_t k = 0; k < n; k++)
				t[k] = s[n - 1 - k];
		else if (block == 3)
			for (int64_t k = 0; k < n; k++)
				memcpy(t + 3 * k, s + 3 * (n - 1 - k), 3);
		else
			for (int64_t k = 0; k < n; k++)
				memcpy(t + (size_t)k * block, s + (size_t)(n - 1 - k) * block, block);
		for (int d = last_flipped - 1; d >= 0; d--) {
			if (++pos[d] < shape[d])
				break;
			pos[d] = 0;
		}
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"horizontal", DALIC_ARG_INT, "1", "Flip along W (1) or not (0).", .tensor = true},
	{"vertical", DALIC_ARG_INT, "0", "Flip along H.", .tensor = true},
	{"depthwise", DALIC_ARG_INT, "0", "Flip along D.", .tensor = true},
	{0},
};

static const dalic_kernel_t kernel = {.setup = flip_setup, .run_sample = flip_run_sample};

DALIC_OPERATOR(Flip) = {
	.name = "Flip",
	.fn = "flip",
	.doc = "Flips images and volumes horizontally, vertically and depthwise.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
