/*
 * roi_random_crop (DALI's ROIRandomCrop): the start of a `crop_shape` window placed at random
 * so that it holds as much of the region of interest (roi_start with roi_end or roi_shape) as
 * it can — inside the ROI when the ROI is bigger, around it when smaller. With `in_shape` or
 * an input, the window stays inside that shape. Output: int64[ndim] per sample. Per
 * dimension whose ROI extent differs from the crop extent, one draw of libstdc++'s
 * uniform_int_distribution<int64_t> from the sample's generator, in dimension order.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"

#include <stdio.h>

#define ROI_CROP_MAX_NDIM 16

typedef struct roi_crop_sample {
	int ndim;
	int64_t crop[ROI_CROP_MAX_NDIM], start[ROI_CROP_MAX_NDIM], extent[ROI_CROP_MAX_NDIM];
	int64_t bound[ROI_CROP_MAX_NDIM]; /* the input's shape, when there is one */
	bool bounded;
} roi_crop_sample_t;

/* A per-sample integer vector argument of `ndim` values (ndim < 0: any length, set it). */
static int roi_crop_vec(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name, int i,
                        int *ndim, int64_t *out)
{
	double v[ROI_CROP_MAX_NDIM];
	int n;
	DALIC_TRY(dalic_arg_floats_at(ctx, ws, name, i, v, ROI_CROP_MAX_NDIM, &n));
	if (*ndim < 0) {
		if (n < 1)
			return dalic_op_fail(ctx, ws, i, "`%s` must have at least one value", name);
		*ndim = n;
	} else if (n != *ndim) {
		return dalic_op_fail(ctx, ws, i,
		                     "`%s` has %d values; crop_shape has %d (one per dimension)",
		                     name, n, *ndim);
	}
	for (int d = 0; d < n; d++)
		out[d] = (int64_t)v[d];
	return DALIC_OK;
}

/* Sample i's window, ROI and bounds, checked as DALI's SetupImpl checks them. */
static int roi_crop_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, roi_crop_sample_t *s)
{
	s->ndim = -1;
	DALIC_TRY(roi_crop_vec(ctx, ws, "crop_shape", i, &s->ndim, s->crop));
	DALIC_TRY(roi_crop_vec(ctx, ws, "roi_start", i, &s->ndim, s->start));
	bool by_end = dalic_arg_given(ctx, "roi_end");
	DALIC_TRY(roi_crop_vec(ctx, ws, by_end ? "roi_end" : "roi_shape", i, &s->ndim, s->extent));
	for (int d = 0; by_end && d < s->ndim; d++)
		s->extent[d] -= s->start[d];
	s->bounded = dalic_arg_given(ctx, "in_shape") || ws->num_inputs == 1;
	if (!s->bounded)
		return DALIC_OK;
	if (ws->num_inputs == 1) {
		const dalic_batch_t *in = ws->inputs[0];
		if (in->ndim != s->ndim)
			return dalic_op_fail(ctx, ws, i,
			                     "the input has %d dimensions; crop_shape has %d", in->ndim,
			                     s->ndim);
		const int64_t *sh = dalic_batch_shape(in, i);
		for (int d = 0; d < s->ndim; d++)
			s->bound[d] = sh[d];
	} else {
		DALIC_TRY(roi_crop_vec(ctx, ws, "in_shape", i, &s->ndim, s->bound));
	}
	for (int d = 0; d < s->ndim; d++) {
		if (s->bound[d] < 0)
			return dalic_op_fail(ctx, ws, i,
			                     "Input shape can't be negative. Got %lld for d=%d",
			                     (long long)s->bound[d], d);
		if (s->crop[d] < 0)
			return dalic_op_fail(ctx, ws, i, "Crop shape can't be negative. Got %lld for d=%d",
			                     (long long)s->crop[d], d);
		if (s->bound[d] < s->crop[d])
			return dalic_op_fail(ctx, ws, i,
			                     "Cropping shape can't be bigger than the input shape. Got: "
			                     "crop_shape[%lld] and sample_shape[%lld] for d=%d",
			                     (long long)s->crop[d], (long long)s->bound[d], d);
	}
	for (int d = 0; d < s->ndim; d++) {
		int64_t end = s->start[d] + s->extent[d];
		if (s->start[d] < 0 || s->bound[d] < end)
			return dalic_op_fail(ctx, ws, i,
			                     "ROI can't be out of bounds. Got roi_start[%lld], "
			                     "roi_end[%lld], sample_shape[%lld], for d=%d",
			                     (long long)s->start[d], (long long)end,
			                     (long long)s->bound[d], d);
	}
	return DALIC_OK;
}

static int roi_crop_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	if (dalic_arg_given(ctx, "roi_end") == dalic_arg_given(ctx, "roi_shape"))
		return dalic_op_fail(ctx, ws, -1,
		                     "Either ROI end or ROI shape should be defined, but not both");
	if (dalic_arg_given(ctx, "in_shape") && ws->num_inputs == 1)
		return dalic_op_fail(ctx, ws, -1,
		                     "``in_shape`` argument is incompatible with providing an input.");
	const dalic_batch_t *cs = dalic_arg_input(ws, "crop_shape");
	int n = cs ? cs->num_samples : ws->num_inputs ? ws->inputs[0]->num_samples : ws->batch_size;
	int ndim = -1;
	for (int i = 0; i < n; i++) { /* argument errors before any sample runs */
		roi_crop_sample_t s;
		DALIC_TRY(roi_crop_sample(ctx, ws, i, &s));
		if (ndim >= 0 && s.ndim != ndim)
			return dalic_op_fail(ctx, ws, i,
			                     "crop_shape has %d values here and %d in sample 0", s.ndim,
			                     ndim);
		ndim = s.ndim;
	}
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, n, DALIC_INT64, 1));
	int64_t dims = ndim < 0 ? 0 : ndim;
	dalic_batch_set_uniform_shape(out, &dims);
	return DALIC_OK;
}

static int roi_crop_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	roi_crop_sample_t s;
	DALIC_TRY(roi_crop_sample(ctx, ws, i, &s));
	int64_t *out = dalic_batch_mut(ws->outputs[0], i);
	dalic_philox_t g = dalic_op_rng(ctx, i);
	for (int d = 0; d < s.ndim; d++) {
		if (s.extent[d] == s.crop[d]) {
			out[d] = s.start[d];
			continue;
		}
		int64_t lo = s.start[d], hi = s.start[d] + s.extent[d] - s.crop[d];
		if (lo > hi) {
			int64_t t = lo;
			lo = hi;
			hi = t;
		}
		if (s.bounded) {
			lo = lo > 0 ? lo : 0;
			hi = hi < s.bound[d] - s.crop[d] ? hi : s.bound[d] - s.crop[d];
		}
		out[d] = dalic_rng_std_uniform_int(&g, lo, hi);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t roi_crop_args[] = {
    {"crop_shape", DALIC_ARG_INT_LIST, NULL, "Cropping window dimensions.", .tensor = true},
    {"roi_start", DALIC_ARG_INT_LIST, NULL, "ROI start coordinates.", .tensor = true},
    {"roi_end", DALIC_ARG_INT_LIST, "None",
     "ROI end coordinates (exclusive with roi_shape).", .tensor = true},
    {"roi_shape", DALIC_ARG_INT_LIST, "None", "ROI shape (exclusive with roi_end).",
     .tensor = true},
    {"in_shape", DALIC_ARG_INT_LIST, "None",
     "Shape of the input data: the window stays within it (not with an input).",
     .tensor = true},
    {0},
};

static const dalic_kernel_t roi_crop_kernel = {
    .setup = roi_crop_setup,
    .run_sample = roi_crop_run_sample,
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
    .args = roi_crop_args,
    .cpu = &roi_crop_kernel,
};
