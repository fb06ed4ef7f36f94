/*
 * Pictures of samples that are not images, for the BATCH pane: a waveform for audio (1-D
 * signals, or frames x channels), a heat map for spectrograms (layouts "ft" / "tf") and a strip
 * of frames for video (FHWC). A number dump of 30000 audio samples tells a user nothing; the
 * picture shows silence trimmed, clipping, an empty spectrogram band or a black frame at once.
 * All three are RGB8 pictures drawn by the same chafa thumbnails as images.
 */
#include "tui/runner_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SIGNAL_WAVE_W = 160, SIGNAL_WAVE_H = 48, SIGNAL_MAP_MAX = 160, SIGNAL_STRIP_H = 80 };
/* fewer values than this read better as numbers than as a picture */
enum { SIGNAL_STRIP_FRAMES = 4, SIGNAL_WAVE_MIN = 256 };

/* Element k of a numeric sample as a double (NaN for non-numeric types). */
static double extract_signal_value(const void *p, dalic_dtype_t t, int64_t k)
{
	switch (t) {
	case DALIC_UINT8: return ((const uint8_t *)p)[k];
	case DALIC_UINT16: return ((const uint16_t *)p)[k];
	case DALIC_UINT32: return ((const uint32_t *)p)[k];
	case DALIC_UINT64: return (double)((const uint64_t *)p)[k];
	case DALIC_INT8: return ((const int8_t *)p)[k];
	case DALIC_INT16: return ((const int16_t *)p)[k];
	case DALIC_INT32: return ((const int32_t *)p)[k];
	case DALIC_INT64: return (double)((const int64_t *)p)[k];
	case DALIC_FLOAT: return ((const float *)p)[k];
	case DALIC_FLOAT64: return ((const double *)p)[k];
	default: return NAN;
	}
}

/* Signals as decoders and spectrograms make them (float16 is not read here). */
static bool extract_signal_numeric(dalic_dtype_t t)
{
	return t == DALIC_FLOAT || t == DALIC_FLOAT64 || t == DALIC_INT16 || t == DALIC_INT32 ||
	       t == DALIC_UINT8 || t == DALIC_UINT16 || t == DALIC_INT8;
}

/* The waveform: per column, a bar from the smallest to the largest value of its span, scaled
 * to the sample's peak magnitude; channel 0 green, others cyan; the zero line grey. */
static unsigned char *extract_signal_wave(const void *p, dalic_dtype_t t, int64_t n, int64_t ch,
                                          int *tw, int *th)
{
	const int w = SIGNAL_WAVE_W, h = SIGNAL_WAVE_H;
	unsigned char *out = calloc((size_t)w * h, 3);
	if (!out)
		return NULL;
	double peak = 0;
	for (int64_t k = 0; k < n * ch; k++) {
		double v = fabs(extract_signal_value(p, t, k));
		peak = isfinite(v) && v > peak ? v : peak;
	}
	for (int x = 0; x < w; x++)
		memset(out + ((size_t)(h / 2) * w + x) * 3, 70, 3);
	for (int64_t c = ch - 1; c >= 0; c--)
		for (int x = 0; x < w && n > 0; x++) {
			int64_t a = x * n / w, b = (x + 1) * n / w;
			b = b > a ? b : a + 1;
			double lo = INFINITY, hi = -INFINITY;
			for (int64_t k = a; k < b && k < n; k++) {
				double v = extract_signal_value(p, t, k * ch + c);
				if (isfinite(v)) {
					lo = v < lo ? v : lo;
					hi = v > hi ? v : hi;
				}
			}
			if (lo > hi)
				continue;
			double s = peak > 0 ? (h / 2 - 1) / peak : 0;
			int y0 = h / 2 - (int)lround(hi * s), y1 = h / 2 - (int)lround(lo * s);
			for (int y = y0; y <= y1; y++) {
				unsigned char *px = out + ((size_t)y * w + x) * 3;
				px[0] = c ? 60 : 80;
				px[1] = c ? 200 : 230;
				px[2] = c ? 220 : 90;
			}
		}
	*tw = w;
	*th = h;
	return out;
}

/* A dark-to-bright heat colour for v in [0, 1]. */
static void extract_signal_heat(double v, unsigned char *px)
{
	static const unsigned char stops[5][3] = {
	    {0, 0, 4}, {80, 18, 123}, {183, 55, 121}, {252, 137, 97}, {252, 253, 191}};
	double f = (v < 0 ? 0 : v > 1 ? 1 : v) * 4;
	int i = f >= 4 ? 3 : (int)f;
	double d = f - i;
	for (int k = 0; k < 3; k++)
		px[k] = (unsigned char)lround(stops[i][k] + d * (stops[i + 1][k] - stops[i][k]));
}

/* The spectrogram: time left to right, frequency bottom to top, box-averaged (or stretched); powers (all
 * values >= 0) on a log scale over 80 dB below the peak, anything else (decibels, normalized
 * features) stretched from its min to its max. */
static unsigned char *extract_signal_map(const void *p, dalic_dtype_t t, int64_t rows,
                                         int64_t cols, bool freq_major, int *tw, int *th)
{
	int64_t nf = freq_major ? rows : cols, nt = freq_major ? cols : rows;
	/* a banner like the waveform's, whatever the sample's proportions: time is what one reads */
	const int w = SIGNAL_MAP_MAX, h = SIGNAL_WAVE_H;
	double *acc = malloc((size_t)w * h * sizeof *acc);
	unsigned char *out = malloc((size_t)w * h * 3);
	if (!acc || !out) {
		free(acc);
		free(out);
		return NULL;
	}
	double lo = INFINITY, hi = -INFINITY;
	for (int64_t k = 0; k < rows * cols; k++) {
		double v = extract_signal_value(p, t, k);
		if (isfinite(v)) {
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	}
	bool power = lo >= 0 && hi > 0;
	double floor_v = power ? hi * 1e-8 : 0;
	for (int y = 0; y < h; y++) {
		int64_t f0 = (h - 1 - y) * nf / h, f1 = (h - y) * nf / h;
		f1 = f1 > f0 ? f1 : f0 + 1;
		for (int x = 0; x < w; x++) {
			int64_t t0 = x * nt / w, t1 = (x + 1) * nt / w;
			t1 = t1 > t0 ? t1 : t0 + 1;
			double sum = 0;
			int64_t cnt = 0;
			for (int64_t f = f0; f < f1; f++)
				for (int64_t tt = t0; tt < t1; tt++) {
					double v = extract_signal_value(
					    p, t, freq_major ? f * cols + tt : tt * cols + f);
					if (isfinite(v)) {
						sum += v;
						cnt++;
					}
				}
			acc[(size_t)y * w + x] = cnt ? sum / cnt : (power ? 0 : lo);
		}
	}
	for (size_t k = 0; k < (size_t)w * h; k++) {
		double v;
		if (power)
			v = 1 + log10(acc[k] > floor_v ? acc[k] / hi : 1e-8) / 8;
		else
			v = hi > lo ? (acc[k] - lo) / (hi - lo) : 0;
		extract_signal_heat(v, out + k * 3);
	}
	free(acc);
	*tw = w;
	*th = h;
	return out;
}

/* Up to four frames of an FHWC uint8 sequence, evenly spaced, side by side. */
static unsigned char *extract_signal_strip(const uint8_t *p, const int64_t *sh, int *tw, int *th)
{
	int64_t f = sh[0], fh = sh[1], fw = sh[2], c = sh[3];
	int shown = (int)(f < SIGNAL_STRIP_FRAMES ? f : SIGNAL_STRIP_FRAMES);
	int h = (int)(fh < SIGNAL_STRIP_H ? fh : SIGNAL_STRIP_H);
	int w = (int)((double)fw * h / (double)fh);
	w = w < 1 ? 1 : w > SIGNAL_MAP_MAX ? SIGNAL_MAP_MAX : w;
	int gap = 2, total = shown * w + (shown - 1) * gap;
	unsigned char *out = calloc((size_t)total * h, 3);
	if (!out)
		return NULL;
	for (int s = 0; s < shown; s++) {
		int64_t frame = shown > 1 ? s * (f - 1) / (shown - 1) : 0;
		const uint8_t *src = p + (size_t)(frame * fh * fw * c);
		for (int y = 0; y < h; y++) {
			int64_t y0 = y * fh / h, y1 = (y + 1) * fh / h;
			y1 = y1 > y0 ? y1 : y0 + 1;
			for (int x = 0; x < w; x++) {
				int64_t x0 = x * fw / w, x1 = (x + 1) * fw / w;
				x1 = x1 > x0 ? x1 : x0 + 1;
				for (int k = 0; k < 3; k++) {
					int64_t sum = 0;
					for (int64_t yy = y0; yy < y1; yy++)
						for (int64_t xx = x0; xx < x1; xx++)
							sum += src[(yy * fw + xx) * c + (c >= 3 ? k : 0)];
					out[((size_t)y * total + s * (w + gap) + x) * 3 + k] =
					    (unsigned char)(sum / ((y1 - y0) * (x1 - x0)));
				}
			}
		}
	}
	*tw = total;
	*th = h;
	return out;
}

unsigned char *dalic_tui_extract_signal(const dalic_batch_t *b, int i, int *tw, int *th)
{
	dalic_dtype_t t = dalic_batch_dtype(b);
	const void *p = dalic_batch_data(b, i);
	const int64_t *sh = dalic_batch_shape(b, i);
	const char *layout = dalic_batch_layout(b) ? dalic_batch_layout(b) : "";
	int nd = dalic_batch_ndim(b);
	if (!p || !sh || !extract_signal_numeric(t))
		return NULL;
	if (nd == 4 && t == DALIC_UINT8 && !strcmp(layout, "FHWC") && sh[0] > 0 && sh[1] > 0 &&
	    sh[2] > 0 && (sh[3] == 1 || sh[3] == 3 || sh[3] == 4))
		return extract_signal_strip(p, sh, tw, th);
	if (nd == 2 && sh[0] > 1 && sh[1] > 1 && (!strcmp(layout, "ft") || !strcmp(layout, "tf")))
		return extract_signal_map(p, t, sh[0], sh[1], layout[0] == 'f', tw, th);
	if (strchr(layout, 'H') || strchr(layout, 'W'))
		return NULL;
	if (nd == 1 && sh[0] >= SIGNAL_WAVE_MIN)
		return extract_signal_wave(p, t, sh[0], 1, tw, th);
	if (nd == 2 && sh[0] >= SIGNAL_WAVE_MIN && sh[1] >= 1 && sh[1] <= 8)
		return extract_signal_wave(p, t, sh[0], sh[1], tw, th);
	return NULL;
}
