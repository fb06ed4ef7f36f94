/*
 * filter (DALI's Filter, legacy alias experimental.filter): correlates images and videos with
 * a per-sample 2D float filter (the second input), as DALI's CPU operator does through
 * OpenCV's filter2D: out(y, x) = sum over the filter's non-zero values k(r, s), row by row,
 * of k(r, s) * in(y - ay + r, x - ax + s), accumulated in float from 0 — with fused
 * multiply-adds where OpenCV's AVX2 build fuses them (filter_fused_end); integer outputs
 * round to nearest (ties to even: cvRound) and saturate. The
 * anchor (ay, ax) defaults to the filter's middle. Out-of-range positions follow `border`:
 * reflect_101 (dcb|abc), reflect_1001 (cba|abc), wrap, clamp, constant (the optional third
 * input, the fill value, else 0); mode "valid" instead crops the output to the positions the
 * whole filter covers. Channels (channel-last: every channel on its own) and frames or
 * channel-first planes are filtered independently. Inputs uint8, int16, uint16 or float;
 * output the input's type or float. Per-frame filters (a filter sequence for a video) are
 * not implemented (docs/dali-differences.md).
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/convolution.h"

#include <math.h>
#include <string.h>

/* Fused multiply-adds only where written (fmaf): the compiler must not fuse the others. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

enum { FILTER_REFLECT_101, FILTER_REFLECT_1001, FILTER_WRAP, FILTER_CLAMP, FILTER_CONSTANT };

typedef struct filter_state {
	int border;
	bool valid;
} filter_state_t;

static int filter_init(dalic_op_ctx_t *ctx)
{
	filter_state_t *s = ctx->state;
	static const char *const names[] = {"reflect_101", "reflect_1001", "wrap", "clamp",
	                                    "constant"};
	const char *b = dalic_arg_string(ctx, "border");
	s->border = -1;
	for (int k = 0; k < 5; k++)
		if (!strcmp(b, names[k]))
			s->border = k;
	if (s->border < 0)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Unknown border mode: `%s`. Supported border modes are: "
		                     "`reflect_101`, `reflect_1001`, `wrap`, `clamp`, `constant`.",
		                     b);
	const char *m = dalic_arg_string(ctx, "mode");
	if (strcmp(m, "same") && strcmp(m, "valid"))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Unknown filter mode: `%s`. Supported modes are: `same` and "
		                     "`valid`.",
		                     m);
	s->valid = !strcmp(m, "valid");
	return DALIC_OK;
}

static bool filter_type_ok(dalic_dtype_t t)
{
	return t == DALIC_UINT8 || t == DALIC_INT16 || t == DALIC_UINT16 || t == DALIC_FLOAT;
}

/* The filter of sample i: a 2D float32 array with at least one value. */
static int filter_window(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int64_t fs[2])
{
	const dalic_batch_t *f = ws->inputs[1];
	if (f->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, i, "The filter must be of float32 type, got %s.",
		                     dalic_dtype_cname(f->dtype));
	if (f->ndim != 2)
		return dalic_op_fail(
		    ctx, ws, i,
		    "The filter for a sample with 2 spatial dimensions must be a 2D "
		    "array (dalic does not implement per-frame filters), got a %dD "
		    "filter.",
		    f->ndim);
	const int64_t *s = dalic_batch_shape(f, i);
	if (s[0] < 1 || s[1] < 1)
		return dalic_op_fail(ctx, ws, i,
		                     "The filter must not be empty, got shape (%lld, %lld).",
		                     (long long)s[0], (long long)s[1]);
	fs[0] = s[0];
	fs[1] = s[1];
	return DALIC_OK;
}

static int filter_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	filter_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (!filter_type_ok(in->dtype))
		return dalic_op_fail(ctx, ws, -1,
		                     "Unsupported input type: %s. The CPU filter supports uint8, "
		                     "int16, uint16 and float32 inputs.",
		                     dalic_dtype_cname(in->dtype));
	dalic_dtype_t ot = in->dtype;
	if (dalic_arg_given(ctx, "dtype")) {
		ot = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
		if (ot != in->dtype && ot != DALIC_FLOAT)
			return dalic_op_fail(
			    ctx, ws, -1,
			    "The output type must be the same as the input type or "
			    "float, got %s for %s input.",
			    dalic_dtype_cname(ot), dalic_dtype_cname(in->dtype));
	}
	if (ws->num_inputs > 2 && ws->inputs[2]->dtype != in->dtype)
		return dalic_op_fail(ctx, ws, -1,
		                     "The fill value must be of the same type as the input: "
		                     "expected %s, got %s.",
		                     dalic_dtype_cname(in->dtype),
		                     dalic_dtype_cname(ws->inputs[2]->dtype));
	int rc = dalic_batch_copy_meta(ws->outputs[0], in);
	if (rc)
		return rc;
	ws->outputs[0]->dtype = ot;
	for (int i = 0; i < ws->batch_size; i++) {
		dalic_conv_geom_t g;
		const int64_t *shape = dalic_batch_shape(in, i);
		if ((rc = dalic_conv_geom(ctx, ws, in->layout, in->ndim, shape, &g)))
			return rc;
		if (g.axes != 2)
			return dalic_op_fail(
			    ctx, ws, i,
			    "Unsupported input data dimensionality. Got input with %d "
			    "spatial dimensions. CPU filter operator supports only "
			    "2-dimensional convolutions. %s",
			    g.axes,
			    g.axes == 3 ? "If you are processing images with channels, "
			                  "please make sure to mark the layout "
			                  "accordingly (`HWC` or `CHW`)."
			                : "");
		int64_t fs[2];
		if ((rc = filter_window(ctx, ws, i, fs)))
			return rc;
		if (st->valid) {
			int64_t out[8];
			memcpy(out, shape, sizeof(int64_t) * (size_t)in->ndim);
			int h = in->ndim - 2 -
			        (g.lanes > 1 || (in->layout[0] && in->layout[in->ndim - 1] == 'C'));
			if (g.ext[0] < fs[0] || g.ext[1] < fs[1])
				return dalic_op_fail(
				    ctx, ws, i,
				    "In \"valid\" mode the filter must not be bigger "
				    "than the sample: filter (%lld, %lld), sample "
				    "(%lld, %lld).",
				    (long long)fs[0], (long long)fs[1], (long long)g.ext[0],
				    (long long)g.ext[1]);
			out[h] = g.ext[0] - fs[0] + 1;
			out[h + 1] = g.ext[1] - fs[1] + 1;
			dalic_batch_set_shape(ws->outputs[0], i, out);
		}
		ws->outputs[0]->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* Index `p` of an axis of n positions under the border rule; -1: the fill value. */
static int64_t filter_border_index(int border, int64_t p, int64_t n)
{
	if (p >= 0 && p < n)
		return p;
	switch (border) {
	case FILTER_CLAMP:
		return p < 0 ? 0 : n - 1;
	case FILTER_WRAP:
		return ((p % n) + n) % n;
	case FILTER_CONSTANT:
		return -1;
	case FILTER_REFLECT_1001:
		if (n == 1)
			return 0;
		for (;;) { /* filters wider than the sample reflect again */
			if (p < 0)
				p = -p - 1;
			else if (p >= n)
				p = 2 * n - 1 - p;
			else
				return p;
		}
	default: /* reflect_101 */
		if (n == 1)
			return 0;
		for (;;) {
			if (p < 0)
				p = -p;
			else if (p >= n)
				p = 2 * n - 2 - p;
			else
				return p;
		}
	}
}

/* The anchor of sample i: (row, column), -1 for the middle. */
static int filter_anchor(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const int64_t fs[2],
                         int64_t a[2])
{
	double v[3];
	int n;
	int rc = dalic_arg_floats_at(ctx, ws, "anchor", i, v, 3, &n);
	if (rc)
		return rc;
	if (n == 1)
		v[1] = v[0];
	else if (n != 2)
		return dalic_op_fail(ctx, ws, i,
		                     "The anchor must be a 2D point (or -1), got %d values.", n);
	for (int d = 0; d < 2; d++)
		if (!(v[d] >= -1 && v[d] < (double)fs[d]))
			return dalic_op_fail(
			    ctx, ws, i,
			    "Anchor must lie within the filter. Got anchor %g, %g with "
			    "a filter of shape {%lld, %lld} for sample of idx %d.",
			    v[0], v[1], (long long)fs[0], (long long)fs[1], i);
	a[0] = v[0] < 0 ? fs[0] / 2 : (int64_t)v[0];
	a[1] = v[1] < 0 ? fs[1] / 2 : (int64_t)v[1];
	return DALIC_OK;
}

static void filter_store(dalic_dtype_t t, void *out, int64_t k, float v)
{
	long r;
	switch (t) {
	case DALIC_UINT8:
		r = lrintf(v); /* cvRound */
		((uint8_t *)out)[k] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
		break;
	case DALIC_INT16:
		r = lrintf(v);
		((int16_t *)out)[k] = (int16_t)(r < -32768 ? -32768 : r > 32767 ? 32767 : r);
		break;
	case DALIC_UINT16:
		r = lrintf(v);
		((uint16_t *)out)[k] = (uint16_t)(r < 0 ? 0 : r > 65535 ? 65535 : r);
		break;
	default:
		((float *)out)[k] = v;
	}
}

static float filter_load(dalic_dtype_t t, const void *in, int64_t k)
{
	switch (t) {
	case DALIC_UINT8:
		return ((const uint8_t *)in)[k];
	case DALIC_INT16:
		return ((const int16_t *)in)[k];
	case DALIC_UINT16:
		return ((const uint16_t *)in)[k];
	default:
		return ((const float *)in)[k];
	}
}

/* Where OpenCV's vector loop over a row of n values stops (its AVX2 build, which DALI's
 * OpenCV runs): uint8 rows go by 32, then 16, then 4 values, float rows by 32, 16, 8; the
 * values past that take its scalar loop. */
static int64_t filter_vector_end(dalic_dtype_t in, int64_t n)
{
	int64_t i = n / 32 * 32;
	if (n - i >= 16)
		i += 16;
	if (in == DALIC_UINT8)
		i += (n - i) / 4 * 4;
	else if (n - i >= 8)
		i += 8;
	return i;
}

/* How many values of a row of n multiply and add in one step (fused, as OpenCV's vector
 * loops and its int16 / uint16 loops do); the rest take a product and a sum each (the
 * scalar tail of the uint8 and float loops, and float output of integer input).
 * Measured against DALI 2.4 (tests/dali/cases/filter_photos.py). */
static int64_t filter_fused_end(dalic_dtype_t in, dalic_dtype_t out, int64_t n)
{
	if (in == DALIC_INT16 || in == DALIC_UINT16)
		return out == DALIC_FLOAT ? 0 : n;
	if (in == DALIC_UINT8 && out == DALIC_FLOAT)
		return 0;
	return filter_vector_end(in, n);
}

static int filter_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	filter_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	dalic_conv_geom_t g;
	int64_t fs[2], a[2] = {0, 0};
	int rc = dalic_conv_geom(ctx, ws, in->layout, in->ndim, dalic_batch_shape(in, i), &g);
	if (!rc)
		rc = filter_window(ctx, ws, i, fs);
	if (!rc && !st->valid)
		rc = filter_anchor(ctx, ws, i, fs, a);
	if (rc)
		return rc;
	float fill = 0;
	if (ws->num_inputs > 2 && st->border == FILTER_CONSTANT) {
		const dalic_batch_t *fv = ws->inputs[2];
		if (dalic_batch_sample_elems(fv, i) < 1)
			return dalic_op_fail(ctx, ws, i,
			                     "The fill value must be a scalar, got an empty "
			                     "sample.");
		fill = filter_load(in->dtype, fv->ptrs[i], 0);
	}
	/* the non-zero filter values in row order, as OpenCV keeps them */
	const float *k = ws->inputs[1]->ptrs[i];
	int64_t nk = fs[0] * fs[1], nz = 0;
	float kv[nk];
	int64_t kr[nk], kc[nk];
	for (int64_t r = 0; r < fs[0]; r++)
		for (int64_t c = 0; c < fs[1]; c++)
			if (k[r * fs[1] + c] != 0) {
				kv[nz] = k[r * fs[1] + c];
				kr[nz] = r;
				kc[nz++] = c;
			}
	int64_t H = g.ext[0], W = g.ext[1], L = g.lanes;
	int64_t oh = st->valid ? H - fs[0] + 1 : H, ow = st->valid ? W - fs[1] + 1 : W;
	const void *src = in->ptrs[i];
	void *dst = out->ptrs[i];
	int64_t fused_end = filter_fused_end(in->dtype, out->dtype, ow * L);
	for (int64_t b = 0; b < g.nseq; b++) {
		int64_t ib = b * H * W * L, ob = b * oh * ow * L;
		for (int64_t y = 0; y < oh; y++)
			for (int64_t x = 0; x < ow; x++)
				for (int64_t l = 0; l < L; l++) {
					bool fused = x * L + l < fused_end;
					float s = 0;
					for (int64_t j = 0; j < nz; j++) {
						int64_t yy = filter_border_index(
						    st->border, y - a[0] + kr[j], H);
						int64_t xx = filter_border_index(
						    st->border, x - a[1] + kc[j], W);
						float v =
						    yy < 0 || xx < 0
						        ? fill
						        : filter_load(in->dtype, src,
						                      ib + (yy * W + xx) * L + l);
						s = fused ? fmaf(kv[j], v, s) : s + kv[j] * v;
					}
					filter_store(out->dtype, dst, ob + (y * ow + x) * L + l, s);
				}
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"anchor", DALIC_ARG_INT_LIST, "[-1]",
     "Position of the filter over the input: (row, column) within the filter; -1, the "
     "middle. Ignored in \"valid\" mode.",
     .tensor = true},
    {"border", DALIC_ARG_STRING, "'reflect_101'",
     "Out-of-bound positions: reflect_101, reflect_1001, wrap, clamp, constant."},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type: the input's type (default) or FLOAT."},
    {"mode", DALIC_ARG_STRING, "'same'",
     "\"same\": the output has the input's size; \"valid\": only positions the whole filter "
     "covers."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(filter_state_t),
    .init = filter_init,
    .setup = filter_setup,
    .run_sample = filter_run_sample,
};

DALIC_OPERATOR(Filter) = {
    .name = "Filter",
    .fn = "filter",
    .aliases = {"experimental__Filter", "experimental.filter"},
    .doc = "Correlates images and videos with a per-sample 2D filter (OpenCV's filter2D).",
    .min_inputs = 2,
    .max_inputs = 3,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
