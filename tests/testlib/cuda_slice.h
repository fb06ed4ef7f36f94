/*
 * slice, crop and crop_mirror_normalize cases for the CUDA slice and cmn kernels' checks,
 * shared by the grid-runner suites (tests/unit/test_cuda_slice.c, test_cuda_cmn.c) and make
 * test-gpu (tests/gpu/gpu_slice.c, gpu_cmn.c): the arguments a case sets on the CPU operator,
 * and the per-sample plans the kernels get for them. The windows come from the arguments by
 * DALI's SliceAttr / CropAttr rules, repeated here (start and shape on the given axes; anchor =
 * round(pos * (in - crop)); trim_to_shape cuts to the input); fill values, border modes,
 * coefficients and the cmn plan come from the operators' own functions. A drift between this
 * setup and the CPU operator's shows up as differing outputs or shapes.
 * Header only, no Criterion: tests/gpu/ includes it too.
 */
#ifndef DALIC_TESTS_TESTLIB_CUDA_SLICE_H
#define DALIC_TESTS_TESTLIB_CUDA_SLICE_H

#include "dalic.h"
#include "engine/dtype.h"
#include "kernels/common/cmn_px.h"
#include "kernels/common/slice_attr.h"
#include "kernels/common/slice_copy.h"
#include "kernels/common/slice_elem.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define TL_CU_SLICE_MAX_FILL 64

/* A slice or crop case. */
typedef struct tl_cu_slice_case {
	const char *what;
	const char *op; /* "slice" or "crop" */
	dalic_dtype_t in_type, out_type; /* out_type DALIC_NO_TYPE: dtype not given */
	const char *layout;              /* NULL: none */
	int ndim, n;
	const int64_t *shapes; /* n * ndim */
	const char *oob;       /* out_of_bounds_policy, NULL: the default ('error') */
	int nfill;             /* fill_values (0: not given) */
	const double *fill;
	/* slice: start and shape per listed axis */
	int naxes;
	const int64_t *axes, *start, *extent;
	/* crop: crop_h / crop_w (0: not given) and the anchors */
	double crop_h, crop_w, pos_y, pos_x;
} tl_cu_slice_case_t;

/* A crop_mirror_normalize case. */
typedef struct tl_cu_cmn_case {
	const char *what;
	dalic_dtype_t in_type, out_type; /* out_type DALIC_NO_TYPE: the default (FLOAT) */
	const char *layout, *out_layout; /* out_layout NULL: the default ('CHW') */
	int ndim, n;
	const int64_t *shapes;
	const int32_t *mirror; /* per sample (argument input "mirror") */
	const char *oob;
	int nfill, nmean, nstd;
	const double *fill, *mean, *std;
	double scale, shift; /* 0 scale: not given (1) */
	bool pad_output;
	double crop_h, crop_w, pos_y, pos_x;
} tl_cu_cmn_case_t;

/* Sets the case's scalar arguments on `op`; DALIC_OK or the first error. */
static inline int tl_cu_slice_set_args(dalic_op_t *op, const tl_cu_slice_case_t *c)
{
	int rc = DALIC_OK;
	if (!rc && c->oob)
		rc = dalic_op_set_string(op, "out_of_bounds_policy", c->oob);
	if (!rc && c->nfill)
		rc = dalic_op_set_floats(op, "fill_values", c->nfill, c->fill);
	if (!rc && c->out_type != DALIC_NO_TYPE)
		rc = dalic_op_set_int(op, "dtype", c->out_type);
	if (!strcmp(c->op, "slice")) {
		if (!rc)
			rc = dalic_op_set_ints(op, "axes", c->naxes, c->axes);
		if (!rc)
			rc = dalic_op_set_ints(op, "start", c->naxes, c->start);
		if (!rc)
			rc = dalic_op_set_ints(op, "shape", c->naxes, c->extent);
		return rc;
	}
	if (!rc && c->crop_h > 0)
		rc = dalic_op_set_float(op, "crop_h", c->crop_h);
	if (!rc && c->crop_w > 0)
		rc = dalic_op_set_float(op, "crop_w", c->crop_w);
	if (!rc)
		rc = dalic_op_set_float(op, "crop_pos_y", c->pos_y);
	if (!rc)
		rc = dalic_op_set_float(op, "crop_pos_x", c->pos_x);
	return rc;
}

static inline int tl_cu_cmn_set_args(dalic_op_t *op, const tl_cu_cmn_case_t *c)
{
	int rc = DALIC_OK;
	if (!rc && c->oob)
		rc = dalic_op_set_string(op, "out_of_bounds_policy", c->oob);
	if (!rc && c->nfill)
		rc = dalic_op_set_floats(op, "fill_values", c->nfill, c->fill);
	if (!rc && c->out_type != DALIC_NO_TYPE)
		rc = dalic_op_set_int(op, "dtype", c->out_type);
	if (!rc && c->out_layout)
		rc = dalic_op_set_string(op, "output_layout", c->out_layout);
	if (!rc && c->nmean)
		rc = dalic_op_set_floats(op, "mean", c->nmean, c->mean);
	if (!rc && c->nstd)
		rc = dalic_op_set_floats(op, "std", c->nstd, c->std);
	if (!rc && c->scale != 0)
		rc = dalic_op_set_float(op, "scale", c->scale);
	if (!rc && c->shift != 0)
		rc = dalic_op_set_float(op, "shift", c->shift);
	if (!rc && c->pad_output)
		rc = dalic_op_set_bool(op, "pad_output", true);
	if (!rc && c->crop_h > 0)
		rc = dalic_op_set_float(op, "crop_h", c->crop_h);
	if (!rc && c->crop_w > 0)
		rc = dalic_op_set_float(op, "crop_w", c->crop_w);
	if (!rc)
		rc = dalic_op_set_float(op, "crop_pos_y", c->pos_y);
	if (!rc)
		rc = dalic_op_set_float(op, "crop_pos_x", c->pos_x);
	return rc;
}

/* Cuts dim d of a window to an input extent n (trim_to_shape). */
static inline void tl_cu_slice_trim(int64_t *anchor, int64_t *extent, int64_t n)
{
	int64_t lo = *anchor < 0 ? 0 : *anchor > n ? n : *anchor;
	int64_t hi = *anchor + *extent > n ? n : *anchor + *extent;
	*anchor = lo;
	*extent = hi > lo ? hi - lo : 0;
}

/* The crop window (CropAttr, rounding 'round') of an input of `shape` in `layout`. */
static inline void tl_cu_crop_window(const char *layout, int ndim, const int64_t *shape,
                                     double crop_h, double crop_w, double pos_y, double pos_x,
                                     bool trim, int64_t *anchor, int64_t *extent)
{
	int hd = (int)(strchr(layout, 'H') - layout), wd = (int)(strchr(layout, 'W') - layout);
	for (int d = 0; d < ndim; d++) {
		double crop = d == hd && crop_h > 0 ? crop_h : d == wd && crop_w > 0 ? crop_w : 0;
		double pos = d == hd && crop_h > 0 ? pos_y : d == wd && crop_w > 0 ? pos_x : 0.5;
		extent[d] = crop > 0 ? (int64_t)crop : shape[d];
		anchor[d] = (int64_t)round((double)(float)pos * (double)(shape[d] - extent[d]));
		if (trim)
			tl_cu_slice_trim(&anchor[d], &extent[d], shape[d]);
	}
}

/* The out_of_bounds_policy of slice as its enum (NULL: 'error'). */
static inline slice_oob_t tl_cu_slice_oob(const char *s)
{
	static const char *const names[] = {"error", "trim_to_shape", "pad",  "clamp",
	                                     "reflect_1001", "reflect_101", "wrap"};
	for (int k = 0; s && k < 7; k++)
		if (!strcmp(s, names[k]))
			return (slice_oob_t)k;
	return SLICE_OOB_ERROR;
}

/* The layout a case's operator works with: the given one or its default by rank. */
static inline const char *tl_cu_slice_layout(const tl_cu_slice_case_t *c)
{
	static const char *const slice_def[] = {"", "", "HW", "HWC", "DHWC"};
	static const char *const crop_def[] = {"", "", "HW", "HWC", "FHWC"};
	if (c->layout && c->layout[0])
		return c->layout;
	return c->ndim > 4 ? "" : !strcmp(c->op, "slice") ? slice_def[c->ndim] : crop_def[c->ndim];
}

/*
 * The plan of sample i and its fill values (`fill`: TL_CU_SLICE_MAX_FILL * 8 bytes, 8-byte
 * aligned; a case has at most TL_CU_SLICE_MAX_FILL fill values): slice's fill is in the output
 * type (dalic_slice_fill_cast) and converts by truncation, crop's is in the input type
 * (ConvertSat) and converts with ConvertSat.
 */
static inline void tl_cu_slice_plan(const tl_cu_slice_case_t *c, int i,
                                    dalic_slice_elem_plan_t *pl, uint8_t *fill)
{
	const bool slice = !strcmp(c->op, "slice");
	const int64_t *shape = c->shapes + (size_t)i * (size_t)c->ndim;
	const char *layout = tl_cu_slice_layout(c);
	const char *cp = strchr(layout, 'C');
	memset(pl, 0, sizeof *pl);
	pl->ndim = c->ndim;
	pl->in_type = c->in_type;
	pl->out_type = c->out_type != DALIC_NO_TYPE ? c->out_type : c->in_type;
	pl->fill_type = slice ? pl->out_type : pl->in_type;
	pl->cvt = slice ? DALIC_SLICE_CVT_TRUNC : DALIC_SLICE_CVT_SAT;
	pl->nfill = c->nfill < 1 ? 1 : c->nfill;
	pl->channel_dim = cp ? (int)(cp - layout) : -1;
	slice_oob_t oob = tl_cu_slice_oob(c->oob);
	pl->border = slice ? (int)dalic_slice_oob_border(oob) : SLICE_BORDER_CONSTANT;
	for (int k = 0; k < pl->nfill; k++) {
		double v = c->nfill ? c->fill[k] : 0;
		if (slice)
			dalic_slice_fill_cast(pl->out_type, fill, k, v);
		else
			dalic_dtype_store_sat(pl->in_type, fill, k, v);
	}
	for (int d = 0; d < c->ndim; d++)
		pl->in_shape[d] = shape[d];
	if (!slice) {
		bool trim = c->oob && !strcmp(c->oob, "trim_to_shape");
		tl_cu_crop_window(layout, c->ndim, shape, c->crop_h, c->crop_w, c->pos_y, c->pos_x,
		                  trim, pl->anchor, pl->out_shape);
		return;
	}
	for (int d = 0; d < c->ndim; d++) {
		pl->anchor[d] = 0;
		pl->out_shape[d] = shape[d];
	}
	for (int k = 0; k < c->naxes; k++) {
		int d = (int)c->axes[k];
		pl->anchor[d] = c->start[k];
		pl->out_shape[d] = c->extent[k];
		if (oob == SLICE_OOB_TRIM)
			tl_cu_slice_trim(&pl->anchor[d], &pl->out_shape[d], shape[d]);
	}
}

/* The cmn plan of sample i, with its coefficients and fill values (DALIC_CMN_MAX_CH each). */
static inline void tl_cu_cmn_plan(const tl_cu_cmn_case_t *c, int i, dalic_cmn_px_plan_t *pl,
                                  float *mul, float *add, float *fill)
{
	const int64_t *shape = c->shapes + (size_t)i * (size_t)c->ndim;
	const char *layout = c->layout ? c->layout : c->ndim == 2 ? "HW" : "HWC";
	const char *ol = c->out_layout ? c->out_layout : "CHW";
	if (!strchr(layout, 'C') || !ol[0])
		ol = layout;
	int64_t anchor[DALIC_MAX_NDIM], extent[DALIC_MAX_NDIM];
	bool trim = c->oob && !strcmp(c->oob, "trim_to_shape");
	tl_cu_crop_window(layout, c->ndim, shape, c->crop_h, c->crop_w, c->pos_y, c->pos_x, trim,
	                  anchor, extent);
	dalic_cmn_px_plan(pl, layout, ol, c->ndim, shape, anchor, extent, c->pad_output,
	                  c->in_type, c->out_type != DALIC_NO_TYPE ? c->out_type : DALIC_FLOAT,
	                  c->mirror[i] != 0);
	float scale = (float)(c->scale != 0 ? c->scale : 1.0), shift = (float)c->shift;
	for (int64_t ch = 0; ch < pl->C; ch++) {
		float mean = c->nmean ? (float)c->mean[c->nmean == 1 ? 0 : ch] : 0.0f;
		float std = c->nstd ? (float)c->std[c->nstd == 1 ? 0 : ch] : 1.0f;
		dalic_cmn_px_coeffs(scale, shift, mean, std, &mul[ch], &add[ch]);
	}
	for (int64_t ch = 0; ch < pl->oc; ch++)
		fill[ch] = c->nfill <= 1 ? (float)(c->nfill ? c->fill[0] : 0.0)
		           : ch < c->nfill ? (float)c->fill[ch]
		                           : 0.0f;
}

#endif
