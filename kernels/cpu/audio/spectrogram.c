/*
 * spectrogram (DALI's Spectrogram): the short-time Fourier transform of a 1-D float signal
 * (or one with all dims but one of extent 1). Windows of `window_length` samples every
 * `window_step`, multiplied by `window_fn` (default: DALI's Hann window), placed in the middle
 * of an `nfft`-point buffer and transformed with FFTW (audio_fft.h); bins 0..nfft/2 as power
 * (re^2 + im^2) or magnitude. With center_windows the windows are centred on multiples of the
 * step and the signal is extended by reflection (reflect_padding, "abcba") or zeros;
 * without, only windows inside the signal are taken. Layout "ft" [bins, windows] or "tf".
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/audio_fft.h"
#include "kernels/common/thread_scratch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <xmmintrin.h>
#endif

typedef struct spectrogram_op {
	int window, step, nfft, center;
	bool power, time_major, reflect, padded;
	float *window_fn;
	dalic_audio_fft_t fft;
	dalic_thread_scratch_t scratch;
} spectrogram_op_t;

static void spectrogram_fini(dalic_op_ctx_t *ctx)
{
	spectrogram_op_t *s = ctx->state;
	free(s->window_fn);
	dalic_audio_fft_free(&s->fft);
	dalic_thread_scratch_free(&s->scratch);
}

static int spectrogram_int_arg(dalic_op_ctx_t *ctx, const char *name, int *out)
{
	int64_t v = dalic_arg_int(ctx, name);
	if (v < INT32_MIN || v > INT32_MAX)
		return dalic_op_fail(ctx, NULL, -1, "`%s` out of range: %lld", name, (long long)v);
	*out = (int)v;
	return DALIC_OK;
}

static int spectrogram_init_state(dalic_op_ctx_t *ctx, spectrogram_op_t *s)
{
	const char *layout = dalic_arg_string(ctx, "layout");
	if (!layout || (strcmp(layout, "ft") && strcmp(layout, "tf")))
		return dalic_op_fail(ctx, NULL, -1, "Unexpected layout: %s",
		                     layout ? layout : "None");
	s->time_major = !strcmp(layout, "tf");
	DALIC_TRY(spectrogram_int_arg(ctx, "window_length", &s->window));
	DALIC_TRY(spectrogram_int_arg(ctx, "window_step", &s->step));
	if (s->window <= 0)
		return dalic_op_fail(ctx, NULL, -1, "Invalid window length: %d", s->window);
	if (s->window > (1 << 26))
		return dalic_op_fail(ctx, NULL, -1, "window length %d is too large", s->window);
	if (s->step <= 0)
		return dalic_op_fail(ctx, NULL, -1, "Invalid window step: %d", s->step);
	s->nfft = s->window;
	if (dalic_arg_given(ctx, "nfft"))
		DALIC_TRY(spectrogram_int_arg(ctx, "nfft", &s->nfft));
	const dalic_value_t *fn = dalic_arg(ctx, "window_fn");
	int nfn = fn->kind == DALIC_V_NONE ? 0 : fn->n;
	if (nfn && nfn != s->window)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Window function should match the specified `window_length`");
	if (s->window > s->nfft)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Window length (%d) can't be bigger than the FFT size (%d)",
		                     s->window, s->nfft);
	if (s->nfft > (1 << 26))
		return dalic_op_fail(ctx, NULL, -1, "nfft %d is too large", s->nfft);
	int64_t power = dalic_arg_int(ctx, "power");
	if (power != 1 && power != 2)
		return dalic_op_fail(ctx, NULL, -1,
		                     "`power` can be only 1 (energy) or 2 (power), received %lld",
		                     (long long)power);
	s->power = power == 2;
	s->padded = dalic_arg_bool(ctx, "center_windows");
	s->reflect = s->padded && dalic_arg_bool(ctx, "reflect_padding");
	s->center = s->padded ? s->window / 2 : 0;
	s->window_fn = malloc((size_t)s->window * sizeof *s->window_fn);
	if (!s->window_fn)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	double a = 2 * M_PI / s->window; /* DALI's HannWindow */
	for (int t = 0; t < s->window; t++)
		s->window_fn[t] = nfn ? (float)dalic_value_get_f(fn, t)
		                      : (float)(0.5 * (1.0 - cos(a * (t + 0.5))));
	DALIC_TRY(dalic_audio_fft_init(&s->fft, s->nfft));
	return dalic_thread_scratch_init(ctx, &s->scratch);
}

static int spectrogram_init(dalic_op_ctx_t *ctx)
{
	int rc = spectrogram_init_state(ctx, ctx->state);
	if (rc)
		spectrogram_fini(ctx);
	return rc;
}

#define SPECTROGRAM_BLOCK 16

/* DALI's num_windows: C's truncating division, so a short unpadded signal may get one. */
static int64_t spectrogram_windows(const spectrogram_op_t *s, int64_t n)
{
	return (s->padded ? n : n - s->window) / s->step + 1;
}

static int spectrogram_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	spectrogram_op_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "expects float32 input, got %s",
		                     dalic_dtype_cname(in->dtype));
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size, DALIC_FLOAT, 2));
	dalic_batch_set_layout(out, s->time_major ? "tf" : "ft");
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *sh = dalic_batch_shape(in, i);
		int64_t n = dalic_batch_sample_elems(in, i);
		for (int d = 0; in->ndim > 1 && d < in->ndim; d++)
			if (sh[d] != 1 && sh[d] != n) {
				char shape[128];
				dalic_batch_format_shape(sh, in->ndim, "{}", shape, sizeof shape);
				return dalic_op_fail(
				    ctx, ws, i,
				    "Input data must be 1D or all but one dimensions must "
				    "be degenerate (extent 1). Got: %s",
				    shape);
			}
		int64_t nwin = spectrogram_windows(s, n);
		if (nwin <= 0)
			return dalic_op_fail(ctx, ws, i, "Signal is too short (%lld) for sample %d",
			                     (long long)n, i);
		int64_t *o = dalic_batch_shape_mut(out, i);
		o[s->time_major ? 0 : 1] = nwin;
		o[s->time_major ? 1 : 0] = s->nfft / 2 + 1;
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* One window's bins from the FFT's interleaved (re, im): re^2 + im^2, four at a time with
 * SSE (the same two products and one sum per bin as the scalar tail: bit-identical), or
 * the magnitude. */
static void spectrogram_bins(const float *spec, float *row, int nbins, bool power)
{
	int b = 0;
	if (!power) {
		for (; b < nbins; b++)
			row[b] = hypotf(spec[2 * b], spec[2 * b + 1]);
		return;
	}
#ifdef __SSE2__
	for (; b + 3 < nbins; b += 4) {
		__m128 a = _mm_loadu_ps(spec + 2 * b), c = _mm_loadu_ps(spec + 2 * b + 4);
		__m128 re = _mm_shuffle_ps(a, c, _MM_SHUFFLE(2, 0, 2, 0));
		__m128 im = _mm_shuffle_ps(a, c, _MM_SHUFFLE(3, 1, 3, 1));
		_mm_storeu_ps(row + b, _mm_add_ps(_mm_mul_ps(re, re), _mm_mul_ps(im, im)));
	}
#endif
	for (; b < nbins; b++) {
		float re = spec[2 * b], im = spec[2 * b + 1];
		row[b] = re * re + im * im;
	}
}

/* "ft": `rows` windows of blk (nbins each) into columns [0, rows) of y's nbins rows of
 * nwin: 4 x 4 tiles transposed in registers, then the edges one by one. */
static void spectrogram_flush(const float *blk, int rows, int nbins, float *y, int64_t nwin)
{
	int b = 0;
#ifdef __SSE2__
	int rows4 = rows & ~3;
	for (; b + 3 < nbins; b += 4) {
		for (int k = 0; k < rows4; k += 4) {
			__m128 r0 = _mm_loadu_ps(blk + (size_t)k * nbins + b);
			__m128 r1 = _mm_loadu_ps(blk + (size_t)(k + 1) * nbins + b);
			__m128 r2 = _mm_loadu_ps(blk + (size_t)(k + 2) * nbins + b);
			__m128 r3 = _mm_loadu_ps(blk + (size_t)(k + 3) * nbins + b);
			_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
			_mm_storeu_ps(y + b * nwin + k, r0);
			_mm_storeu_ps(y + (b + 1) * nwin + k, r1);
			_mm_storeu_ps(y + (b + 2) * nwin + k, r2);
			_mm_storeu_ps(y + (b + 3) * nwin + k, r3);
		}
		for (int q = 0; q < 4; q++)
			for (int k = rows4; k < rows; k++)
				y[(b + q) * nwin + k] = blk[(size_t)k * nbins + b + q];
	}
#endif
	for (; b < nbins; b++)
		for (int k = 0; k < rows; k++)
			y[b * nwin + k] = blk[(size_t)k * nbins + b];
}

/* DALI's idx_reflect_101: mirrored about the end samples, without repeating them. */
static int64_t spectrogram_reflect(int64_t i, int64_t n)
{
	if (n < 2)
		return n - 1;
	for (;;) {
		if (i < 0)
			i = -i;
		else if (i >= n)
			i = 2 * n - 2 - i;
		else
			return i;
	}
}

static int spectrogram_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	spectrogram_op_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const float *x = in->ptrs[i];
	float *y = out->ptrs[i];
	int64_t n = dalic_batch_sample_elems(in, i), nwin = spectrogram_windows(s, n);
	int nbins = s->nfft / 2 + 1;
	size_t in_bytes = ((size_t)s->nfft * sizeof(float) + 63) / 64 * 64;
	int rc = DALIC_OK;
	/* "ft" output is written SPECTROGRAM_BLOCK windows at a time: each bin's row gets a
	 * contiguous run instead of one value per window nwin floats apart */
	size_t spec_bytes = (size_t)(nbins * 2) * sizeof(float);
	size_t blk_bytes =
	    s->time_major ? 0 : (size_t)SPECTROGRAM_BLOCK * (size_t)nbins * sizeof(float);
	float *buf = dalic_thread_scratch_get(ctx, ws, i, &s->scratch, thread,
	                                      in_bytes + spec_bytes + blk_bytes, &rc);
	if (!buf)
		return rc;
	float *spec = (float *)((char *)buf + in_bytes);
	float *blk = (float *)((char *)buf + in_bytes + spec_bytes);
	float *win = buf + (s->nfft - s->window) / 2; /* the window sits mid-buffer */
	memset(buf, 0, (size_t)s->nfft * sizeof(float));
	for (int64_t w = 0; w < nwin; w++) {
		int64_t start = w * s->step - s->center;
		if (start >= 0 && start + s->window <= n) {
			for (int t = 0; t < s->window; t++)
				win[t] = s->window_fn[t] * x[start + t];
		} else {
			for (int t = 0; t < s->window; t++) {
				int64_t k = start + t;
				if (s->reflect && n > 0)
					win[t] = s->window_fn[t] * x[spectrogram_reflect(k, n)];
				else
					win[t] = k >= 0 && k < n ? s->window_fn[t] * x[k] : 0;
			}
		}
		dalic_audio_fft_run(&s->fft, buf, spec);
		int64_t j = w % SPECTROGRAM_BLOCK;
		float *row = s->time_major ? y + w * nbins : blk + j * nbins;
		spectrogram_bins(spec, row, nbins, s->power);
		if (!s->time_major && (j == SPECTROGRAM_BLOCK - 1 || w == nwin - 1))
			spectrogram_flush(blk, (int)j + 1, nbins, y + w - j, nwin);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"nfft", DALIC_ARG_INT, "None",
     "Size of the FFT (default: window_length); nfft // 2 + 1 bins."},
    {"window_length", DALIC_ARG_INT, "512", "Window size in samples."},
    {"window_step", DALIC_ARG_INT, "256", "Step between the windows in samples."},
    {"window_fn", DALIC_ARG_FLOAT_LIST, "None",
     "Window function samples (window_length of them); a Hann window if not given."},
    {"power", DALIC_ARG_INT, "2", "Exponent of the magnitude: 1 (amplitude) or 2 (power)."},
    {"center_windows", DALIC_ARG_BOOL, "True",
     "Pad the signal so windows are centred at multiples of window_step."},
    {"reflect_padding", DALIC_ARG_BOOL, "True",
     "Pad by reflecting the signal (else with zeros); only with center_windows."},
    {"layout", DALIC_ARG_LAYOUT, "'ft'", "Output layout: \"ft\" or \"tf\"."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(spectrogram_op_t),
    .init = spectrogram_init,
    .setup = spectrogram_setup,
    .run_sample = spectrogram_run_sample,
    .fini = spectrogram_fini,
};

DALIC_OPERATOR(Spectrogram) = {
    .name = "Spectrogram",
    .fn = "spectrogram",
    .doc = "Produces a spectrogram (power or magnitude STFT) from a 1-D float signal.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
