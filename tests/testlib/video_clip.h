/*
 * Test clips made through libavformat/libavcodec: a moving gradient with the frame number and
 * a clip id written as black/white 16x16 blocks, so a decoded frame tells which frame of which
 * clip it is. No Criterion here: tools/mkclips.c (the clips `make` writes into build/) links
 * this file too.
 *
 * Block row 0 (y 0..15) holds the frame number, row 1 (y 16..31) the clip id, bit b in the
 * block at x = 16 b (least significant bit first); white = 1. The rest is the gradient
 * R = (x * 256 / W + 8 k) mod 256, G = y * 255 / (H - 1), B = (64 + 16 k) mod 256.
 */
#ifndef DALIC_TESTS_TESTLIB_VIDEO_CLIP_H
#define DALIC_TESTS_TESTLIB_VIDEO_CLIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tl_clip {
	const char *codec; /* encoder: "libx264", "libvpx-vp9", "mpeg4", "mjpeg" */
	int width, height; /* multiples of 16, width >= 16 * bits needed */
	int frames;
	int fps;      /* frames per second (constant-rate clips) */
	int gop;      /* key frame interval */
	int bframes;  /* B-frames between references (reordering: pts != dts) */
	int clip_id;
	bool vfr;     /* frame k lasts 30 ms when k is even, 50 ms when odd (time base 1/1000) */
} tl_clip_t;

/* Fills defaults for zero fields: 160x96, 30 frames, 25 fps, gop 10, 2 B-frames (x264). */
void tl_clip_defaults(tl_clip_t *c);

/* Writes the clip; the container comes from the path's extension (.mp4, .mkv, .webm, .avi).
 * Returns 0, or -1 with a message in err. */
int tl_clip_write(const char *path, const tl_clip_t *c, char *err, size_t errn);

/* The pattern of frame k as RGB (h * w * 3 bytes into rgb). */
void tl_clip_pattern(const tl_clip_t *c, int k, uint8_t *rgb);

/* Presentation time of frame k in seconds. */
double tl_clip_time(const tl_clip_t *c, int k);

/* Reads block row `row` (0: frame number, 1: clip id) of a decoded HWC frame with `ch`
 * channels: each block's centre pixel, channel 0, thresholded at 128. */
int tl_clip_read_bits(const uint8_t *frame, int w, int h, int ch, int row);

#endif
