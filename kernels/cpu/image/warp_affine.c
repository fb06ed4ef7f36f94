/*
 * warp_affine (DALI's WarpAffine): each output pixel samples the input at M·(x, y[, z], 1),
 * M being 2x3 (HWC, FHWC) or 3x4 (DHWC, FDHWC; a 4-D input without layout is DHWC) from
 * `matrix` (a list, or per sample as an argument input) or from a second input of transforms
 * (per sample (2, 3), or one (N, 2, 3) tensor for the batch). With inverse_map=False the matrix
 * maps source to destination and is inverted first. Output extents: `size` ([H, W] or
 * [D, H, W], rounded, at least 1; per sample as an argument input, truncated), else the
 * input's. Frames of a sequence share the sample's matrix. Sampling, borders (fill_value or
 * the replicated edge) and rounding: kernels/common/img_warp.c. Types as DALI: uint8, int16,
 * int32 or float, converted to float or from float to one of the others.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/img_warp.h"
#include "kernels/common/xform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct wa_sample {
	float m[12];
	int64_t out[3]; /* x, y, z extents */
} wa_sample_t;

typedef struct warp_affine {
	bool linear, clamp, invert;
	double fill; /* fill_value as the output type */
	dalic_dtype_t out_type;
	int ndim, frame_dim; /* spatial dims; 0 or -1: F first or none */
	wa_sample_t *s;
} warp_affine_t;

static void warp_affine_fini(dalic_op_ctx_t *ctx)
{
	warp_affine_t *w = ctx->state;
	free(w->s);
}

static int warp_affine_init(dalic_op_ctx_t *ctx)
{
	warp_affine_t *w = ctx->state;
	int64_t interp = dalic_arg_int(ctx, "interp_type");
	if (interp != DALIC_INTERP_NN && interp != DALIC_INTERP_LINEAR)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Only nearest and linear interpolation is supported (got "
		                     "interp_type %lld)",
		                     (long long)interp);
	if (dalic_arg_given(ctx, "dtype") && dalic_arg_given(ctx, "output_dtype"))
		return dalic_op_fail(
		    ctx, NULL, -1,
		    "TypeError: arguments `dtype` and `output_dtype` cannot be used "
		    "together (`output_dtype` is a deprecated alias of `dtype`)");
	w->linear = interp == DALIC_INTERP_LINEAR;
	w->clamp = !dalic_arg_given(ctx, "fill_value");
	w->invert = !dalic_arg_bool(ctx, "inverse_map");
	w->s = calloc((size_t)ctx->max_batch_size, sizeof *w->s);
	return w->s ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

/* Spatial dims and the frame dim from the layout (DALI: HWC, FHWC, DHWC, FDHWC). */
static int warp_affine_layout(warp_affine_t *w, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                              const dalic_batch_t *in)
{
	static const char *const layouts[4] = {"HWC", "FHWC", "DHWC", "FDHWC"};
	const char *l = in->layout;
	int k = -1;
	if (!*l)
		k = in->ndim == 3 ? 0 : in->ndim == 4 ? 2 : in->ndim == 5 ? 3 : -1;
	for (int i = 0; *l && i < 4; i++)
		if (!strcmp(l, layouts[i]))
			k = i;
	if (k < 0 || (int)strlen(layouts[k]) != in->ndim)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "The number of dimensions %d (layout '%s') does not match any of "
		    "the allowed layouts for input 0. Valid layouts are: HWC FHWC DHWC "
		    "FDHWC",
		    in->ndim, l);
	w->ndim = k >= 2 ? 3 : 2;
	w->frame_dim = k == 1 || k == 3 ? 0 : -1;
	return DALIC_OK;
}

/* DALI's pairs: the same type, to float, or from float; uint8, int16, int32, float only. */
static int warp_affine_types(warp_affine_t *w, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                             dalic_dtype_t in)
{
	const char *name = dalic_arg_given(ctx, "output_dtype") ? "output_dtype" : "dtype";
	dalic_dtype_t out =
	    dalic_arg_given(ctx, name) ? (dalic_dtype_t)dalic_arg_int(ctx, name) : in;
	bool ok = dalic_img_warp_supports(in) && dalic_img_warp_supports(out) &&
	          (in == out || in == DALIC_FLOAT || out == DALIC_FLOAT);
	if (!ok)
		return dalic_op_fail(ctx, ws, -1,
		                     "Unsupported input/output types for the operator: %s -> %s.",
		                     dalic_dtype_cname(in), dalic_dtype_cname(out));
	w->out_type = out;
	if (!w->clamp) /* DALI's border: ConvertSat<Out>(fill_value) */
		w->fill = dalic_img_warp_fill(out, dalic_arg_float(ctx, "fill_value"));
	return DALIC_OK;
}

/* Sample i's matrix from the transforms input, the `matrix` argument input or the list. */
static int warp_affine_matrix(warp_affine_t *w, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                              int i, float *m)
{
	const int n = w->ndim, count = n * (n + 1);
	const dalic_batch_t *src =
	    ws->num_inputs > 1 ? ws->inputs[1] : dalic_arg_input(ws, "matrix");
	if (src) {
		if (src->dtype != DALIC_FLOAT)
			return dalic_op_fail(ctx, ws, i, "the transforms must be float, got %s",
			                     dalic_dtype_cname(src->dtype));
		const float *p = NULL;
		const int64_t *s0 = src->num_samples > 0 ? dalic_batch_shape(src, 0) : NULL;
		if (src->num_samples == ws->batch_size && src->ndim == 2 &&
		    dalic_batch_uniform_shape(src) && s0[0] == n && s0[1] == n + 1)
			p = (const float *)src->ptrs[i];
		else if (src->num_samples == 1 && src->ndim == 3 && s0[0] == ws->batch_size &&
		         s0[1] == n && s0[2] == n + 1)
			p = (const float *)src->ptrs[0] + (size_t)i * (size_t)count;
		if (!p)
			return dalic_op_fail(
			    ctx, ws, i,
			    "Affine mapping parameters must be either a list of %d (%d, %d) "
			    "tensors, or a list containing a single (%d, %d, %d) tensor; "
			    "got %d samples of %d dimensions",
			    ws->batch_size, n, n + 1, ws->batch_size, n, n + 1, src->num_samples,
			    src->ndim);
		memcpy(m, p, sizeof(float) * (size_t)count);
	} else {
		const dalic_value_t *v = dalic_arg(ctx, "matrix");
		int given = v->kind == DALIC_V_NONE ? 0 : v->n;
		if (!given)
			return dalic_op_fail(
			    ctx, ws, -1,
			    "`matrix` argument must be provided when transforms are not "
			    "passed as a regular input.");
		if (given != count)
			return dalic_op_fail(ctx, ws, -1,
			                     "`matrix` parameter must have %d elements", count);
		for (int k = 0; k < count; k++)
			m[k] = (float)dalic_value_get_f(v, k);
	}
	if (w->invert) {
		float inv[12];
		if (!dalic_xform_affine_inv(n, m, inv))
			return dalic_op_fail(ctx, ws, i,
			                     "Cannot calculate the inverse of a singular matrix.");
		memcpy(m, inv, sizeof inv);
	}
	return DALIC_OK;
}

/* Sample i's output extents (x, y, z order) from `size`, else the input's. */
static int warp_affine_size(warp_affine_t *w, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                            int i, const int64_t *in_xyz, int64_t *out)
{
	const int n = w->ndim;
	const dalic_batch_t *arg = dalic_arg_input(ws, "size");
	double v[3];
	if (arg) { /* per sample, truncated as DALI's integer conversion */
		const int64_t *s0 = arg->num_samples > 0 ? dalic_batch_shape(arg, 0) : NULL;
		const void *p = NULL;
		int64_t at = 0;
		if (arg->num_samples == ws->batch_size && arg->ndim == 1 &&
		    dalic_batch_uniform_shape(arg) && s0[0] == n)
			p = arg->ptrs[i];
		else if (arg->num_samples == 1 &&
		         dalic_batch_sample_elems(arg, 0) == (int64_t)ws->batch_size * n)
			p = arg->ptrs[0], at = (int64_t)i * n;
		if (!p || !dalic_dtype_is_numeric(arg->dtype))
			return dalic_op_fail(
			    ctx, ws, i,
			    "Output sizes must either be a batch of `dim`-sized tensors, "
			    "flat array of size num_samples*dim or one 2D tensor of "
			    "shape {num_samples, dim}.");
		for (int d = 0; d < n; d++) {
			v[d] = trunc(dalic_dtype_load_f64(arg->dtype, p, at + d));
			if (!(v[d] >= 0 && v[d] < (double)(1 << 30)))
				return dalic_op_fail(
				    ctx, ws, i, "output size %g: extents must be within [0, 2**30)",
				    v[d]);
		}
	} else if (dalic_arg_given(ctx, "size")) {
		const dalic_value_t *s = dalic_arg(ctx, "size");
		if (s->n != n)
			return dalic_op_fail(
			    ctx, ws, -1,
			    "output_size must specify same number of dimensions as the "
			    "input (excluding channels)");
		for (int d = 0; d < n; d++) {
			float f = (float)dalic_value_get_f(s, d);
			if (!(f > 0))
				return dalic_op_fail(ctx, ws, -1, "Output size must be positive");
			if (!(f < (float)(1 << 30)))
				return dalic_op_fail(ctx, ws, -1, "Output size %g is too large",
				                     (double)f);
			v[d] = fmax(roundf(f), 1);
		}
	} else {
		for (int d = 0; d < n; d++)
			out[d] = in_xyz[d];
		return DALIC_OK;
	}
	for (int d = 0; d < n; d++) /* size is [H, W] or [D, H, W]: reverse into x, y, z */
		out[d] = (int64_t)v[n - 1 - d];
	return DALIC_OK;
}

static int warp_affine_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	warp_affine_t *w = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int rc = warp_affine_layout(w, ctx, ws, in);
	if (!rc)
		rc = warp_affine_types(w, ctx, ws, in->dtype);
	if (!rc)
		rc = dalic_batch_set_meta(out, ws->batch_size, w->out_type, in->ndim);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, in->layout);
	const int n = w->ndim, first = w->frame_dim == 0;
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *shape = dalic_batch_shape(in, i);
		int64_t in_xyz[3] = {1, 1, 1};
		for (int d = 0; d < n; d++)
			in_xyz[d] = shape[first + n - 1 - d];
		wa_sample_t *s = &w->s[i];
		s->out[2] = 1;
		if ((rc = warp_affine_matrix(w, ctx, ws, i, s->m)) ||
		    (rc = warp_affine_size(w, ctx, ws, i, in_xyz, s->out)))
			return rc;
		int64_t channels = shape[in->ndim - 1];
		if (dalic_img_warp_fits(in_xyz, n, channels) || dalic_img_warp_fits(s->out, n, 1))
			return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
		int64_t *os = dalic_batch_shape_mut(out, i);
		memcpy(os, shape, sizeof(int64_t) * (size_t)in->ndim);
		for (int d = 0; d < n; d++)
			os[first + n - 1 - d] = s->out[d];
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

int dalic_warp_affine_job(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                          img_warp_job_t *out_job, int64_t *out_frames, int64_t *in_frame_bytes,
                          int64_t *out_frame_bytes)
{
	const warp_affine_t *w = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const int64_t *shape = dalic_batch_shape(in, i);
	const int n = w->ndim, first = w->frame_dim == 0;
	const wa_sample_t *s = &w->s[i];
	img_warp_job_t job = {
	    .ndim = n,
	    .in_type = in->dtype,
	    .in_size = {1, 1, 1},
	    .channels = (int)shape[in->ndim - 1],
	    .out_type = out->dtype,
	    .out_size = {s->out[0], s->out[1], s->out[2]},
	    .linear = w->linear,
	    .clamp = w->clamp,
	    .fill = w->fill,
	};
	for (int d = 0; d < n; d++)
		job.in_size[d] = shape[first + n - 1 - d];
	memcpy(job.m, s->m, sizeof job.m);
	int64_t frames = first ? shape[0] : 1;
	int64_t in_frame = dalic_batch_sample_elems(in, i) / (frames ? frames : 1);
	int64_t out_frame = dalic_batch_sample_elems(out, i) / (frames ? frames : 1);
	if (in_frame == 0 && out_frame > 0 && w->clamp) /* with a fill, every tap is the fill */
		return dalic_op_fail(ctx, ws, i,
		                     "cannot fill a non-empty output from an empty image without "
		                     "fill_value");
	job.in = in->ptrs[i];
	job.out = out->ptrs[i];
	*out_job = job;
	*out_frames = frames;
	*in_frame_bytes = in_frame * (int64_t)dalic_dtype_size(in->dtype);
	*out_frame_bytes = out_frame * (int64_t)dalic_dtype_size(out->dtype);
	return DALIC_OK;
}

static int warp_affine_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	img_warp_job_t job;
	int64_t frames, ib, ob;
	int rc = dalic_warp_affine_job(ctx, ws, i, &job, &frames, &ib, &ob);
	if (rc)
		return rc;
	const uint8_t *in = job.in;
	uint8_t *out = job.out;
	for (int64_t f = 0; f < frames && ob > 0; f++) {
		job.in = in + f * ib;
		job.out = out + f * ob;
		dalic_img_warp(&job);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"matrix", DALIC_ARG_FLOAT_LIST, "[]",
     "Destination-to-source matrix (M11, M12, M13, M21, M22, M23) or the 3-D 3x4 one.",
     .tensor = true},
    {"inverse_map", DALIC_ARG_BOOL, "True",
     "False when the matrix maps source to destination (it is inverted)."},
    {"size", DALIC_ARG_FLOAT_LIST, "[]", "Output size [H, W] or [D, H, W], rounded.",
     .tensor = true},
    {"fill_value", DALIC_ARG_FLOAT, "None",
     "Value outside the source; when not given, the border pixel is repeated."},
    {"interp_type", DALIC_ARG_INTERP_TYPE, "INTERP_LINEAR", "INTERP_NN or INTERP_LINEAR."},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type; the input type when not given."},
    {"output_dtype", DALIC_ARG_DTYPE, "None", "Deprecated alias of dtype."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(warp_affine_t),
    .init = warp_affine_init,
    .setup = warp_affine_setup,
    .run_sample = warp_affine_run_sample,
    .fini = warp_affine_fini,
};

DALIC_OPERATOR(WarpAffine) = {
    .name = "WarpAffine",
    .fn = "warp_affine",
    .doc = "Applies an affine transformation to images (HWC, FHWC) or volumes (DHWC).",
    .min_inputs = 1,
    .max_inputs = 2,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
