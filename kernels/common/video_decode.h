/*
 * Video decoding for the video readers and decoders, through FFmpeg's libavformat (containers),
 * libavcodec (codecs) and libswscale (pixel formats), as DALI's FramesDecoderCpu does:
 *  - a frame index built from the stream's packets: presentation timestamps sorted ascending
 *    (frame i is the i-th frame in display order), each frame's key frame to start decoding
 *    from (H.264/HEVC key frames confirmed as IDR/IRAP pictures), packets with negative
 *    timestamps left out;
 *  - random access: seek to the key frame, decode forward; a decoder that already sits before
 *    the frame (and past its key frame) decodes forward without seeking;
 *  - conversion to HWC uint8 RGB (or YCbCr) with DALI's swscale flags (bilinear, full chroma
 *    interpolation, accurate rounding) and the frame's colour range.
 * A decoded frame is identified by its timestamp in the index (counted from the key frame
 * when it has none). Errors name the video and the frame; libav's own message (captured
 * from its log, which prints nothing) is appended. Input is a file or bytes in memory.
 */
#ifndef DALIC_KERNELS_VIDEO_DECODE_H
#define DALIC_KERNELS_VIDEO_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct AVFormatContext;
struct AVIOContext;
struct AVCodecContext;
struct AVPacket;
struct AVFrame;
struct SwsContext;

typedef struct video_index {
	int64_t *pts; /* frame i's presentation time in the stream's time base, ascending */
	int32_t *key; /* the key frame from which frame i decodes */
	int n;
	int tb_num, tb_den;   /* stream time base */
	int fps_num, fps_den; /* average frame rate (the legacy reader's file_list times) */
	int width, height;
	bool vfr; /* timestamp steps differ (DALI's DetectVariableFrameRate) */
	char codec[32];
	size_t charged; /* bytes charged against the memory budget */
} video_index_t;

typedef struct video_dec {
	const char *name; /* the video in messages (borrowed) */
	char *path;       /* file, or NULL for memory input */
	const uint8_t *mem;
	size_t mem_n;
	int64_t mem_pos;
	struct AVFormatContext *fmt;
	struct AVIOContext *avio;
	struct AVCodecContext *cc;
	struct AVPacket *pkt;
	struct AVFrame *frame;
	struct SwsContext *sws;
	int sws_fmt, sws_full, sws_out; /* what sws was made for */
	int stream;
	int width, height;
	const video_index_t *index; /* borrowed */
	int next;      /* index of the frame the decoder returns next; -1: unknown */
	bool eof_sent; /* the decoder is draining */
	uint8_t *tmp;  /* conversion scratch (odd widths, planar YCbCr) */
	size_t tmp_n;
} video_dec_t;

enum { DALIC_VIDEO_RGB = 0, DALIC_VIDEO_YCBCR = 1 };

/* Opens a video file (`mem` NULL) or `n` bytes at `mem` (kept by the caller until close).
 * `name` names the video in messages. Returns 0, or -1 with a message in err. */
int dalic_video_open(video_dec_t *d, const char *path, const uint8_t *mem, size_t n,
                     const char *name, char *err, size_t errn);
void dalic_video_close(video_dec_t *d);

/* Reads every packet into a new index, then rewinds d. Fails on a video without frames or
 * timestamps. */
int dalic_video_build_index(video_dec_t *d, video_index_t *ix, char *err, size_t errn);
void dalic_video_index_free(video_index_t *ix);
/* Decodes with ix (built from the same video; borrowed). */
void dalic_video_use_index(video_dec_t *d, const video_index_t *ix);

/* Frame `frame` (0 <= frame < n) as height x width x 3 uint8 (RGB or YCbCr) at dst. */
int dalic_video_read(video_dec_t *d, int frame, int image_type, uint8_t *dst, char *err,
                     size_t errn);

/* Seconds from frame 0 to frame i. */
double dalic_video_seconds(const video_index_t *ix, int i);

#endif
