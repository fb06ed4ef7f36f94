/*
 * roi_random_crop: the start of a crop window of a fixed shape (`crop_shape`), placed at random
 * so that as much as possible of the region of interest (roi_start with roi_end or roi_shape)
 * is inside it: a window smaller than the ROI lies within the ROI, a larger one contains it.
 * With an input shape (`in_shape`, or the shape of the optional input) the window also stays
 * within the input. Output: int64 [ndim] per sample.
 *
 * The draws are DALI 2.4's: per dimension, libstdc++'s uniform_int_distribution<int64_t> over
 * the allowed starts, in order, on the sample's Philox generator; a dimension whose ROI is
 * exactly the window's size takes the ROI's start without a draw.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "engine/rng_std.h"

typedef struct roi_random_crop_sample {
	int ndim;
	int64_t crop[DALIC_MAX_NDIM], roi_start[DALIC_MAX_NDIM], roi_extent[DALIC_MAX_NDIM];
	bool bounded;
	int64_t in_shape[DALIC_MAX_NDIM];
} roi_random_crop_sample_t;

static int roi_random_crop_init(dalic_op_ctx_t *ctx)
{
	if (dalic_arg_given(ctx, "roi_end") == dalic_arg_given(ctx, "roi_shape"))
		return dalic_op_fail(ctx, NULL, -1,
				     "Either ROI end or ROI shape should be defined, but not both");
	return DALIC_OK;
}

/* An int list argument of sample i (int32 when given per sample), broadcast from one value to
 * `want` values when want > 0. */
static int roi_random_crop_ints(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
				int i, int want, int64_t *out, int *n)
{
	const dalic_batch_t *in = dalic_arg_input(ws, name);
	if (in && in->dtype != DALIC_INT32)
		return dalic_op_fail(ctx, ws, i,
				     "argument '%s': Calling type does not match buffer data type, "
				     "requested type: int32 current buffer type: %s",
				     name, dalic_dtype_cname(in->dtype));
	if (in && in->ndim > 1)
		return dalic_op_fail(ctx, ws, i,
				     "argument '%s': Input with dimension (%d) cannot be converted "
				     "to dimension (1).",
				     name, in->ndim);
	double v[DALIC_MAX_NDIM];
	DALIC_TRY(dalic_arg_floats_at(ctx, ws, name, i, v, DALIC_MAX_NDIM, n));
	if (want > 0 && *n == 1 && (!in || in->ndim == 0)) {
		for (int d = 1; d < want; d++)
			v[d] = v[0];
		*n = want;
	}
	if (want > 0 && *n != want)
		return dalic_op_fail(ctx, ws, i,
				     "Argument \"%s\" expected shape %d but got %d values, which "
				     "can't be interpreted as the expected shape.",
				     name, want, *n);
	for (int d = 0; d < *n; d++)
		out[d] = (int64_t)v[d];
	return DALIC_OK;
}

/* Reads and checks sample i's arguments (SetupImpl). */
static int roi_random_crop_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
				  roi_random_crop_sample_t *s)
{
	DALIC_TRY(roi_random_crop_ints(ctx, ws, "crop_shape", i, 0, s->crop, &s->ndim));
	int n, nd = s->ndim;
	DALIC_TRY(roi_random_crop_ints(ctx, ws, "roi_start", i, nd, s->roi_start, &n));
	bool has_end = dalic_arg_given(ctx, "roi_end");
	int64_t v[DALIC_MAX_NDIM];
	DALIC_TRY(roi_random_crop_ints(ctx, ws, has_end ? "roi_end" : "roi_shape", i, nd, v, &n));
	for (int d = 0; d < nd; d++)
		s->roi_extent[d] = has_end ? v[d] - s->roi_start[d] : v[d];
	bool has_in_shape = dalic_arg_given(ctx, "in_shape");
	s->bounded = has_in_shape || ws->num_inputs == 1;
	if (!s->bounded)
		return DALIC_OK;
	if (has_in_shape && ws->num_inputs == 1)
		return dalic_op_fail(ctx, ws, -1,
				     "``in_shape`` argument is incompatible with providing an input.");
	if (has_in_shape) {
		DALIC_TRY(roi_random_crop_ints(ctx, ws, "in_shape", i, nd, s->in_shape, &n));
	} else {
		const dalic_batch_t *in = ws->inputs[0];
		if (in->ndim != nd)
			return dalic_op_fail(ctx, ws, i,
					     "the input has %d dimensions, crop_shape %d", in->ndim, nd);
		for (int d = 0; d < nd; d++)
			s->in_shape[d] = dalic_batch_shape(in, i)[d];
	}
	for (int d = 0; d < nd; d++) {
		int64_t sh = s->in_shape[d], c = s->crop[d];
		int64_t start = s->roi_start[d], end = start + s->roi_extent[d];
		if (sh < 0)
			return dalic_op_fail(ctx, ws, i,
					     "Input shape can't be negative. Got %lld for d=%d",
					     (long long)sh, d);
		if (c < 0)
			return dalic_op_fail(ctx, ws, i,
					     "Crop shape can't be negative. Got %lld for d=%d",
					     (long long)c, d);
		if (sh < c)
			return dalic_op_fail(ctx, ws, i,
					     "Cropping shape can't be bigger than the input shape. Got: "
					     "crop_shape[%lld] and sample_shape[%lld] for d=%d",
					     (long long)c, (long long)sh, d);
		if (!(start >= 0 && sh >= end))
			return dalic_op_fail(ctx, ws, i,
					     "ROI can't be out of bounds. Got roi_start[%lld], "
					     "roi_end[%lld], sample_shape[%lld], for d=%d",
					     (long long)start, (long long)end, (long long)sh, d);
	}
	return DALIC_OK;
}

static int roi_random_crop_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	int ndim = 0;
	for (int i = 0; i < ws->batch_size; i++) {
		roi_random_crop_sample_t s;
		DALIC_TRY(roi_random_crop_sample(ctx, ws, i, &s));
		if (i == 0)
			ndim = s.ndim;
		else if (s.ndim != ndim)
			return dalic_op_fail(ctx, ws, i,
					     "argument 'crop_shape': samples of %d and %d values (the "
					     "shape must be uniform)",
					     ndim, s.ndim);
	}
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size, DALIC_INT64, 1));
	for (int i = 0; i < ws->batch_size; i++)
		dalic_batch_shape_mut(out, i)[0] = ndim;
	return DALIC_OK;
}

static int roi_random_crop_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
				      int thread)
{
	roi_random_crop_sample_t s;
	DALIC_TRY(roi_random_crop_sample(ctx, ws, i, &s));
	int64_t *out = ws->outputs[0]->ptrs[i];
	dalic_philox_t g = dalic_op_rng(ctx, i);
	for (int d = 0; d < s.ndim; d++) {
		int64_t start = s.roi_start[d], extent = s.roi_extent[d], crop = s.crop[d];
		if (extent == crop) {
			out[d] = start;
			continue;
		}
		int64_t lo = start, hi = start + extent - crop;
		if (lo > hi) {
			int64_t t = lo;
			lo = hi;
			hi = t;
		}
		if (s.bounded) {
			lo = lo > 0 ? lo : 0;
			hi = s.in_shape[d] - crop < hi ? s.in_shape[d] - crop : hi;
		}
		out[d] = (int64_t)((uint64_t)lo +
				   dalic_rng_std_below_incl((uint64_t)hi - (uint64_t)lo,
							    dalic_rng_philox_next_fn, &g));
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"crop_shape", DALIC_ARG_INT_LIST, NULL, "Cropping window dimensions.", .tensor = true},
    {"roi_start", DALIC_ARG_INT_LIST, NULL, "ROI start coordinates.", .tensor = true},
    {"roi_end", DALIC_ARG_INT_LIST, "None",
     "ROI end coordinates (mutually exclusive with roi_shape).", .tensor = true},
    {"roi_shape", DALIC_ARG_INT_LIST, "None", "ROI shape (mutually exclusive with roi_end).",
     .tensor = true},
    {"in_shape", DALIC_ARG_INT_LIST, "None",
     "Shape of the input data: the window stays within it (incompatible with an input).",
     .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {
    .init = roi_random_crop_init,
    .setup = roi_random_crop_setup,
    .run_sample = roi_random_crop_run_sample,
};

DALIC_OPERATOR(ROIRandomCrop) = {
    .name = "ROIRandomCrop",
    .fn = "roi_random_crop",
    .doc = "Produces a fixed shape cropping window, randomly placed so that as much of the "
	   "provided region of interest (ROI) is contained in it.",
    .min_inputs = 0,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
