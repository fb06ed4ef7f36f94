/* Random crop windows (see img_crop_window.h). Arithmetic is in float, as DALI's. */
#include "kernels/common/img_crop_window.h"

#include "engine/error.h"

#include <math.h>

/* random_crop_attr.h: kRandomCropSeedModifier */
#define CROP_KEY_MODIFIER 0x012345678ABCDEFEull

static int crop_window_range_arg(const dalic_op_ctx_t *ctx, const char *name, float *lo, float *hi)
{
	const dalic_value_t *v = dalic_arg(ctx, name);
	if (v->n != 1 && v->n != 2)
		return dalic_op_fail(ctx, NULL, -1,
				     "Argument \"%s\" expects either a single value or a list of 2 "
				     "elements. %d given.",
				     name, v->n);
	*lo = (float)dalic_value_get_f(v, 0);
	*hi = (float)dalic_value_get_f(v, v->n - 1);
	if (!(*lo <= *hi)) /* NaN too, as DALI's check */
		return dalic_op_fail(ctx, NULL, -1, "argument '%s': Provided empty range [%g, %g]",
				     name, *lo, *hi);
	return DALIC_OK;
}

int dalic_img_crop_params_parse(const dalic_op_ctx_t *ctx, img_crop_params_t *p)
{
	DALIC_TRY(crop_window_range_arg(ctx, "random_aspect_ratio", &p->ratio_min,
					&p->ratio_max));
	DALIC_TRY(crop_window_range_arg(ctx, "random_area", &p->area_min, &p->area_max));
	int64_t n = dalic_arg_int(ctx, "num_attempts");
	p->num_attempts = n > INT32_MAX ? INT32_MAX : n < INT32_MIN ? INT32_MIN : (int)n;
	return DALIC_OK;
}

/* int * int as DALI's build computes it (wrapping on overflow). */
static int32_t crop_window_imul(int32_t a, int32_t b)
{
	return (int32_t)(uint32_t)((int64_t)a * b);
}

/* std::max<int>(1, v) of a float: DALI converts the float with x86's truncation first. */
static int crop_window_extent(float v)
{
	int32_t e = dalic_rng_cvt_i32(v);
	return e < 1 ? 1 : e;
}

/* The window's extents before the anchor is drawn (GenerateCropWindowImpl). */
static void crop_window_shape(dalic_philox_t *g, int H, int W, const img_crop_params_t *p,
			      int64_t *h_out, int64_t *w_out)
{
	float min_area = (float)crop_window_imul(W, H) * p->area_min;
	int max_w = crop_window_extent((float)H * p->ratio_max);
	int max_h = crop_window_extent((float)W * (1 / p->ratio_min));
	int64_t h, w;
	if ((float)crop_window_imul(H, max_w) < min_area) { /* too wide for any allowed window */
		h = H;
		w = max_w;
	} else if ((float)crop_window_imul(W, max_h) < min_area) { /* too tall */
		h = max_h;
		w = W;
	} else {
		float log_lo = logf(p->ratio_min), log_hi = logf(p->ratio_max);
		float original_area = (float)(uint64_t)(int64_t)crop_window_imul(H, W);
		int left = p->num_attempts;
		h = w = 0;
		for (; left > 0; left--) {
			float target = dalic_rng_std_uniform_real_f32(g, p->area_min, p->area_max) *
				       original_area;
			float ratio = expf(dalic_rng_std_uniform_real_f32(g, log_lo, log_hi));
			w = crop_window_extent(roundf(sqrtf(target * ratio)));
			h = crop_window_extent(roundf(sqrtf(target / ratio)));
			float got = (float)w / (float)h;
			if (w <= W && h <= H && got >= p->ratio_min && got <= p->ratio_max)
				break;
		}
		if (left <= 0) {
			float max_area = p->area_max * (float)W * (float)H;
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
			float scale = fminf(1.0f, max_area / (float)(h * w));
			h = crop_window_extent((float)h * sqrtf(scale));
			w = crop_window_extent((float)w * sqrtf(scale));
		}
	}
	*h_out = h;
	*w_out = w;
}

void dalic_img_crop_window_draw(const dalic_philox_t *sample_rng, int H, int W,
				const img_crop_params_t *p, int64_t win[4])
{
	dalic_philox_t g;
	dalic_philox_init(&g, sample_rng->key ^ CROP_KEY_MODIFIER, sample_rng->ctr[1],
			  sample_rng->ctr[0], sample_rng->phase);
	int64_t h, w;
	crop_window_shape(&g, H, W, p, &h, &w);
	win[0] = dalic_rng_std_uniform_int(&g, 0, (int32_t)(H - h));
	win[1] = dalic_rng_std_uniform_int(&g, 0, (int32_t)(W - w));
	win[2] = h;
	win[3] = w;
}

int dalic_img_random_crop_window(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample,
				 int H, int W, const img_crop_params_t *p, img_rect_t *out)
{
	dalic_philox_t s = dalic_op_rng(ctx, sample);
	int64_t win[4];
	dalic_img_crop_window_draw(&s, H, W, p, win);
	int64_t y = win[0], x = win[1], h = win[2], w = win[3];
	if (h > H || w > W || y < 0 || x < 0 || y + h > H || x + w > W)
		return dalic_op_fail(ctx, ws, sample,
				     "The cropping window [%lld..%lld, %lld..%lld] is not valid for "
				     "image dimensions [%d, %d]",
				     (long long)y, (long long)(y + h), (long long)x,
				     (long long)(x + w), H, W);
	*out = (img_rect_t){(int)x, (int)y, (int)w, (int)h};
	return DALIC_OK;
}
