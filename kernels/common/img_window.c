/* Crop windows and the window copy (see img_window.h). */
#include "kernels/common/img_window.h"

#include "engine/checked.h"
#include "kernels/common/arg_check.h"
#include "kernels/common/slice_copy.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int dalic_img_oob_parse(const dalic_op_ctx_t *ctx, img_oob_t *out)
{
	const char *s = dalic_arg_string(ctx, "out_of_bounds_policy");
	if (s && !strcmp(s, "error"))
		*out = IMG_OOB_ERROR;
	else if (s && !strcmp(s, "pad"))
		*out = IMG_OOB_PAD;
	else if (s && !strcmp(s, "trim_to_shape"))
		*out = IMG_OOB_TRIM;
	else
		return dalic_op_fail(ctx, NULL, -1, "Unsupported out_of_bounds_policy '%s'; use "
						    "'error', 'pad' or 'trim_to_shape'",
				     s ? s : "None");
	const char *r = dalic_arg_string(ctx, "rounding");
	if (!r || (strcmp(r, "round") && strcmp(r, "truncate")))
		return dalic_op_fail(ctx, NULL, -1, "Unsupported rounding '%s'; use 'round' or "
						    "'truncate'",
				     r ? r : "None");
	return DALIC_OK;
}

static bool window_present(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name)
{
	return dalic_arg_given(ctx, name) || dalic_arg_input(ws, name);
}

static int window_extent_arg(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                             const char *name, int64_t *out)
{
	double v;
	int rc = dalic_arg_float_at(ctx, ws, name, i, &v);
	return rc ? rc : dalic_argck_to_i64(ctx, ws, i, name, v, out); /* DALI: static_cast<int> */
}

int dalic_img_window_for_sample(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                const char *layout, int ndim, const int64_t *shape, img_oob_t oob,
                                img_window_t *w)
{
	const char *ph = strchr(layout, 'H'), *pw = strchr(layout, 'W');
	const char *pd = strchr(layout, 'D'), *pf = strchr(layout, 'F');
	if (!ph || !pw)
		return dalic_op_fail(ctx, ws, i, "[H]eight and [W]idth must be present in the "
						 "layout. Got: %s", layout);
	int hd = (int)(ph - layout), wd = (int)(pw - layout);
	int dd = pd ? (int)(pd - layout) : -1, fd = pf ? (int)(pf - layout) : -1;
	bool has_crop = window_present(ctx, ws, "crop"), has_w = window_present(ctx, ws, "crop_w");
	bool has_h = window_present(ctx, ws, "crop_h"), has_d = window_present(ctx, ws, "crop_d");
	if (has_w != has_h)
		return dalic_op_fail(ctx, ws, -1, "`crop_w` and `crop_h` arguments must be provided "
						  "together");
	if (has_d && !has_w)
		return dalic_op_fail(ctx, ws, -1, "`crop_d` argument must be provided together "
						  "with `crop_w` and `crop_h`");
	if (has_crop && (has_w || has_d))
		return dalic_op_fail(ctx, ws, -1, "`crop` argument is not compatible with `crop_h`, "
						  "`crop_w`, `crop_d`");
	int64_t ch = -1, cw = -1, cd = -1;
	int rc = DALIC_OK;
	if (has_crop) {
		double v[3];
		int n;
		if ((rc = dalic_arg_floats_at(ctx, ws, "crop", i, v, 3, &n)))
			return rc;
		if (n < 2)
			return dalic_op_fail(ctx, ws, i, "`crop` argument should have 2 or 3 elements "
							 "depending on the input data shape");
		if ((n == 3 && (rc = dalic_argck_to_i64(ctx, ws, i, "crop", v[0], &cd))) ||
		    (rc = dalic_argck_to_i64(ctx, ws, i, "crop", v[n - 2], &ch)) ||
		    (rc = dalic_argck_to_i64(ctx, ws, i, "crop", v[n - 1], &cw)))
			return rc;
	} else if (has_w) {
		if ((rc = window_extent_arg(ctx, ws, i, "crop_w", &cw)) ||
		    (rc = window_extent_arg(ctx, ws, i, "crop_h", &ch)) ||
		    (has_d && (rc = window_extent_arg(ctx, ws, i, "crop_d", &cd))))
			return rc;
	}
	double norm[DALIC_MAX_NDIM];
	for (int d = 0; d < ndim; d++) {
		w->shape[d] = shape[d];
		norm[d] = 0.5;
	}
	double v;
	if (ch > 0) {
		w->shape[hd] = ch;
		if ((rc = dalic_arg_float_at(ctx, ws, "crop_pos_y", i, &v)))
			return rc;
		norm[hd] = v;
	}
	if (cw > 0) {
		w->shape[wd] = cw;
		if ((rc = dalic_arg_float_at(ctx, ws, "crop_pos_x", i, &v)))
			return rc;
		norm[wd] = v;
	}
	int zd = dd >= 0 ? dd : fd; /* crop_d crops frames when there is no depth */
	if (cd > 0 && zd >= 0) {
		w->shape[zd] = cd;
		if ((rc = dalic_arg_float_at(ctx, ws, "crop_pos_z", i, &v)))
			return rc;
		norm[zd] = v;
	}
	bool truncate = !strcmp(dalic_arg_string(ctx, "rounding"), "truncate");
	bool outside = false;
	for (int d = 0; d < ndim; d++) {
		if (!(norm[d] >= 0 && norm[d] <= 1))
			return dalic_op_fail(ctx, ws, i, "Anchor for dimension %d (%f) is out of range "
							 "[0.0, 1.0]", d, norm[d]);
		/* DALI: static_cast<double>(float anchor) * (in - crop), in double */
		double a = (double)(float)norm[d] * (double)(shape[d] - w->shape[d]);
		/* extents are below 2**62, so a bounded anchor keeps anchor + extent in range */
		if (!dalic_ck_double_to_i64(truncate ? trunc(a) : round(a), &w->anchor[d]))
			return dalic_op_fail(ctx, ws, i,
			                     "Anchor for dimension %d (%g) is out of range", d, a);
		outside |= w->anchor[d] < 0 || w->anchor[d] + w->shape[d] > shape[d];
	}
	if (!outside || oob == IMG_OOB_PAD)
		return DALIC_OK;
	if (oob == IMG_OOB_ERROR) {
		char msg[256];
		int n = 0;
		for (int d = 0; d < ndim; d++)
			n += snprintf(msg + n, sizeof msg - (size_t)n, "%s[%lld, %lld)", d ? " x " : "",
				      (long long)w->anchor[d], (long long)(w->anchor[d] + w->shape[d]));
		return dalic_op_fail(ctx, ws, i, "Crop window %s is out of bounds of the input (%s "
						 "shape); use out_of_bounds_policy 'pad' or "
						 "'trim_to_shape'",
				     msg, layout);
	}
	for (int d = 0; d < ndim; d++) { /* trim_to_shape */
		int64_t lo = w->anchor[d] < 0 ? 0 : w->anchor[d];
		int64_t hi = w->anchor[d] + w->shape[d];
		hi = hi > shape[d] ? shape[d] : hi;
		w->anchor[d] = lo;
		w->shape[d] = hi > lo ? hi - lo : 0;
	}
	return DALIC_OK;
}

void dalic_img_window_copy(const void *in, const int64_t *in_shape, int ndim, const img_window_t *w,
                           size_t esize, void *out, const uint8_t *fill, int nfill, int channel_dim)
{
	/* the same type in and out: slice's copy moves bytes, so any type of the size will do */
	dalic_dtype_t t = esize == 1 ? DALIC_UINT8 : esize == 2 ? DALIC_UINT16
	                : esize == 4 ? DALIC_UINT32 : DALIC_UINT64;
	dalic_slice_copy(in, t, in_shape, ndim, w, out, t, SLICE_BORDER_CONSTANT, fill, nfill,
	                 channel_dim);
}
