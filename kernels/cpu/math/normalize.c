/*
 * normalize (DALI's Normalize): out = (in - mean) * scale / stddev + shift, converted to
 * `dtype` (FLOAT by default; integers round half away from zero and saturate).
 *
 * mean and stddev are given (scalars, or per-sample tensors whose extents are 1 along the
 * reduced axes) or computed over `axes` / `axis_names` (all axes by default): per sample, or
 * across the batch with `batch` (non-reduced extents must then agree). The arithmetic is
 * DALI's: the mean is a pairwise float sum times 1/n (kernels/common/reduce.c); the inverse
 * deviation is scale / sqrt(sum((x - mean)^2) / (n - ddof) + epsilon) computed with the SSE
 * reciprocal square root estimate and one Newton step, four values at a time and DALI's scalar
 * formula for the rest, so results match DALI's bit for bit on the same x86 CPU (the estimate
 * differs between CPU vendors; elsewhere 1 / sqrt is used). A zero variance without epsilon
 * gives a factor of 0, so the output is `shift`. Batch statistics add the per-sample sums
 * pairwise across samples, as DALI does. The per-element value and the inverse deviation are
 * kernels/common/normalize_px.h's, shared with the CUDA kernel (kernels/cuda/normalize.cuh).
 *
 * Inputs and outputs: int8, uint8, int16, uint16, int32, uint32 or float.
 */
#include "engine/checked.h"
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/img_scratch.h"
#include "kernels/common/normalize_op.h"
#include "kernels/common/normalize_px.h"
#include "kernels/common/thread_scratch.h"
#include "kernels/common/reduce.h"
#include "kernels/common/sat_cast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

typedef struct normalize {
	bool batch;
	float scale, shift, epsilon;
	int ddof;
	dalic_dtype_t out_type;
	/* per iteration (setup): */
	bool tensor_mean, tensor_stddev, calc_mean, calc_stddev;
	uint64_t mask; /* reduced axes */
	/* batch mode: the statistics of the whole batch, computed in setup */
	img_scratch_t batch_stats;
	int64_t nparams;
	dalic_thread_scratch_t scratch; /* per worker: one sample's mean and inverse deviation */
} normalize_t;

static void normalize_fini(dalic_op_ctx_t *ctx);

static int normalize_init(dalic_op_ctx_t *ctx)
{
	normalize_t *s = ctx->state;
	s->batch = dalic_arg_bool(ctx, "batch");
	s->scale = (float)dalic_arg_float(ctx, "scale");
	s->shift = (float)dalic_arg_float(ctx, "shift");
	s->epsilon = (float)dalic_arg_float(ctx, "epsilon");
	s->ddof = (int)dalic_arg_int(ctx, "ddof");
	s->out_type = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (dalic_arg_given(ctx, "axes") && dalic_arg_given(ctx, "axis_names"))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Normalize: Arguments `axes` and `axis_names` "
		                     "are mutually exclusive");
	return dalic_thread_scratch_init(ctx, &s->scratch);
}

static bool normalize_type_ok(dalic_dtype_t t)
{
	return t == DALIC_INT8 || t == DALIC_UINT8 || t == DALIC_INT16 || t == DALIC_UINT16 ||
	       t == DALIC_INT32 || t == DALIC_UINT32 || t == DALIC_FLOAT;
}

/* ---- the reduced axes and the parameters' shape ---------------------------------------- */

static int normalize_axes(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_batch_t *in)
{
	normalize_t *s = ctx->state;
	int nd = in->ndim;
	bool has_axes = dalic_arg_given(ctx, "axes"),
	     has_names = dalic_arg_given(ctx, "axis_names");
	bool scalar_mean = dalic_arg_given(ctx, "mean") && !s->tensor_mean;
	bool scalar_stddev = dalic_arg_given(ctx, "stddev") && !s->tensor_stddev;
	s->mask = 0;
	if (scalar_mean && scalar_stddev) {
		if (has_axes || has_names)
			return dalic_op_fail(ctx, ws, -1,
			                     "Normalize: Axes must not be specified when "
			                     "both mean and standard deviation are "
			                     "scalars");
		s->mask = nd >= 64 ? ~0ull : (1ull << nd) - 1;
		return DALIC_OK;
	}
	if (has_axes) {
		const dalic_value_t *v = dalic_arg(ctx, "axes");
		if (!v->n)
			return dalic_op_fail(ctx, ws, -1,
			                     "Normalize `axes` argument must specify at "
			                     "least one reduction axis.");
		for (int k = 0; k < v->n; k++) {
			int64_t a = dalic_value_get_i(v, k);
			if (a < 0 || a >= nd)
				return dalic_op_fail(ctx, ws, -1,
				                     "Normalize: axis index %lld is out of "
				                     "valid range 0..%d",
				                     (long long)a, nd - 1);
			if (s->mask & (1ull << a)) /* DALI computes garbage here; refuse it */
				return dalic_op_fail(ctx, ws, -1,
				                     "Normalize: axis %lld is listed twice",
				                     (long long)a);
			s->mask |= 1ull << a;
		}
	} else if (has_names) {
		int rc = dalic_reduce_axes(ctx, ws, in->layout, nd, &s->mask);
		if (rc)
			return rc;
	} else if (s->tensor_mean || s->tensor_stddev) {
		/* the axes where every sample's parameter has extent 1 */
		const dalic_batch_t *p = dalic_arg_input(ws, s->tensor_mean ? "mean" : "stddev");
		if (p->ndim != nd)
			return dalic_op_fail(ctx, ws, -1,
			                     "Normalize: the parameters have %d dims; "
			                     "the input has %d",
			                     p->ndim, nd);
		for (int d = 0; d < nd; d++) {
			bool one = true;
			for (int i = 0; i < p->num_samples; i++)
				one &= dalic_batch_shape(p, i)[d] == 1;
			if (one)
				s->mask |= 1ull << d;
		}
	} else {
		s->mask = nd >= 64 ? ~0ull : (1ull << nd) - 1;
	}
	return DALIC_OK;
}

/* The parameter shape of sample i: its shape with the reduced extents set to 1. */
static void normalize_param_shape(const normalize_t *s, const int64_t *shape, int nd, int64_t *ps)
{
	for (int d = 0; d < nd; d++)
		ps[d] = s->mask & (1ull << d) ? 1 : shape[d];
}

/* Tensor parameters must have exactly the reduced shape of their sample. */
static int normalize_check_params(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const normalize_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const char *names[2] = {"mean", "stddev"};
	bool given[2] = {s->tensor_mean, s->tensor_stddev};
	for (int k = 0; k < 2; k++) {
		if (!given[k])
			continue;
		const dalic_batch_t *p = dalic_arg_input(ws, names[k]);
		if (p->dtype != DALIC_FLOAT)
			return dalic_op_fail(ctx, ws, -1, "Normalize: `%s` must be float, not %s",
			                     names[k], dalic_dtype_cname(p->dtype));
		for (int i = 0; i < ws->batch_size; i++) {
			int64_t want[DALIC_MAX_NDIM];
			normalize_param_shape(s, dalic_batch_shape(in, i), in->ndim, want);
			bool ok = i < p->num_samples && p->ndim == in->ndim;
			for (int d = 0; ok && d < in->ndim; d++)
				ok = dalic_batch_shape(p, i)[d] == want[d];
			if (!ok) {
				char a[128] = "{}", b[128];
				if (i < p->num_samples)
					dalic_batch_format_shape(dalic_batch_shape(p, i), p->ndim,
					                         "{}", a, sizeof a);
				dalic_batch_format_shape(want, in->ndim, "{}", b, sizeof b);
				return dalic_op_fail(ctx, ws, i,
				                     "Normalize: At sample %d: parameter "
				                     "shape: %s does not match the reduced "
				                     "input sample shape which is : %s",
				                     i, a, b);
			}
		}
	}
	return DALIC_OK;
}

/* ---- the inverse deviation, as DALI computes it (kernels/common/normalize_px.h) ---------- */

/* Sums of squared deviations over v values -> inverse deviations (DALI's
 * SumSquare2InvStdDev / FoldStdDev). */
static void normalize_fold_stddev(const normalize_t *s, float *sq, int64_t n, int64_t v)
{
	float rdiv, mul;
	dalic_norm_fold_coeffs(v, s->ddof, s->epsilon, s->scale, &rdiv, &mul);
	for (int64_t k = 0; k < n; k++)
		sq[k] = dalic_norm_fold(sq[k], k, n, s->epsilon, rdiv, mul);
}

/* A given standard deviation -> its inverse times scale (DALI's CalcInvStdDev). */
static float normalize_inv_given(const normalize_t *s, float sd)
{
	return dalic_norm_inv_given(sd, s->epsilon, s->scale);
}

/* ---- per-sample parameters ---------------------------------------------------------------- */

/* mean[] and inv[] (n values each, the sample's parameter shape) for sample i. Batch mode
 * copies the batch statistics. */
static int normalize_sample_params(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float *mean,
                                   float *inv, int64_t n)
{
	normalize_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const int64_t *shape = dalic_batch_shape(in, i);
	if (s->batch && (s->calc_mean || s->calc_stddev)) {
		const float *st = (const float *)s->batch_stats.p;
		memcpy(mean, st, sizeof(float) * (size_t)n);
		memcpy(inv, st + n, sizeof(float) * (size_t)n);
		return DALIC_OK;
	}
	if (s->tensor_mean)
		memcpy(mean, dalic_arg_input(ws, "mean")->ptrs[i], sizeof(float) * (size_t)n);
	else if (!s->calc_mean)
		for (int64_t k = 0; k < n; k++)
			mean[k] = (float)dalic_arg_float(ctx, "mean");
	else {
		dalic_reduce_run(DALIC_REDUCE_SUM, in->dtype, in->ptrs[i], shape, in->ndim, s->mask,
		                 DALIC_FLOAT, mean, NULL);
		int64_t v = dalic_reduce_volume(shape, in->ndim, s->mask);
		dalic_reduce_scale(DALIC_FLOAT, mean, n, (float)(1.0 / (double)v), false);
	}
	if (s->tensor_stddev) {
		const float *sd = dalic_arg_input(ws, "stddev")->ptrs[i];
		for (int64_t k = 0; k < n; k++)
			inv[k] = normalize_inv_given(s, sd[k]);
	} else if (!s->calc_stddev) {
		float v = normalize_inv_given(s, (float)dalic_arg_float(ctx, "stddev"));
		for (int64_t k = 0; k < n; k++)
			inv[k] = v;
	} else {
		dalic_reduce_run(DALIC_REDUCE_VARIANCE, in->dtype, in->ptrs[i], shape, in->ndim,
		                 s->mask, DALIC_FLOAT, inv, mean);
		normalize_fold_stddev(s, inv, n, dalic_reduce_volume(shape, in->ndim, s->mask));
	}
	return DALIC_OK;
}

/* DALI's SumArrays: a[0] += a[mid] after summing each half the same way. */
static void normalize_sum_arrays(float **a, int n, int64_t len)
{
	if (n < 2)
		return;
	int mid = n >> 1;
	if (mid > 1)
		normalize_sum_arrays(a, mid, len);
	if (n - mid > 1)
		normalize_sum_arrays(a + mid, n - mid, len);
	for (int64_t k = 0; k < len; k++)
		a[0][k] += a[mid][k];
}

/* Batch mode: the mean and inverse deviation of the whole batch into s->batch_stats (mean
 * then inverse, nparams each), the per-sample sums folded pairwise as DALI's SumSamples. */
static int normalize_batch_stats(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	normalize_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	int n = ws->batch_size;
	int64_t np = s->nparams;
	size_t bytes;
	if (!dalic_ck_mul_size(sizeof(float) * (size_t)np, (size_t)n + 2, &bytes))
		return dalic_op_fail(ctx, ws, -1, "batch statistics too large");
	float *st = dalic_img_scratch_get(&s->batch_stats, bytes);
	if (!st)
		return dalic_op_fail(ctx, ws, -1, "batch statistics: %s", dalic_last_error());
	float *mean = st, *inv = st + np;
	float **part = malloc(sizeof *part * (size_t)(n ? n : 1));
	if (!part)
		return dalic_op_fail(ctx, ws, -1, "out of memory");
	int64_t v = 0;
	for (int i = 0; i < n; i++) {
		part[i] = st + np * (2 + i);
		v += dalic_reduce_volume(dalic_batch_shape(in, i), in->ndim, s->mask);
	}
	if (s->calc_mean) {
		for (int i = 0; i < n; i++)
			dalic_reduce_run(DALIC_REDUCE_SUM, in->dtype, in->ptrs[i],
			                 dalic_batch_shape(in, i), in->ndim, s->mask, DALIC_FLOAT,
			                 part[i], NULL);
		if (n)
			normalize_sum_arrays(part, n, np);
		float den = v ? (float)(1.0 / (double)v) : 1.0f;
		for (int64_t k = 0; k < np; k++)
			mean[k] = n ? (v ? part[0][k] * den : part[0][k]) : 0;
	} else {
		for (int64_t k = 0; k < np; k++)
			mean[k] = (float)dalic_arg_float(ctx, "mean");
	}
	if (s->calc_stddev) {
		for (int i = 0; i < n; i++)
			dalic_reduce_run(DALIC_REDUCE_VARIANCE, in->dtype, in->ptrs[i],
			                 dalic_batch_shape(in, i), in->ndim, s->mask, DALIC_FLOAT,
			                 part[i], mean);
		if (n)
			normalize_sum_arrays(part, n, np);
		for (int64_t k = 0; k < np; k++)
			inv[k] = n ? part[0][k] : 0;
		if (v)
			normalize_fold_stddev(s, inv, np, v);
	} else {
		float iv = normalize_inv_given(s, (float)dalic_arg_float(ctx, "stddev"));
		for (int64_t k = 0; k < np; k++)
			inv[k] = iv;
	}
	free(part);
	return DALIC_OK;
}

static int normalize_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	normalize_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (!normalize_type_ok(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "Normalize: unsupported input type: %s",
		                     dalic_dtype_cname(in->dtype));
	if (!normalize_type_ok(s->out_type))
		return dalic_op_fail(ctx, ws, -1, "Normalize: unsupported output type: %s",
		                     dalic_dtype_cname(s->out_type));
	s->tensor_mean = dalic_arg_input(ws, "mean") != NULL;
	s->tensor_stddev = dalic_arg_input(ws, "stddev") != NULL;
	s->calc_mean = !s->tensor_mean && !dalic_arg_given(ctx, "mean");
	s->calc_stddev = !s->tensor_stddev && !dalic_arg_given(ctx, "stddev");
	if (s->batch && (s->tensor_mean || s->tensor_stddev))
		return dalic_op_fail(ctx, ws, -1,
		                     "Normalize: Batch normalization cannot be used "
		                     "with parameters specified as TensorList inputs");
	int rc = normalize_axes(ctx, ws, in);
	if (!rc)
		rc = normalize_check_params(ctx, ws);
	if (rc)
		return rc;
	dalic_batch_t *out = ws->outputs[0];
	if ((rc = dalic_batch_copy_meta(out, in)))
		return rc;
	out->dtype = s->out_type;
	for (int i = 0; i < ws->batch_size; i++)
		out->sources[i] = in->sources[i];
	if (!s->batch || !ws->batch_size)
		return DALIC_OK;
	const int64_t *s0 = dalic_batch_shape(in, 0);
	for (int i = 1; i < ws->batch_size; i++)
		for (int d = 0; d < in->ndim; d++)
			if (!(s->mask & (1ull << d)) && dalic_batch_shape(in, i)[d] != s0[d])
				return dalic_op_fail(ctx, ws, i,
				                     "Normalize: Batch normalization requires "
				                     "that non-reduced dimensions have equal "
				                     "extent in all samples in the batch; axis "
				                     "%d has %lld here and %lld in sample 0",
				                     d, (long long)dalic_batch_shape(in, i)[d],
				                     (long long)s0[d]);
	int64_t ps[DALIC_MAX_NDIM];
	normalize_param_shape(s, s0, in->ndim, ps);
	if (!dalic_ck_volume(ps, in->ndim, &s->nparams))
		return dalic_op_fail(ctx, ws, -1, "parameter shape too large");
	/* a dispatched node computes the batch statistics in its kernels (gpu_normalize.c): the
	 * input is in device memory there */
	bool on_device = ctx->device != DALIC_DEV_CPU && !ctx->emulated;
	return (s->calc_mean || s->calc_stddev) && !on_device ? normalize_batch_stats(ctx, ws)
	                                                      : DALIC_OK;
}

void dalic_normalize_op_args(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                             dalic_cu_normalize_args_t *a)
{
	const normalize_t *s = ctx->state;
	memset(a, 0, sizeof *a);
	a->in_type = ws->inputs[0]->dtype;
	a->out_type = s->out_type;
	a->ndim = ws->inputs[0]->ndim;
	a->mask = s->mask;
	a->batch = s->batch;
	a->tensor_mean = s->tensor_mean;
	a->tensor_stddev = s->tensor_stddev;
	a->calc_mean = s->calc_mean;
	a->calc_stddev = s->calc_stddev;
	if (!s->tensor_mean && !s->calc_mean)
		a->mean = (float)dalic_arg_float(ctx, "mean");
	if (!s->tensor_stddev && !s->calc_stddev)
		a->stddev = (float)dalic_arg_float(ctx, "stddev");
	a->scale = s->scale;
	a->shift = s->shift;
	a->epsilon = s->epsilon;
	a->ddof = s->ddof;
}

/* ---- applying the parameters ---------------------------------------------------------------- */

#define NORMALIZE_CHUNK 1024

/* out[at..at + n) = sat((in - mean) * inv + shift); element k uses parameter k % period, or
 * parameter 0 when period is 0. n is a multiple of period. Short periods (interleaved
 * channels) are repeated across a chunk so the arithmetic runs over plain arrays. */
static void normalize_span(const normalize_t *s, dalic_dtype_t it, const void *in, int64_t at,
                           void *out, int64_t n, const float *mean, const float *inv,
                           int64_t period)
{
	float buf[NORMALIZE_CHUNK], mrep[NORMALIZE_CHUNK], drep[NORMALIZE_CHUNK];
	int64_t step = NORMALIZE_CHUNK;
	if (period && period < NORMALIZE_CHUNK) {
		step = NORMALIZE_CHUNK / period * period;
		for (int64_t k = 0; k < step; k++) {
			mrep[k] = mean[k % period];
			drep[k] = inv[k % period];
		}
	}
	for (int64_t c0 = 0; c0 < n; c0 += step) {
		int len = n - c0 < step ? (int)(n - c0) : (int)step;
		dalic_sat_load_n(it, in, at + c0, len, buf);
		const float *m = mrep, *d = drep;
		if (period >= NORMALIZE_CHUNK) { /* long rows: the parameters are contiguous */
			m = mean + c0 % period;
			d = inv + c0 % period;
			len = (int)(period - c0 % period < len ? period - c0 % period : len);
		}
		if (period)
			for (int k = 0; k < len; k++)
				buf[k] = dalic_norm_value(buf[k], m[k], d[k], s->shift);
		else
			for (int k = 0; k < len; k++)
				buf[k] = dalic_norm_value(buf[k], mean[0], inv[0], s->shift);
		dalic_sat_store_n(s->out_type, out, at + c0, buf, len);
		if (len < step && c0 + len < n) /* a long row ended inside the chunk */
			c0 -= step - len;
	}
}

static int normalize_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	normalize_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const int64_t *shape = dalic_batch_shape(in, i);
	int nd = in->ndim;
	int64_t ps[DALIC_MAX_NDIM], np = 1;
	normalize_param_shape(s, shape, nd, ps);
	for (int d = 0; d < nd; d++) /* <= the sample's volume: representable */
		np *= ps[d];
	int rc;
	float *mean = dalic_thread_scratch_get(ctx, ws, i, &s->scratch, thread,
	                                       sizeof(float) * (size_t)(2 * np + 1), &rc);
	if (!mean)
		return rc;
	float *inv = mean + np;
	rc = normalize_sample_params(ctx, ws, i, mean, inv, np);
	if (rc)
		return rc;
	/* dims merged into runs of reduced / kept ones (extent-1 dims join either), as DALI's
	 * Squeeze: the last run is the inner loop */
	int64_t dim[DALIC_MAX_NDIM], pstr[DALIC_MAX_NDIM];
	bool red[DALIC_MAX_NDIM];
	int n = 0;
	for (int d = 0; d < nd; d++) {
		bool r = (s->mask & (1ull << d)) != 0;
		if (n && shape[d] == 1)
			continue;
		if (n && dim[n - 1] == 1) {
			dim[n - 1] = shape[d];
			red[n - 1] = r;
		} else if (n && red[n - 1] == r) {
			dim[n - 1] *= shape[d];
		} else {
			dim[n] = shape[d];
			red[n++] = r;
		}
	}
	int64_t pst = 1;
	for (int d = n - 1; d >= 0; d--) {
		pstr[d] = red[d] ? 0 : pst;
		if (!red[d])
			pst *= dim[d];
	}
	/* the last run of kept dims shares its parameters with every row of a reduced run just
	 * before it (per-channel statistics of HWC): one span covers them all */
	int64_t inner = n ? dim[n - 1] : 1, rows = 1, outer = 1;
	int od = n - 1;
	if (n >= 2 && !red[n - 1] && red[n - 2]) {
		rows = dim[n - 2];
		od = n - 2;
	}
	for (int d = 0; d < od; d++)
		outer *= dim[d];
	int64_t period = n && !red[n - 1] ? inner : 0;
	int64_t pos[DALIC_MAX_NDIM] = {0}, poff = 0;
	void *o = ws->outputs[0]->ptrs[i];
	for (int64_t r = 0; r < outer; r++) {
		normalize_span(s, in->dtype, in->ptrs[i], r * rows * inner, o, rows * inner,
		               mean + poff, inv + poff, period);
		for (int d = od - 1; d >= 0; d--) {
			poff += pstr[d];
			if (++pos[d] < dim[d])
				break;
			poff -= pstr[d] * dim[d];
			pos[d] = 0;
		}
	}
	return DALIC_OK;
}

static void normalize_fini(dalic_op_ctx_t *ctx)
{
	normalize_t *s = ctx->state;
	dalic_thread_scratch_free(&s->scratch);
	dalic_img_scratch_free(&s->batch_stats);
}

static const dalic_arg_schema_t args[] = {
    {"mean", DALIC_ARG_FLOAT, "None", "Mean to subtract; computed when not given.", .tensor = true},
    {"stddev", DALIC_ARG_FLOAT, "None", "Standard deviation; computed when not given.",
     .tensor = true},
    {"axes", DALIC_ARG_INT_LIST, "None", "Axes the statistics reduce (all by default)."},
    {"axis_names", DALIC_ARG_LAYOUT, "None", "Axes the statistics reduce, by name."},
    {"batch", DALIC_ARG_BOOL, "False", "Statistics over the whole batch."},
    {"ddof", DALIC_ARG_INT, "0", "Delta degrees of freedom of the variance."},
    {"epsilon", DALIC_ARG_FLOAT, "0.0", "Added to the variance."},
    {"scale", DALIC_ARG_FLOAT, "1.0", "Multiplies the normalized value."},
    {"shift", DALIC_ARG_FLOAT, "0.0", "Added last (where the mean maps to)."},
    {"dtype", DALIC_ARG_DTYPE, "FLOAT", "Output type."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(normalize_t),
    .init = normalize_init,
    .setup = normalize_setup,
    .run_sample = normalize_run_sample,
    .fini = normalize_fini,
};

DALIC_OPERATOR(Normalize) = {
    .name = "Normalize",
    .fn = "normalize",
    .doc = "Normalizes: (in - mean) * scale / stddev + shift, statistics given or computed.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
