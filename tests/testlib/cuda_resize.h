/*
 * resize cases for the CUDA resize kernel's checks, shared by the grid-runner suite
 * (tests/unit/test_cuda_resize.c) and make test-gpu (tests/gpu/gpu_resize.c): the arguments
 * a case sets on the CPU operator, and the per-sample resampling jobs the kernel gets for
 * them. The jobs come from the arguments the way DALI's GPU resize gets its own: the shared
 * size rules (dalic_img_resize_calc) and the filter rules of ResamplingFilterAttr, repeated
 * here, so a drift between this setup and the CPU operator's shows up as differing outputs.
 * Header only, no Criterion: tests/gpu/ includes it too.
 */
#ifndef DALIC_TESTS_TESTLIB_CUDA_RESIZE_H
#define DALIC_TESTS_TESTLIB_CUDA_RESIZE_H

#include "dalic.h"
#include "kernels/common/img_resample.h"
#include "kernels/common/img_resize_attr.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct tl_cu_resize_case {
	const char *what;
	dalic_dtype_t in_type, out_type;
	const char *layout; /* NULL: none (HW, HWC or FHWC by rank) */
	int ndim, n;
	const int64_t *shapes;              /* n * ndim */
	const float *rx, *ry;               /* resize_x, resize_y per sample (argument inputs) */
	int interp, min_filter, mag_filter; /* DALIC_INTERP_*; -1: not given */
	bool antialias, subpixel;
	const double *roi_start, *roi_end; /* [y, x] for every sample, or NULL */
	bool roi_relative;
} tl_cu_resize_case_t;

/* The case's scalar arguments on resize `op`; DALIC_OK or the first error. */
static inline int tl_cu_resize_set_args(dalic_op_t *op, const tl_cu_resize_case_t *c)
{
	int rc = DALIC_OK;
	if (c->out_type != c->in_type)
		rc = dalic_op_set_int(op, "dtype", c->out_type);
	if (!rc && c->interp >= 0)
		rc = dalic_op_set_int(op, "interp_type", c->interp);
	if (!rc && c->min_filter >= 0)
		rc = dalic_op_set_int(op, "min_filter", c->min_filter);
	if (!rc && c->mag_filter >= 0)
		rc = dalic_op_set_int(op, "mag_filter", c->mag_filter);
	if (!rc)
		rc = dalic_op_set_bool(op, "antialias", c->antialias);
	if (!rc)
		rc = dalic_op_set_bool(op, "subpixel_scale", c->subpixel);
	if (!rc && c->roi_start) {
		rc = dalic_op_set_floats(op, "roi_start", 2, c->roi_start);
		if (!rc)
			rc = dalic_op_set_floats(op, "roi_end", 2, c->roi_end);
		if (!rc)
			rc = dalic_op_set_bool(op, "roi_relative", c->roi_relative);
	}
	return rc;
}

/* Position of H in the case's layout (W follows it). */
static inline int tl_cu_resize_h_dim(const tl_cu_resize_case_t *c)
{
	if (!c->layout)
		return c->ndim == 4 ? 1 : 0;
	return (int)(strchr(c->layout, 'H') - c->layout);
}

/* A filter argument as img_filter_t: `arg` if given, else interp_type if given, else LINEAR. */
static inline img_filter_t tl_cu_resize_filter(int arg, int interp)
{
	int f = dalic_img_filter_from_interp(arg >= 0 ? arg : interp >= 0 ? interp : 1);
	return f < 0 ? IMG_FILTER_LINEAR : (img_filter_t)f;
}

/*
 * The job of sample i (its first plane; in / out: the sample's data) and its plane count.
 * false after a message in err when the size rules refuse the sample.
 */
static inline bool tl_cu_resize_job(const tl_cu_resize_case_t *c, int i, const void *in, void *out,
                                    img_resample_job_t *job, int64_t *planes, char *err,
                                    size_t errn)
{
	const int64_t *shape = c->shapes + (size_t)i * c->ndim;
	const int h = tl_cu_resize_h_dim(c);
	int64_t np = 1, channels = 1, elems = 1;
	for (int d = 0; d < c->ndim; d++) {
		elems *= shape[d];
		if (d < h)
			np *= shape[d];
		else if (d > h + 1)
			channels *= shape[d];
	}
	/* the input region, as the operator reads roi_start / roi_end */
	float req[2] = {c->ry[i], c->rx[i]}, lo[2], hi[2];
	for (int d = 0; d < 2; d++) {
		lo[d] = 0;
		hi[d] = (float)shape[h + d];
		if (!c->roi_start || shape[h + d] <= 0)
			continue;
		double a = c->roi_start[d], b = c->roi_end[d];
		if (c->roi_relative)
			a *= (double)shape[h + d], b *= (double)shape[h + d];
		if (fabs(b - a) < 1e-3) { /* DALI's minimum extent, about the region's start */
			double off = a <= b ? 0.5e-3 : -0.5e-3;
			a -= off, b += off;
		}
		lo[d] = (float)a;
		hi[d] = (float)b;
	}
	img_resize_plan_t plan;
	if (dalic_img_resize_calc(2, req, lo, hi, IMG_RESIZE_DEFAULT, NULL, c->subpixel, elems == 0,
	                          &plan, err, errn))
		return false;
	/* ResamplingFilterAttr: TRIANGULAR without antialias is LINEAR, and so is any
	 * TRIANGULAR magnification */
	img_filters_t f;
	f.antialias = c->antialias;
	f.min = tl_cu_resize_filter(c->min_filter, c->interp);
	f.mag = tl_cu_resize_filter(c->mag_filter, c->interp);
	if (!f.antialias && f.min == IMG_FILTER_TRIANGULAR)
		f.min = IMG_FILTER_LINEAR;
	if (f.mag == IMG_FILTER_TRIANGULAR)
		f.mag = IMG_FILTER_LINEAR;
	memset(job, 0, sizeof *job);
	job->in = in;
	job->in_type = c->in_type;
	job->in_h = (int)shape[h];
	job->in_w = (int)shape[h + 1];
	job->channels = (int)channels;
	job->out = out;
	job->out_type = c->out_type;
	job->out_h = plan.out[0];
	job->out_w = plan.out[1];
	job->y0 = plan.lo[0];
	job->y1 = plan.hi[0];
	job->x0 = plan.lo[1];
	job->x1 = plan.hi[1];
	job->filters = f;
	*planes = np;
	return true;
}

#endif
