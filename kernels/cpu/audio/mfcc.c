/*
 * mfcc (DALI's MFCC): mel-frequency cepstral coefficients, a DCT (type 1, 2, 3 or 4,
 * optionally orthonormal) along `axis` of a 2- to 4-D float mel spectrogram, keeping the first
 * n_mfcc coefficients, then liftering c[k] *= 1 + lifter / 2 * sin(pi * (k + 1) / lifter). The
 * cosine table is DALI's (double, stored as float) and the sums run in float in input order.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct mfcc_table {
	int64_t n;   /* input length */
	int ndct;
	float *cos;  /* ndct rows of n */
	float *lift; /* ndct liftering factors */
	int64_t used; /* the iteration that last used it */
} mfcc_table_t;

typedef struct mfcc_op {
	int ndct, type, axis;
	bool normalize;
	float lifter;
	mfcc_table_t *tables; /* max_batch_size of them: one per length in a batch */
	int *which;           /* per sample: its table */
} mfcc_op_t;

static void mfcc_fini(dalic_op_ctx_t *ctx)
{
	mfcc_op_t *m = ctx->state;
	for (int k = 0; m->tables && k < ctx->max_batch_size; k++) {
		free(m->tables[k].cos);
		free(m->tables[k].lift);
	}
	free(m->tables);
	free(m->which);
}

static int mfcc_init(dalic_op_ctx_t *ctx)
{
	mfcc_op_t *m = ctx->state;
	int64_t n = dalic_arg_int(ctx, "n_mfcc"), t = dalic_arg_int(ctx, "dct_type");
	int64_t axis = dalic_arg_int(ctx, "axis");
	if (n <= 0)
		return dalic_op_fail(ctx, NULL, -1, "number of MFCCs should be > 0");
	if (t < 1 || t > 4)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Unsupported DCT type: %lld. Supported types are: 1, 2, 3, 4.",
		                     (long long)t);
	m->normalize = dalic_arg_bool(ctx, "normalize");
	if (m->normalize && t == 1)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Ortho-normalization is not supported for DCT type I.");
	if (axis < 0)
		return dalic_op_fail(ctx, NULL, -1, "Provided axis cannot be negative.");
	m->ndct = n > INT32_MAX ? INT32_MAX : (int)n;
	m->type = (int)t;
	m->axis = axis > 64 ? 64 : (int)axis;
	m->lifter = (float)dalic_arg_float(ctx, "lifter");
	m->tables = calloc((size_t)ctx->max_batch_size, sizeof *m->tables);
	m->which = calloc((size_t)ctx->max_batch_size, sizeof *m->which);
	if (!m->tables || !m->which) {
		mfcc_fini(ctx);
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	}
	return DALIC_OK;
}

/* DALI's cosine tables (kernels/signal/dct/table.h): row k, column n. */
static double mfcc_cos(const mfcc_op_t *m, int64_t n_in, int64_t k, int64_t n)
{
	double f = 1;
	switch (m->type) {
	case 1:
		if (n == 0)
			return 0.5;
		if (n == n_in - 1)
			return k % 2 == 0 ? 0.5 : -0.5;
		return cos(M_PI / (double)(n_in - 1) * (double)k * (double)n);
	case 2:
		if (m->normalize)
			f = k == 0 ? 1.0 / sqrt((double)n_in) : sqrt(2.0 / (double)n_in);
		return f * cos(M_PI / (double)n_in * ((double)n + 0.5) * (double)k);
	case 3:
		if (n == 0)
			return m->normalize ? 1.0 / sqrt((double)n_in) : 0.5;
		f = m->normalize ? sqrt(2.0 / (double)n_in) : 1;
		return f * cos(M_PI / (double)n_in * (double)n * ((double)k + 0.5));
	default:
		f = m->normalize ? sqrt(2.0 / (double)n_in) : 1.0;
		return f * cos(M_PI / (double)n_in * ((double)n + 0.5) * ((double)k + 0.5));
	}
}

/* Sample i's table: one already made for its length, else a new one in a slot this batch
 * does not use. */
static int mfcc_table(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, mfcc_op_t *m, int i, int64_t n,
                      int ndct)
{
	int free_slot = -1;
	for (int k = 0; k < ctx->max_batch_size; k++) {
		mfcc_table_t *t = &m->tables[k];
		if (t->cos && t->n == n && t->ndct == ndct) {
			t->used = ws->iteration;
			m->which[i] = k;
			return DALIC_OK;
		}
		if (free_slot < 0 && (!t->cos || t->used != ws->iteration))
			free_slot = k;
	}
	mfcc_table_t *t = &m->tables[free_slot]; /* a batch has at most max_batch_size lengths */
	free(t->cos);
	free(t->lift);
	t->cos = malloc((size_t)n * (size_t)ndct * sizeof *t->cos);
	t->lift = malloc((size_t)ndct * sizeof *t->lift);
	if (!t->cos || !t->lift) {
		free(t->cos);
		t->cos = NULL;
		return dalic_op_fail(ctx, ws, i, "out of memory for the DCT table");
	}
	for (int64_t k = 0; k < ndct; k++) {
		for (int64_t c = 0; c < n; c++)
			t->cos[k * n + c] = (float)mfcc_cos(m, n, k, c);
		float ampl = m->lifter / 2, phase = (float)M_PI / m->lifter;
		t->lift[k] = (float)(1.f + ampl * sin((double)(phase * (float)(k + 1))));
	}
	t->n = n;
	t->ndct = ndct;
	t->used = ws->iteration;
	m->which[i] = free_slot;
	return DALIC_OK;
}

static int mfcc_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	mfcc_op_t *m = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Unsupported data type: %s",
		                     dalic_dtype_cname(in->dtype));
	if (m->axis >= in->ndim)
		return dalic_op_fail(ctx, ws, -1, "Axis %d is out of bounds [0,%d)", m->axis, in->ndim);
	if (in->ndim < 2 || in->ndim > 4)
		return dalic_op_fail(ctx, ws, -1, "Unsupported number of dimensions %d", in->ndim);
	if (ws->batch_size > ctx->max_batch_size)
		return dalic_op_fail(ctx, ws, -1, "batch of %d exceeds max batch size %d",
		                     ws->batch_size, ctx->max_batch_size);
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size, DALIC_FLOAT, in->ndim));
	dalic_batch_set_layout(out, in->layout);
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *s = dalic_batch_shape(in, i);
		int64_t n = s[m->axis];
		if (m->type == 1 && n <= 1)
			return dalic_op_fail(ctx, ws, i, "DCT type I requires an input length > 1");
		int64_t ndct = m->ndct > n ? n : m->ndct;
		if (n > (1 << 24) || n * ndct > (1 << 28))
			return dalic_op_fail(ctx, ws, i, "a DCT of %lld from %lld values is too large",
			                     (long long)ndct, (long long)n);
		int64_t *o = dalic_batch_shape_mut(out, i);
		memcpy(o, s, (size_t)in->ndim * sizeof *o);
		o[m->axis] = ndct;
		out->sources[i] = in->sources[i];
		if (ndct > 0)
			DALIC_TRY(mfcc_table(ctx, ws, m, i, n, (int)ndct));
	}
	return DALIC_OK;
}

static int mfcc_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const mfcc_op_t *m = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const int64_t *s = dalic_batch_shape(in, i);
	int64_t n = s[m->axis], ndct = dalic_batch_shape(ws->outputs[0], i)[m->axis];
	int64_t outer = 1, inner = 1;
	for (int d = 0; d < m->axis; d++)
		outer *= s[d];
	for (int d = m->axis + 1; d < in->ndim; d++)
		inner *= s[d];
	if (ndct == 0)
		return DALIC_OK;
	const mfcc_table_t *t = &m->tables[m->which[i]];
	const float *x = in->ptrs[i];
	float *y = ws->outputs[0]->ptrs[i];
	for (int64_t o = 0; o < outer; o++)
		for (int64_t c = 0; c < inner; c++) {
			const float *xi = x + o * n * inner + c;
			float *yo = y + o * ndct * inner + c;
			for (int64_t k = 0; k < ndct; k++) {
				const float *row = t->cos + k * n;
				float v = 0;
				for (int64_t j = 0; j < n; j++)
					v += xi[j * inner] * row[j];
				yo[k * inner] = m->lifter != 0.0f ? t->lift[k] * v : v;
			}
		}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"n_mfcc", DALIC_ARG_INT, "20", "Number of MFCC coefficients."},
	{"dct_type", DALIC_ARG_INT, "2", "Discrete Cosine Transform type: 1, 2, 3 or 4."},
	{"normalize", DALIC_ARG_BOOL, "False", "Use an orthonormal DCT basis (not with type 1)."},
	{"axis", DALIC_ARG_INT, "0", "Axis of the transform."},
	{"lifter", DALIC_ARG_FLOAT, "0.0", "Cepstral liftering coefficient (0: none)."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(mfcc_op_t),
	.init = mfcc_init,
	.setup = mfcc_setup,
	.run_sample = mfcc_run_sample,
	.fini = mfcc_fini,
};

DALIC_OPERATOR(MFCC) = {
	.name = "MFCC",
	.fn = "mfcc",
	.doc = "Computes Mel Frequency Cepstral Coefficients from a mel spectrogram.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
