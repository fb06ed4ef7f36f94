/*
 * 8-bit planar YUV (4:2:0, 4:2:2, 4:4:4; limited or full range) to interleaved RGB or YCbCr,
 * the way DALI's CPU video decoders deliver frames: DALI's wheel converts with the swscale of
 * FFmpeg 8, which upsamples chroma bilinearly from centre-sited samples (weights 3/4, 1/4,
 * edges repeated) and applies BT.601. Debian's swscale (FFmpeg 5.1) with DALI's flags
 * interpolates chroma differently (up to 39 levels apart at colour edges), so these formats
 * are converted here: within 1 level of DALI's frames (measured on the oracle clips). Other
 * pixel formats go through swscale (video_decode.c).
 */
#ifndef DALIC_KERNELS_VIDEO_YUV_H
#define DALIC_KERNELS_VIDEO_YUV_H

#include <stdbool.h>
#include <stdint.h>

typedef struct video_yuv {
	const uint8_t *plane[3];
	int stride[3];
	int width, height;
	int shift_x, shift_y; /* chroma subsampling: 1 halves that direction */
	bool full_range;
} video_yuv_t;

/* height x width x 3 at dst: RGB (ycbcr false) or Y, Cb, Cr with chroma upsampled. */
void dalic_video_yuv_convert(const video_yuv_t *in, bool ycbcr, uint8_t *dst);

#endif
