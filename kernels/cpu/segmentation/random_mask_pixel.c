/*
 * segmentation.random_mask_pixel: the coordinates (int64 [ndim]) of a random pixel of a mask:
 * with `foreground` != 0, one of the foreground pixels (value > threshold, or == value), each
 * equally likely; otherwise, or when the mask has no foreground, any pixel.
 *
 * The draws are DALI 2.4's, on the sample's Philox generator: libstdc++'s
 * uniform_int_distribution<int64_t> picks the k-th foreground pixel in raster order; the
 * fallback draws each coordinate in order. A `value` the mask's type cannot hold (a C++ cast
 * that does not round-trip) matches nothing. Threshold tests compare in float.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "engine/rng_std.h"

static int random_mask_pixel_init(dalic_op_ctx_t *ctx)
{
	if (dalic_arg_given(ctx, "value") && dalic_arg_given(ctx, "threshold"))
		return dalic_op_fail(ctx, NULL, -1,
				     "Arguments ``value`` and ``threshold`` can not be provided "
				     "together");
	return DALIC_OK;
}

/* An int32 / float32 scalar argument of sample i (argument inputs must have that type). */
static int random_mask_pixel_arg(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
				 dalic_dtype_t type, int i, double *out)
{
	const dalic_batch_t *in = dalic_arg_input(ws, name);
	if (in && in->dtype != type)
		return dalic_op_fail(ctx, ws, i,
				     "argument '%s': Calling type does not match buffer data type, "
				     "requested type: %s current buffer type: %s",
				     name, dalic_dtype_cname(type), dalic_dtype_cname(in->dtype));
	return dalic_arg_float_at(ctx, ws, name, i, out);
}

static int random_mask_pixel_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	switch (in->dtype) {
	case DALIC_UINT8: case DALIC_INT8: case DALIC_UINT16: case DALIC_INT16:
	case DALIC_UINT32: case DALIC_INT32: case DALIC_UINT64: case DALIC_INT64:
	case DALIC_FLOAT: case DALIC_BOOL: break;
	default:
		return dalic_op_fail(ctx, ws, -1, "Unexpected data type: %s",
				     dalic_dtype_cname(in->dtype));
	}
	for (int i = 0; i < ws->batch_size; i++) {
		double v;
		DALIC_TRY(random_mask_pixel_arg(ctx, ws, "foreground", DALIC_INT32, i, &v));
		if (dalic_arg_given(ctx, "value"))
			DALIC_TRY(random_mask_pixel_arg(ctx, ws, "value", DALIC_INT32, i, &v));
		else
			DALIC_TRY(random_mask_pixel_arg(ctx, ws, "threshold", DALIC_FLOAT, i, &v));
	}
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size, DALIC_INT64, 1));
	for (int i = 0; i < ws->batch_size; i++)
		dalic_batch_shape_mut(out, i)[0] = in->ndim;
	return DALIC_OK;
}

/* The test of one element: == value (as the type) or > threshold (in float). */
typedef struct random_mask_pixel_test {
	bool by_value, none; /* none: a value the type cannot hold */
	int64_t value;       /* the value cast to the type, as int64 (exact) */
	double fvalue;       /* ... as the element converts to double (floats) */
	float threshold;
} random_mask_pixel_test_t;

/* Foreground elements up to `stop` (the k-th found), or all; *at: flat index of the k-th. */
static int64_t random_mask_pixel_scan(dalic_dtype_t t, const void *base, int64_t n,
				      const random_mask_pixel_test_t *ts, int64_t stop, int64_t *at)
{
	int64_t count = 0;
	switch (t) {
#define RMP_SCAN(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                    \
	case DALIC_##ID: {                                                                         \
		const CT *v = base;                                                                \
		for (int64_t k = 0; k < n; k++) {                                                  \
			bool fg = ts->by_value ? (DALIC_DTYPE_IS(FLOAT, CLASS)                     \
							  ? (double)v[k] == ts->fvalue             \
							  : (int64_t)v[k] == ts->value)            \
					       : (float)v[k] > ts->threshold;                      \
			if (fg && count++ == stop) {                                               \
				*at = k;                                                           \
				return count;                                                      \
			}                                                                          \
		}                                                                                  \
		break;                                                                             \
	}
		DALIC_DTYPES_NUMERIC(RMP_SCAN)
#undef RMP_SCAN
	default: break;
	}
	return count;
}

/* static_cast<T>(v) and whether it casts back to v (DALI's check). */
static void random_mask_pixel_value(dalic_dtype_t t, int32_t v, random_mask_pixel_test_t *ts)
{
	ts->by_value = true;
	switch (t) {
	case DALIC_UINT8: ts->value = (uint8_t)v; break;
	case DALIC_INT8: ts->value = (int8_t)v; break;
	case DALIC_UINT16: ts->value = (uint16_t)v; break;
	case DALIC_INT16: ts->value = (int16_t)v; break;
	case DALIC_UINT32: ts->value = (uint32_t)v; break;
	case DALIC_BOOL: ts->value = v != 0; break;
	case DALIC_FLOAT: ts->fvalue = (float)v; ts->value = (int64_t)(float)v; break;
	default: ts->value = v; break; /* int32, int64; uint64 keeps the bits below */
	}
	if (t == DALIC_UINT64)
		ts->value = (int64_t)(uint64_t)(int64_t)v;
	/* static_cast<int>(value) == v: narrow types wrap, uint32/uint64 cast back bit-exactly */
	int32_t back = t == DALIC_FLOAT ? (int32_t)ts->fvalue : (int32_t)ts->value;
	ts->none = back != v;
}

static int random_mask_pixel_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
					int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	int64_t *out = ws->outputs[0]->ptrs[i];
	const int64_t *sh = dalic_batch_shape(in, i);
	int ndim = in->ndim;
	double fg_arg;
	DALIC_TRY(random_mask_pixel_arg(ctx, ws, "foreground", DALIC_INT32, i, &fg_arg));
	dalic_philox_t g = dalic_op_rng(ctx, i);
	if ((int32_t)fg_arg != 0) {
		random_mask_pixel_test_t ts = {0};
		double v;
		if (dalic_arg_given(ctx, "value")) {
			DALIC_TRY(random_mask_pixel_arg(ctx, ws, "value", DALIC_INT32, i, &v));
			random_mask_pixel_value(in->dtype, (int32_t)v, &ts);
		} else {
			DALIC_TRY(random_mask_pixel_arg(ctx, ws, "threshold", DALIC_FLOAT, i, &v));
			ts.threshold = (float)v;
		}
		int64_t n = dalic_batch_sample_elems(in, i), at = -1;
		int64_t count = ts.none ? 0 : random_mask_pixel_scan(in->dtype, in->ptrs[i], n, &ts,
								     -1, &at);
		if (count > 0) {
			int64_t k = (int64_t)dalic_rng_std_below_incl((uint64_t)(count - 1),
								      dalic_rng_philox_next_fn, &g);
			random_mask_pixel_scan(in->dtype, in->ptrs[i], n, &ts, k, &at);
			for (int d = ndim - 1; d >= 0; d--) {
				out[d] = sh[d] ? at % sh[d] : 0;
				at = sh[d] ? at / sh[d] : 0;
			}
			return DALIC_OK;
		}
	}
	for (int d = 0; d < ndim; d++) /* background, or no foreground: any pixel */
		out[d] = (int64_t)dalic_rng_std_below_incl((uint64_t)(sh[d] - 1),
							   dalic_rng_philox_next_fn, &g);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"value", DALIC_ARG_INT, "None",
     "All pixels equal to this value are foreground (exclusive with threshold).",
     .tensor = true},
    {"threshold", DALIC_ARG_FLOAT, "0.0",
     "All pixels with a value above this threshold are foreground (exclusive with value).",
     .tensor = true},
    {"foreground", DALIC_ARG_INT, "0",
     "If not 0, the pixel is drawn from the foreground pixels; else from all pixels.",
     .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {
    .init = random_mask_pixel_init,
    .setup = random_mask_pixel_setup,
    .run_sample = random_mask_pixel_run_sample,
};

DALIC_OPERATOR(segmentation__RandomMaskPixel) = {
    .name = "segmentation__RandomMaskPixel",
    .fn = "segmentation.random_mask_pixel",
    .module = "nvidia.dali.fn.segmentation",
    .doc = "Selects random pixel coordinates in a mask, sampled from a uniform distribution.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
