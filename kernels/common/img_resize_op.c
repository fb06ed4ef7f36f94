/* The resizing operators' common body (see img_resize_op.h), moved from resize.c. */
#include "kernels/common/img_resize_op.h"

#include "engine/error.h"
#include "kernels/common/arg_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int img_resize_op_init_state(dalic_op_ctx_t *ctx, img_resize_op_t *r)
{
	bool shorter = dalic_arg_given(ctx, "resize_shorter");
	bool longer = dalic_arg_given(ctx, "resize_longer");
	if (shorter + longer + dalic_arg_given(ctx, "mode") > 1)
		return dalic_op_fail(ctx, NULL, -1,
		                     "`resize_shorter`, ``resize_longer`` and "
		                     "``mode`` arguments are mutually exclusive");
	int mode = dalic_img_resize_mode_parse(dalic_arg_string(ctx, "mode"));
	if (mode < 0)
		return dalic_op_fail(ctx, NULL, -1, "Invalid resize mode '%s'",
		                     dalic_arg_string(ctx, "mode"));
	r->mode = shorter ? IMG_RESIZE_NOT_SMALLER : longer ? IMG_RESIZE_NOT_LARGER : mode;
	const dalic_value_t *max = dalic_arg(ctx, "max_size");
	r->has_max_size = max->kind != DALIC_V_NONE && max->n > 0;
	if (r->has_max_size && max->n > 2)
		return dalic_op_fail(ctx, NULL, -1, "max_size has %d values; 1 or 2 expected",
		                     max->n);
	for (int d = 0; r->has_max_size && d < 2; d++) {
		double v = dalic_value_get_f(max, max->n == 1 ? 0 : d);
		int rc = dalic_argck_finite(ctx, NULL, -1, "max_size", &v, 1);
		if (rc)
			return rc;
		r->max_size[d] = (float)v;
	}
	r->subpixel = dalic_arg_bool(ctx, "subpixel_scale");
	r->roi_relative = dalic_arg_bool(ctx, "roi_relative");
	r->plan = calloc((size_t)ctx->max_batch_size, sizeof *r->plan);
	r->filters = calloc((size_t)ctx->max_batch_size, sizeof *r->filters);
	r->num_threads = ctx->num_threads + 1;
	r->threads = calloc((size_t)r->num_threads, sizeof *r->threads);
	if (!r->plan || !r->filters || !r->threads)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return DALIC_OK;
}

int dalic_img_resize_op_init(dalic_op_ctx_t *ctx, img_resize_op_t *r)
{
	int rc = img_resize_op_init_state(ctx, r);
	if (rc)
		dalic_img_resize_op_fini(r);
	return rc;
}

void dalic_img_resize_op_fini(img_resize_op_t *r)
{
	for (int t = 0; r->threads && t < r->num_threads; t++)
		dalic_img_resample_ws_free(&r->threads[t]);
	free(r->threads);
	free(r->plan);
	free(r->filters);
	r->threads = NULL;
	r->plan = NULL;
	r->filters = NULL;
}

/* Position of H in the layout (W follows); checks the layout is one we resample. */
static int img_resize_op_spatial_dims(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                                      const dalic_batch_t *in, int *h_dim)
{
	const char *l = in->layout;
	if (!*l) {
		if (in->ndim < 2 || in->ndim > 4)
			return dalic_op_fail(ctx, ws, -1,
			                     "cannot resize %d-D data without a layout", in->ndim);
		*h_dim = in->ndim == 4 ? 1 : 0; /* HW, HWC, FHWC */
		return DALIC_OK;
	}
	const char *h = strchr(l, 'H');
	if (strchr(l, 'D'))
		return dalic_fail(DALIC_EUNSUPPORTED,
		                  "operator '%s': volumetric resize (layout %s) "
		                  "is not supported",
		                  ctx->inst, l);
	if (!h || h[1] != 'W')
		return dalic_op_fail(ctx, ws, -1,
		                     "Spatial dimensions must be adjacent (as in HWC "
		                     "layout). Got: %s",
		                     l);
	*h_dim = (int)(h - l);
	for (int d = 0; d < in->ndim; d++)
		if (d != *h_dim && d != *h_dim + 1 && l[d] != 'C' && l[d] != 'F')
			return dalic_op_fail(ctx, ws, -1, "unsupported layout %s for resize", l);
	return DALIC_OK;
}

/* The requested output extents [H, W] of sample i. */
static int img_resize_op_requested_size(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                        float req[2])
{
	bool sep = dalic_img_arg_present(ctx, ws, "resize_x") ||
	           dalic_img_arg_present(ctx, ws, "resize_y");
	bool size = dalic_img_arg_present(ctx, ws, "size");
	bool shorter = dalic_img_arg_present(ctx, ws, "resize_shorter");
	bool longer = dalic_img_arg_present(ctx, ws, "resize_longer");
	if (sep + size + shorter + longer != 1)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "Exactly one method of specifying size must be used. The "
		    "available methods: separate resize_x, resize_y arguments; size "
		    "argument; resize_longer; resize_shorter");
	/* A NaN or infinite size has no meaning (DALI crashes on NaN): it is an error. */
	double v[IMG_MAX_SPATIAL];
	int n, rc = DALIC_OK;
	if (sep) {
		static const char *const names[2] = {"resize_y", "resize_x"};
		for (int d = 0; d < 2; d++) {
			req[d] = 0;
			if (!dalic_img_arg_present(ctx, ws, names[d]))
				continue;
			if ((rc = dalic_arg_float_at(ctx, ws, names[d], i, &v[0])) ||
			    (rc = dalic_argck_finite(ctx, ws, i, names[d], v, 1)))
				return rc;
			req[d] = (float)v[0];
		}
	} else if (size) {
		rc = dalic_arg_floats_at(ctx, ws, "size", i, v, IMG_MAX_SPATIAL, &n);
		if (!rc && n != 1 && n != 2)
			return dalic_op_fail(ctx, ws, i, "size has %d values; 2 expected ([H, W])",
			                     n);
		if (!rc)
			rc = dalic_argck_finite(ctx, ws, i, "size", v, n);
		for (int d = 0; !rc && d < 2; d++)
			req[d] = (float)v[n == 1 ? 0 : d];
	} else {
		const char *name = shorter ? "resize_shorter" : "resize_longer";
		rc = dalic_arg_float_at(ctx, ws, name, i, &v[0]);
		if (!rc)
			rc = dalic_argck_finite(ctx, ws, i, name, v, 1);
		req[0] = req[1] = (float)v[0];
	}
	return rc;
}

/* The input region of sample i: roi_start / roi_end (absolute or relative) or everything. */
static int img_resize_op_input_region(dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                                      const img_resize_op_t *r, int i, const int64_t *hw,
                                      float lo[2], float hi[2])
{
	bool has_start = dalic_img_arg_present(ctx, ws, "roi_start");
	if (has_start != dalic_img_arg_present(ctx, ws, "roi_end"))
		return dalic_op_fail(ctx, ws, -1,
		                     "``roi_start`` and ``roi_end`` must be specified "
		                     "together");
	for (int d = 0; d < 2; d++) {
		lo[d] = 0;
		hi[d] = (float)hw[d];
	}
	if (!has_start)
		return DALIC_OK;
	double s[IMG_MAX_SPATIAL], e[IMG_MAX_SPATIAL];
	int ns, ne;
	int rc = dalic_arg_floats_at(ctx, ws, "roi_start", i, s, IMG_MAX_SPATIAL, &ns);
	if (!rc)
		rc = dalic_arg_floats_at(ctx, ws, "roi_end", i, e, IMG_MAX_SPATIAL, &ne);
	if (rc)
		return rc;
	if (ns != 2 || ne != 2)
		return dalic_op_fail(ctx, ws, i, "roi_start / roi_end need 2 values ([y, x])");
	if ((rc = dalic_argck_finite(ctx, ws, i, "roi_start", s, 2)) ||
	    (rc = dalic_argck_finite(ctx, ws, i, "roi_end", e, 2)))
		return rc;
	for (int d = 0; d < 2; d++) {
		if (hw[d] <= 0)
			continue;
		double a = s[d], b = e[d];
		if (r->roi_relative)
			a *= (double)hw[d], b *= (double)hw[d];
		/* A vanishing region still samples its location (DALI's 1e-3 minimum). */
		if (fabs(b - a) < 1e-3) {
			double off = a <= b ? 0.5e-3 : -0.5e-3;
			a -= off, b += off;
		}
		lo[d] = (float)a;
		hi[d] = (float)b;
	}
	return DALIC_OK;
}

int dalic_img_resize_op_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_resize_op_t *r,
                              dalic_img_resize_adjust_fn adjust)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int rc = img_resize_op_spatial_dims(ctx, ws, in, &r->h_dim);
	if (!rc)
		rc = dalic_img_resample_dtype(ctx, ws, in->dtype, &r->out_type);
	if (!rc)
		rc = dalic_batch_set_meta(out, ws->batch_size, r->out_type, in->ndim);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, in->layout);
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *shape = dalic_batch_shape(in, i);
		const int64_t *hw = shape + r->h_dim;
		float req[2], lo[2], hi[2];
		char err[256];
		if ((rc = img_resize_op_requested_size(ctx, ws, i, req)) ||
		    (rc = img_resize_op_input_region(ctx, ws, r, i, hw, lo, hi)) ||
		    (rc = dalic_img_filters_for_sample(ctx, ws, i, &r->filters[i])))
			return rc;
		if (dalic_img_resize_calc(
		        2, req, lo, hi, r->mode, r->has_max_size ? r->max_size : NULL, r->subpixel,
		        dalic_batch_sample_elems(in, i) == 0, &r->plan[i], err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "%s", err);
		if (adjust && (rc = adjust(ctx, ws, i, r, shape, &r->plan[i])))
			return rc;
		int64_t *os = dalic_batch_shape_mut(out, i);
		memcpy(os, shape, sizeof(int64_t) * (size_t)in->ndim);
		os[r->h_dim] = r->plan[i].out[0];
		os[r->h_dim + 1] = r->plan[i].out[1];
		int64_t channels = 1;
		for (int d = r->h_dim + 2; d < in->ndim; d++)
			channels *= shape[d];
		if (dalic_img_resample_fits(hw[0], hw[1], channels, os[r->h_dim], os[r->h_dim + 1]))
			return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

int64_t dalic_img_resize_op_job(const img_resize_op_t *r, const dalic_batch_t *in,
                                const dalic_batch_t *out, int i, img_resample_job_t *job)
{
	const int64_t *shape = dalic_batch_shape(in, i);
	/* Dims before H are independent planes (frames, planar channels); dims after W are
	 * interleaved channels. */
	int64_t planes = 1, channels = 1;
	for (int d = 0; d < r->h_dim; d++)
		planes *= shape[d];
	for (int d = r->h_dim + 2; d < in->ndim; d++)
		channels *= shape[d];
	int64_t in_h = shape[r->h_dim], in_w = shape[r->h_dim + 1];
	const img_resize_plan_t *pl = &r->plan[i];
	*job = (img_resample_job_t){
	    .in = in->ptrs[i],
	    .in_type = in->dtype,
	    .in_h = (int)in_h,
	    .in_w = (int)in_w,
	    .channels = (int)channels,
	    .out = out->ptrs[i],
	    .out_type = out->dtype,
	    .out_h = pl->out[0],
	    .out_w = pl->out[1],
	    .y0 = pl->lo[0],
	    .y1 = pl->hi[0],
	    .x0 = pl->lo[1],
	    .x1 = pl->hi[1],
	    .filters = r->filters[i],
	};
	return planes * channels * in_h * in_w == 0 ? 0 : planes;
}

int dalic_img_resize_op_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_resize_op_t *r,
                                   int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (thread < 0 || thread >= r->num_threads)
		return dalic_op_fail(ctx, ws, i, "worker thread %d outside the %d expected", thread,
		                     r->num_threads);
	img_resample_job_t job0;
	int64_t planes = dalic_img_resize_op_job(r, in, out, i, &job0);
	size_t in_plane = (size_t)job0.in_h * (size_t)job0.in_w * (size_t)job0.channels *
	                  dalic_dtype_size(in->dtype);
	size_t out_plane = (size_t)job0.out_h * (size_t)job0.out_w * (size_t)job0.channels *
	                   dalic_dtype_size(out->dtype);
	for (int64_t p = 0; p < planes; p++) {
		img_resample_job_t job = job0;
		job.in = (const uint8_t *)job0.in + p * in_plane;
		job.out = (uint8_t *)job0.out + p * out_plane;
		if (dalic_img_resample(&r->threads[thread], &job))
			return dalic_op_fail(ctx, ws, i, "resampling %dx%d to %dx%d: %s", job.in_h,
			                     job.in_w, job.out_h, job.out_w, dalic_last_error());
	}
	return DALIC_OK;
}
