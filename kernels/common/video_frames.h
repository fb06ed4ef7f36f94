/*
 * What the video readers and decoders share once they know which frames a sample shows:
 * DALI's pad modes (video_utils.h GetBoundaryType, FramesDecoderBase::HandleBoundary) and
 * decoding a list of frames into an FHWC buffer, each distinct frame once (in ascending order,
 * so the decoder only moves forward), padding frames filled with `fill_value`.
 */
#ifndef DALIC_KERNELS_VIDEO_FRAMES_H
#define DALIC_KERNELS_VIDEO_FRAMES_H

#include "kernels/common/img_scratch.h"
#include "kernels/common/video_decode.h"

typedef enum {
	VIDEO_PAD_NONE,     /* 'none': no frame outside the video (DALI's ISOLATED) */
	VIDEO_PAD_CONSTANT, /* fill_value frames, frame number -1 */
	VIDEO_PAD_EDGE,     /* the nearest frame of the range */
	VIDEO_PAD_REFLECT_1001,
	VIDEO_PAD_REFLECT_101,
	VIDEO_PAD_ZERO_TAIL, /* legacy pad_sequences: black frames, frame number -1 */
} video_pad_t;

/* DALI's pad_mode names ("none", "", "constant", "edge" / "repeat", "reflect_1001" /
 * "symmetric", "reflect_101" / "reflect"): 0, or -1 for another string. */
int dalic_video_pad_parse(const char *s, video_pad_t *out);

/* The frame shown at position f of the range [lo, hi): f itself inside, else by the mode;
 * -1 for a constant frame, -2 when pad mode 'none' meets a position outside. Reflections
 * mirror about 0 and hi, as DALI's do. */
int dalic_video_boundary(video_pad_t pad, int64_t f, int lo, int hi);

/* What to decode: `src[k]` is the frame for position k (-1: a padding frame of `fill`, one
 * value or one per channel), n positions, each frame pixels * 3 values. */
typedef struct video_frames_job {
	const int32_t *src;
	int n;
	size_t pixels;
	int image_type;
	const uint8_t *fill;
	int nfill;
	bool as_float; /* float output scaled by `scale` */
	float scale;
} video_frames_job_t;

/* Decodes the job into out (n frames back to back). `order` and `frame` are the calling
 * thread's scratch. Returns 0, or -1 with a message in err. */
int dalic_video_decode_frames(video_dec_t *d, const video_frames_job_t *job, void *out,
                              img_scratch_t *order, img_scratch_t *frame, char *err, size_t errn);

#endif
