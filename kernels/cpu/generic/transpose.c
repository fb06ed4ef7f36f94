/*
 * transpose: permutes the dimensions of every sample; output dim d is input dim perm[d]
 * (default: the dims reversed). HWC (100, 200, 3) with perm [2, 0, 1] gives CHW
 * (3, 100, 200). The layout is permuted with the dims when `transpose_layout` is set (the
 * default), or replaced by `output_layout`.
 *
 * The copy walks the output in order. Output dims that stay adjacent in the input (H and W
 * in HWC -> CHW) are merged first and extent-1 dims dropped, so the inner loop is as long as
 * possible (the plan of kernels/common/transpose_index.h, shared with the CUDA kernel); the
 * element copy is done by size (1, 2, 4 or 8 bytes), not by dtype.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/transpose_index.h"

#include <stdio.h>
#include <string.h>

typedef struct transpose_state {
	int perm[DALIC_MAX_NDIM];
	int nperm; /* 0 = not given: reverse the input's dims */
} transpose_state_t;

static int transpose_init(dalic_op_ctx_t *ctx)
{
	transpose_state_t *st = ctx->state;
	const dalic_value_t *perm = dalic_arg(ctx, "perm");
	if (dalic_arg_given(ctx, "output_layout") && !dalic_arg_string(ctx, "output_layout")[0])
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s): argument 'output_layout': providing an "
		                  "empty output layout is not supported",
		                  ctx->inst, ctx->schema->name);
	if (perm->kind == DALIC_V_NONE)
		return DALIC_OK;
	bool seen[DALIC_MAX_NDIM] = {0};
	bool valid = perm->n <= DALIC_MAX_NDIM;
	for (int d = 0; valid && d < perm->n; d++) {
		int64_t p = perm->i[d];
		valid = p >= 0 && p < perm->n && !seen[p];
		if (valid) {
			seen[p] = true;
			st->perm[d] = (int)p;
		}
	}
	if (!valid)
		return dalic_fail(
		    DALIC_EINVAL,
		    "operator '%s' (%s): argument 'perm': invalid permutation: sorted "
		    "`perm` is not equal to [0, ..., n-1]",
		    ctx->inst, ctx->schema->name);
	st->nperm = perm->n;
	return DALIC_OK;
}

static void transpose_permutation(const transpose_state_t *st, int ndim, int *perm)
{
	for (int d = 0; d < ndim; d++)
		perm[d] = st->nperm ? st->perm[d] : ndim - 1 - d;
}

static int transpose_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const transpose_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int nd = in->ndim, perm[DALIC_MAX_NDIM];
	if (st->nperm && st->nperm != nd)
		return dalic_op_fail(ctx, ws, -1,
		                     "input has different dimensionality (%d) than the length of "
		                     "the permutation (%d)",
		                     nd, st->nperm);
	transpose_permutation(st, nd, perm);
	const char *out_layout = dalic_arg_string(ctx, "output_layout");
	if (out_layout && (int)strlen(out_layout) != nd)
		return dalic_op_fail(ctx, ws, -1, "output_layout '%s' does not have %d dims",
		                     out_layout, nd);
	char layout[DALIC_MAX_NDIM + 1];
	snprintf(layout, sizeof layout, "%s", in->layout);
	if (!out_layout && dalic_arg_bool(ctx, "transpose_layout") &&
	    (int)strlen(in->layout) == nd) {
		for (int d = 0; d < nd; d++)
			layout[d] = in->layout[perm[d]];
		layout[nd] = 0;
	}
	int rc = dalic_batch_set_meta(out, ws->batch_size, in->dtype, nd);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, out_layout ? out_layout : layout);
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *ish = dalic_batch_shape(in, i);
		int64_t *osh = dalic_batch_shape_mut(out, i);
		for (int d = 0; d < nd; d++)
			osh[d] = ish[perm[d]];
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

#define COPY_LOOP(T)                                                                               \
	for (int64_t k = 0; k < run; k++)                                                          \
		((T *)dst)[done + k] = ((const T *)src)[off + k * inner_stride];                   \
	break

static int transpose_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int nd = in->ndim, perm[DALIC_MAX_NDIM];
	transpose_permutation(ctx->state, nd, perm);
	dalic_transpose_plan_t pl;
	dalic_transpose_plan_make(&pl, nd, dalic_batch_shape(in, i), perm);
	if (pl.total == 0)
		return DALIC_OK;
	const int m = pl.m;
	const int64_t *ext = pl.ext, *str = pl.str, total = pl.total;
	const void *src = in->ptrs[i];
	void *dst = out->ptrs[i];
	size_t es = dalic_dtype_size(in->dtype);
	int64_t coord[DALIC_MAX_NDIM] = {0}, inner_stride = str[m - 1];
	for (int64_t done = 0; done < total;) {
		int64_t off = 0;
		for (int d = 0; d < m - 1; d++)
			off += coord[d] * str[d];
		int64_t run = ext[m - 1];
		switch (es) {
		case 1:
			COPY_LOOP(uint8_t);
		case 2:
			COPY_LOOP(uint16_t);
		case 4:
			COPY_LOOP(uint32_t);
		case 8:
			COPY_LOOP(uint64_t);
		default:
			for (int64_t k = 0; k < run; k++)
				memcpy((char *)dst + (size_t)(done + k) * es,
				       (const char *)src + (size_t)(off + k * inner_stride) * es,
				       es);
			break;
		}
		done += run;
		for (int d = m - 2; d >= 0; d--) {
			if (++coord[d] < ext[d])
				break;
			coord[d] = 0;
		}
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"perm", DALIC_ARG_INT_LIST, "None",
     "Permutation of the dims: output dim i is input dim perm[i]. Default: reversed."},
    {"transpose_layout", DALIC_ARG_BOOL, "True", "Permute the layout letters with the dims."},
    {"output_layout", DALIC_ARG_LAYOUT, "None", "Layout of the output (overrides the rest)."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(transpose_state_t),
    .init = transpose_init,
    .setup = transpose_setup,
    .run_sample = transpose_run_sample,
};

DALIC_OPERATOR(Transpose) = {
    .name = "Transpose",
    .fn = "transpose",
    .doc = "Permutes the dimensions of every sample.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
