/*
 * experimental.remap (DALI's experimental__Remap, a GPU operator in DALI, run on the CPU here):
 * output(x, y) = input(mapx(x, y), mapy(x, y)) for HWC images of 1 or 3 channels (uint8,
 * int16, uint16 or float) and float maps [H, W] the size of the image; sequences (FHWC) take
 * maps per frame ([F, H, W]) or one pair for every frame. DALI calls NPP's nppiRemap, whose
 * integer coordinates are pixel centres: with pixel_origin "corner" (default) the maps are
 * moved by −0.5 first, "center" takes them as they are (OpenCV's convention). Sampling as
 * OpenCV's remap with BORDER_CONSTANT 0, which DALI's tests compare NPP with: NN takes the
 * pixel round(c) (floor(c + 0.5)), LINEAR and CUBIC (Keys, a = −0.5) weigh the pixels around
 * c, pixels outside the image counting as 0. Integer outputs round half away from zero and
 * saturate. NPP's own arithmetic cannot be compared on a CPU-only machine: dalic's LINEAR and
 * CUBIC may differ from DALI's GPU output by rounding.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"

#include <math.h>
#include <string.h>

typedef struct remap {
	int interp;  /* DALIC_INTERP_NN / LINEAR / CUBIC */
	float shift; /* added to the maps: -0.5 for corner origins */
	bool frames;
} remap_t;

static int remap_init(dalic_op_ctx_t *ctx)
{
	remap_t *r = ctx->state;
	const char *origin = dalic_arg_string(ctx, "pixel_origin");
	if (origin && !strcmp(origin, "corner"))
		r->shift = -0.5f;
	else if (!origin || strcmp(origin, "center"))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Undefined pixel_origin parameter. Please choose one of: "
		                     "[\"center\", \"corner\"] (got '%s')",
		                     origin ? origin : "None");
	r->interp = (int)dalic_arg_int(ctx, "interp");
	if (r->interp != DALIC_INTERP_NN && r->interp != DALIC_INTERP_LINEAR &&
	    r->interp != DALIC_INTERP_CUBIC)
		return dalic_op_fail(ctx, NULL, -1,
		                     "interp %d is not supported by remap: use INTERP_NN, "
		                     "INTERP_LINEAR or INTERP_CUBIC",
		                     r->interp);
	return DALIC_OK;
}

static int remap_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	remap_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0], *mx = ws->inputs[1], *my = ws->inputs[2];
	dalic_dtype_t t = in->dtype;
	if (t != DALIC_UINT8 && t != DALIC_INT16 && t != DALIC_UINT16 && t != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Unsupported input type: %s",
		                     dalic_dtype_cname(t));
	const char *l = in->layout;
	r->frames = !strcmp(l, "FHWC") || (!*l && in->ndim == 4);
	if (!(r->frames || ((!*l || !strcmp(l, "HWC")) && in->ndim == 3)))
		return dalic_op_fail(ctx, ws, -1,
		                     "remap takes HWC images or FHWC sequences, got %d-D '%s'",
		                     in->ndim, l);
	if (mx->dtype != DALIC_FLOAT || my->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "the maps must be float, got %s and %s",
		                     dalic_dtype_cname(mx->dtype), dalic_dtype_cname(my->dtype));
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *s = dalic_batch_shape(in, i), *sx = dalic_batch_shape(mx, i);
		const int64_t *hw = s + r->frames, c = s[in->ndim - 1];
		if (c != 1 && c != 3)
			return dalic_op_fail(
			    ctx, ws, i,
			    "Incorrect number of channels: %lld. Only images with 1 and "
			    "3 channels are supported.",
			    (long long)c);
		if (mx->ndim != my->ndim ||
		    memcmp(sx, dalic_batch_shape(my, i), sizeof(int64_t) * (size_t)mx->ndim))
			return dalic_op_fail(ctx, ws, i, "Maps shapes do not match.");
		bool per_frame = r->frames && mx->ndim == 3 && sx[0] == s[0];
		const int64_t *mhw = sx + per_frame;
		if (mx->ndim != 2 + per_frame || mhw[0] != hw[0] || mhw[1] != hw[1])
			return dalic_op_fail(
			    ctx, ws, i,
			    "Output and maps shapes do not match: the maps must be [H, W] "
			    "(or [F, H, W] for a sequence) of the image, %lldx%lld",
			    (long long)hw[0], (long long)hw[1]);
		if (hw[0] >= (1 << 30) || hw[1] >= (1 << 30))
			return dalic_op_fail(ctx, ws, i, "images below 2**30 pixels a side only");
	}
	dalic_batch_t *out = ws->outputs[0];
	int rc = dalic_batch_copy_meta(out, in);
	for (int i = 0; !rc && i < ws->batch_size; i++)
		out->sources[i] = in->sources[i];
	return rc;
}

/* Keys' cubic convolution weight, a = -0.5. */
static float remap_cubic(float d)
{
	d = fabsf(d);
	if (d <= 1)
		return (1.5f * d - 2.5f) * d * d + 1;
	if (d < 2)
		return ((-0.5f * d + 2.5f) * d - 4) * d + 2;
	return 0;
}

/* The pixel at (x, y) channel c, or 0 outside. */
static double remap_tap(const dalic_batch_t *in, const void *img, int64_t W, int64_t H, int C,
                        int64_t x, int64_t y, int c)
{
	if (x < 0 || y < 0 || x >= W || y >= H)
		return 0;
	return dalic_dtype_load_f64(in->dtype, img, (y * W + x) * C + c);
}

static int remap_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	const remap_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0], *mx = ws->inputs[1], *my = ws->inputs[2];
	dalic_batch_t *out = ws->outputs[0];
	const int64_t *s = dalic_batch_shape(in, i);
	const int64_t F = r->frames ? s[0] : 1, H = s[r->frames], W = s[r->frames + 1];
	const int C = (int)s[in->ndim - 1];
	const bool per_frame = mx->ndim == 3;
	const size_t esize = dalic_dtype_size(in->dtype);
	for (int64_t f = 0; f < F; f++) {
		const uint8_t *img = (const uint8_t *)in->ptrs[i] + (size_t)(f * H * W * C) * esize;
		void *dst = (uint8_t *)out->ptrs[i] + (size_t)(f * H * W * C) * esize;
		const float *mapx = (const float *)mx->ptrs[i] + (per_frame ? f * H * W : 0);
		const float *mapy = (const float *)my->ptrs[i] + (per_frame ? f * H * W : 0);
		for (int64_t k = 0; k < H * W; k++) {
			/* beyond +-1e9 (or NaN) is as outside as 1e9 is: keeps the casts defined */
			float cx = mapx[k] + r->shift, cy = mapy[k] + r->shift;
			cx = cx > -1e9f ? (cx < 1e9f ? cx : 1e9f) : -1e9f;
			cy = cy > -1e9f ? (cy < 1e9f ? cy : 1e9f) : -1e9f;
			for (int c = 0; c < C; c++) {
				double v = 0;
				if (r->interp == DALIC_INTERP_NN) {
					v = remap_tap(in, img, W, H, C, (int64_t)floorf(cx + 0.5f),
					              (int64_t)floorf(cy + 0.5f), c);
				} else {
					int64_t x0 = (int64_t)floorf(cx), y0 = (int64_t)floorf(cy);
					float fx = cx - (float)x0, fy = cy - (float)y0;
					int lo = r->interp == DALIC_INTERP_LINEAR ? 0 : -1;
					int hi = r->interp == DALIC_INTERP_LINEAR ? 1 : 2;
					for (int dy = lo; dy <= hi; dy++) {
						float wy = r->interp == DALIC_INTERP_LINEAR
						               ? (dy ? fy : 1 - fy)
						               : remap_cubic(fy - (float)dy);
						for (int dx = lo; dx <= hi; dx++) {
							float wx =
							    r->interp == DALIC_INTERP_LINEAR
							        ? (dx ? fx : 1 - fx)
							        : remap_cubic(fx - (float)dx);
							v += (double)(wx * wy) *
							     remap_tap(in, img, W, H, C, x0 + dx,
							               y0 + dy, c);
						}
					}
				}
				dalic_dtype_store_sat(out->dtype, dst, k * C + c, v);
			}
		}
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"interp", DALIC_ARG_INTERP_TYPE, "INTERP_LINEAR",
     "Interpolation: INTERP_NN, INTERP_LINEAR or INTERP_CUBIC."},
    {"pixel_origin", DALIC_ARG_STRING, "'corner'",
     "Where a pixel's coordinates point: 'corner' (its top left) or 'center' (as OpenCV)."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(remap_t),
    .init = remap_init,
    .setup = remap_setup,
    .run_sample = remap_run_sample,
};

DALIC_OPERATOR(experimental__Remap) = {
    .name = "experimental__Remap",
    .fn = "experimental.remap",
    .module = "nvidia.dali.fn.experimental",
    .doc = "Moves pixels by per-pixel source coordinates: output(x, y) = input(mapx(x, y), "
           "mapy(x, y)). A GPU operator (run on the CPU when there is no GPU).",
    .min_inputs = 3,
    .max_inputs = 3,
    .num_outputs = 1,
    .devices = DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
