/*
 * mel_filter_bank (DALI's MelFilterBank): a spectrogram's frequency axis ('f' in the layout;
 * without a layout the second-to-last dim, or the only one) becomes `nfilter` triangular mel
 * bands between freq_low and freq_high (default sample_rate / 2). The FFT size is taken from
 * the input, nfft = 2 * (bins - 1). Mel scale "slaney" (linear below 1 kHz, logarithmic above;
 * librosa's default) or "htk"; `normalize` scales each band to unit area. The weights are
 * DALI's, computed with its float mel conversions; frequency-major data ("ft") accumulates
 * bin by bin into the bands, frequency-last data ("tf", 1-D) band by band, as DALI does.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MEL_TABLES 4

typedef struct mel_table {
	int nfft, size, start, end; /* bins [start, end] take part, of `size` */
	float *down;                /* per bin: the weight of the band it falls off */
	float *norm;                /* per band */
	int *interval;              /* per bin: the band whose rising edge it is on */
	int *ends;                  /* nfilter + 2 band edges in bins (frequency-last path) */
} mel_table_t;

typedef struct mel_op {
	int nfilter;
	float sample_rate, freq_low, freq_high;
	bool htk, normalize;
	mel_table_t tables[MEL_TABLES];
	int axis; /* of the current batch */
} mel_op_t;

static float mel_from_hz(bool htk, float hz)
{
	if (htk)
		return 1127.0f * logf(1.0f + hz / 700.0f);
	const float fsp = (float)(200.0 / 3.0), min_log_mel = 1000.0f / fsp;
	return hz >= 1000.0f ? min_log_mel + logf(hz / 1000.0f) / 0.068751777f : hz / fsp;
}

static float mel_to_hz(bool htk, float mel)
{
	if (htk)
		return 700.0f * (expf(mel / 1127.0f) - 1.0f);
	const float fsp = (float)(200.0 / 3.0), min_log_mel = 1000.0f / fsp;
	return mel >= min_log_mel ? 1000.0f * expf(0.068751777f * (mel - min_log_mel)) : mel * fsp;
}

static void mel_table_free(mel_table_t *t)
{
	free(t->down);
	free(t->norm);
	free(t->interval);
	free(t->ends);
	memset(t, 0, sizeof *t);
}

/* DALI's MelFilterImplBase and MelFilterBankCpu::Impl for one FFT size. */
static int mel_table_build(const mel_op_t *m, mel_table_t *t, int nfft)
{
	bool htk = m->htk;
	int nf = m->nfilter;
	t->nfft = nfft;
	t->size = nfft / 2 + 1;
	t->down = calloc((size_t)t->size + 1, sizeof *t->down);
	t->norm = malloc((size_t)nf * sizeof *t->norm);
	t->interval = malloc(((size_t)t->size + 1) * sizeof *t->interval);
	t->ends = malloc(((size_t)nf + 2) * sizeof *t->ends);
	if (!t->down || !t->norm || !t->interval || !t->ends)
		return dalic_fail(DALIC_ENOMEM, "out of memory for mel filter weights");
	double mel_low = mel_from_hz(htk, m->freq_low), mel_high = mel_from_hz(htk, m->freq_high);
	double hz_step = (double)m->sample_rate / nfft, delta = (mel_high - mel_low) / (nf + 1);
	t->start = (int)ceil(m->freq_low * (1.0 / hz_step));
	t->end = (int)ceil(m->freq_high * (1.0 / hz_step));
	if (t->end > t->size)
		t->end = t->size;
	for (int k = 0; k < nf; k++)
		t->norm[k] = 1;
	int bin = t->start;
	double f = bin * hz_step, mel0 = mel_low, mel1 = mel_low + delta;
	for (int k = 0; k <= nf; k++, mel0 = mel1, mel1 += delta) {
		if (k == nf)
			mel1 = mel_high;
		double f0 = mel_to_hz(htk, (float)mel0), f1 = mel_to_hz(htk, (float)mel1);
		if (m->normalize && k < nf)
			t->norm[k] = (float)(2.0 / (mel_to_hz(htk, (float)(mel1 + delta)) - f0));
		double slope = 1. / (f1 - f0);
		for (; bin < t->end && f < f1; bin++, f = bin * hz_step)
			t->down[bin] = (float)((f1 - f) * slope);
	}
	for (int b = 0; b <= t->size; b++)
		t->interval[b] = -1;
	bin = t->start;
	f = bin * hz_step;
	double mel = mel_low + delta;
	for (int k = 0; k < nf + 1; k++, mel += delta) {
		double freq = mel_to_hz(htk, (float)(k == nf ? mel_high : mel));
		for (; bin <= t->end && f < freq; bin++, f = bin * hz_step)
			t->interval[bin] = k;
	}
	t->ends[0] = t->start;
	t->ends[nf + 1] = t->end + 1;
	mel = mel_low + delta;
	for (int k = 1; k < nf + 1; k++, mel += delta)
		t->ends[k] = (int)ceil(mel_to_hz(htk, (float)mel) / hz_step);
	return DALIC_OK;
}

static void mel_fini(dalic_op_ctx_t *ctx)
{
	mel_op_t *m = ctx->state;
	for (int k = 0; k < MEL_TABLES; k++)
		mel_table_free(&m->tables[k]);
}

static int mel_init(dalic_op_ctx_t *ctx)
{
	mel_op_t *m = ctx->state;
	int64_t nf = dalic_arg_int(ctx, "nfilter");
	if (nf <= 0)
		return dalic_op_fail(ctx, NULL, -1, "number of filters should be > 0");
	if (nf > (1 << 20))
		return dalic_op_fail(ctx, NULL, -1, "%lld filters are too many", (long long)nf);
	m->nfilter = (int)nf;
	m->sample_rate = (float)dalic_arg_float(ctx, "sample_rate");
	if (!(m->sample_rate > 0.0f))
		return dalic_op_fail(ctx, NULL, -1, "sample rate should be > 0");
	m->freq_low = (float)dalic_arg_float(ctx, "freq_low");
	if (!(m->freq_low >= 0.0f))
		return dalic_op_fail(ctx, NULL, -1, "freq_low should be >= 0");
	m->freq_high = (float)dalic_arg_float(ctx, "freq_high");
	if (m->freq_high <= 0.0f)
		m->freq_high = 0.5f * m->sample_rate;
	if (!(m->freq_high > m->freq_low && m->freq_high <= m->sample_rate))
		return dalic_op_fail(ctx, NULL, -1,
		                     "freq_high should be within the range (freq_low, sample_rate/2]");
	const char *formula = dalic_arg_string(ctx, "mel_formula");
	if (formula && !strcmp(formula, "htk"))
		m->htk = true;
	else if (!formula || strcmp(formula, "slaney"))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Unsupported mel_formula value \"%s\". Supported values are: "
		                     "\"slaney\", \"htk\"",
		                     formula ? formula : "None");
	m->normalize = dalic_arg_bool(ctx, "normalize");
	return DALIC_OK;
}

static const mel_table_t *mel_find(const mel_op_t *m, int nfft)
{
	for (int k = 0; k < MEL_TABLES; k++)
		if (m->tables[k].nfft == nfft && m->tables[k].down)
			return &m->tables[k];
	return NULL;
}

/* Makes sure the weights for nfft exist (a small cache: batches rarely mix FFT sizes). */
static int mel_need(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, mel_op_t *m, int i, int nfft,
                    int *next)
{
	if (mel_find(m, nfft))
		return DALIC_OK;
	if (*next >= MEL_TABLES)
		return dalic_op_fail(ctx, ws, i, "more than %d spectrum sizes in one batch",
		                     MEL_TABLES);
	mel_table_t *t = &m->tables[(*next)++];
	mel_table_free(t);
	int rc = mel_table_build(m, t, nfft);
	if (rc) {
		mel_table_free(t);
		return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
	}
	return DALIC_OK;
}

static int mel_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	mel_op_t *m = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Unsupported data type: %s",
		                     dalic_dtype_cname(in->dtype));
	int nd = in->ndim;
	const char *f = strchr(in->layout, 'f');
	m->axis = !in->layout[0] ? (nd - 2 > 0 ? nd - 2 : 0) : f ? (int)(f - in->layout) : -1;
	if (m->axis < 0 || m->axis >= nd)
		return dalic_op_fail(ctx, ws, -1, "'f' axis not present in the layout. Got: `%s`",
		                     in->layout);
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size, DALIC_FLOAT, nd));
	dalic_batch_set_layout(out, in->layout);
	int next = 0;
	for (int k = 0; k < MEL_TABLES; k++) /* keep the tables this batch uses */
		if (m->tables[k].down)
			next = k + 1;
	next = next >= MEL_TABLES ? 0 : next;
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *s = dalic_batch_shape(in, i);
		if (s[m->axis] < 2 || s[m->axis] > (1 << 24))
			return dalic_op_fail(ctx, ws, i, "%lld frequency bins: not a spectrum",
			                     (long long)s[m->axis]);
		DALIC_TRY(mel_need(ctx, ws, m, i, (int)(2 * (s[m->axis] - 1)), &next));
		int64_t *o = dalic_batch_shape_mut(out, i);
		memcpy(o, s, (size_t)nd * sizeof *o);
		o[m->axis] = m->nfilter;
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* Bands along a frequency axis with `nwin` contiguous values per bin (DALI's freq-major). */
static void mel_freq_major(const mel_op_t *m, const mel_table_t *t, float *out, const float *in,
                           int64_t nwin)
{
	memset(out, 0, (size_t)m->nfilter * (size_t)nwin * sizeof *out);
	int last = t->end < t->size ? t->end : t->size - 1;
	for (int b = t->start; b <= last; b++) {
		const float *row = in + b * nwin;
		int up = t->interval[b], down = up - 1;
		float w_down = t->down[b], w_up = 1.0f - t->down[b];
		if (down >= 0) {
			float w = m->normalize ? w_down * t->norm[down] : w_down;
			float *o = out + down * nwin;
			for (int64_t k = 0; k < nwin; k++)
				o[k] += w * row[k];
		}
		if (up >= 0 && up < m->nfilter) {
			float w = m->normalize ? w_up * t->norm[up] : w_up;
			float *o = out + up * nwin;
			for (int64_t k = 0; k < nwin; k++)
				o[k] += w * row[k];
		}
	}
}

/* Bands of one spectrum with contiguous bins (DALI's time-major). */
static void mel_freq_last(const mel_op_t *m, const mel_table_t *t, float *out, const float *in)
{
	for (int k = 0; k < m->nfilter; k++) {
		float v = 0;
		int b = t->ends[k], f1 = t->ends[k + 1], f2 = t->ends[k + 2];
		f1 = f1 < t->size ? f1 : t->size;
		f2 = f2 < t->size ? f2 : t->size;
		for (; b < f1; b++)
			v += in[b] * (1.0f - t->down[b]);
		for (; b < f2; b++)
			v += in[b] * t->down[b];
		out[k] = m->normalize ? v * t->norm[k] : v;
	}
}

static int mel_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	mel_op_t *m = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const int64_t *s = dalic_batch_shape(in, i);
	const mel_table_t *t = mel_find(m, (int)(2 * (s[m->axis] - 1)));
	int64_t outer = 1, inner = 1, bins = s[m->axis];
	for (int d = 0; d < m->axis; d++)
		outer *= s[d];
	for (int d = m->axis + 1; d < in->ndim; d++)
		inner *= s[d];
	const float *x = in->ptrs[i];
	float *y = ws->outputs[0]->ptrs[i];
	for (int64_t o = 0; o < outer; o++) {
		const float *xo = x + o * bins * inner;
		float *yo = y + o * (int64_t)m->nfilter * inner;
		if (inner == 1)
			mel_freq_last(m, t, yo, xo);
		else
			mel_freq_major(m, t, yo, xo, inner);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"nfilter", DALIC_ARG_INT, "128", "Number of mel filters."},
	{"sample_rate", DALIC_ARG_FLOAT, "44100.0", "Sampling rate of the audio signal."},
	{"freq_low", DALIC_ARG_FLOAT, "0.0", "The minimum frequency."},
	{"freq_high", DALIC_ARG_FLOAT, "0.0", "The maximum frequency (sample_rate / 2 if not given)."},
	{"normalize", DALIC_ARG_BOOL, "True", "Scale each triangular filter to unit area."},
	{"mel_formula", DALIC_ARG_STRING, "'slaney'", "Mel scale formula: slaney or htk."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(mel_op_t),
	.init = mel_init,
	.setup = mel_setup,
	.run_sample = mel_run_sample,
	.fini = mel_fini,
};

DALIC_OPERATOR(MelFilterBank) = {
	.name = "MelFilterBank",
	.fn = "mel_filter_bank",
	.doc = "Converts a spectrogram to a mel spectrogram with triangular filters.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
