/*
 * Boxes drawn over pictures in the BATCH pane, for detection pipelines: when the batch shown
 * is image-like and another pipeline output holds boxes for the same samples (FLOAT, N x 4
 * per sample), each sample's boxes are drawn on its thumbnail; when the batch shown is the
 * boxes, the first image-like output is shown under them instead of their numbers.
 * Coordinates are relative when every one is within [0, 1] (DALI's ratio / SSD boxes),
 * pixels of the image otherwise; [l, t, r, b] unless some box ends before it starts, which
 * only [x, y, w, h] allows.
 */
#include "tui/runner_impl.h"

#include <string.h>

static bool boxes_like(const dalic_batch_t *b)
{
	int n = b ? dalic_batch_num_samples(b) : 0;
	if (n <= 0 || dalic_batch_dtype(b) != DALIC_FLOAT || dalic_batch_ndim(b) != 2)
		return false;
	for (int i = 0; i < n; i++)
		if (dalic_batch_shape(b, i)[1] != 4)
			return false;
	return true;
}

/* The picture's width and height (HWC, CHW or HW). */
static void boxes_image_size(const dalic_batch_t *img, int i, double *w, double *h)
{
	const int64_t *s = dalic_batch_shape(img, i);
	const char *l = dalic_batch_layout(img);
	bool chw = l && !strcmp(l, "CHW");
	*w = (double)(chw ? s[2] : s[1]);
	*h = (double)(chw ? s[1] : s[0]);
}

/* One box outline on an RGB8 thumbnail, clipped to it: lines 1/16 of the thumbnail thick
 * (at least a pixel), so they survive the reduction to character cells. */
static void boxes_rect(unsigned char *t, int tw, int th, double x0, double y0, double x1,
                       double y1, const unsigned char *rgb)
{
	int l = (int)x0, r = (int)x1, top = (int)y0, b = (int)y1;
	r = r >= tw ? tw - 1 : r, b = b >= th ? th - 1 : b;
	l = l < 0 ? 0 : l, top = top < 0 ? 0 : top;
	int line = (tw < th ? tw : th) / 16;
	line = line < 1 ? 1 : line;
	for (int y = top; y <= b; y++)
		for (int x = l; x <= r; x++)
			if (y < top + line || y > b - line || x < l + line || x > r - line)
				memcpy(t + ((size_t)y * tw + x) * 3, rgb, 3);
}

void dalic_tui_draw_boxes(tui_sample_view_t *s, const dalic_batch_t *boxes,
                          const dalic_batch_t *img)
{
	/* bright, so they show on black and on a monochrome terminal */
	static const unsigned char colours[6][3] = {{255, 255, 0}, {0, 255, 255}, {80, 255, 80},
	                                            {255, 128, 255}, {255, 255, 255},
	                                            {255, 176, 64}};
	int i = s->index;
	const float *b = dalic_batch_data(boxes, i);
	int64_t n = dalic_batch_shape(boxes, i)[0];
	if (!s->thumb || !b || n <= 0)
		return;
	bool relative = true, xywh = false;
	for (int64_t k = 0; k < n; k++) {
		const float *c = b + 4 * k;
		for (int j = 0; j < 4; j++)
			relative &= c[j] >= -0.01f && c[j] <= 1.01f;
		xywh |= c[2] < c[0] || c[3] < c[1];
	}
	double w, h;
	boxes_image_size(img, i, &w, &h);
	double sx = relative ? s->thumb_w : s->thumb_w / w;
	double sy = relative ? s->thumb_h : s->thumb_h / h;
	for (int64_t k = 0; k < n; k++) {
		const float *c = b + 4 * k;
		double x1 = xywh ? c[0] + c[2] : c[2], y1 = xywh ? c[1] + c[3] : c[3];
		boxes_rect(s->thumb, s->thumb_w, s->thumb_h, c[0] * sx, c[1] * sy, x1 * sx - 1,
		           y1 * sy - 1, colours[k % 6]);
	}
}

void dalic_tui_overlay_boxes(tui_batch_view_t *v, dalic_pipeline_t *p, int shown, int window)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, shown);
	int n = dalic_batch_num_samples(b), outs = dalic_pipeline_num_outputs(p);
	bool shown_boxes = boxes_like(b);
	if (!shown_boxes && !v->image)
		return;
	for (int o = 0; o < outs; o++) {
		const dalic_batch_t *other = o == shown ? NULL : dalic_pipeline_output(p, o);
		if (!other || dalic_batch_num_samples(other) != n ||
		    strcmp(dalic_batch_device(other), "cpu"))
			continue;
		const dalic_batch_t *img = shown_boxes ? other : b;
		const dalic_batch_t *boxes = shown_boxes ? b : other;
		if (shown_boxes ? !dalic_tui_image_like(other, v->first) : !boxes_like(other))
			continue;
		if (shown_boxes) { /* the picture under the boxes replaces their numbers */
			tui_batch_view_t *pic = dalic_tui_extract(img, v->first, window);
			if (!pic || !pic->image || pic->first != v->first || pic->count != v->count) {
				dalic_tui_batch_view_unref(pic);
				continue;
			}
			for (int k = 0; k < v->count; k++) {
				v->samples[k].thumb = pic->samples[k].thumb;
				v->samples[k].thumb_w = pic->samples[k].thumb_w;
				v->samples[k].thumb_h = pic->samples[k].thumb_h;
				pic->samples[k].thumb = NULL;
			}
			v->image = true;
			v->stretched = pic->stretched;
			dalic_tui_batch_view_unref(pic);
		}
		for (int k = 0; k < v->count; k++)
			dalic_tui_draw_boxes(&v->samples[k], boxes, img);
		const char *name = dalic_pipeline_output_name(p, o);
		snprintf(v->note, sizeof v->note, shown_boxes ? "boxes drawn over output '%s'"
		                                              : "boxes of output '%s' drawn",
		         name ? name : "?");
		return;
	}
}
