/*
 * crop_mirror_normalize (DALI's CropMirrorNormalize): crops a window (img_window.c, as crop),
 * optionally mirrors it horizontally (mirror, per sample), normalises every value as
 * (in - mean[c]) * scale / std[c] + shift, optionally pads the channels to a power of two
 * (pad_output), and writes it in output_layout (CHW by default) as dtype (FLOAT by
 * default, FLOAT16, INT8 or UINT8; integers round half away from zero and saturate).
 * Regions outside the input (out_of_bounds_policy "pad") and padded channels take
 * fill_values. Inputs: DALI's image layouts (HWC, CHW, DHWC, CDHW) and sequences of them
 * (FHWC, FCHW, CFHW, FDHWC, FCDHW, CFDHW), plus HW; output_layout is any permutation of the
 * input's layout. Every layout is walked as F x D x H x W x C with per-dimension strides.
 *
 * The normalisation is one multiply-add per value (in * scale / std + shift - mean * scale /
 * std); the per-value functions (plan, source pixel, value, stores) are kernels/common/cmn_px.h's,
 * which the CUDA kernel runs too. uint8 channel-last frames inside the input go straight to float
 * output in one pass (RGB to planes with AVX2 or SSE2 rows, img_cmn_simd.h); every other case
 * builds each output row in float, pixel-interleaved, then stores it in the output layout and
 * type.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/cmn_px.h"
#include "kernels/common/img_cmn_simd.h"
#include "kernels/common/img_scratch.h"
#include "kernels/common/img_window.h"
#include "kernels/common/window_plans.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define MAX_CH DALIC_CMN_MAX_CH

typedef struct cmn {
	img_oob_t oob;
	dalic_dtype_t out_type;
	bool pad_output;
	float scale, shift;
	img_window_t *win;
	img_scratch_t *threads;
	int num_threads;
} cmn_t;

static void cmn_fini(dalic_op_ctx_t *ctx);

static int cmn_init_state(dalic_op_ctx_t *ctx)
{
	cmn_t *s = ctx->state;
	int rc = dalic_img_oob_parse(ctx, &s->oob);
	if (rc)
		return rc;
	bool has_dtype = dalic_arg_given(ctx, "dtype"), has_old = dalic_arg_given(ctx, "output_dtype");
	if (has_dtype && has_old)
		return dalic_op_fail(ctx, NULL, -1, "TypeError: arguments `dtype` and `output_dtype` "
						    "cannot be used together (`output_dtype` is a "
						    "deprecated alias of `dtype`)");
	s->out_type = (dalic_dtype_t)dalic_arg_int(ctx, has_old ? "output_dtype" : "dtype");
	if (s->out_type != DALIC_FLOAT && s->out_type != DALIC_FLOAT16 &&
	    s->out_type != DALIC_INT8 && s->out_type != DALIC_UINT8)
		return dalic_op_fail(ctx, NULL, -1, "Output type %s is not supported; use FLOAT, "
						    "FLOAT16, INT8 or UINT8",
				     dalic_dtype_name(s->out_type));
	s->pad_output = dalic_arg_bool(ctx, "pad_output");
	s->scale = (float)dalic_arg_float(ctx, "scale");
	s->shift = (float)dalic_arg_float(ctx, "shift");
	s->win = calloc((size_t)ctx->max_batch_size, sizeof *s->win);
	s->num_threads = ctx->num_threads + 1;
	s->threads = calloc((size_t)s->num_threads, sizeof *s->threads);
	return s->win && s->threads ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int cmn_init(dalic_op_ctx_t *ctx)
{
	int rc = cmn_init_state(ctx);
	if (rc)
		cmn_fini(ctx);
	return rc;
}

/* The roles of the dimensions, outermost first in the walk (cmn_px.h). */
static const char cmn_role_char[DALIC_CMN_ROLES] = {'F', 'D', 'H', 'W', 'C'};

typedef struct geom {
	int ndim;
	int dim[DALIC_CMN_ROLES];   /* input dimension of each role; -1 when absent */
	int out_of[DALIC_MAX_NDIM]; /* output dimension k is input dimension out_of[k] */
	char out_layout[DALIC_MAX_NDIM + 1];
} geom_t;

/* DALI's accepted input layouts; HW (no channels) is dalic's own addition. */
static const char *const cmn_layouts[] = {"HWC",   "CHW",   "DHWC",  "CDHW",  "FHWC", "FCHW",
                                          "CFHW",  "FDHWC", "FCDHW", "CFDHW", "HW"};

static int cmn_geometry(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_batch_t *in,
                        geom_t *g, const char **layout)
{
	*layout = in->layout[0] ? in->layout : in->ndim == 2 ? "HW" : in->ndim == 3 ? "HWC" : "";
	const char *l = *layout;
	bool known = false;
	for (size_t k = 0; k < sizeof cmn_layouts / sizeof *cmn_layouts; k++)
		known |= !strcmp(l, cmn_layouts[k]);
	if (!known)
		return dalic_op_fail(ctx, ws, -1, "The layout \"%s\" does not match any of the "
						  "allowed layouts for input 0. Valid layouts are: "
						  "HWC, CHW, DHWC, CDHW, FHWC, FCHW, CFHW, FDHWC, "
						  "FCDHW, CFDHW (and HW)", l);
	if ((int)strlen(l) != in->ndim)
		return dalic_op_fail(ctx, ws, -1, "layout %s does not fit %d-D data", l, in->ndim);
	g->ndim = in->ndim;
	for (int r = 0; r < DALIC_CMN_ROLES; r++) {
		const char *p = strchr(l, cmn_role_char[r]);
		g->dim[r] = p ? (int)(p - l) : -1;
	}
	const char *ol = dalic_arg_string(ctx, "output_layout");
	if (g->dim[DALIC_CMN_C] < 0 || !ol || !ol[0])
		ol = l; /* HW keeps its layout; an empty output_layout keeps the input's */
	bool perm = strlen(ol) == strlen(l);
	for (int k = 0; perm && ol[k]; k++) {
		const char *p = strchr(l, ol[k]);
		perm = p && strchr(ol, ol[k]) == ol + k;
		g->out_of[k] = p ? (int)(p - l) : -1;
	}
	if (!perm)
		return dalic_op_fail(ctx, ws, -1, "The requested output layout is not a permutation "
						  "of input layout (output_layout '%s', input %s)",
				     ol, l);
	memcpy(g->out_layout, ol, strlen(ol) + 1);
	return DALIC_OK;
}

/* Output channels: C, or the next power of two with pad_output. */
static int64_t cmn_out_channels(const cmn_t *s, const geom_t *g, const int64_t *shape)
{
	return dalic_cmn_px_out_channels(g->dim[DALIC_CMN_C] < 0 ? 1 : shape[g->dim[DALIC_CMN_C]],
	                                 s->pad_output);
}

static int cmn_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	cmn_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	geom_t g;
	const char *layout;
	int rc = cmn_geometry(ctx, ws, in, &g, &layout);
	if (!rc && !dalic_dtype_is_numeric(in->dtype))
		rc = dalic_op_fail(ctx, ws, -1, "cannot normalize %s data",
				   dalic_dtype_name(in->dtype));
	if (!rc)
		rc = dalic_batch_set_meta(out, ws->batch_size, s->out_type, in->ndim);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, g.out_layout);
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *shape = dalic_batch_shape(in, i);
		if ((rc = dalic_img_window_for_sample(ctx, ws, i, layout, in->ndim, shape, s->oob,
						&s->win[i])))
			return rc;
		if (g.dim[DALIC_CMN_C] >= 0 && shape[g.dim[DALIC_CMN_C]] > MAX_CH)
			return dalic_op_fail(ctx, ws, i, "%lld channels; at most %d supported",
					     (long long)shape[g.dim[DALIC_CMN_C]], MAX_CH);
		int64_t oc = cmn_out_channels(s, &g, shape);
		int64_t *os = dalic_batch_shape_mut(out, i);
		for (int k = 0; k < g.ndim; k++)
			os[k] = g.out_of[k] == g.dim[DALIC_CMN_C] ? oc : s->win[i].shape[g.out_of[k]];
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* mean / std for C channels: one value (broadcast) or one per channel. */
static int cmn_per_channel(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                           const char *name, int64_t C, float *out)
{
	double v[MAX_CH];
	int n;
	int rc = dalic_arg_floats_at(ctx, ws, name, i, v, MAX_CH, &n);
	if (rc)
		return rc;
	if (n != 1 && n != C)
		return dalic_op_fail(ctx, ws, i, "`%s` has %d values; expected 1 or %lld (channels)",
				     name, n, (long long)C);
	for (int64_t c = 0; c < C; c++)
		out[c] = (float)v[n == 1 ? 0 : c];
	return DALIC_OK;
}

/* Stores n floats read `step` apart into elements of type t `dstep` apart (setup allows FLOAT,
 * FLOAT16, INT8 and UINT8), by cmn_px.h's rules; a loop per type so each vectorises. */
static void cmn_store_run(dalic_dtype_t t, void *dst, int64_t dstep, const float *src, int64_t step,
                          int64_t n)
{
	switch (t) {
	case DALIC_FLOAT:
		for (int64_t k = 0; k < n; k++)
			((float *)dst)[k * dstep] = src[k * step];
		break;
	case DALIC_FLOAT16:
		for (int64_t k = 0; k < n; k++)
			((uint16_t *)dst)[k * dstep] = dalic_half_from_f32(src[k * step]);
		break;
	case DALIC_UINT8:
		for (int64_t k = 0; k < n; k++)
			((uint8_t *)dst)[k * dstep] = dalic_cmn_px_u8(src[k * step]);
		break;
	case DALIC_INT8:
		for (int64_t k = 0; k < n; k++)
			((int8_t *)dst)[k * dstep] = dalic_cmn_px_i8(src[k * step]);
		break;
	default:
		break;
	}
}

#ifdef __SSE2__
/* One output row of the ResNet case (3 channels, CHW) four pixels at a time: 12 bytes load,
 * widen to three float vectors of interleaved RGB, shuffle into R, G and B (reversed for a
 * mirror), then the same multiply and add per value as the scalar loop, so the results are
 * bit-identical. Returns how many pixels it wrote; the caller finishes the row. */
static int64_t cmn_rgb_row_sse2(const uint8_t *row, int64_t ow, bool mirror, const float *mul,
                                const float *add, float *o0, float *o1, float *o2)
{
	const __m128i zero = _mm_setzero_si128();
	const __m128 m0 = _mm_set1_ps(mul[0]), m1 = _mm_set1_ps(mul[1]), m2 = _mm_set1_ps(mul[2]);
	const __m128 a0 = _mm_set1_ps(add[0]), a1 = _mm_set1_ps(add[1]), a2 = _mm_set1_ps(add[2]);
	int64_t x = 0;
	for (; x + 4 <= ow; x += 4) {
		/* the four source pixels, left to right: a mirrored row reads them from the end */
		const uint8_t *p = row + (mirror ? ow - 4 - x : x) * 3;
		int32_t tail;
		memcpy(&tail, p + 8, sizeof tail); /* exactly 12 bytes: no read past the image */
		__m128i b = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)p),
					       _mm_cvtsi32_si128(tail));
		__m128i lo = _mm_unpacklo_epi8(b, zero), hi = _mm_unpackhi_epi8(b, zero);
		__m128 v0 = _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, zero)); /* r0 g0 b0 r1 */
		__m128 v1 = _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, zero)); /* g1 b1 r2 g2 */
		__m128 v2 = _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, zero)); /* b2 r3 g3 b3 */
		__m128 t = _mm_shuffle_ps(v1, v2, _MM_SHUFFLE(0, 1, 0, 2));
		__m128 r = _mm_shuffle_ps(v0, t, _MM_SHUFFLE(2, 0, 3, 0));
		__m128 g = _mm_shuffle_ps(_mm_shuffle_ps(v0, v1, _MM_SHUFFLE(0, 0, 0, 1)),
					  _mm_shuffle_ps(v1, v2, _MM_SHUFFLE(0, 2, 0, 3)),
					  _MM_SHUFFLE(2, 0, 2, 0));
		__m128 bl = _mm_shuffle_ps(_mm_shuffle_ps(v0, v1, _MM_SHUFFLE(0, 1, 0, 2)), v2,
					   _MM_SHUFFLE(3, 0, 2, 0));
		if (mirror) {
			r = _mm_shuffle_ps(r, r, _MM_SHUFFLE(0, 1, 2, 3));
			g = _mm_shuffle_ps(g, g, _MM_SHUFFLE(0, 1, 2, 3));
			bl = _mm_shuffle_ps(bl, bl, _MM_SHUFFLE(0, 1, 2, 3));
		}
		_mm_storeu_ps(o0 + x, _mm_add_ps(_mm_mul_ps(r, m0), a0));
		_mm_storeu_ps(o1 + x, _mm_add_ps(_mm_mul_ps(g, m1), a1));
		_mm_storeu_ps(o2 + x, _mm_add_ps(_mm_mul_ps(bl, m2), a2));
	}
	return x;
}
#endif

/* The ResNet case: uint8 channel-last frames inside the image to float, one pass, no
 * per-element dispatch. The output is pixel-interleaved (out_hwc: rows ow * C apart) or planar
 * (rows ow apart, channel planes `plane` apart). */
static void cmn_fast_u8_hwc(const uint8_t *src, int64_t W, int64_t C, int64_t ax, int64_t ay,
                            int64_t ow, int64_t oh, bool mirror, bool out_hwc, int64_t plane,
                            const float *mul, const float *add, float *dst)
{
	const int simd = dalic_img_cmn_simd();
	const int64_t step = mirror ? -C : C;
	for (int64_t y = 0; y < oh; y++) {
		const uint8_t *p = src + ((ay + y) * W + ax + (mirror ? ow - 1 : 0)) * C;
		if (out_hwc) {
			float *o = dst + y * ow * C;
			for (int64_t x = 0; x < ow; x++, p += step, o += C)
				for (int64_t c = 0; c < C; c++)
					o[c] = dalic_cmn_px_norm((float)p[c], mul[c], add[c]);
		} else if (C == 3) {
			float *o0 = dst + y * ow, *o1 = o0 + plane, *o2 = o1 + plane;
			const float m0 = mul[0], m1 = mul[1], m2 = mul[2];
			const float a0 = add[0], a1 = add[1], a2 = add[2];
			const uint8_t *row = src + ((ay + y) * W + ax) * C;
			int64_t x = 0;
			if (simd == IMG_CMN_AVX2)
				x = dalic_img_cmn_rgb_row_avx2(row, ow, mirror, mul, add, o0, o1, o2);
#ifdef __SSE2__
			else if (simd == IMG_CMN_SSE2)
				x = cmn_rgb_row_sse2(row, ow, mirror, mul, add, o0, o1, o2);
#endif
			p += x * step;
			for (; x < ow; x++, p += step) {
				o0[x] = dalic_cmn_px_norm((float)p[0], m0, a0);
				o1[x] = dalic_cmn_px_norm((float)p[1], m1, a1);
				o2[x] = dalic_cmn_px_norm((float)p[2], m2, a2);
			}
		} else {
			for (int64_t x = 0; x < ow; x++, p += step)
				for (int64_t c = 0; c < C; c++)
					dst[c * plane + y * ow + x] =
					    dalic_cmn_px_norm((float)p[c], mul[c], add[c]);
		}
	}
}

/* One output row (frame f, depth d, row y) built in float, pixel-interleaved, then stored. */
typedef struct cmn_rows {
	const void *src;
	const dalic_cmn_px_plan_t *pl;
	const float *mul, *add, *fill;
	float *row;
} cmn_rows_t;

static void cmn_row(const cmn_rows_t *r, int64_t f, int64_t d, int64_t y, size_t es, uint8_t *dst)
{
	const dalic_cmn_px_plan_t *pl = r->pl;
	const int64_t ow = pl->ext[DALIC_CMN_W], oc = pl->oc;
	for (int64_t x = 0; x < ow; x++) {
		int64_t at = dalic_cmn_px_src(pl, f, d, y, x);
		float *o = r->row + x * oc;
		for (int64_t c = 0; c < oc; c++)
			o[c] = dalic_cmn_px_value(pl, r->src, at, c, r->mul, r->add, r->fill);
	}
	const int64_t *ost = pl->ost;
	uint8_t *o = dst + (size_t)(f * ost[DALIC_CMN_F] + d * ost[DALIC_CMN_D] +
	                            y * ost[DALIC_CMN_H]) * es;
	if (ost[DALIC_CMN_C] <= 1 && ost[DALIC_CMN_W] == oc) /* channels innermost, W next */
		cmn_store_run(pl->out_type, o, 1, r->row, 1, ow * oc);
	else
		for (int64_t c = 0; c < oc; c++)
			cmn_store_run(pl->out_type, o + (size_t)(c * ost[DALIC_CMN_C]) * es,
			              ost[DALIC_CMN_W], r->row + c, oc, ow);
}

/* The plan of sample i, its coefficients and fill values, and its geometry g: what both the
 * CPU run and the GPU path (dalic_cmn_sample_plan) compute with. */
static int cmn_sample_plan(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, geom_t *g,
                           dalic_cmn_px_plan_t *pl, float *mul, float *add, float *fill)
{
	const cmn_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const dalic_batch_t *out = ws->outputs[0];
	const char *layout;
	int rc = cmn_geometry(ctx, ws, in, g, &layout);
	if (rc)
		return rc;
	const int64_t *shape = dalic_batch_shape(in, i);
	const img_window_t *w = &s->win[i];
	const int64_t C = g->dim[DALIC_CMN_C] < 0 ? 1 : shape[g->dim[DALIC_CMN_C]];
	const int64_t oc = cmn_out_channels(s, g, shape);
	float mean[MAX_CH], std[MAX_CH];
	double mirror;
	if ((rc = cmn_per_channel(ctx, ws, i, "mean", C, mean)) ||
	    (rc = cmn_per_channel(ctx, ws, i, "std", C, std)) ||
	    (rc = dalic_arg_float_at(ctx, ws, "mirror", i, &mirror)))
		return rc;
	/* (in - mean) * scale / std + shift as one multiply-add: in * mul + add */
	for (int64_t c = 0; c < C; c++)
		dalic_cmn_px_coeffs(s->scale, s->shift, mean[c], std[c], &mul[c], &add[c]);
	const dalic_value_t *fv = dalic_arg(ctx, "fill_values");
	for (int64_t c = 0; c < oc; c++)
		fill[c] = fv->n <= 1 ? (float)dalic_value_get_f(fv, 0)
				     : c < fv->n ? (float)dalic_value_get_f(fv, (int)c) : 0;
	dalic_cmn_px_plan(pl, layout, g->out_layout, g->ndim, shape, w->anchor, w->shape,
	                  s->pad_output, in->dtype, out->dtype, mirror != 0);
	return DALIC_OK;
}

int dalic_cmn_sample_plan(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                          dalic_cmn_px_plan_t *pl, float *mul, float *add, float *fill)
{
	geom_t g;
	return cmn_sample_plan(ctx, ws, i, &g, pl, mul, add, fill);
}

static int cmn_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	cmn_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	geom_t g;
	dalic_cmn_px_plan_t pl;
	float mul[MAX_CH], add[MAX_CH], fill[MAX_CH];
	int rc = cmn_sample_plan(ctx, ws, i, &g, &pl, mul, add, fill);
	if (rc)
		return rc;
	if (thread < 0 || thread >= s->num_threads)
		return dalic_op_fail(ctx, ws, i, "worker thread %d outside the %d expected", thread,
				     s->num_threads);
	const int64_t C = pl.C, oc = pl.oc;
	bool inside = true;
	for (int q = 0; q < DALIC_CMN_ROLES; q++)
		inside &= pl.anchor[q] >= 0 &&
		          pl.anchor[q] + (q == DALIC_CMN_C ? C : pl.ext[q]) <= pl.in_ext[q];
	const int64_t oh = pl.ext[DALIC_CMN_H], ow = pl.ext[DALIC_CMN_W];
	cmn_rows_t r = {.src = in->ptrs[i], .pl = &pl, .mul = mul, .add = add, .fill = fill};
	r.row = dalic_img_scratch_get(&s->threads[thread], sizeof(float) * (size_t)(ow * oc) + 1);
	if (!r.row)
		return dalic_op_fail(ctx, ws, i, "a %lld-pixel row: %s", (long long)ow,
				     dalic_last_error());
	const size_t es = dalic_dtype_size(out->dtype);
	uint8_t *dst = out->ptrs[i];
	const int64_t *ist = pl.ist, *ost = pl.ost;
	bool out_hwc = ost[DALIC_CMN_C] == 1 && ost[DALIC_CMN_W] == C && ost[DALIC_CMN_H] == ow * C;
	bool out_planar = ost[DALIC_CMN_W] == 1 && ost[DALIC_CMN_H] == ow;
	if (inside && in->dtype == DALIC_UINT8 && out->dtype == DALIC_FLOAT &&
	    g.dim[DALIC_CMN_C] == g.ndim - 1 && oc == C && (out_hwc || out_planar)) {
		for (int64_t f = 0; f < pl.ext[DALIC_CMN_F]; f++)
			for (int64_t d = 0; d < pl.ext[DALIC_CMN_D]; d++) {
				const uint8_t *frame = (const uint8_t *)r.src +
				                       (pl.anchor[DALIC_CMN_F] + f) * ist[DALIC_CMN_F] +
				                       (pl.anchor[DALIC_CMN_D] + d) * ist[DALIC_CMN_D];
				float *o = (float *)dst + f * ost[DALIC_CMN_F] + d * ost[DALIC_CMN_D];
				cmn_fast_u8_hwc(frame, pl.in_ext[DALIC_CMN_W], C, pl.anchor[DALIC_CMN_W],
				                pl.anchor[DALIC_CMN_H], ow, oh, pl.mirror, out_hwc,
				                ost[DALIC_CMN_C], mul, add, o);
			}
		return DALIC_OK;
	}
	for (int64_t f = 0; f < pl.ext[DALIC_CMN_F]; f++)
		for (int64_t d = 0; d < pl.ext[DALIC_CMN_D]; d++)
			for (int64_t y = 0; y < oh; y++)
				cmn_row(&r, f, d, y, es, dst);
	return DALIC_OK;
}

static void cmn_fini(dalic_op_ctx_t *ctx)
{
	cmn_t *s = ctx->state;
	for (int t = 0; s->threads && t < s->num_threads; t++)
		dalic_img_scratch_free(&s->threads[t]);
	free(s->threads);
	free(s->win);
}

static const dalic_arg_schema_t args[] = {
	IMG_CROP_WINDOW_ARGS,
	{"mirror", DALIC_ARG_INT, "0", "Flip the window horizontally (1) or not (0).",
	 .tensor = true},
	{"mean", DALIC_ARG_FLOAT_LIST, "[0.0]", "Mean per channel (or one for all).",
	 .tensor = true},
	{"std", DALIC_ARG_FLOAT_LIST, "[1.0]", "Standard deviation per channel (or one).",
	 .tensor = true},
	{"scale", DALIC_ARG_FLOAT, "1.0", "Multiplies (in - mean) / std."},
	{"shift", DALIC_ARG_FLOAT, "0.0", "Added after scaling."},
	{"output_layout", DALIC_ARG_LAYOUT, "'CHW'",
	 "A permutation of the input layout (empty: the input's)."},
	{"dtype", DALIC_ARG_DTYPE, "FLOAT", "FLOAT, FLOAT16, INT8 or UINT8."},
	{"output_dtype", DALIC_ARG_DTYPE, "None", "Deprecated alias of dtype."},
	{"pad_output", DALIC_ARG_BOOL, "False", "Pad channels to a power of two with fill_values."},
	{"image_type", DALIC_ARG_IMAGE_TYPE, "RGB", "Deprecated; ignored."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(cmn_t),
	.init = cmn_init,
	.setup = cmn_setup,
	.run_sample = cmn_run_sample,
	.fini = cmn_fini,
};

DALIC_OPERATOR(CropMirrorNormalize) = {
	.name = "CropMirrorNormalize",
	.fn = "crop_mirror_normalize",
	.doc = "Crops, mirrors and normalizes images, changing layout and type.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
