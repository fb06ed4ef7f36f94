/*
 * color_space_conversion (DALI's ColorSpaceConversion): converts uint8 channel-last images
 * (HWC, DHWC, FHWC, FDHWC) between RGB, BGR, GRAY and YCbCr, as DALI 2.4's CPU operator does
 * (OpenCV for the RGB/BGR/GRAY pairs, its own formulas for YCbCr):
 *   RGB <-> BGR            channel swap
 *   RGB/BGR -> GRAY        OpenCV's fixed point: (9798 R + 19235 G + 3735 B + 2^14) >> 15
 *   GRAY -> RGB/BGR        the grey value in every channel
 *   RGB/BGR -> YCbCr       ITU-R BT.601 studio range: JPEG's coefficients scaled by 219/255
 *                          (Y, + 16) and 224/255 (Cb, Cr, + 128), in float, rounded
 *   YCbCr -> RGB/BGR       the inverse, (Y - 16) * 255/219 plus Cb/Cr terms, in float
 *   GRAY <-> YCbCr         Y = gray * (sum of Y's coefficients) + 16, Cb = Cr = 128; and back
 * Every float result rounds half away from zero and saturates (DALI's ConvertSat). Other
 * pairs, the same type twice included, fail as in DALI ("conversion not supported").
 */
#include "engine/kernel.h"
#include "kernels/common/color.h"
#include "kernels/common/sat_cast.h"

#include <string.h>

typedef enum {
	CSC_SWAP,
	CSC_TO_GRAY,
	CSC_FROM_GRAY,
	CSC_TO_YCBCR,
	CSC_FROM_YCBCR,
	CSC_GRAY_TO_YCBCR,
	CSC_YCBCR_TO_GRAY,
} csc_kind_t;

typedef struct csc {
	csc_kind_t kind;
	bool bgr; /* the RGB side is BGR */
	int in_c, out_c;
	float y[3], cb[3], cr[3]; /* RGB -> YCbCr coefficients */
	float y_sum;              /* y[0] + y[1] + y[2] in float: GRAY <-> Y */
} csc_t;

static int csc_channels(int64_t t)
{
	return t == DALIC_GRAY ? 1 : 3;
}

static const char *csc_type_name(int64_t t)
{
	static const char *const names[] = {"RGB", "BGR", "GRAY", "YCbCr", "ANY_DATA"};
	return t >= 0 && t <= 4 ? names[t] : "?";
}

static int csc_init(dalic_op_ctx_t *ctx)
{
	csc_t *s = ctx->state;
	int64_t from = dalic_arg_int(ctx, "image_type"), to = dalic_arg_int(ctx, "output_type");
	bool rgbish_from = from == DALIC_RGB || from == DALIC_BGR;
	bool rgbish_to = to == DALIC_RGB || to == DALIC_BGR;
	s->bgr = from == DALIC_BGR || to == DALIC_BGR;
	if (rgbish_from && rgbish_to && from != to)
		s->kind = CSC_SWAP;
	else if (rgbish_from && to == DALIC_GRAY)
		s->kind = CSC_TO_GRAY;
	else if (from == DALIC_GRAY && rgbish_to)
		s->kind = CSC_FROM_GRAY;
	else if (rgbish_from && to == DALIC_YCbCr)
		s->kind = CSC_TO_YCBCR;
	else if (from == DALIC_YCbCr && rgbish_to)
		s->kind = CSC_FROM_YCBCR;
	else if (from == DALIC_GRAY && to == DALIC_YCbCr)
		s->kind = CSC_GRAY_TO_YCBCR;
	else if (from == DALIC_YCbCr && to == DALIC_GRAY)
		s->kind = CSC_YCBCR_TO_GRAY;
	else
		return dalic_op_fail(ctx, NULL, -1, "conversion not supported: %s to %s",
		                     csc_type_name(from), csc_type_name(to));
	s->in_c = csc_channels(from);
	s->out_c = csc_channels(to);
	dalic_color_ycbcr_coeffs(s->y, s->cb, s->cr);
	s->y_sum = s->y[0] + s->y[1] + s->y[2];
	return DALIC_OK;
}

static int csc_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	csc_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const char *l = in->layout;
	if (l[0] ? strcmp(l, "HWC") && strcmp(l, "DHWC") && strcmp(l, "FHWC") && strcmp(l, "FDHWC")
	         : in->ndim < 3 || in->ndim > 5)
		return dalic_op_fail(ctx, ws, -1,
		                     "The layout \"%s\" does not match any of the "
		                     "allowed layouts for input 0. Valid layouts are: "
		                     "FDHWC, FHWC, DHWC, HWC",
		                     l);
	if (in->dtype != DALIC_UINT8)
		return dalic_op_fail(ctx, ws, -1,
		                     "Color space conversion accept only uint8 tensors "
		                     "(got %s)",
		                     dalic_dtype_cname(in->dtype));
	dalic_batch_t *out = ws->outputs[0];
	int rc = dalic_batch_copy_meta(out, in);
	if (rc)
		return rc;
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t *os = dalic_batch_shape_mut(out, i);
		if (os[in->ndim - 1] != s->in_c)
			return dalic_op_fail(ctx, ws, i, "Expected %d channels. Got %lld", s->in_c,
			                     (long long)os[in->ndim - 1]);
		os[in->ndim - 1] = s->out_c;
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* One loop per kind over n pixels; r/b index the red and blue channel of the RGB side. */
static void csc_convert(const csc_t *s, const uint8_t *in, uint8_t *out, int64_t n)
{
	const int r = s->bgr ? 2 : 0, b = 2 - r;
	switch (s->kind) {
	case CSC_SWAP:
		for (int64_t p = 0; p < n; p++, in += 3, out += 3) {
			uint8_t c0 = in[0], c1 = in[1], c2 = in[2];
			out[0] = c2;
			out[1] = c1;
			out[2] = c0;
		}
		break;
	case CSC_TO_GRAY:
		for (int64_t p = 0; p < n; p++, in += 3)
			out[p] =
			    (uint8_t)((in[r] * 9798 + in[1] * 19235 + in[b] * 3735 + (1 << 14)) >>
			              15);
		break;
	case CSC_FROM_GRAY:
		for (int64_t p = 0; p < n; p++, out += 3)
			out[0] = out[1] = out[2] = in[p];
		break;
	case CSC_TO_YCBCR: {
		const float y0 = s->y[0], y1 = s->y[1], y2 = s->y[2];
		const float b0 = s->cb[0], b1 = s->cb[1], b2 = s->cb[2];
		const float r0 = s->cr[0], r1 = s->cr[1], r2 = s->cr[2];
		for (int64_t p = 0; p < n; p++, in += 3, out += 3) {
			float R = in[r], G = in[1], B = in[b];
			out[0] = dalic_sat_f2u8(y0 * R + y1 * G + y2 * B + 16.0f);
			out[1] = dalic_sat_f2u8(b0 * R + b1 * G + b2 * B + 128.0f);
			out[2] = dalic_sat_f2u8(r0 * R + r1 * G + r2 * B + 128.0f);
		}
		break;
	}
	case CSC_FROM_YCBCR: {
		const float ky = (float)(255.0 / 219), kr = (float)(1.402 * 255 / 224);
		const float kgr = (float)(0.71413629 * 255 / 224);
		const float kgb = (float)(0.34413629 * 255 / 224), kb = (float)(1.772 * 255 / 224);
		for (int64_t p = 0; p < n; p++, in += 3, out += 3) {
			float ty = ky * ((float)in[0] - 16), tb = (float)in[1] - 128;
			float tr = (float)in[2] - 128;
			out[r] = dalic_sat_f2u8(ty + kr * tr);
			out[1] = dalic_sat_f2u8(ty - kgr * tr - kgb * tb);
			out[b] = dalic_sat_f2u8(ty + kb * tb);
		}
		break;
	}
	case CSC_GRAY_TO_YCBCR:
		for (int64_t p = 0; p < n; p++, out += 3) {
			out[0] = dalic_sat_f2u8((float)in[p] * s->y_sum + 16.0f);
			out[1] = out[2] = 128;
		}
		break;
	case CSC_YCBCR_TO_GRAY: {
		const float k = 1.0f / s->y_sum;
		for (int64_t p = 0; p < n; p++, in += 3)
			out[p] = dalic_sat_f2u8(k * ((float)in[0] - 16));
		break;
	}
	}
}

static int csc_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const csc_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	csc_convert(s, in->ptrs[i], ws->outputs[0]->ptrs[i],
	            dalic_batch_sample_elems(in, i) / s->in_c);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"image_type", DALIC_ARG_IMAGE_TYPE, NULL, "Colour space of the input."},
    {"output_type", DALIC_ARG_IMAGE_TYPE, NULL, "Colour space of the output."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(csc_t),
    .init = csc_init,
    .setup = csc_setup,
    .run_sample = csc_run_sample,
};

DALIC_OPERATOR(ColorSpaceConversion) = {
    .name = "ColorSpaceConversion",
    .fn = "color_space_conversion",
    .doc = "Converts uint8 images between RGB, BGR, GRAY and YCbCr (BT.601).",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
