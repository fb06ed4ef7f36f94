/* The reductions.* operators' shared setup and run (see reduce_op.h). */
#include "kernels/common/reduce_op.h"

#include "engine/dtype.h"

#include <string.h>

static dalic_dtype_t reduce_op_wide(dalic_dtype_t t)
{
	if (t == DALIC_FLOAT)
		return DALIC_NO_TYPE;
	return dalic_dtype_is_signed(t) ? DALIC_INT64 : DALIC_UINT64;
}

static bool reduce_op_input_ok(dalic_dtype_t t)
{
	return t == DALIC_FLOAT || (dalic_dtype_is_integral(t) && t != DALIC_BOOL);
}

/* The output type for input type `it` or DALIC_NO_TYPE when the pair is refused. */
static dalic_dtype_t reduce_op_out_type(const dalic_op_ctx_t *ctx, const dalic_reduce_op_t *op,
                                        dalic_dtype_t it)
{
	if (op->mean_input)
		return DALIC_FLOAT;
	if (!dalic_schema_arg(ctx->schema, "dtype") || !dalic_arg_given(ctx, "dtype")) {
		if (op->dflt_wide && it != DALIC_FLOAT)
			return reduce_op_wide(it);
		return op->dflt == DALIC_NO_TYPE ? it : op->dflt;
	}
	dalic_dtype_t t = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (((op->allowed & DALIC_REDUCE_SAME) && t == it) ||
	    ((op->allowed & DALIC_REDUCE_WIDE) && t == reduce_op_wide(it)) ||
	    ((op->allowed & DALIC_REDUCE_FLOAT) && t == DALIC_FLOAT))
		return t;
	return DALIC_NO_TYPE;
}

int dalic_reduce_op_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_reduce_op_t *op)
{
	const dalic_batch_t *in = ws->inputs[0];
	if (!reduce_op_input_ok(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "Unsupported input type: %s",
		                     dalic_dtype_cname(in->dtype));
	dalic_dtype_t ot = reduce_op_out_type(ctx, op, in->dtype);
	if (ot == DALIC_NO_TYPE || !dalic_reduce_supported(op->kind, in->dtype, ot))
		return dalic_op_fail(ctx, ws, -1, "Unsupported types: %s, %s",
		                     dalic_dtype_cname(in->dtype),
		                     dalic_dtype_cname((dalic_dtype_t)dalic_arg_int(ctx, "dtype")));
	uint64_t mask;
	int rc = dalic_reduce_axes(ctx, ws, in->layout, in->ndim, &mask);
	if (rc)
		return rc;
	bool keep = dalic_arg_bool(ctx, "keep_dims");
	dalic_batch_t *out = ws->outputs[0];
	int64_t os[DALIC_MAX_NDIM];
	int ond = dalic_reduce_out_shape(dalic_batch_shape(in, 0), in->ndim, mask, keep, os);
	if ((rc = dalic_batch_set_meta(out, ws->batch_size, ot, ond)))
		return rc;
	/* the layout keeps the names of the dims that stay */
	char layout[DALIC_MAX_NDIM + 1] = "";
	if (in->layout[0] && (int)strlen(in->layout) == in->ndim) {
		int n = 0;
		for (int d = 0; d < in->ndim; d++)
			if (keep || !(mask & (1ull << d)))
				layout[n++] = in->layout[d];
		layout[n] = 0;
	}
	dalic_batch_set_layout(out, layout);
	for (int i = 0; i < ws->batch_size; i++) {
		dalic_reduce_out_shape(dalic_batch_shape(in, i), in->ndim, mask, keep, os);
		dalic_batch_set_shape(out, i, os);
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* std_dev / variance: the mean input holds one float per output element. */
static int reduce_op_mean(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int64_t nout,
                          const float **mean)
{
	const dalic_batch_t *m = ws->inputs[1];
	if (m->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, i, "the mean (input 1) must be float, not %s",
		                     dalic_dtype_cname(m->dtype));
	if (i >= m->num_samples || dalic_batch_sample_elems(m, i) != nout)
		return dalic_op_fail(ctx, ws, i,
		                     "the mean (input 1) has %lld values; the reduced "
		                     "output has %lld",
		                     i < m->num_samples ? (long long)dalic_batch_sample_elems(m, i)
		                                        : 0LL,
		                     (long long)nout);
	*mean = m->ptrs[i];
	return DALIC_OK;
}

int dalic_reduce_op_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                               const dalic_reduce_op_t *op)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	uint64_t mask;
	int rc = dalic_reduce_axes(ctx, ws, in->layout, in->ndim, &mask);
	if (rc)
		return rc;
	const int64_t *shape = dalic_batch_shape(in, i);
	int64_t nout = dalic_batch_sample_elems(out, i);
	const float *mean = NULL;
	if (op->mean_input) {
		bool empty = dalic_arg_given(ctx, "axes") && !dalic_arg(ctx, "axes")->n;
		empty |=
		    dalic_arg_given(ctx, "axis_names") && !*dalic_arg_string(ctx, "axis_names");
		if (empty) { /* DALI: nothing reduced, the deviation is 0 (the mean is not read) */
			memset(out->ptrs[i], 0, sizeof(float) * (size_t)nout);
			return DALIC_OK;
		}
		if ((rc = reduce_op_mean(ctx, ws, i, nout, &mean)))
			return rc;
	}
	dalic_reduce_run(op->kind, in->dtype, in->ptrs[i], shape, in->ndim, mask, out->dtype,
	                 out->ptrs[i], mean);
	if (op->scale) {
		/* 1 / (n - ddof) in double, then float, as DALI's norm_factor */
		int64_t v = dalic_reduce_volume(shape, in->ndim, mask);
		if (op->mean_input)
			v -= dalic_arg_int(ctx, "ddof");
		dalic_reduce_scale(out->dtype, out->ptrs[i], nout, (float)(1.0 / (double)v),
		                   op->root);
	}
	return DALIC_OK;
}
