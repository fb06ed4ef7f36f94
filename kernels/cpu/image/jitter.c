/*
 * jitter (DALI's Jitter, a GPU-only operator in DALI 2.4, run on the CPU here): each output
 * pixel takes the input pixel moved by a random offset in [-(nDegree >> 1), nDegree -
 * (nDegree >> 1)) on each axis, clamped to the image (jitter.cuh, displacement_filter_impl_
 * gpu.cuh). HWC images of uint8 or float.
 *
 * The draws are DALI's kernel's, reproduced exactly: the curand Philox state made from the
 * operator's generator for sample 0 is the same generator, moved by sample * 65537 sequences
 * and by (c + C * (x + W * y)) * 257 outputs; from there two uniform_int_dist draws give the x
 * and then the y offset. Which c: DALI's fast kernel (taken when every image of the batch has 1
 * or 3 channels and, for uint8, H * W of every image is a multiple of 4) moves all channels of
 * a pixel together with c = 0; otherwise each channel moves on its own.
 *
 * Also DALI's: `mask` counts only as an argument input (int32, per sample: 0 copies the image);
 * a constant mask is ignored. The sampler reads whole pixels, so interp_type (NN or LINEAR)
 * and fill_value change nothing.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"

#include <string.h>

static int jitter_init(dalic_op_ctx_t *ctx)
{
	int64_t interp = dalic_arg_int(ctx, "interp_type");
	if (interp != DALIC_INTERP_NN && interp != DALIC_INTERP_LINEAR)
		return dalic_op_fail(ctx, NULL, -1,
				     "Unsupported interpolation type, only NN and LINEAR are "
				     "supported for this operation");
	return DALIC_OK;
}

static int jitter_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	if (in->dtype != DALIC_UINT8 && in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Unexpected input type %s",
				     dalic_dtype_cname(in->dtype));
	if (in->ndim != 3)
		return dalic_op_fail(ctx, ws, -1,
				     "expected images of 3 dimensions (HWC), got %d dimensions",
				     in->ndim);
	const dalic_batch_t *mask = dalic_arg_input(ws, "mask");
	if (mask) {
		if (mask->dtype != DALIC_INT32)
			return dalic_op_fail(ctx, ws, -1,
					     "argument 'mask': Calling type does not match buffer data "
					     "type, requested type: int32 current buffer type: %s",
					     dalic_dtype_cname(mask->dtype));
		for (int i = 0; i < ws->batch_size; i++)
			if (dalic_batch_sample_elems(mask, i) < 1)
				return dalic_op_fail(ctx, ws, i, "argument 'mask': an empty sample");
	}
	return dalic_batch_copy_meta(ws->outputs[0], in);
}

/* DALI's fast-kernel condition, over the whole batch. */
static bool jitter_per_pixel(const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	if (ws->batch_size < 1)
		return false;
	int64_t c = dalic_batch_shape(in, 0)[2];
	uint64_t pow2 = UINT64_MAX;
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *sh = dalic_batch_shape(in, i);
		if (sh[2] != c)
			return false;
		uint64_t hw = (uint64_t)sh[0] * (uint64_t)sh[1];
		uint64_t p = hw & (0 - hw);
		pow2 = p < pow2 ? p : pow2;
	}
	return pow2 >= 4 / dalic_dtype_size(in->dtype) && (c == 1 || c == 3);
}

static int32_t jitter_clamp(int32_t v, int32_t hi)
{
	return v < 0 ? 0 : v > hi ? hi : v;
}

static int jitter_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const int64_t *sh = dalic_batch_shape(in, i);
	int64_t H = sh[0], W = sh[1], C = sh[2];
	size_t esize = dalic_dtype_size(in->dtype);
	const dalic_batch_t *mask = dalic_arg_input(ws, "mask");
	if (mask && ((const int32_t *)mask->ptrs[i])[0] == 0) {
		memcpy(out->ptrs[i], in->ptrs[i], (size_t)(H * W * C) * esize);
		return DALIC_OK;
	}
	int32_t n = (int32_t)dalic_arg_int(ctx, "nDegree");
	dalic_rng_uniform_int_t dist;
	int32_t center = -(n >> 1);
	dalic_rng_uniform_int_init(&dist, center, (int64_t)center + n, true);
	bool per_pixel = jitter_per_pixel(ws);
	dalic_philox_t g = dalic_op_rng(ctx, i);
	const uint8_t *src = in->ptrs[i];
	uint8_t *dst = out->ptrs[i];
	for (int64_t y = 0; y < H; y++) {
		for (int64_t x = 0; x < W; x++) {
			for (int64_t c = 0; c < C; c++) {
				if (per_pixel && c > 0)
					break; /* the whole pixel moves with the draws of c = 0 */
				dalic_philox_t e = dalic_rng_for_element(&g, c + C * (x + W * y));
				/* int arithmetic as DALI's: start + draw, then + x, wrapping */
				int32_t dx = (int32_t)(uint32_t)dalic_rng_uniform_int(&dist, &e);
				int32_t dy = (int32_t)(uint32_t)dalic_rng_uniform_int(&dist, &e);
				int32_t nx = jitter_clamp((int32_t)((uint32_t)dx + (uint32_t)x),
							  (int32_t)W - 1);
				int32_t ny = jitter_clamp((int32_t)((uint32_t)dy + (uint32_t)y),
							  (int32_t)H - 1);
				size_t from = (size_t)((ny * W + nx) * C), to = (size_t)((y * W + x) * C);
				if (per_pixel)
					memcpy(dst + to * esize, src + from * esize, (size_t)C * esize);
				else
					memcpy(dst + (to + (size_t)c) * esize,
					       src + (from + (size_t)c) * esize, esize);
			}
		}
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"fill_value", DALIC_ARG_FLOAT, "0.0", "Color value that is used for padding."},
    {"interp_type", DALIC_ARG_INTERP_TYPE, "INTERP_NN", "Type of interpolation used."},
    {"mask", DALIC_ARG_INT, "1",
     "Determines whether to apply this augmentation to the input image (0: copy it).",
     .tensor = true},
    {"nDegree", DALIC_ARG_INT, "2",
     "Each pixel is moved by a random amount in the [-nDegree/2, nDegree/2] range"},
    {0},
};

static const dalic_kernel_t kernel = {
    .init = jitter_init,
    .setup = jitter_setup,
    .run_sample = jitter_run_sample,
};

DALIC_OPERATOR(Jitter) = {
    .name = "Jitter",
    .fn = "jitter",
    .doc = "Performs a random Jitter augmentation: each pixel moves by a random amount, in the "
	   "x and y dimensions, bounded by half of nDegree. A GPU operator (run on the CPU when "
	   "there is no GPU).",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_GPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
