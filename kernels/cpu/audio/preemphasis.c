/*
 * preemphasis_filter (DALI's PreemphasisFilter): y[t] = x[t] - coeff * x[t-1] over all the
 * elements of a sample in order, with x[-1] from `border`: 0 ("zero"), x[0] ("clamp") or x[1]
 * ("reflect"). Computed in float (double for float64 inputs) as DALI does, then converted to
 * `dtype` with rounding and saturation. A coefficient of 0 copies with conversion.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/sat_cast.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <xmmintrin.h>
#endif

typedef enum { PREEMPH_ZERO, PREEMPH_CLAMP, PREEMPH_REFLECT } preemph_border_t;

typedef struct preemph_op {
	preemph_border_t border;
	dalic_dtype_t dtype;
	float *coeff; /* per sample */
} preemph_op_t;

static bool preemph_type_ok(dalic_dtype_t t)
{
	return dalic_dtype_is_numeric(t) && t != DALIC_FLOAT16 && t != DALIC_BOOL;
}

static void preemph_fini(dalic_op_ctx_t *ctx)
{
	free(((preemph_op_t *)ctx->state)->coeff);
}

static int preemph_init(dalic_op_ctx_t *ctx)
{
	preemph_op_t *p = ctx->state;
	const char *b = dalic_arg_string(ctx, "border");
	if (b && !strcmp(b, "zero"))
		p->border = PREEMPH_ZERO;
	else if (b && !strcmp(b, "clamp"))
		p->border = PREEMPH_CLAMP;
	else if (b && !strcmp(b, "reflect"))
		p->border = PREEMPH_REFLECT;
	else
		return dalic_op_fail(ctx, NULL, -1, "``border`` mode \"%s\" is not supported.",
		                     b ? b : "None");
	p->dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (!preemph_type_ok(p->dtype))
		return dalic_op_fail(ctx, NULL, -1, "Unsupported output type: %s",
		                     dalic_dtype_cname(p->dtype));
	p->coeff = calloc((size_t)ctx->max_batch_size, sizeof *p->coeff);
	if (!p->coeff)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return DALIC_OK;
}

static int preemph_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	preemph_op_t *p = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (!preemph_type_ok(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "Unsupported input type: %s",
		                     dalic_dtype_cname(in->dtype));
	if (ws->batch_size > ctx->max_batch_size)
		return dalic_op_fail(ctx, ws, -1, "batch of %d exceeds max batch size %d",
		                     ws->batch_size, ctx->max_batch_size);
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size, p->dtype, in->ndim));
	dalic_batch_set_layout(out, in->layout);
	for (int i = 0; i < ws->batch_size; i++) {
		double c;
		DALIC_TRY(dalic_arg_float_at(ctx, ws, "preemph_coeff", i, &c));
		p->coeff[i] = (float)c;
		dalic_batch_set_shape(out, i, dalic_batch_shape(in, i));
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* float64 inputs: the arithmetic in double, one element at a time. */
static void preemph_run_f64(const preemph_op_t *p, const double *x, void *out, int64_t n,
                            float coeff)
{
	for (int64_t j = 0; j < n; j++) {
		double prev = j ? x[j - 1] : p->border == PREEMPH_REFLECT && n > 1 ? x[1] : x[0];
		double v = coeff == 0.0f || (!j && p->border == PREEMPH_ZERO) ? x[j]
		                                                              : x[j] - coeff * prev;
		dalic_dtype_store_sat(p->dtype, out, j, v);
	}
}

/* y[k] = x[k + 1] - coeff * x[k] over a chunk (x[0] is the element before it), four at a
 * time with SSE: the same product and difference per element as the scalar tail. */
static void preemph_chunk(const float *x, float *y, int64_t m, float coeff)
{
	int64_t k = 0;
	if (coeff == 0.0f) {
		memcpy(y, x + 1, sizeof(float) * (size_t)m);
		return;
	}
#ifdef __SSE2__
	const __m128 c = _mm_set1_ps(coeff);
	for (; k + 3 < m; k += 4)
		_mm_storeu_ps(y + k, _mm_sub_ps(_mm_loadu_ps(x + k + 1),
		                                _mm_mul_ps(c, _mm_loadu_ps(x + k))));
#endif
	for (; k < m; k++)
		y[k] = x[k + 1] - coeff * x[k];
}

static int preemph_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	preemph_op_t *p = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	void *out = ws->outputs[0]->ptrs[i];
	int64_t n = dalic_batch_sample_elems(in, i);
	float coeff = p->coeff[i];
	if (n == 0)
		return DALIC_OK;
	if (in->dtype == DALIC_FLOAT64) {
		preemph_run_f64(p, in->ptrs[i], out, n, coeff);
		return DALIC_OK;
	}
	enum { CHUNK = 512 };
	float x[CHUNK + 1], y[CHUNK];
	/* x[0] holds the element before the chunk */
	dalic_sat_load_n(in->dtype, in->ptrs[i], p->border == PREEMPH_REFLECT && n > 1 ? 1 : 0, 1, x);
	for (int64_t at = 0; at < n; at += CHUNK) {
		int64_t m = n - at < CHUNK ? n - at : CHUNK;
		dalic_sat_load_n(in->dtype, in->ptrs[i], at, m, x + 1);
		preemph_chunk(x, y, m, coeff);
		if (!at && p->border == PREEMPH_ZERO)
			y[0] = x[1];
		dalic_sat_store_n(p->dtype, out, at, y, m);
		x[0] = x[m];
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"preemph_coeff", DALIC_ARG_FLOAT, "0.97", "Preemphasis coefficient.", .tensor = true},
	{"dtype", DALIC_ARG_DTYPE, "FLOAT", "Output data type."},
	{"border", DALIC_ARG_STRING, "'clamp'", "Border value policy: zero, clamp or reflect."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(preemph_op_t),
	.init = preemph_init,
	.setup = preemph_setup,
	.run_sample = preemph_run_sample,
	.fini = preemph_fini,
};

DALIC_OPERATOR(PreemphasisFilter) = {
	.name = "PreemphasisFilter",
	.fn = "preemphasis_filter",
	.doc = "Applies a preemphasis filter y[t] = x[t] - coeff * x[t-1].",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
