/*
 * constant: every output sample is the same constant tensor, given as a flat list in `fdata`
 * (floats) or `idata` (integers) — exactly one of them — and reshaped to `shape` (default: 1D
 * with one extent per value). A single value is repeated to fill the whole shape. The dtype
 * defaults to FLOAT for fdata and INT32 for idata (DALI's inference, docs/dali-behaviour.md §6.11).
 *
 * The sample is built once at init with DALI's ConvertSat; fdata values pass through float32
 * first, because DALI stores `fdata` as a float list. Each iteration copies it to the output.
 */
#include "engine/checked.h"
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "engine/memory.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct constant_state {
	dalic_dtype_t dtype;
	int ndim;
	int64_t shape[DALIC_MAX_NDIM];
	void *data; /* one sample, charged against the memory budget */
	size_t bytes;
} constant_state_t;

static int constant_bad_arg(const dalic_op_ctx_t *ctx, const char *arg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int constant_bad_arg(const dalic_op_ctx_t *ctx, const char *arg, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return dalic_fail(DALIC_EINVAL, "operator '%s' (%s): argument '%s': %s", ctx->inst,
	                  ctx->schema->name, arg, msg);
}

static int constant_init(dalic_op_ctx_t *ctx)
{
	constant_state_t *st = ctx->state;
	bool has_f = dalic_arg_given(ctx, "fdata"), has_i = dalic_arg_given(ctx, "idata");
	if (has_f == has_i)
		return constant_bad_arg(ctx, has_f ? "idata" : "fdata",
		               "`fdata` and `idata` are mutually exclusive and one of them is "
		               "required");
	const dalic_value_t *values = dalic_arg(ctx, has_f ? "fdata" : "idata");
	st->dtype = dalic_arg_given(ctx, "dtype") ? (dalic_dtype_t)dalic_arg_int(ctx, "dtype")
	            : has_f                       ? DALIC_FLOAT
	                                          : DALIC_INT32;
	if (!dalic_dtype_is_numeric(st->dtype))
		return constant_bad_arg(ctx, "dtype", "%s is not numeric",
		                        dalic_dtype_name(st->dtype));
	const dalic_value_t *shape = dalic_arg(ctx, "shape");
	int64_t volume = 1;
	if (shape->kind == DALIC_V_NONE) {
		st->ndim = 1;
		st->shape[0] = volume = values->n;
	} else {
		if (shape->n > DALIC_MAX_NDIM)
			return constant_bad_arg(ctx, "shape", "%d dims, at most %d", shape->n,
			               DALIC_MAX_NDIM);
		st->ndim = shape->n;
		for (int d = 0; d < shape->n; d++) {
			if (shape->i[d] < 0)
				return constant_bad_arg(ctx, "shape",
				                        "negative extent %lld in dim %d",
				                        (long long)shape->i[d], d);
			st->shape[d] = shape->i[d];
		}
	}
	if (!dalic_ck_shape_bytes(st->shape, st->ndim, dalic_dtype_size(st->dtype), &st->bytes)) {
		char s[256];
		dalic_batch_format_shape(st->shape, st->ndim, "[]", s, sizeof s);
		return constant_bad_arg(ctx, "shape",
		                        "%s of %s is too large: its size in bytes overflows "
		                        "63 bits",
		                        s, dalic_dtype_name(st->dtype));
	}
	dalic_ck_volume(st->shape, st->ndim, &volume);
	if (values->n != volume && values->n != 1)
		return constant_bad_arg(ctx, has_f ? "fdata" : "idata",
		               "%d values do not fill a shape of %lld elements", values->n,
		               (long long)volume);
	const char *layout = dalic_arg_string(ctx, "layout");
	if (layout && layout[0] && (int)strlen(layout) != st->ndim)
		return constant_bad_arg(ctx, "layout", "'%s' does not fit a %d-dim shape", layout,
		                        st->ndim);
	if (dalic_mem_charge(st->bytes))
		return dalic_fail_wrap(DALIC_ENOMEM, "operator '%s' (%s): the constant sample",
		                       ctx->inst, ctx->schema->name);
	st->data = malloc(st->bytes ? st->bytes : 1);
	if (!st->data) {
		dalic_mem_uncharge(st->bytes);
		return dalic_fail(DALIC_ENOMEM, "operator '%s' (%s): cannot allocate %zu bytes",
		                  ctx->inst, ctx->schema->name, st->bytes);
	}
	for (int64_t k = 0; k < volume; k++) {
		int src = values->n == 1 ? 0 : (int)k;
		if (has_f)
			dalic_dtype_store_sat(st->dtype, st->data, k, (float)values->f[src]);
		else
			dalic_dtype_store_i64_sat(st->dtype, st->data, k, values->i[src]);
	}
	return DALIC_OK;
}

static void constant_fini(dalic_op_ctx_t *ctx)
{
	constant_state_t *st = ctx->state;
	free(st->data);
	if (st->data)
		dalic_mem_uncharge(st->bytes);
}

static int constant_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const constant_state_t *st = ctx->state;
	dalic_batch_t *out = ws->outputs[0];
	int rc = dalic_batch_set_meta(out, ws->batch_size, st->dtype, st->ndim);
	if (rc)
		return rc;
	dalic_batch_set_uniform_shape(out, st->shape);
	dalic_batch_set_layout(out, dalic_arg_string(ctx, "layout"));
	return DALIC_OK;
}

static int constant_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const constant_state_t *st = ctx->state;
	if (st->bytes) /* an empty sample may have no storage at all */
		memcpy(ws->outputs[0]->ptrs[i], st->data, st->bytes);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"fdata", DALIC_ARG_FLOAT_LIST, "None", "Contents, for floating point data."},
    {"idata", DALIC_ARG_INT_LIST, "None", "Contents, for integer data."},
    {"shape", DALIC_ARG_INT_LIST, "None", "Shape of the output (default: 1D)."},
    {"dtype", DALIC_ARG_DTYPE, "None",
     "Output data type (default: FLOAT with fdata, INT32 with idata)."},
    {"layout", DALIC_ARG_LAYOUT, "None", "Layout of the output."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(constant_state_t),
    .init = constant_init,
    .setup = constant_setup,
    .run_sample = constant_run_sample,
    .fini = constant_fini,
};

DALIC_OPERATOR(Constant) = {
    .name = "Constant",
    .fn = "constant",
    .doc = "Produces a batch of constant tensors.",
    .min_inputs = 0,
    .max_inputs = 0,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
