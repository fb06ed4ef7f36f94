/*
 * rotate (DALI's Rotate, 2-D): rotates HWC (or HW) images by `angle` degrees counter-clockwise
 * as seen with (0, 0) at the top left, about the image centre, onto a canvas centred on the
 * result. Canvas: `size` [H, W] if given, the input size with keep_size, else DALI's
 * RotatedCanvasSize: ceil(|cos|·w + |sin|·h − 0.01) by ceil(|cos|·h + |sin|·w − 0.01), then
 * one pixel more where needed so each extent keeps the parity of the input extent it mostly
 * comes from (w, h when |sin| <= |cos|, else h, w) — that keeps the centre sharp.
 *
 * Sampling, as DALI's warp (kernels/common/img_warp.c): output pixel centre (x + ½, y + ½)
 * maps to src = T(in/2)·R(angle)·T(−out/2)·dst, the matrix made in float as DALI's
 * RotateParamProvider; LINEAR interpolates the four pixels around src − ½, NN takes
 * floor(src). Taps outside the image read fill_value when it is given and the nearest edge
 * pixel otherwise. Integer outputs round half away from zero and saturate.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/arg_check.h"
#include "kernels/common/img_warp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct rot_sample {
	int oh, ow;
	float angle; /* radians, float as DALI's deg2rad */
} rot_sample_t;

typedef struct rotate {
	rot_sample_t *s;
	bool linear, has_fill;
	float fill;
} rotate_t;

static void rotate_fini(dalic_op_ctx_t *ctx);

static int rotate_init_state(dalic_op_ctx_t *ctx)
{
	rotate_t *r = ctx->state;
	int64_t interp = dalic_arg_int(ctx, "interp_type");
	if (interp != DALIC_INTERP_NN && interp != DALIC_INTERP_LINEAR)
		return dalic_op_fail(ctx, NULL, -1, "interp_type %lld is not supported by rotate; "
						    "use INTERP_NN or INTERP_LINEAR",
				     (long long)interp);
	r->linear = interp == DALIC_INTERP_LINEAR;
	r->has_fill = dalic_arg_given(ctx, "fill_value");
	r->fill = (float)dalic_arg_float(ctx, "fill_value");
	r->s = calloc((size_t)ctx->max_batch_size, sizeof *r->s);
	return r->s ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int rotate_init(dalic_op_ctx_t *ctx)
{
	int rc = rotate_init_state(ctx);
	if (rc)
		rotate_fini(ctx);
	return rc;
}

/* DALI's RotatedCanvasSize with the single-frame parity correction. h and w are below 2**30
 * (checked in setup), so the canvas, at most (h + w) + 1 per side, fits an int. */
static void rotate_canvas(int h, int w, double a, int *oh, int *ow)
{
	double c = fabs(cos(a)), s = fabs(sin(a));
	int wo = (int)ceil(c * w + s * h - 1e-2), ho = (int)ceil(c * h + s * w - 1e-2);
	int pw = s <= c ? w % 2 : h % 2, ph = s <= c ? h % 2 : w % 2;
	*ow = wo + ((wo % 2) != pw);
	*oh = ho + ((ho % 2) != ph);
}

static int rotate_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	rotate_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const char *l = in->layout;
	bool ok = (in->ndim == 3 && (!*l || !strcmp(l, "HWC"))) ||
		  (in->ndim == 2 && (!*l || !strcmp(l, "HW")));
	if (!ok)
		return dalic_fail(DALIC_EUNSUPPORTED, "operator '%s' (Rotate): only 2-D images (HWC "
						      "or HW) are supported, got %d-D '%s'",
				  ctx->inst, in->ndim, l);
	if (!dalic_dtype_is_numeric(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "cannot rotate %s data", dalic_dtype_name(in->dtype));
	dalic_dtype_t ot = dalic_arg_given(ctx, "dtype") ? (dalic_dtype_t)dalic_arg_int(ctx, "dtype")
							 : in->dtype;
	if (ot != in->dtype && ot != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "dtype must be the input type (%s) or FLOAT, got %s",
				     dalic_dtype_name(in->dtype), dalic_dtype_name(ot));
	int rc = dalic_batch_set_meta(out, ws->batch_size, ot, in->ndim);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, in->ndim == 3 ? "HWC" : "HW");
	bool has_size = dalic_arg_given(ctx, "size") || dalic_arg_input(ws, "size");
	bool keep = dalic_arg_bool(ctx, "keep_size");
	if (has_size && keep)
		return dalic_op_fail(ctx, ws, -1, "`size` and `keep_size` cannot be used together");
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *shape = dalic_batch_shape(in, i);
		rot_sample_t *s = &r->s[i];
		const int64_t big = (int64_t)1 << 30, C = in->ndim == 3 ? shape[2] : 1;
		if (shape[0] >= big || shape[1] >= big || C > 64)
			return dalic_op_fail(ctx, ws, i,
			                     "a %lldx%lld image with %lld channels: rotate "
			                     "supports extents below 2**30 and at most 64 "
			                     "channels",
			                     (long long)shape[0], (long long)shape[1],
			                     (long long)C);
		double deg;
		if ((rc = dalic_arg_float_at(ctx, ws, "angle", i, &deg)))
			return rc;
		/* DALI fails on a NaN angle too (its canvas size comes out negative) */
		if ((rc = dalic_argck_finite(ctx, ws, i, "angle", &deg, 1)))
			return rc;
		s->angle = dalic_img_warp_radians(deg);
		if (has_size) {
			double v[2];
			int n;
			if ((rc = dalic_arg_floats_at(ctx, ws, "size", i, v, 2, &n)))
				return rc;
			if (n != 2 || !(v[0] >= 0 && v[0] < big) || !(v[1] >= 0 && v[1] < big))
				return dalic_op_fail(ctx, ws, i, "`size` must be 2 non-negative extents "
								 "[H, W] below 2**30");
			s->oh = (int)lround(v[0]);
			s->ow = (int)lround(v[1]);
		} else if (keep) {
			s->oh = (int)shape[0];
			s->ow = (int)shape[1];
		} else {
			rotate_canvas((int)shape[0], (int)shape[1], s->angle, &s->oh, &s->ow);
		}
		if ((shape[0] == 0 || shape[1] == 0) && s->oh > 0 && s->ow > 0 && !r->has_fill)
			return dalic_op_fail(ctx, ws, i, "cannot fill a %dx%d canvas from an empty "
							 "image without fill_value",
					     s->oh, s->ow);
		int64_t *os = dalic_batch_shape_mut(out, i);
		os[0] = s->oh;
		os[1] = s->ow;
		if (in->ndim == 3)
			os[2] = shape[2];
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

int dalic_rotate_job(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                     img_warp_job_t *out_job)
{
	const rotate_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const rot_sample_t *s = &r->s[i];
	const int64_t *shape = dalic_batch_shape(in, i);
	img_warp_job_t job = {
		.ndim = 2,
		.in = in->ptrs[i],
		.in_type = in->dtype,
		.in_size = {shape[1], shape[0], 1},
		.channels = in->ndim == 3 ? (int)shape[2] : 1,
		.out = out->ptrs[i],
		.out_type = out->dtype,
		.out_size = {s->ow, s->oh, 1},
		.linear = r->linear,
		.clamp = !r->has_fill,
		.fill = r->fill,
	};
	dalic_img_warp_rotation(s->angle, shape[1], shape[0], s->ow, s->oh, job.m);
	*out_job = job;
	return DALIC_OK;
}

static int rotate_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	img_warp_job_t job;
	int rc = dalic_rotate_job(ctx, ws, i, &job);
	if (!rc && job.out_size[0] * job.out_size[1] > 0)
		dalic_img_warp(&job);
	return rc;
}

static void rotate_fini(dalic_op_ctx_t *ctx)
{
	rotate_t *r = ctx->state;
	free(r->s);
}

static const dalic_arg_schema_t args[] = {
	{"angle", DALIC_ARG_FLOAT, NULL, "Degrees, counter-clockwise.", .tensor = true},
	{"axis", DALIC_ARG_FLOAT_LIST, "None", "Rotation axis (3-D only; unsupported).",
	 .tensor = true},
	{"keep_size", DALIC_ARG_BOOL, "False", "Keep the input extents."},
	{"size", DALIC_ARG_FLOAT_LIST, "None", "Output extents [H, W].", .tensor = true},
	{"fill_value", DALIC_ARG_FLOAT, "None",
	 "Value outside the source; when not given, edge pixels are replicated."},
	{"interp_type", DALIC_ARG_INTERP_TYPE, "INTERP_LINEAR", "INTERP_NN or INTERP_LINEAR."},
	{"dtype", DALIC_ARG_DTYPE, "None", "Output type: the input type (default) or FLOAT."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(rotate_t),
	.init = rotate_init,
	.setup = rotate_setup,
	.run_sample = rotate_run_sample,
	.fini = rotate_fini,
};

DALIC_OPERATOR(Rotate) = {
	.name = "Rotate",
	.fn = "rotate",
	.doc = "Rotates images by an angle (degrees, counter-clockwise) about their centre.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
