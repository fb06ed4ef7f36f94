/* Planar YUV to RGB / YCbCr as DALI's video decoders deliver it (see video_yuv.h). */
#include "kernels/common/video_yuv.h"

#include <math.h>
#include <stddef.h>

/* Values are fixed point with 20 fraction bits; chroma is upsampled in 1/16 units. */
#define YUV_FRAC 20
#define YUV_CHUNK 512

static inline uint8_t yuv_clamp(int32_t v)
{
	v = (v + (1 << (YUV_FRAC - 1))) >> YUV_FRAC;
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Chroma of output row y, columns x0..x0+n-1, in 1/16 units: the nearest sample weighs 3/4
 * and the next one away 1/4 in each subsampled direction (centre siting), edges repeated. */
static void yuv_upsample(const video_yuv_t *in, int p, int y, int x0, int n, int32_t *out)
{
	int sx = in->shift_x, sy = in->shift_y;
	int cw = (in->width + (1 << sx) - 1) >> sx, ch = (in->height + (1 << sy) - 1) >> sy;
	int near_y = y >> sy, far_y = near_y;
	if (sy)
		far_y = (y & 1) ? near_y + 1 : near_y - 1;
	far_y = far_y < 0 ? 0 : far_y >= ch ? ch - 1 : far_y;
	const uint8_t *rn = in->plane[p] + (size_t)near_y * in->stride[p];
	const uint8_t *rf = in->plane[p] + (size_t)far_y * in->stride[p];
	int wn = sy ? 3 : 4, wf = sy ? 1 : 0; /* vertical weights, in quarters */
	for (int k = 0; k < n; k++) {
		int x = x0 + k, near_x = x >> sx, far_x = near_x;
		if (sx)
			far_x = (x & 1) ? near_x + 1 : near_x - 1;
		far_x = far_x < 0 ? 0 : far_x >= cw ? cw - 1 : far_x;
		int col_n = wn * rn[near_x] + wf * rf[near_x];
		int col_f = wn * rn[far_x] + wf * rf[far_x];
		out[k] = sx ? 3 * col_n + col_f : 4 * col_n;
	}
}

void dalic_video_yuv_convert(const video_yuv_t *in, bool ycbcr, uint8_t *dst)
{
	double sy = in->full_range ? 1.0 : 255.0 / 219, sc = in->full_range ? 1.0 : 255.0 / 224;
	int32_t y0 = in->full_range ? 0 : 16;
	/* BT.601: R = y + 1.402 v, G = y - 0.344136 u - 0.714136 v, B = y + 1.772 u */
	int32_t ky = (int32_t)lround(sy * (1 << YUV_FRAC));
	double kc = sc * (1 << YUV_FRAC) / 16;
	int32_t rv = (int32_t)lround(1.402 * kc), gu = (int32_t)lround(0.344136 * kc);
	int32_t gv = (int32_t)lround(0.714136 * kc), bu = (int32_t)lround(1.772 * kc);
	int32_t u16[YUV_CHUNK], v16[YUV_CHUNK];
	for (int y = 0; y < in->height; y++) {
		const uint8_t *yrow = in->plane[0] + (size_t)y * in->stride[0];
		uint8_t *out = dst + (size_t)y * in->width * 3;
		for (int x0 = 0; x0 < in->width; x0 += YUV_CHUNK) {
			int n = in->width - x0 < YUV_CHUNK ? in->width - x0 : YUV_CHUNK;
			yuv_upsample(in, 1, y, x0, n, u16);
			yuv_upsample(in, 2, y, x0, n, v16);
			uint8_t *o = out + (size_t)x0 * 3;
			if (ycbcr) {
				for (int k = 0; k < n; k++) {
					o[3 * k] = yrow[x0 + k];
					o[3 * k + 1] = (uint8_t)((u16[k] + 8) >> 4);
					o[3 * k + 2] = (uint8_t)((v16[k] + 8) >> 4);
				}
				continue;
			}
			for (int k = 0; k < n; k++) {
				int32_t l = ky * (yrow[x0 + k] - y0);
				int32_t u = u16[k] - 2048, v = v16[k] - 2048;
				o[3 * k] = yuv_clamp(l + rv * v);
				o[3 * k + 1] = yuv_clamp(l - gu * u - gv * v);
				o[3 * k + 2] = yuv_clamp(l + bu * u);
			}
		}
	}
}
