/*
 * flip (DALI's Flip): mirrors each sample along W (horizontal, default 1), H (vertical) and D
 * (depthwise); each flag may be given per sample, e.g. from random.coin_flip. Layouts with W
 * and H (HWC, CHW, FHWC, DHWC, FCHW...); without one, 2-, 3- and 4-D data are HW, HWC and
 * FHWC. Works on any element type: dims after the last flipped one move as whole blocks.
 * The index rule is kernels/common/flip_index.h, shared with the CUDA kernel.
 */
#include "engine/kernel.h"
#include "kernels/common/flip_index.h"

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
	static const char *const names[3] = {"horizontal", "vertical", "depthwise"};
	double flags[3];
	for (int a = 0; a < 3; a++) {
		int rc = dalic_arg_float_at(ctx, ws, names[a], i, &flags[a]);
		if (rc)
			return rc;
	}
	dalic_flip_plan_t pl;
	dalic_flip_plan_make(&pl, flip_layout_of(in), in->ndim, dalic_batch_shape(in, i),
	                     (int64_t)dalic_dtype_size(in->dtype), flags);
	const uint8_t *src = in->ptrs[i];
	uint8_t *dst = ws->outputs[0]->ptrs[i];
	if (pl.units == 0)
		return DALIC_OK;
	if (pl.nd == 0) {
		memcpy(dst, src, (size_t)pl.unit_bytes);
		return DALIC_OK;
	}
	/* A row is the last kept dim: its units are contiguous in the output, and in the source
	 * too, backwards when that dim flips. The row's start comes from the shared rule. */
	const size_t block = (size_t)pl.unit_bytes;
	const int64_t n = pl.shape[pl.nd - 1];
	const bool rev = pl.flip[pl.nd - 1];
	const size_t row = (size_t)n * block;
	for (int64_t r = 0; r < pl.units; r += n) {
		const uint8_t *s = src + (size_t)dalic_flip_src_unit(&pl, r) * block;
		uint8_t *t = dst + (size_t)r * block;
		if (!rev)
			memcpy(t, s, row);
		else if (block == 1)
			for (int64_t k = 0; k < n; k++)
				t[k] = s[-k];
		else if (block == 3)
			for (int64_t k = 0; k < n; k++)
				memcpy(t + 3 * k, s - 3 * k, 3);
		else
			for (int64_t k = 0; k < n; k++)
				memcpy(t + (size_t)k * block, s - (size_t)k * block, block);
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
