/*
 * audio_resample (DALI's AudioResample, experimental.audio_resample): resamples 1-D signals or
 * [time, channels] ones along time with DALI's windowed sinc (audio_resample.h). The factor is
 * in_rate / out_rate, `scale` (out/in), or out_length / in_length; exactly one of the three
 * ways, per sample (tensor arguments). The output keeps the input's layout; `dtype` changes
 * the type with DALI's normalization (signed <-> unsigned maps 0 to half range).
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/audio_convert.h"
#include "kernels/common/audio_resample.h"
#include "kernels/common/thread_scratch.h"

#include <math.h>
#include <stdlib.h>

typedef enum { RESAMPLE_RATES, RESAMPLE_SCALE, RESAMPLE_LENGTH } resample_mode_t;

typedef struct resample_op {
	resample_mode_t mode;
	dalic_dtype_t dtype; /* DALIC_NO_TYPE: the input's */
	dalic_audio_window_t window;
	dalic_thread_scratch_t scratch;
	double *in_rate, *out_rate; /* per sample */
} resample_op_t;

static void resample_fini(dalic_op_ctx_t *ctx)
{
	resample_op_t *r = ctx->state;
	dalic_audio_window_free(&r->window);
	dalic_thread_scratch_free(&r->scratch);
	free(r->in_rate);
	free(r->out_rate);
}

static int resample_init_state(dalic_op_ctx_t *ctx, resample_op_t *r)
{
	bool rates = dalic_arg_given(ctx, "in_rate"), scale = dalic_arg_given(ctx, "scale");
	bool length = dalic_arg_given(ctx, "out_length");
	if (rates != dalic_arg_given(ctx, "out_rate"))
		return dalic_op_fail(ctx, NULL, -1,
		                     "The parameters ``in_rate`` and ``out_rate`` must be specified "
		                     "together.");
	if (rates + scale + length > 1)
		return dalic_op_fail(ctx, NULL, -1,
		                     "The sampling rates, ``scale`` and ``out_length`` cannot be used "
		                     "together.");
	if (!rates && !scale && !length)
		return dalic_op_fail(ctx, NULL, -1,
		                     "No resampling factor specified! Please supply either the "
		                     "scale, the output length or the input and output sampling "
		                     "rates.");
	r->mode = rates ? RESAMPLE_RATES : scale ? RESAMPLE_SCALE : RESAMPLE_LENGTH;
	double q = dalic_arg_float(ctx, "quality");
	if (!(q >= 0 && q <= 100))
		return dalic_op_fail(ctx, NULL, -1, "``quality`` out of range: %g Valid range is [0..100].",
		                     q);
	r->dtype = DALIC_NO_TYPE;
	if (dalic_arg_given(ctx, "dtype")) {
		r->dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
		if (!dalic_audio_norm_type(r->dtype))
			return dalic_op_fail(ctx, NULL, -1,
			                     "Unsupported output type: %s Supported types are : int8, "
			                     "uint8, int16, uint16, int32, uint32, float",
			                     dalic_dtype_cname(r->dtype));
	}
	int lobes, coeffs;
	dalic_audio_quality_params(q, &lobes, &coeffs);
	DALIC_TRY(dalic_audio_window_init(&r->window, lobes, coeffs));
	r->in_rate = calloc((size_t)ctx->max_batch_size, sizeof *r->in_rate);
	r->out_rate = calloc((size_t)ctx->max_batch_size, sizeof *r->out_rate);
	if (!r->in_rate || !r->out_rate)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return dalic_thread_scratch_init(ctx, &r->scratch);
}

static int resample_init(dalic_op_ctx_t *ctx)
{
	int rc = resample_init_state(ctx, ctx->state);
	if (rc)
		resample_fini(ctx);
	return rc;
}

/* Rates and output length of sample i, with DALI's checks. */
static int resample_sample_args(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, resample_op_t *r,
                                int i, int64_t in_len, int64_t *out_len)
{
	double a, b;
	switch (r->mode) {
	case RESAMPLE_RATES:
		DALIC_TRY(dalic_arg_float_at(ctx, ws, "in_rate", i, &a));
		DALIC_TRY(dalic_arg_float_at(ctx, ws, "out_rate", i, &b));
		a = (float)a, b = (float)b;
		if (!(a > 0))
			return dalic_op_fail(ctx, ws, i,
			                     "Input sampling rates must be positive. Got in_rate == %g", a);
		if (!(b >= 0))
			return dalic_op_fail(ctx, ws, i,
			                     "Output sampling rates must be non-negative. Got out_rate == %g",
			                     b);
		break;
	case RESAMPLE_SCALE:
		DALIC_TRY(dalic_arg_float_at(ctx, ws, "scale", i, &b));
		b = (float)b, a = 1;
		if (!(b >= 0))
			return dalic_op_fail(ctx, ws, i,
			                     "The scaling factor must be non-negative. Got scale == %g", b);
		break;
	default:
		DALIC_TRY(dalic_arg_float_at(ctx, ws, "out_length", i, &b));
		if (!(b >= 0 && b <= 4611686018427387904.0))
			return dalic_op_fail(ctx, ws, i, "out_length %g is not a valid length", b);
		*out_len = (int64_t)b;
		if (in_len == 0 && *out_len != 0)
			return dalic_op_fail(ctx, ws, i,
			                     "Cannot produce a non-empty signal from an empty input.");
		r->in_rate[i] = in_len ? (double)in_len : 1;
		r->out_rate[i] = *out_len ? (double)*out_len : 1;
		return DALIC_OK;
	}
	r->in_rate[i] = a;
	r->out_rate[i] = b;
	if ((*out_len = dalic_audio_resampled_length(in_len, a, b)) < 0)
		return dalic_op_fail(ctx, ws, i, "resampling %lld samples by %g gives too many",
		                     (long long)in_len, b / a);
	return DALIC_OK;
}

static int resample_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	resample_op_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (in->ndim != 1 && in->ndim != 2)
		return dalic_op_fail(ctx, ws, -1,
		                     "Audio resampling supports only time series data, with an "
		                     "optional innermost channel dimension.");
	if (!dalic_audio_norm_type(in->dtype))
		return dalic_op_fail(ctx, ws, -1,
		                     "Unsupported input type: %s Supported types are : int8, uint8, "
		                     "int16, uint16, int32, uint32, float",
		                     dalic_dtype_cname(in->dtype));
	if (ws->batch_size > ctx->max_batch_size)
		return dalic_op_fail(ctx, ws, -1, "batch of %d exceeds max batch size %d",
		                     ws->batch_size, ctx->max_batch_size);
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size,
	                               r->dtype == DALIC_NO_TYPE ? in->dtype : r->dtype, in->ndim));
	dalic_batch_set_layout(out, in->layout);
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *s = dalic_batch_shape(in, i);
		int64_t *o = dalic_batch_shape_mut(out, i);
		DALIC_TRY(resample_sample_args(ctx, ws, r, i, s[0], &o[0]));
		if (in->ndim == 2)
			o[1] = s[1];
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

static bool resample_unsigned(dalic_dtype_t t)
{
	return t == DALIC_UINT8 || t == DALIC_UINT16 || t == DALIC_UINT32;
}

/* The input as floats in DALI's range for the output type: signed inputs squeezed to 0..1 for
 * unsigned outputs, unsigned ones stretched to -1..1 for signed outputs. */
static void resample_input(float *dst, dalic_dtype_t in, const void *src, int64_t n,
                           dalic_dtype_t out)
{
	dalic_audio_to_float_norm(dst, in, src, n);
	if (resample_unsigned(out) && !resample_unsigned(in))
		for (int64_t k = 0; k < n; k++)
			dst[k] = (dst[k] + 1.0f) * 0.5f;
	else if (!resample_unsigned(out) && resample_unsigned(in))
		for (int64_t k = 0; k < n; k++)
			dst[k] = dst[k] * 2.0f - 1.0f;
}

static int resample_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	resample_op_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const int64_t *is = dalic_batch_shape(in, i), *os = dalic_batch_shape(out, i);
	int ch = in->ndim == 2 ? (int)is[1] : 1;
	int64_t n_in = dalic_batch_sample_elems(in, i), n_out = dalic_batch_sample_elems(out, i);
	if (n_out == 0)
		return DALIC_OK;
	if (ch > 1 << 20)
		return dalic_op_fail(ctx, ws, i, "%d channels are too many", ch);
	bool in_direct = in->dtype == DALIC_FLOAT && !resample_unsigned(out->dtype);
	size_t need = (size_t)(in_direct ? 0 : n_in) + (size_t)(out->dtype == DALIC_FLOAT ? 0 : n_out);
	int rc = DALIC_OK;
	float *buf = need ? dalic_thread_scratch_get(ctx, ws, i, &r->scratch, thread,
	                                             need * sizeof(float), &rc)
	                  : NULL;
	if (need && !buf)
		return rc;
	const float *src = in->ptrs[i];
	if (!in_direct) {
		resample_input(buf, in->dtype, in->ptrs[i], n_in, out->dtype);
		src = buf;
	}
	float *dst = out->dtype == DALIC_FLOAT ? out->ptrs[i] : buf + (in_direct ? 0 : n_in);
	dalic_audio_resample(&r->window, dst, os[0], r->out_rate[i], src, is[0], r->in_rate[i], ch);
	if (out->dtype != DALIC_FLOAT)
		dalic_audio_from_float_norm(out->dtype, out->ptrs[i], dst, n_out);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"in_rate", DALIC_ARG_FLOAT, "None", "Input sampling rate (with out_rate).", .tensor = true},
	{"out_rate", DALIC_ARG_FLOAT, "None", "Output sampling rate (with in_rate).", .tensor = true},
	{"scale", DALIC_ARG_FLOAT, "None", "Ratio of output to input rate.", .tensor = true},
	{"out_length", DALIC_ARG_INT, "None", "Requested output length in samples.", .tensor = true},
	{"quality", DALIC_ARG_FLOAT, "50.0",
	 "Resampling quality, 0..100: 3 sinc lobes at 0, 16 at 50, 64 at 100."},
	{"dtype", DALIC_ARG_DTYPE, "None", "Output type; the input's if not given."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(resample_op_t),
	.init = resample_init,
	.setup = resample_setup,
	.run_sample = resample_run_sample,
	.fini = resample_fini,
};

DALIC_OPERATOR(AudioResample) = {
	.name = "AudioResample",
	.fn = "audio_resample",
	.aliases = {"experimental__AudioResample"},
	.doc = "Resamples audio signals with DALI's windowed-sinc filter.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
