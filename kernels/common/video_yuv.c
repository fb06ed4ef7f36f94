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

/* Chroma of output row y, columns x0..x0+n-1 (x0 even), in 1/16 units: the nearest sample
 * weighs 3/4 and the next one away 1/4 in each subsampled direction (centre siting), edges
 * repeated. The rows are blended once per chroma column, then spread without branches so
 * the compiler vectorizes both loops. */
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
	/* col[j]: chroma column c0 - 1 + j, clamped to the plane */
	int c0 = x0 >> sx, c1 = (x0 + n - 1) >> sx;
	int32_t col[YUV_CHUNK + 3];
	col[0] = wn * rn[c0 > 0 ? c0 - 1 : 0] + wf * rf[c0 > 0 ? c0 - 1 : 0];
	for (int c = c0; c <= c1; c++)
		col[c - c0 + 1] = wn * rn[c] + wf * rf[c];
	int last = c1 + 1 < cw ? c1 + 1 : cw - 1;
	col[c1 - c0 + 2] = wn * rn[last] + wf * rf[last];
	if (!sx) {
		for (int k = 0; k < n; k++)
			out[k] = 4 * col[k + 1];
		return;
	}
	for (int j = 0; j < n / 2; j++) {
		out[2 * j] = 3 * col[j + 1] + col[j];
		out[2 * j + 1] = 3 * col[j + 1] + col[j + 2];
	}
	if (n & 1)
		out[n - 1] = 3 * col[n / 2 + 1] + col[n / 2];
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
	uint8_t r[YUV_CHUNK], g[YUV_CHUNK], b[YUV_CHUNK];
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
			/* planar first (vectorized), then interleaved */
			for (int k = 0; k < n; k++) {
				int32_t l = ky * (yrow[x0 + k] - y0);
				int32_t u = u16[k] - 2048, v = v16[k] - 2048;
				r[k] = yuv_clamp(l + rv * v);
				g[k] = yuv_clamp(l - gu * u - gv * v);
				b[k] = yuv_clamp(l + bu * u);
			}
			for (int k = 0; k < n; k++) {
				o[3 * k] = r[k];
				o[3 * k + 1] = g[k];
				o[3 * k + 2] = b[k];
			}
		}
	}
}
