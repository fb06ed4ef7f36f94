/*
 * nonsilent_region (DALI's NonsilentRegion): the begin and length (int32 scalars) of the part
 * of a 1-D signal whose short-term power, the mean square over `window_length` samples, is at
 * least `cutoff_db` below the reference power (the signal's highest short-term power, or
 * `reference_power`). As DALI: the moving mean square accumulates in int64 for 8/16-bit
 * integers and in float otherwise, recomputed every `reset_interval` samples for float input;
 * each position's power is that of the window ending there (partial at the start). A region
 * found after the start begins window_length - 1 samples early, where the first loud window
 * begins; a window longer than the signal shrinks to it; a silent signal gives length 0 (an
 * all-zero one, whose reference is 0, the whole signal).
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/audio_mms.h"
#include "kernels/common/thread_scratch.h"

#include <math.h>
#include <stdlib.h>

typedef struct nonsilent_op {
	float cutoff_db, reference;
	bool reference_max;
	int window, reset;
	dalic_thread_scratch_t scratch;
} nonsilent_op_t;

static void nonsilent_fini(dalic_op_ctx_t *ctx)
{
	dalic_thread_scratch_free(&((nonsilent_op_t *)ctx->state)->scratch);
}

static int nonsilent_init(dalic_op_ctx_t *ctx)
{
	nonsilent_op_t *s = ctx->state;
	s->cutoff_db = (float)dalic_arg_float(ctx, "cutoff_db");
	s->reference_max = !dalic_arg_given(ctx, "reference_power");
	s->reference = (float)dalic_arg_float(ctx, "reference_power");
	if (!s->reference_max && !(s->reference > 0))
		return dalic_op_fail(ctx, NULL, -1, "`reference_power` has to be positive. Got: %g",
		                     (double)s->reference);
	int64_t w = dalic_arg_int(ctx, "window_length"), r = dalic_arg_int(ctx, "reset_interval");
	if (w < 1 || w > INT32_MAX)
		return dalic_op_fail(ctx, NULL, -1, "`window_length` must be positive. Got: %lld",
		                     (long long)w);
	if (r < INT32_MIN || r > INT32_MAX)
		return dalic_op_fail(ctx, NULL, -1, "`reset_interval` out of range: %lld",
		                     (long long)r);
	s->window = (int)w;
	s->reset = (int)r;
	return dalic_thread_scratch_init(ctx, &s->scratch);
}

static bool nonsilent_type_ok(dalic_dtype_t t)
{
	return dalic_dtype_is_numeric(t) && t != DALIC_FLOAT16 && t != DALIC_FLOAT64 &&
	       t != DALIC_BOOL;
}

static int nonsilent_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	nonsilent_op_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (!nonsilent_type_ok(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "Unsupported input type: %s",
		                     dalic_dtype_cname(in->dtype));
	if (in->ndim != 1)
		return dalic_op_fail(ctx, ws, -1, "expects 1-D signals, got %d dims", in->ndim);
	if (in->dtype == DALIC_FLOAT && s->reset != -1 && (s->reset % s->window) != 0)
		return dalic_op_fail(ctx, ws, -1,
		                     "`reset_interval` shall be a multiple of `window_length`. Got: "
		                     "reset_interval: %d vs window_length: %d",
		                     s->reset, s->window);
	for (int k = 0; k < 2; k++) {
		DALIC_TRY(dalic_batch_set_meta(ws->outputs[k], ws->batch_size, DALIC_INT32, 0));
		for (int i = 0; i < ws->batch_size; i++)
			ws->outputs[k]->sources[i] = in->sources[i];
	}
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t n = dalic_batch_sample_elems(in, i);
		if (n > INT32_MAX)
			return dalic_op_fail(ctx, ws, i, "%lld samples are too many", (long long)n);
	}
	return DALIC_OK;
}

/* DALI 2.4's moving mean square: out[p] is the sum of squares of x[p - window + 1 .. p] (the
 * part inside the signal) over `window`, kept as a running sum (the leaving square subtracted,
 * then the entering one added: the order DALI 2.4's float results show) and recomputed from
 * scratch every `reset` + 1 positions. ACC is the accumulator type. */
#define NONSILENT_MMS(CT, ACC)                                                                     \
	do {                                                                                       \
		const CT *x = data;                                                                \
		for (int64_t p = 0; p < n; p++) {                                                  \
			int64_t wb = p - window + 1;                                               \
			ACC sum = 0;                                                               \
			for (int64_t q = wb > 0 ? wb : 0; q <= p; q++)                             \
				sum += (ACC)x[q] * (ACC)x[q];                                      \
			out[p] = (float)sum * mean;                                                \
			int64_t end = p + reset < n ? p + reset : n;                               \
			while (p < end && p + 1 < n) {                                             \
				p++;                                                               \
				wb++;                                                              \
				if (wb > 0)                                                        \
					sum -= (ACC)x[wb - 1] * (ACC)x[wb - 1];                    \
				sum += (ACC)x[p] * (ACC)x[p];                                      \
				out[p] = (float)sum * mean;                                        \
			}                                                                          \
		}                                                                                  \
	} while (0)

static void nonsilent_mms(dalic_dtype_t t, const void *data, int64_t n, int64_t window,
                          int64_t reset, float *out)
{
	const float mean = 1.f / (float)window;
	switch (t) {
	case DALIC_UINT8:
		NONSILENT_MMS(uint8_t, int64_t);
		break;
	case DALIC_INT8:
		NONSILENT_MMS(int8_t, int64_t);
		break;
	case DALIC_UINT16:
		NONSILENT_MMS(uint16_t, int64_t);
		break;
	case DALIC_INT16:
		NONSILENT_MMS(int16_t, int64_t);
		break;
	case DALIC_UINT32:
		NONSILENT_MMS(uint32_t, float);
		break;
	case DALIC_INT32:
		NONSILENT_MMS(int32_t, float);
		break;
	case DALIC_UINT64:
		NONSILENT_MMS(uint64_t, float);
		break;
	case DALIC_INT64:
		NONSILENT_MMS(int64_t, float);
		break;
	default: /* float: several reset segments at a time, the same bits (audio_mms.h) */
		dalic_audio_mms_f32(data, n, window, reset, mean, out, DALIC_AUDIO_MMS_LANES);
		break;
	}
}

static int nonsilent_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	nonsilent_op_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	int64_t n = dalic_batch_sample_elems(in, i);
	int64_t window = s->window < n ? s->window : n, m = n;
	if (n == 0) {
		*(int32_t *)ws->outputs[0]->ptrs[i] = 0;
		*(int32_t *)ws->outputs[1]->ptrs[i] = 0;
		return DALIC_OK;
	}
	int rc = DALIC_OK;
	float *mms = dalic_thread_scratch_get(ctx, ws, i, &s->scratch, thread,
	                                      (size_t)m * sizeof(float), &rc);
	if (!mms)
		return rc;
	/* DALI recomputes the running sum only for floating-point input */
	int64_t reset = in->dtype == DALIC_FLOAT && s->reset != -1 ? s->reset : n;
	nonsilent_mms(in->dtype, in->ptrs[i], n, window, reset, mms);
	float ref = s->reference;
	if (s->reference_max) {
		ref = mms[0];
		for (int64_t k = 1; k < m; k++)
			ref = mms[k] > ref ? mms[k] : ref;
	}
	float cutoff = ref * powf(10.0f, s->cutoff_db * (1.0f / 10.0f));
	int64_t begin = m, end = m;
	for (int64_t k = 0; k < m; k++)
		if (mms[k] >= cutoff) {
			begin = k;
			break;
		}
	int64_t len = 0;
	if (begin == m) {
		begin = 0;
	} else {
		for (int64_t k = m - 1; k >= begin; k--)
			if (mms[k] >= cutoff) {
				end = k;
				break;
			}
		len = end - begin + 1;
		if (begin != 0) { /* the first loud window starts window - 1 samples earlier */
			int64_t start = begin - (window - 1) > 0 ? begin - (window - 1) : 0;
			len += begin - start;
			begin = start;
		}
	}
	*(int32_t *)ws->outputs[0]->ptrs[i] = (int32_t)begin;
	*(int32_t *)ws->outputs[1]->ptrs[i] = (int32_t)len;
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"cutoff_db", DALIC_ARG_FLOAT, "-60.0", "Threshold in dB below which the signal is silent."},
	{"window_length", DALIC_ARG_INT, "2048", "Size of the window of the short-term power."},
	{"reference_power", DALIC_ARG_FLOAT, "0.0",
	 "Reference power for the dB conversion; the signal's maximum if not given."},
	{"reset_interval", DALIC_ARG_INT, "8192",
	 "Samples after which the moving average is recomputed (float input; -1: never)."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(nonsilent_op_t),
	.init = nonsilent_init,
	.setup = nonsilent_setup,
	.run_sample = nonsilent_run_sample,
	.fini = nonsilent_fini,
};

DALIC_OPERATOR(NonsilentRegion) = {
	.name = "NonsilentRegion",
	.fn = "nonsilent_region",
	.doc = "Finds the begin and length of the non-silent part of an audio signal.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 2,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
