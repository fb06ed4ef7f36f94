/* The random operators' shared rules (see rng_shape.h); messages follow DALI's. */
#include "kernels/common/rng_shape.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int dalic_rng_check_dtype(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t dtype,
			  const dalic_dtype_t *supported, int n)
{
	char list[256] = "";
	size_t len = 0;
	for (int k = 0; k < n; k++) {
		if (supported[k] == dtype)
			return DALIC_OK;
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "",
					dalic_dtype_cname(supported[k]));
		if (len >= sizeof list)
			len = sizeof list - 1;
	}
	return dalic_op_fail(ctx, ws, -1,
			     "Data type %s is currently not supported. Supported types are : %s",
			     dalic_dtype_cname(dtype), list);
}

/* An argument input's type must be the argument's own: DALI reads it through a typed view. */
static int rng_arg_input_type(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
			      const dalic_batch_t *in, dalic_dtype_t want)
{
	if (in->dtype == want)
		return DALIC_OK;
	return dalic_op_fail(ctx, ws, -1,
			     "argument '%s': Calling type does not match buffer data type, "
			     "requested type: %s current buffer type: %s",
			     name, dalic_dtype_cname(want), dalic_dtype_cname(in->dtype));
}

static int rng_arg_input_count(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
			       const dalic_batch_t *in, int n)
{
	if (in->num_samples == n)
		return DALIC_OK;
	return dalic_op_fail(ctx, ws, -1,
			     "Unexpected number of samples for argument \"%s\". Expected %d, got %d",
			     name, n, in->num_samples);
}

/* The extents of every sample from the `shape` argument input (GetShapeLikeArgument). */
static int rng_shape_from_input(dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
				const dalic_batch_t *in, int n, int *ndim)
{
	DALIC_TRY(rng_arg_input_type(ctx, ws, "shape", in, DALIC_INT32));
	if (in->num_samples != n)
		return dalic_op_fail(ctx, ws, -1,
				     "Unexpected number of samples in argument `shape` (expected: "
				     "%d)",
				     n);
	if (!dalic_batch_uniform_shape(in))
		return dalic_op_fail(ctx, ws, -1,
				     "argument 'shape': A tensor list shape must have the same "
				     "dimensionality for all samples.");
	if (in->ndim > 1)
		return dalic_op_fail(ctx, ws, -1,
				     "argument 'shape': Shapes must be 1D tensors with extent equal "
				     "to shape dimensionality (or scalar)");
	int64_t d = in->ndim == 0 ? 1 : n > 0 ? dalic_batch_shape(in, 0)[0] : 0;
	if (d > DALIC_MAX_NDIM)
		return dalic_op_fail(ctx, ws, -1, "argument 'shape': %lld dimensions, at most %d "
				     "supported", (long long)d, DALIC_MAX_NDIM);
	*ndim = (int)d;
	DALIC_TRY(dalic_batch_set_meta(ws->outputs[0], n, ws->outputs[0]->dtype, *ndim));
	for (int i = 0; i < n; i++) {
		const int32_t *v = in->ptrs[i];
		int64_t *dims = dalic_batch_shape_mut(ws->outputs[0], i);
		for (int k = 0; k < *ndim; k++)
			dims[k] = in->ndim == 0 ? v[0] : v[k];
	}
	return DALIC_OK;
}

int dalic_rng_setup_output(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t dtype)
{
	return dalic_rng_setup_output_like(ctx, ws, dtype, ws->num_inputs > 0 ? ws->inputs[0] : NULL);
}

int dalic_rng_setup_output_like(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t dtype,
				const dalic_batch_t *like)
{
	dalic_batch_t *out = ws->outputs[0];
	const dalic_batch_t *shape_in = dalic_arg_input(ws, "shape");
	const dalic_value_t *shape = dalic_arg(ctx, "shape");
	bool has_shape = shape_in || shape->kind != DALIC_V_NONE;
	if (has_shape && like)
		return dalic_op_fail(ctx, ws, -1,
				     "Providing argument \"shape\" is incompatible with providing a "
				     "shape-like input");
	int n = ws->batch_size, ndim = 0;
	DALIC_TRY(dalic_batch_set_meta(out, n, dtype, 0));
	if (shape_in) {
		DALIC_TRY(rng_shape_from_input(ctx, ws, shape_in, n, &ndim));
	} else if (like || shape->kind != DALIC_V_NONE) {
		ndim = like ? like->ndim : shape->n;
		if (ndim > DALIC_MAX_NDIM)
			return dalic_op_fail(ctx, ws, -1, "shape has %d dimensions, at most %d "
					     "supported", ndim, DALIC_MAX_NDIM);
		DALIC_TRY(dalic_batch_set_meta(out, n, dtype, ndim));
		for (int i = 0; i < n; i++) {
			int64_t *dims = dalic_batch_shape_mut(out, i);
			for (int d = 0; d < ndim; d++)
				dims[d] = like ? dalic_batch_shape(like, i)[d]
					       : dalic_value_get_i(shape, d);
		}
	}
	for (int i = 0; i < n; i++)
		for (int d = 0; d < ndim; d++)
			if (dalic_batch_shape(out, i)[d] < 0)
				return dalic_op_fail(ctx, ws, i,
						     "argument 'shape': extent %lld: Input size "
						     "less than zero not supported.",
						     (long long)dalic_batch_shape(out, i)[d]);
	return DALIC_OK;
}

int dalic_rng_arg_scalar(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
			 int sample, float *out)
{
	const dalic_batch_t *in = dalic_arg_input(ws, name);
	if (!in) {
		*out = (float)dalic_arg_float(ctx, name);
		return DALIC_OK;
	}
	DALIC_TRY(rng_arg_input_count(ctx, ws, name, in, ws->batch_size));
	DALIC_TRY(rng_arg_input_type(ctx, ws, name, in, DALIC_FLOAT));
	if (in->ndim != 0)
		return dalic_op_fail(ctx, ws, sample,
				     "argument '%s': Input with dimension (%d) cannot be converted "
				     "to dimension (0).",
				     name, in->ndim);
	*out = ((const float *)in->ptrs[sample])[0];
	return DALIC_OK;
}

int dalic_rng_arg_input_floats(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
			       const char *name, int sample, const float **data, int64_t *count)
{
	const dalic_batch_t *in = dalic_arg_input(ws, name);
	*data = NULL;
	*count = 0;
	if (!in)
		return DALIC_OK;
	DALIC_TRY(rng_arg_input_count(ctx, ws, name, in, ws->batch_size));
	DALIC_TRY(rng_arg_input_type(ctx, ws, name, in, DALIC_FLOAT));
	if (in->ndim > 1)
		return dalic_op_fail(ctx, ws, sample,
				     "argument '%s': Input with dimension (%d) cannot be converted "
				     "to dimension (1).",
				     name, in->ndim);
	*data = in->ptrs[sample];
	*count = dalic_batch_sample_elems(in, sample);
	return DALIC_OK;
}

/* std::round (half away from zero) without a libm call: |v| < 2^52 has an exact fraction. */
static double rng_round(double v)
{
	if (!(fabs(v) < 0x1p52))
		return v; /* already integral, or infinite */
	int64_t t = (int64_t)v;
	double f = v - (double)t;
	return (double)(t + (f >= 0.5) - (f <= -0.5));
}

/* What DALI's ConvertSat makes of NaN: static_cast of NaN on x86 (the minimum of a 32/64-bit
 * conversion, then the low bits): INT32_MIN, INT64_MIN, 2^63 for uint64, 0 for the others. */
static double rng_nan_as(dalic_dtype_t t)
{
	return t == DALIC_INT32 ? -0x1p31 : t == DALIC_INT64 ? -0x1p63 : t == DALIC_UINT64 ? 0x1p63 : 0;
}

/* Stores k values at elements first.. of a sample with DALI's ConvertSat: floats as they are,
 * integers rounded half away from zero and saturated, bool non-zero. */
#define RNG_STORE_INT(CT, LO, HI)                                                                  \
	for (int64_t j = 0; j < k; j++) {                                                          \
		double r = v[j] != v[j] ? nan_as : rng_round(v[j]);                                \
		((CT *)base)[first + j] = DALIC_SAT_FROM_F64(CT, LO, HI, r);                       \
	}
#define RNG_STORE_UINT RNG_STORE_INT
#define RNG_STORE_SINT RNG_STORE_INT
#define RNG_STORE_FLOAT(CT, LO, HI)                                                                \
	for (int64_t j = 0; j < k; j++)                                                            \
		((CT *)base)[first + j] = (CT)v[j];
#define RNG_STORE_OTHER(CT, LO, HI)                                                                \
	for (int64_t j = 0; j < k; j++)                                                            \
		dalic_dtype_store_sat(t, base, first + j, v[j]);
#define RNG_STORE_HALF RNG_STORE_OTHER
#define RNG_STORE_BOOL RNG_STORE_OTHER

void dalic_rng_store(dalic_dtype_t t, void *base, int64_t first, const double *v, int64_t k)
{
	double nan_as = rng_nan_as(t);
	switch (t) {
#define RNG_STORE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                   \
	case DALIC_##ID: RNG_STORE_##CLASS(CT, LO, HI) break;
		DALIC_DTYPES_NUMERIC(RNG_STORE)
#undef RNG_STORE
	default: break;
	}
	(void)nan_as;
}

#define RNG_BLOCK 256

void dalic_rng_generate(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample,
			dalic_rng_element_fn fn, const void *dist)
{
	dalic_batch_t *out = ws->outputs[0];
	int64_t n = dalic_batch_sample_elems(out, sample);
	dalic_philox_t g = dalic_op_rng(ctx, sample);
	double v[RNG_BLOCK];
	for (int64_t p0 = 0; p0 < n; p0 += RNG_BLOCK) {
		int64_t k = n - p0 < RNG_BLOCK ? n - p0 : RNG_BLOCK;
		for (int64_t j = 0; j < k; j++) {
			dalic_philox_t e = dalic_rng_for_element(&g, p0 + j);
			v[j] = fn(dist, &e);
		}
		dalic_rng_store(out->dtype, out->ptrs[sample], p0, v, k);
	}
}

double dalic_rng_cvt_to(dalic_dtype_t t, float v)
{
	switch (t) {
	case DALIC_UINT8: return (uint8_t)dalic_rng_cvt_i32(v);
	case DALIC_INT8: return (int8_t)dalic_rng_cvt_i32(v);
	case DALIC_UINT16: return (uint16_t)dalic_rng_cvt_i32(v);
	case DALIC_INT16: return (int16_t)dalic_rng_cvt_i32(v);
	case DALIC_INT32: return dalic_rng_cvt_i32(v);
	case DALIC_UINT32: return (uint32_t)(uint64_t)dalic_rng_cvt_i64(v);
	case DALIC_INT64: return (double)dalic_rng_cvt_i64(v);
	case DALIC_UINT64:
		if (!(v >= 0x1p63f))
			return (double)(uint64_t)dalic_rng_cvt_i64(v);
		return (double)((uint64_t)dalic_rng_cvt_i64(v - 0x1p63f) ^ (1ull << 63));
	default: return v;
	}
}
