/* Random crop windows (see img_crop_window.h). Arithmetic is in float, as DALI's. */
#include "kernels/common/img_crop_window.h"

#include <math.h>

static int crop_window_range_arg(const dalic_op_ctx_t *ctx, const char *name, float *lo, float *hi)
{
	const dalic_value_t *v = dalic_arg(ctx, name);
	if (v->n != 1 && v->n != 2)
		return dalic_op_fail(ctx, NULL, -1, "Argument '%s' expects 1 or 2 values, got %d",
				     name, v->n);
	*lo = (float)dalic_value_get_f(v, 0);
	*hi = (float)dalic_value_get_f(v, v->n - 1);
	if (!(*lo <= *hi)) /* NaN too, as DALI's check */
		return dalic_op_fail(ctx, NULL, -1, "Argument '%s': provided empty range [%g, %g]",
				     name, *lo, *hi);
	if (!isfinite(*hi))
		return dalic_op_fail(ctx, NULL, -1, "Argument '%s' must be finite, got %g", name,
				     *hi);
	if (*lo <= 0)
		return dalic_op_fail(ctx, NULL, -1, "Argument '%s' must be positive, got %g", name,
				     *lo);
	return DALIC_OK;
}

int dalic_img_crop_params_parse(const dalic_op_ctx_t *ctx, img_crop_params_t *p)
{
	int rc = crop_window_range_arg(ctx, "random_area", &p->area_min, &p->area_max);
	if (!rc)
		rc =
		    crop_window_range_arg(ctx, "random_aspect_ratio", &p->ratio_min, &p->ratio_max);
	if (rc)
		return rc;
	p->num_attempts = (int)dalic_arg_int(ctx, "num_attempts");
	if (p->num_attempts < 1)
		return dalic_op_fail(ctx, NULL, -1, "num_attempts must be at least 1, got %d",
				     p->num_attempts);
	return DALIC_OK;
}

static float crop_window_uniform(dalic_rng_t *rng, float lo, float hi)
{
	return lo + (hi - lo) * (float)dalic_rng_uniform(rng);
}

/* (int)v for a window extent, at least 1: huge ratios or areas would make the cast undefined,
 * so v is capped at the largest float below INT_MAX (the window is then clamped to the image). */
static int crop_window_extent_of(float v)
{
	return v >= 2147483520.0f ? 2147483520 : v >= 1.0f ? (int)v : 1;
}

img_rect_t dalic_img_random_crop_window(dalic_rng_t *rng, int H, int W, const img_crop_params_t *p)
{
	int h = H, w = W;
	float min_area = (float)W * (float)H * p->area_min;
	int max_w = crop_window_extent_of((float)H * p->ratio_max);
	int max_h = crop_window_extent_of((float)W * (1.0f / p->ratio_min));
	if ((float)H * (float)max_w < min_area) { /* too wide for any allowed window */
		h = H;
		w = max_w;
	} else if ((float)W * (float)max_h < min_area) { /* too tall */
		h = max_h;
		w = W;
	} else {
		float log_lo = logf(p->ratio_min), log_hi = logf(p->ratio_max);
		int left = p->num_attempts;
		for (; left > 0; left--) {
			float target = crop_window_uniform(rng, p->area_min, p->area_max) *
			               (float)H * (float)W;
			float ratio = expf(crop_window_uniform(rng, log_lo, log_hi));
			w = crop_window_extent_of(roundf(sqrtf(target * ratio)));
			h = crop_window_extent_of(roundf(sqrtf(target / ratio)));
			float got = (float)w / (float)h;
			if (w <= W && h <= H && got >= p->ratio_min && got <= p->ratio_max)
				break;
		}
		if (left <= 0) {
			float ratio = (float)W / (float)H;
			if (ratio > p->ratio_max) {
				h = H;
				w = max_w;
			} else if (ratio < p->ratio_min) {
				h = max_h;
				w = W;
			} else {
				h = H;
				w = W;
			}
			float scale = fminf(1.0f, p->area_max * (float)W * (float)H /
							((float)h * (float)w));
			h = crop_window_extent_of((float)h * sqrtf(scale));
			w = crop_window_extent_of((float)w * sqrtf(scale));
		}
	}
	if (h > H)
		h = H;
	if (w > W)
		w = W;
	int y = (int)dalic_rng_below(rng, (uint64_t)(H - h + 1));
	int x = (int)dalic_rng_below(rng, (uint64_t)(W - w + 1));
	return (img_rect_t){x, y, w, h};
}
