/*
 * Copies what the batch pane shows out of a live batch, on the runner thread, while the batch
 * is still valid: for a window of samples, the shape, min/max/mean, the source file, and
 * either a small RGB thumbnail (image-like samples; waveforms, spectrograms and video frames
 * from extract_signal.c) or the first values as numpy prints them.
 * Statistics are computed for the selected sample only (the only one whose numbers are
 * shown), which keeps extraction cheap while the pipeline runs at full speed.
 * Thumbnails are box-filtered down to at most THUMB_MAX pixels a side: enough for a
 * full-screen zoom in character cells, small enough to publish 20 times a second.
 *
 * Also parses the engine's operator error messages ("operator 'X' (Schema), iteration N,
 * sample S, file 'F': what") into their parts for the in-place error display.
 */
#include "tui/runner_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THUMB_MAX 160
#define VALUES_MAX 400

static void extract_shape_text(const dalic_batch_t *b, int i, char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "[");
	for (int d = 0; d < dalic_batch_ndim(b) && used < n; d++)
		used += (size_t)snprintf(buf + used, n - used, "%s%lld", d ? ", " : "",
		                         (long long)dalic_batch_shape(b, i)[d]);
	if (used < n)
		snprintf(buf + used, n - used, "]");
}

/* Thumbnail size: at most THUMB_MAX a side, aspect kept. */
static void extract_thumb_size(int w, int h, int *tw, int *th)
{
	double scale = 1.0;
	if (w > THUMB_MAX || h > THUMB_MAX)
		scale = (double)THUMB_MAX / (w > h ? w : h);
	*tw = (int)(w * scale) > 0 ? (int)(w * scale) : 1;
	*th = (int)(h * scale) > 0 ? (int)(h * scale) : 1;
}

/* Looks like a picture (not just any 2-D tensor): an image layout, or H x W x {1,3,4}. */
bool dalic_tui_image_like(const dalic_batch_t *b, int i)
{
	const char *layout = dalic_batch_layout(b);
	int nd = dalic_batch_ndim(b);
	if (layout && strchr(layout, 'H') && strchr(layout, 'W') && nd >= 2 && nd <= 3)
		return true;
	if (nd != 3)
		return false;
	const int64_t *s = dalic_batch_shape(b, i);
	return (s[2] == 1 || s[2] == 3 || s[2] == 4) && s[0] >= 8 && s[1] >= 8;
}

/* Box filter to at most THUMB_MAX a side, any channel count -> RGB8. */
static unsigned char *extract_thumbnail(const dalic_debug_image_t *img, int *tw, int *th)
{
	int w, h;
	extract_thumb_size(img->width, img->height, &w, &h);
	unsigned char *out = malloc((size_t)w * (size_t)h * 3);
	if (!out)
		return NULL;
	int c = img->channels;
	for (int y = 0; y < h; y++) {
		int y0 = y * img->height / h, y1 = (y + 1) * img->height / h;
		if (y1 <= y0)
			y1 = y0 + 1;
		for (int x = 0; x < w; x++) {
			int x0 = x * img->width / w, x1 = (x + 1) * img->width / w;
			if (x1 <= x0)
				x1 = x0 + 1;
			long sum[3] = {0, 0, 0}, n = 0;
			for (int yy = y0; yy < y1; yy++)
				for (int xx = x0; xx < x1; xx++, n++) {
					const unsigned char *p =
					    img->pixels + ((size_t)yy * img->width + xx) * c;
					for (int k = 0; k < 3; k++)
						sum[k] += p[c >= 3 ? k : 0];
				}
			for (int k = 0; k < 3; k++)
				out[((size_t)y * w + x) * 3 + k] = (unsigned char)(sum[k] / n);
		}
	}
	*tw = w;
	*th = h;
	return out;
}

/* Float images (HWC or CHW, 1/3/4 channels) are box-filtered straight from the data — one
 * pass, no full-size copy — then mapped to 8 bits: [0, 1] scaled by 255 as
 * dalic_debug_preview does, anything else (normalized images) stretched from the
 * thumbnail's min..max, since clamping would show them black. */
static unsigned char *extract_float_thumbnail(const dalic_batch_t *b, int i, int *tw, int *th,
                                              bool *stretched)
{
	if (dalic_batch_dtype(b) != DALIC_FLOAT || dalic_batch_ndim(b) != 3)
		return NULL;
	const int64_t *sh = dalic_batch_shape(b, i);
	const char *layout = dalic_batch_layout(b);
	bool chw = layout && !strcmp(layout, "CHW");
	int64_t c = chw ? sh[0] : sh[2], h = chw ? sh[1] : sh[0], w = chw ? sh[2] : sh[1];
	const float *src = dalic_batch_data(b, i);
	if ((c != 1 && c != 3 && c != 4) || h < 1 || w < 1 || !src)
		return NULL;
	extract_thumb_size((int)w, (int)h, tw, th);
	size_t n = (size_t)*tw * (size_t)*th * 3;
	float *acc = malloc(n * sizeof *acc);
	unsigned char *out = malloc(n);
	if (!acc || !out) {
		free(acc);
		free(out);
		return NULL;
	}
	float lo = INFINITY, hi = -INFINITY;
	for (int y = 0; y < *th; y++) {
		int64_t y0 = y * h / *th, y1 = (y + 1) * h / *th;
		y1 = y1 > y0 ? y1 : y0 + 1;
		for (int x = 0; x < *tw; x++) {
			int64_t x0 = x * w / *tw, x1 = (x + 1) * w / *tw;
			x1 = x1 > x0 ? x1 : x0 + 1;
			for (int k = 0; k < 3; k++) {
				int64_t ch = c >= 3 ? k : 0;
				double sum = 0;
				for (int64_t yy = y0; yy < y1; yy++)
					for (int64_t xx = x0; xx < x1; xx++) {
						float v = chw ? src[(ch * h + yy) * w + xx]
						              : src[(yy * w + xx) * c + ch];
						sum += isfinite(v) ? v : 0;
					}
				float v = (float)(sum / (double)((y1 - y0) * (x1 - x0)));
				acc[((size_t)y * *tw + x) * 3 + k] = v;
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
		}
	}
	*stretched = (lo < 0 || hi > 1) && hi > lo;
	float base = *stretched ? lo : 0, scale = *stretched ? 255 / (hi - lo) : 255;
	for (size_t k = 0; k < n; k++) {
		float d = (acc[k] - base) * scale;
		out[k] = (unsigned char)(d < 0 ? 0 : d > 255 ? 255 : d + 0.5f);
	}
	free(acc);
	return out;
}

/* Values on one line: newlines and runs of blanks collapse to one space. */
static char *extract_values_text(const dalic_batch_t *b, int i)
{
	char *text;
	if (dalic_debug_format_sample(b, i, NULL, &text))
		return NULL;
	char *w = text;
	bool blank = false;
	for (char *p = text; *p && w - text < VALUES_MAX; p++) {
		bool is_blank = *p == '\n' || *p == ' ' || *p == '\t';
		if (is_blank && blank)
			continue;
		*w++ = is_blank ? ' ' : *p;
		blank = is_blank;
	}
	*w = 0;
	return text;
}

tui_batch_view_t *dalic_tui_extract(const dalic_batch_t *b, int sample, int window)
{
	int n = b ? dalic_batch_num_samples(b) : 0;
	if (window < 1)
		window = 1;
	if (window > 64)
		window = 64;
	if (sample >= n)
		sample = n - 1;
	if (sample < 0)
		sample = 0;
	int first = sample / window * window;
	int count = n - first < window ? n - first : window;
	if (count < 0)
		count = 0;
	tui_batch_view_t *v = dalic_tui_batch_view_new(count);
	if (!v)
		return NULL;
	v->num_samples = n;
	v->first = first;
	if (!b)
		return v;
	snprintf(v->dtype, sizeof v->dtype, "%s", dalic_dtype_name(dalic_batch_dtype(b)));
	snprintf(v->layout, sizeof v->layout, "%s",
	         dalic_batch_layout(b) ? dalic_batch_layout(b) : "");
	snprintf(v->device, sizeof v->device, "%s", dalic_batch_device(b));
	v->image = count > 0;
	for (int k = 0; k < count; k++) {
		int i = first + k;
		tui_sample_view_t *s = &v->samples[k];
		s->index = i;
		extract_shape_text(b, i, s->shape, sizeof s->shape);
		/* statistics only for the selected sample: the pane shows no others' */
		dalic_debug_stats_t st;
		if (i == sample && !dalic_debug_stats(b, i, &st) && st.elements > 0) {
			s->has_stats = true;
			s->min = st.min;
			s->max = st.max;
			s->mean = st.mean;
			s->nan_count = st.nan_count;
			s->elements = st.elements;
		}
		const char *src = dalic_batch_source(b, i);
		s->source = src ? strdup(src) : NULL;
		if (dalic_tui_image_like(b, i)) {
			bool stretched = false;
			dalic_debug_image_t img;
			s->thumb =
			    extract_float_thumbnail(b, i, &s->thumb_w, &s->thumb_h, &stretched);
			if (!s->thumb && !dalic_debug_preview(b, i, &img)) {
				s->thumb = extract_thumbnail(&img, &s->thumb_w, &s->thumb_h);
				dalic_debug_image_free(&img);
			}
			v->stretched |= stretched;
		}
		if (!s->thumb)
			s->thumb = dalic_tui_extract_signal(b, i, &s->thumb_w, &s->thumb_h);
		if (!s->thumb) {
			v->image = false;
			s->values = extract_values_text(b, i);
		}
		v->count = k + 1;
	}
	return v;
}

void dalic_tui_parse_error(const char *msg, tui_error_t *err)
{
	memset(err, 0, sizeof *err);
	err->set = true;
	err->sample = -1;
	snprintf(err->message, sizeof err->message, "%s", msg);
	const char *p = strstr(msg, "operator '");
	if (p) {
		p += strlen("operator '");
		const char *q = strchr(p, '\'');
		if (q && q - p < (long)sizeof err->op)
			snprintf(err->op, sizeof err->op, "%.*s", (int)(q - p), p);
	}
	p = strstr(msg, ", sample ");
	if (p)
		err->sample = atoi(p + strlen(", sample "));
	p = strstr(msg, ", file '");
	if (p) {
		p += strlen(", file '");
		const char *q = strchr(p, '\'');
		if (q)
			snprintf(err->source, sizeof err->source, "%.*s", (int)(q - p), p);
	}
}
