/* DALI's resize size rules and filter arguments (see img_resize_attr.h). The arithmetic keeps
 * DALI's float / double mix so borderline sizes round the same way. */
#include "kernels/common/img_resize_attr.h"

#include "engine/dtype.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int dalic_img_resize_mode_parse(const char *s)
{
	static const char *names[] = {"default", "stretch", "not_larger", "not_smaller"};
	for (int i = 0; i < 4; i++)
		if (s && !strcmp(s, names[i]))
			return i;
	return -1;
}

/* AdjustOutputSize (resize_attr_base.cc). */
static void resize_attr_adjust_output_size(float *out, const float *in, int ndim,
                                           img_resize_mode_t mode, const float *max_size)
{
	double scale[IMG_MAX_SPATIAL];
	bool mask[IMG_MAX_SPATIAL];
	int provided = 0;
	for (int d = 0; d < ndim; d++) {
		mask[d] = out[d] != 0 && in[d] != 0;
		scale[d] = in[d] ? out[d] / in[d] : 1;
		provided += mask[d];
	}
	if (provided == 0) { /* nothing to go by: keep the input size */
		for (int d = 0; d < ndim; d++)
			out[d] = in[d];
		return;
	}
	if (mode == IMG_RESIZE_DEFAULT || mode == IMG_RESIZE_STRETCH) {
		if (provided < ndim) {
			double avg = 1;
			for (int d = 0; d < ndim; d++)
				if (mask[d])
					avg *= fabs(scale[d]);
			if (provided > 1)
				avg = pow(avg, 1.0 / provided);
			for (int d = 0; d < ndim; d++)
				if (!mask[d]) {
					scale[d] = mode == IMG_RESIZE_DEFAULT ? avg : 1;
					out[d] = (float)(in[d] * scale[d]);
				}
		}
		for (int d = 0; max_size && d < ndim; d++)
			if (max_size[d] > 0 && fabsf(out[d]) > max_size[d])
				out[d] = copysignf(max_size[d], out[d]);
		return;
	}
	double final_scale = 0;
	bool first = true;
	for (int d = 0; d < ndim; d++) {
		if (!mask[d])
			continue;
		float s = (float)fabs(scale[d]);
		if (first || (mode == IMG_RESIZE_NOT_SMALLER && s > final_scale) ||
		    (mode == IMG_RESIZE_NOT_LARGER && s < final_scale))
			final_scale = s;
		first = false;
	}
	for (int d = 0; max_size && d < ndim; d++)
		if (max_size[d] > 0) {
			double s = (double)max_size[d] / in[d];
			if (s < final_scale)
				final_scale = s;
		}
	for (int d = 0; d < ndim; d++)
		if (!mask[d] || fabs(scale[d]) != final_scale) {
			scale[d] = copysign(final_scale, scale[d]);
			out[d] = (float)(in[d] * scale[d]);
		}
}

int dalic_img_resize_calc(int ndim, const float *requested, const float *in_lo, const float *in_hi,
                          img_resize_mode_t mode, const float *max_size, bool subpixel_scale,
                          bool empty_input, img_resize_plan_t *plan, char *err, size_t errn)
{
	float req[IMG_MAX_SPATIAL], lo[IMG_MAX_SPATIAL], hi[IMG_MAX_SPATIAL], in[IMG_MAX_SPATIAL];
	for (int d = 0; d < ndim; d++) {
		req[d] = requested[d];
		lo[d] = in_lo[d];
		hi[d] = in_hi[d];
		float sz = hi[d] - lo[d];
		if (sz < 0) { /* a flipped region: flip the request instead */
			float t = hi[d];
			hi[d] = lo[d];
			lo[d] = t;
			req[d] = -req[d];
			sz = -sz;
		}
		in[d] = sz;
	}
	resize_attr_adjust_output_size(req, in, ndim, mode, max_size);
	for (int d = 0; d < ndim; d++)
		if (lo[d] == hi[d] && req[d] != 0) {
			snprintf(err, errn, "Cannot produce non-empty output from empty input");
			return -1;
		}
	int min_size = empty_input ? 0 : 1;
	for (int d = 0; d < ndim; d++) {
		float out_sz = req[d];
		if (!(fabsf(out_sz) < 2147483520.0f)) { /* NaN too: lroundf would be undefined */
			snprintf(err, errn, "output size %g in dim %d is out of range (at most %d)",
				 (double)out_sz, d, 2147483520);
			return -1;
		}
		long rounded = lroundf(fabsf(out_sz));
		plan->out[d] = rounded > min_size ? (int)rounded : min_size;
		plan->lo[d] = lo[d];
		plan->hi[d] = hi[d];
		if (out_sz < 0) {
			plan->lo[d] = hi[d];
			plan->hi[d] = lo[d];
		}
		/* subpixel_scale: keep the requested scale by resizing the window about its
		 * centre to match the rounded output size. */
		if (subpixel_scale && plan->out[d] != fabsf(out_sz)) {
			double adj = (double)plan->out[d] / fabsf(out_sz);
			adj = adj < -10 ? -10 : adj > 10 ? 10 : adj;
			double c = (plan->lo[d] + plan->hi[d]) * 0.5;
			plan->lo[d] = fmax(-1e9, fmin(1e9, c + (plan->lo[d] - c) * adj));
			plan->hi[d] = fmax(-1e9, fmin(1e9, c + (plan->hi[d] - c) * adj));
		}
	}
	return 0;
}

bool dalic_img_arg_present(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name)
{
	return dalic_arg_given(ctx, name) || (ws && dalic_arg_input(ws, name));
}

static int resize_attr_filter_arg(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                  const char *name, img_filter_t *out)
{
	double v;
	int rc = dalic_arg_float_at(ctx, ws, name, i, &v);
	if (rc)
		return rc;
	int f = dalic_img_filter_from_interp((int64_t)v);
	if (f < 0)
		return dalic_op_fail(ctx, ws, i, "Unknown interpolation type %g in '%s'", v, name);
	*out = (img_filter_t)f;
	return DALIC_OK;
}

int dalic_img_filters_for_sample(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                 img_filters_t *out)
{
	out->antialias = dalic_arg_bool(ctx, "antialias");
	out->min = out->mag = IMG_FILTER_LINEAR;
	bool interp = dalic_img_arg_present(ctx, ws, "interp_type");
	int rc = DALIC_OK;
	if (dalic_img_arg_present(ctx, ws, "min_filter"))
		rc = resize_attr_filter_arg(ctx, ws, i, "min_filter", &out->min);
	else if (interp)
		rc = resize_attr_filter_arg(ctx, ws, i, "interp_type", &out->min);
	if (!rc && dalic_img_arg_present(ctx, ws, "mag_filter"))
		rc = resize_attr_filter_arg(ctx, ws, i, "mag_filter", &out->mag);
	else if (!rc && interp)
		rc = resize_attr_filter_arg(ctx, ws, i, "interp_type", &out->mag);
	/* DALI: TRIANGULAR without antialias is LINEAR; magnification never antialiases. */
	if (!out->antialias && out->min == IMG_FILTER_TRIANGULAR)
		out->min = IMG_FILTER_LINEAR;
	if (out->mag == IMG_FILTER_TRIANGULAR)
		out->mag = IMG_FILTER_LINEAR;
	return rc;
}

int dalic_img_resample_dtype(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t in,
                             dalic_dtype_t *out)
{
	*out = dalic_arg_given(ctx, "dtype") ? (dalic_dtype_t)dalic_arg_int(ctx, "dtype") : in;
	if (*out != in && *out != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Output type must be same as input type (%s) or "
						  "float. Got: %s",
				     dalic_dtype_name(in), dalic_dtype_name(*out));
	if (!dalic_img_resample_supports(in, *out))
		return dalic_op_fail(ctx, ws, -1, "input type %s is not supported (uint8, int16, "
						  "uint16 or float)",
				     dalic_dtype_name(in));
	return DALIC_OK;
}
