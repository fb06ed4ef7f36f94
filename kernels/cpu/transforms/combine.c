/*
 * transforms.combine (DALI's transforms__Combine): composes two or more affine transforms of
 * the same shape, sample by sample. [T1, T2, T3] gives T3·T2·T1 (applying the result is
 * applying T1, then T2, then T3) or, with reverse_order, T1·T2·T3.
 */
#include "engine/kernel.h"
#include "kernels/common/xform.h"

#include <string.h>

typedef struct combine {
	int ndim;
} combine_t;

static int combine_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	combine_t *c = ctx->state;
	const dalic_batch_t *in0 = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int rc;
	if (ws->batch_size == 0)
		return dalic_batch_set_meta(out, 0, DALIC_FLOAT, 2);
	if ((rc = dalic_xform_check_input(ctx, ws, in0, &c->ndim)))
		return rc;
	for (int k = 1; k < ws->num_inputs; k++) {
		const dalic_batch_t *in = ws->inputs[k];
		bool same = in->ndim == 2 && in->num_samples == in0->num_samples;
		for (int i = 0; same && i < in->num_samples; i++)
			same = !memcmp(dalic_batch_shape(in, i), dalic_batch_shape(in0, 0),
			               2 * sizeof(int64_t));
		if (!same)
			return dalic_op_fail(
			    ctx, ws, -1,
			    "All input transforms are expected to have the same shape. "
			    "Got: (%d, %d) for input 0 and another shape for the "
			    "%d-th input.",
			    c->ndim, c->ndim + 1, k);
		if (in->dtype != DALIC_FLOAT)
			return dalic_op_fail(ctx, ws, -1,
			                     "input %d: expected float transforms, got %s", k,
			                     dalic_dtype_name(in->dtype));
	}
	if ((rc = dalic_batch_set_meta(out, ws->batch_size, DALIC_FLOAT, 2)))
		return rc;
	dalic_batch_set_layout(out, "");
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t *os = dalic_batch_shape_mut(out, i);
		os[0] = c->ndim;
		os[1] = c->ndim + 1;
		out->sources[i] = in0->sources[i];
	}
	return DALIC_OK;
}

/* Input k's transform of sample i as a homogeneous matrix. */
static void combine_read(const dalic_ws_t *ws, int k, int i, int ndim, float *m)
{
	const float *p = ws->inputs[k]->ptrs[i];
	dalic_xform_identity(ndim, m);
	memcpy(m, p, sizeof(float) * (size_t)(ndim * (ndim + 1)));
}

static int combine_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	const combine_t *c = ctx->state;
	const int n = c->ndim;
	const bool reverse = dalic_arg_bool(ctx, "reverse_order");
	float acc[DALIC_XFORM_MAT_SIZE], next[DALIC_XFORM_MAT_SIZE], prod[DALIC_XFORM_MAT_SIZE];
	combine_read(ws, 0, i, n, acc);
	for (int k = 1; k < ws->num_inputs; k++) {
		combine_read(ws, k, i, n, next);
		if (reverse)
			dalic_xform_mul(n, acc, next, prod);
		else
			dalic_xform_mul(n, next, acc, prod);
		memcpy(acc, prod, sizeof acc);
	}
	memcpy(ws->outputs[0]->ptrs[i], acc, sizeof(float) * (size_t)(n * (n + 1)));
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"reverse_order", DALIC_ARG_BOOL, "False",
     "Combine as T1·T2·T3 (apply the last input first) instead of T3·T2·T1."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(combine_t),
    .setup = combine_setup,
    .run_sample = combine_run_sample,
};

DALIC_OPERATOR(transforms__Combine) = {
    .name = "transforms__Combine",
    .fn = "transforms.combine",
    .module = "nvidia.dali.fn.transforms",
    .doc = "Combines two or more affine transforms: [T1, T2, T3] gives T3(T2(T1(x))).",
    .min_inputs = 2,
    .max_inputs = 99,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .args = args,
    .cpu = &kernel,
};
