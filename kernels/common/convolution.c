/* Separable convolution as DALI's CPU kernels compute it (see convolution.h). */
#include "kernels/common/convolution.h"

#include "engine/checked.h"
#include "engine/dtype.h"
#include "kernels/common/sat_cast.h"

#include <math.h>
#include <string.h>

/* Each product and sum rounds to float on its own, as in DALI. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

/* ---- layout and arguments ------------------------------------------------------------------ */

int dalic_conv_axes(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *layout, int ndim,
                    int *axes)
{
	if (!layout[0]) {
		if (ndim > 3)
			return dalic_op_fail(ctx, ws, -1,
			                     "Input data with empty layout cannot have "
			                     "more than 3 dimensions, got input with %d "
			                     "dimensions.",
			                     ndim);
		*axes = ndim;
		return ndim ? DALIC_OK
		            : dalic_op_fail(ctx, ws, -1, "Axis count out of supported range.");
	}
	int n = (int)strlen(layout), start = 0;
	bool last = n && layout[n - 1] == 'C';
	while (start < n - last && (layout[start] == 'C' || layout[start] == 'F'))
		start++;
	for (int d = start; d < n - last; d++) {
		if (layout[d] == 'C')
			return dalic_op_fail(ctx, ws, -1,
			                     "Only channel-first or channel-last layouts "
			                     "are supported, got: %s.",
			                     layout);
		if (layout[d] == 'F')
			return dalic_op_fail(ctx, ws, -1,
			                     "For sequences, layout should begin with 'F' "
			                     "or 'CF', got: %s.",
			                     layout);
	}
	if (start > 2)
		return dalic_op_fail(ctx, ws, -1,
		                     "Found more the one occurrence of 'F' or 'C' axes "
		                     "in layout: %s.",
		                     layout);
	*axes = n - start - last;
	if (*axes > 3)
		return dalic_op_fail(ctx, ws, -1,
		                     "Too many dimensions, found: %d data axes, maximum "
		                     "supported is: 3.",
		                     *axes);
	if (*axes < 1)
		return dalic_op_fail(ctx, ws, -1, "Axis count out of supported range.");
	return DALIC_OK;
}

int dalic_conv_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, bool allow_f64)
{
	const dalic_batch_t *in = ws->inputs[0];
	if (!dalic_dtype_is_numeric(in->dtype) || in->dtype == DALIC_BOOL ||
	    (!allow_f64 && in->dtype == DALIC_FLOAT64))
		return dalic_op_fail(ctx, ws, -1, "Unsupported data type: %s",
		                     dalic_dtype_cname(in->dtype));
	dalic_dtype_t ot = in->dtype;
	if (dalic_arg_given(ctx, "dtype")) {
		ot = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
		if (ot != in->dtype && ot != DALIC_FLOAT)
			return dalic_op_fail(ctx, ws, -1,
			                     "Output data type must be same as input, "
			                     "FLOAT or skipped (defaults to input type)");
	}
	int axes;
	int rc = dalic_conv_axes(ctx, ws, in->layout, in->ndim, &axes);
	if (!rc)
		rc = dalic_batch_copy_meta(ws->outputs[0], in);
	if (rc)
		return rc;
	ws->outputs[0]->dtype = ot;
	for (int i = 0; i < ws->batch_size; i++)
		ws->outputs[0]->sources[i] = in->sources[i];
	return DALIC_OK;
}

int dalic_conv_geom(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *layout, int ndim,
                    const int64_t *shape, dalic_conv_geom_t *g)
{
	int axes;
	int rc = dalic_conv_axes(ctx, ws, layout, ndim, &axes);
	if (rc)
		return rc;
	bool last = layout[0] && layout[ndim - 1] == 'C';
	int start = ndim - axes - last;
	g->axes = axes;
	g->nseq = 1;
	for (int d = 0; d < start; d++)
		g->nseq *= shape[d];
	for (int a = 0; a < axes; a++)
		g->ext[a] = shape[start + a];
	g->lanes = last ? shape[ndim - 1] : 1;
	return DALIC_OK;
}

int dalic_conv_axis_arg(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name, int i,
                        int axes, double *out)
{
	const dalic_batch_t *a = dalic_arg_input(ws, name);
	if (a) {
		if (i >= a->num_samples || a->ndim != 1)
			return dalic_op_fail(ctx, ws, i,
			                     "Argument %s for sample %d is expected to be "
			                     "1D, got: %d.",
			                     name, i, i < a->num_samples ? a->ndim : 0);
		int64_t n = dalic_batch_shape(a, i)[0];
		if (n != 1 && n != axes)
			return dalic_op_fail(ctx, ws, i,
			                     "Argument %s for sample %d is expected to have "
			                     "shape equal to {1} or {%d}, got: {%lld}.",
			                     name, i, axes, (long long)n);
		for (int k = 0; k < axes; k++)
			out[k] = dalic_dtype_load_f64(a->dtype, a->ptrs[i], n == 1 ? 0 : k);
		return DALIC_OK;
	}
	const dalic_value_t *v = dalic_arg(ctx, name);
	if (v->n != 1 && v->n != axes)
		return dalic_op_fail(ctx, ws, i,
		                     "Argument \"%s\" expects either a single value or a "
		                     "list of %d elements. %d given.",
		                     name, axes, v->n);
	for (int k = 0; k < axes; k++)
		out[k] = dalic_value_get_f(v, v->n == 1 ? 0 : k);
	return DALIC_OK;
}

void dalic_conv_gaussian_window(float sigma, int size, float *w)
{
	int r = (size - 1) / 2;
	float exp_scale = 0.5f / (sigma * sigma), sum = 0.0f;
	for (int x = -r; x < 0; x++) {
		w[x + r] = (float)exp(-(x * x * exp_scale)); /* double exp of the float argument */
		sum += w[x + r];
	}
	sum = (float)(sum * 2.0);
	sum = (float)(sum + 1.0);
	float scale = 1.0f / sum;
	w[r] = scale;
	for (int x = 0; x < r; x++) {
		w[x] *= scale;
		w[2 * r - x] = w[x];
	}
}

void dalic_conv_smoothing_window(int size, float *w)
{
	w[0] = 1;
	for (int n = 2; n <= size; n++) { /* row n of Pascal's triangle from row n - 1, in place */
		float prev = w[0];
		for (int j = 1; j < n - 1; j++) {
			float v = w[j];
			w[j] = prev + w[j];
			prev = v;
		}
		w[n - 1] = prev;
	}
}

void dalic_conv_derivative_window(int size, float *w)
{
	dalic_conv_smoothing_window(size - 2, w);
	for (int n = size - 1; n <= size; n++) { /* difference (x[j - 1] - x[j]) twice, in place */
		float prev = w[0];
		w[0] = -prev;
		for (int j = 1; j < n - 1; j++) {
			float v = w[j];
			w[j] = prev - w[j];
			prev = v;
		}
		w[n - 1] = prev;
	}
}

/* ---- the passes ------------------------------------------------------------------------------ */

/* DALI's idx_reflect_101: mirror without repeating the edge, as often as needed. */
static int64_t conv_reflect(int64_t i, int64_t n)
{
	if (n < 2)
		return 0;
	int64_t period = 2 * (n - 1);
	i %= period;
	if (i < 0)
		i += period;
	return i < n ? i : period - i;
}

/* The element type of a pass's source: float, or double for float64 inputs (DALI's products
 * and sums in double, each sum rounded to float). */
typedef struct conv_src {
	const float *f;
	const double *d;
} conv_src_t;

/* dst += w * x, in float, or with `dbl` in double rounded back to float. */
#define CONV_ACC(dst, w, x, dbl)                                                                   \
	((dst) = (dbl) ? (float)((double)(dst) + (double)(w) * (x)) : (dst) + (w) * (float)(x))

/* float16 inputs: DALI's intermediate type is float16 itself, so products are rounded to half
 * before they are added, and the passes' outputs are stored as half. */
static float conv_half(float v)
{
	return dalic_dtype_half_to_float(dalic_sat_f2half(v));
}

/* One line of n positions of L lanes: dst[x][l] = sum_k w[k] * src[reflect(x + k - r)][l]. */
static void conv_line(conv_src_t src, float *dst, int64_t n, int64_t L, const float *w, int d,
                      bool half)
{
	int r = d / 2;
	memset(dst, 0, sizeof(float) * (size_t)(n * L));
	for (int k = 0; k < d; k++) {
		int64_t off = k - r, lo = off < 0 ? -off : 0, hi = off > 0 ? n - off : n;
		float wk = w[k];
		if (lo > n)
			lo = n;
		if (hi < lo)
			hi = lo;
		const int64_t so = off * L;
		if (src.d) /* the inside, one flat run */
			for (int64_t j = lo * L; j < hi * L; j++)
				CONV_ACC(dst[j], wk, src.d[j + so], 1);
		else if (half)
			for (int64_t j = lo * L; j < hi * L; j++)
				dst[j] += conv_half(wk * src.f[j + so]);
		else
			for (int64_t j = lo * L; j < hi * L; j++)
				dst[j] += wk * src.f[j + so];
		for (int64_t x = 0; x < n; x++) { /* the borders, reflected */
			if (x == lo)
				x = hi;
			if (x >= n)
				break;
			int64_t xi = conv_reflect(x + off, n);
			for (int64_t l = 0; l < L; l++) {
				if (src.d)
					CONV_ACC(dst[x * L + l], wk, src.d[xi * L + l], 1);
				else if (half)
					dst[x * L + l] += conv_half(wk * src.f[xi * L + l]);
				else
					dst[x * L + l] += wk * src.f[xi * L + l];
			}
		}
	}
}

/* Row y of an axis of n rows of s values: row[l] = sum_k w[k] * src[reflect(y + k - r)][l]
 * (with `dbl`, DALI's double intermediate: float values, double products and sums). */
static void conv_row(const float *src, float *row, int64_t y, int64_t n, int64_t s, const float *w,
                     int d, bool dbl, bool half)
{
	int r = d / 2;
	memset(row, 0, sizeof(float) * (size_t)s);
	for (int k = 0; k < d; k++) {
		const float *p = src + conv_reflect(y + k - r, n) * s;
		float wk = w[k];
		if (dbl)
			for (int64_t l = 0; l < s; l++)
				CONV_ACC(row[l], wk, p[l], 1);
		else if (half)
			for (int64_t l = 0; l < s; l++)
				row[l] += conv_half(wk * p[l]);
		else
			for (int64_t l = 0; l < s; l++)
				row[l] += wk * p[l];
	}
}

/* Typed input elements [at, at + n) as floats (or doubles). */
static void conv_load(dalic_dtype_t t, const void *in, int64_t at, int64_t n, float *f, double *d)
{
	if (t == DALIC_FLOAT64)
		memcpy(d, (const double *)in + at, sizeof(double) * (size_t)n);
	else
		dalic_sat_load_n(t, in, at, n, f);
}

/* The last pass's values v[0..n) (overwritten) for elements [at, at + n) of the sink. */
static void conv_sink(const dalic_conv_sink_t *s, int64_t at, float *v, int64_t n)
{
	const float *add = s->add ? s->add + at : NULL;
	const float sc = s->scale;
	if (add)
		for (int64_t k = 0; k < n; k++)
			v[k] = add[k] + v[k] * sc;
	else
		for (int64_t k = 0; k < n; k++)
			v[k] = v[k] * sc;
	if (s->half)
		for (int64_t k = 0; k < n; k++)
			v[k] = conv_half(v[k]);
	dalic_sat_store_n(s->type, s->data, at, v, n);
}

/* The scratch layout: intermediate volumes, the input line as floats and as doubles, the
 * last pass's line or row; every part an even number of floats so the doubles align. */
typedef struct conv_scratch {
	int64_t vol, line, t1, t2, lbuf, dline, out, total;
} conv_scratch_t;

static conv_scratch_t conv_scratch_layout(const dalic_conv_geom_t *g)
{
	conv_scratch_t c;
	c.vol = g->lanes;
	for (int a = 0; a < g->axes; a++)
		c.vol *= g->ext[a];
	c.line = g->ext[g->axes - 1] * g->lanes;
	int64_t row = c.vol / (g->ext[0] ? g->ext[0] : 1);
	int64_t ev = c.vol + (c.vol & 1), el = c.line + (c.line & 1);
	c.t1 = 0;
	c.t2 = g->axes > 1 ? ev : 0;
	c.lbuf = c.t2 + (g->axes > 2 ? ev : 0);
	c.dline = c.lbuf + el;
	c.out = c.dline + 2 * el;
	c.total = c.out + (row > c.line ? row : c.line) + 1;
	return c;
}

int64_t dalic_conv_scratch_floats(const dalic_conv_geom_t *g)
{
	return conv_scratch_layout(g).total;
}

size_t dalic_conv_scratch_bytes(const dalic_conv_geom_t *g, int64_t extra)
{
	/* the layout's terms are each below the sample's volume times 3 */
	int64_t vol = g->lanes, floats;
	size_t bytes;
	for (int a = 0; a < g->axes; a++)
		if (!dalic_ck_mul_i64(vol, g->ext[a], &vol))
			return 0;
	if (!dalic_ck_mul_i64(vol, 8, &floats) || !dalic_ck_add_i64(floats, extra, &floats) ||
	    !dalic_ck_mul_size((size_t)floats, sizeof(float), &bytes))
		return 0;
	return sizeof(float) * (size_t)(conv_scratch_layout(g).total + extra);
}

void dalic_conv_separable(const dalic_conv_geom_t *g, dalic_dtype_t it, const void *in,
                          const float *const *win, const int *wsize, const dalic_conv_sink_t *sink,
                          float *tmp)
{
	const int A = g->axes;
	const int64_t L = g->lanes, n_in = g->ext[A - 1];
	const conv_scratch_t c = conv_scratch_layout(g);
	const int64_t line = c.line, block = c.vol; /* block: elements per sequence block */
	int64_t lines = g->nseq;
	for (int a = 0; a < A - 1; a++)
		lines *= g->ext[a];
	float *t1 = tmp + c.t1, *t2 = tmp + c.t2, *lbuf = tmp + c.lbuf, *out_line = tmp + c.out;
	double *dline = (double *)(void *)(tmp + c.dline);
	bool dbl = it == DALIC_FLOAT64, half = it == DALIC_FLOAT16;
	for (int64_t b = 0; b < g->nseq; b++) {
		/* innermost axis: input lines -> t1 (or the sink when it is the only axis) */
		int64_t nl = lines / g->nseq;
		for (int64_t li = 0; li < nl; li++) {
			int64_t at = (b * nl + li) * line;
			conv_load(it, in, at, line, lbuf, dline);
			conv_src_t src = {dbl ? NULL : lbuf, dbl ? dline : NULL};
			float *dst = A > 1 ? t1 + li * line : out_line;
			conv_line(src, dst, n_in, L, win[A - 1], wsize[A - 1], half);
			if (A == 1)
				conv_sink(sink, at, dst, line);
			else if (half)
				for (int64_t k = 0; k < line; k++)
					dst[k] = conv_half(dst[k]);
		}
		if (A == 1)
			continue;
		/* outer axes, innermost first: the middle one t1 -> t2, the outermost to the sink
		 */
		const float *cur = t1;
		for (int a = A - 2; a >= 0; a--) {
			int64_t n = g->ext[a], s = L, outer = 1;
			for (int k = a + 1; k < A; k++)
				s *= g->ext[k];
			for (int k = 0; k < a; k++)
				outer *= g->ext[k];
			for (int64_t o = 0; o < outer; o++)
				for (int64_t y = 0; y < n; y++) {
					float *row = a ? t2 + (o * n + y) * s : out_line;
					conv_row(cur + o * n * s, row, y, n, s, win[a], wsize[a],
					         dbl, half);
					if (!a)
						conv_sink(sink, b * block + (o * n + y) * s, row,
						          s);
					else if (half)
						for (int64_t k = 0; k < s; k++)
							row[k] = conv_half(row[k]);
				}
			cur = t2;
		}
	}
}
