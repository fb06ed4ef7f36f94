/* Pad modes and decoding a sample's frames (see video_frames.h). */
#include "kernels/common/video_frames.h"

#include "engine/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dalic_video_pad_parse(const char *s, video_pad_t *out)
{
	static const struct {
		const char *name;
		video_pad_t pad;
	} modes[] = {
	    {"none", VIDEO_PAD_NONE},
	    {"", VIDEO_PAD_NONE},
	    {"constant", VIDEO_PAD_CONSTANT},
	    {"edge", VIDEO_PAD_EDGE},
	    {"repeat", VIDEO_PAD_EDGE},
	    {"reflect_1001", VIDEO_PAD_REFLECT_1001},
	    {"symmetric", VIDEO_PAD_REFLECT_1001},
	    {"reflect_101", VIDEO_PAD_REFLECT_101},
	    {"reflect", VIDEO_PAD_REFLECT_101},
	};
	for (size_t i = 0; s && i < sizeof modes / sizeof modes[0]; i++)
		if (!strcmp(s, modes[i].name)) {
			*out = modes[i].pad;
			return 0;
		}
	return -1;
}

int dalic_video_boundary(video_pad_t pad, int64_t f, int lo, int hi)
{
	if (f >= lo && f < hi)
		return (int)f;
	switch (pad) {
	case VIDEO_PAD_CONSTANT:
	case VIDEO_PAD_ZERO_TAIL:
		return -1;
	case VIDEO_PAD_EDGE:
		return f < lo ? lo : hi - 1;
	case VIDEO_PAD_REFLECT_1001:
		if (hi < 1)
			return hi - 1;
		while (f < 0 || f >= hi)
			f = f < 0 ? -1 - f : 2 * (int64_t)hi - 1 - f;
		return (int)f;
	case VIDEO_PAD_REFLECT_101:
		if (hi < 2)
			return hi - 1;
		while (f < 0 || f >= hi)
			f = f < 0 ? -f : 2 * (int64_t)hi - 2 - f;
		return (int)f;
	case VIDEO_PAD_NONE:
		break;
	}
	return -2;
}

typedef struct video_frames_pick {
	int32_t src, pos;
} video_frames_pick_t;

static int video_frames_pick_cmp(const void *a, const void *b)
{
	const video_frames_pick_t *x = a, *y = b;
	if (x->src != y->src)
		return (x->src > y->src) - (x->src < y->src);
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static void video_frames_fill(const video_frames_job_t *job, uint8_t *dst)
{
	if (job->nfill <= 1) {
		memset(dst, job->nfill ? job->fill[0] : 0, job->pixels * 3);
		return;
	}
	for (size_t p = 0; p < job->pixels; p++)
		memcpy(dst + 3 * p, job->fill, 3);
}

int dalic_video_decode_frames(video_dec_t *d, const video_frames_job_t *job, void *out,
                              img_scratch_t *order, img_scratch_t *frame, char *err, size_t errn)
{
	video_frames_pick_t *pick = dalic_img_scratch_get(order, sizeof *pick * (size_t)job->n);
	uint8_t *u8 = NULL;
	if (!pick || (job->as_float && !(u8 = dalic_img_scratch_get(frame, job->pixels * 3)))) {
		snprintf(err, errn, "%s", dalic_last_error());
		return -1;
	}
	for (int k = 0; k < job->n; k++)
		pick[k] = (video_frames_pick_t){job->src[k], k};
	qsort(pick, (size_t)job->n, sizeof *pick, video_frames_pick_cmp);
	size_t frame_bytes = job->pixels * 3 * (job->as_float ? sizeof(float) : 1);
	uint8_t *base = out;
	for (int k = 0; k < job->n; k++) {
		uint8_t *dst = base + (size_t)pick[k].pos * frame_bytes;
		if (k > 0 && pick[k].src == pick[k - 1].src) {
			memcpy(dst, base + (size_t)pick[k - 1].pos * frame_bytes, frame_bytes);
			continue;
		}
		uint8_t *px = job->as_float ? u8 : dst;
		if (pick[k].src < 0)
			video_frames_fill(job, px);
		else if (dalic_video_read(d, pick[k].src, job->image_type, px, err, errn))
			return -1;
		for (size_t e = 0; job->as_float && e < job->pixels * 3; e++)
			((float *)dst)[e] = (float)u8[e] * job->scale;
	}
	return 0;
}
