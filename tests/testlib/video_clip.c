/* Test clips through libavformat/libavcodec (see tests/testlib/video_clip.h). */
#include "tests/testlib/video_clip.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLIP_BLOCK 16

void tl_clip_defaults(tl_clip_t *c)
{
	if (!c->codec)
		c->codec = "libx264";
	if (!c->width)
		c->width = 160;
	if (!c->height)
		c->height = 96;
	if (!c->frames)
		c->frames = 30;
	if (!c->fps)
		c->fps = 25;
	if (!c->gop)
		c->gop = 10;
}

static int clip_bit(int value, int bx)
{
	return bx < 31 && ((value >> bx) & 1);
}

void tl_clip_pattern(const tl_clip_t *c, int k, uint8_t *rgb)
{
	for (int y = 0; y < c->height; y++)
		for (int x = 0; x < c->width; x++) {
			uint8_t *p = rgb + ((size_t)y * c->width + x) * 3;
			int row = y / CLIP_BLOCK, bx = x / CLIP_BLOCK;
			if (row < 2) {
				int on = clip_bit(row == 0 ? k : c->clip_id, bx);
				p[0] = p[1] = p[2] = on ? 255 : 0;
				continue;
			}
			p[0] = (uint8_t)((x * 256 / c->width + 8 * k) & 255);
			p[1] = (uint8_t)(y * 255 / (c->height - 1));
			p[2] = (uint8_t)((64 + 16 * k) & 255);
		}
}

static int64_t clip_pts_ms(int k)
{
	/* even frames last 30 ms, odd ones 50 ms */
	return (int64_t)(k / 2) * 80 + (k % 2) * 30;
}

double tl_clip_time(const tl_clip_t *c, int k)
{
	return c->vfr ? clip_pts_ms(k) / 1000.0 : (double)k / c->fps;
}

int tl_clip_read_bits(const uint8_t *frame, int w, int h, int ch, int row)
{
	int v = 0, n = w / CLIP_BLOCK < 30 ? w / CLIP_BLOCK : 30;
	int y = row * CLIP_BLOCK + CLIP_BLOCK / 2;
	if (y >= h)
		return -1;
	for (int b = 0; b < n; b++) {
		const uint8_t *p = frame + ((size_t)y * w + (size_t)b * CLIP_BLOCK + CLIP_BLOCK / 2) * ch;
		if (p[0] >= 128)
			v |= 1 << b;
	}
	return v;
}

typedef struct clip_enc {
	AVFormatContext *fmt;
	AVCodecContext *cc;
	AVStream *st;
	AVPacket *pkt;
	char *err;
	size_t errn;
} clip_enc_t;

static int clip_fail(clip_enc_t *e, const char *what, int rc)
{
	char buf[128];
	av_strerror(rc, buf, sizeof buf);
	snprintf(e->err, e->errn, "%s: %s", what, buf);
	return -1;
}

/* Sends one frame (NULL: flush) and writes every packet the encoder returns. */
static int clip_encode(clip_enc_t *e, AVFrame *frame)
{
	int rc = avcodec_send_frame(e->cc, frame);
	if (rc < 0)
		return clip_fail(e, "avcodec_send_frame", rc);
	for (;;) {
		rc = avcodec_receive_packet(e->cc, e->pkt);
		if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
			return 0;
		if (rc < 0)
			return clip_fail(e, "avcodec_receive_packet", rc);
		av_packet_rescale_ts(e->pkt, e->cc->time_base, e->st->time_base);
		e->pkt->stream_index = e->st->index;
		rc = av_interleaved_write_frame(e->fmt, e->pkt);
		if (rc < 0)
			return clip_fail(e, "av_interleaved_write_frame", rc);
	}
}

static int clip_open(clip_enc_t *e, const char *path, const tl_clip_t *c)
{
	int rc = avformat_alloc_output_context2(&e->fmt, NULL, NULL, path);
	if (rc < 0 || !e->fmt)
		return clip_fail(e, "no container for this file name", rc);
	const AVCodec *codec = avcodec_find_encoder_by_name(c->codec);
	if (!codec) {
		snprintf(e->err, e->errn, "no encoder '%s' in this libavcodec", c->codec);
		return -1;
	}
	e->st = avformat_new_stream(e->fmt, NULL);
	e->cc = avcodec_alloc_context3(codec);
	e->pkt = av_packet_alloc();
	if (!e->st || !e->cc || !e->pkt) {
		snprintf(e->err, e->errn, "out of memory");
		return -1;
	}
	AVCodecContext *cc = e->cc;
	cc->width = c->width;
	cc->height = c->height;
	cc->pix_fmt = strcmp(c->codec, "mjpeg") ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUVJ420P;
	cc->time_base = c->vfr ? (AVRational){1, 1000} : (AVRational){1, c->fps};
	cc->framerate = (AVRational){c->fps, 1};
	cc->gop_size = c->gop;
	cc->max_b_frames = c->bframes;
	cc->thread_count = 1;
	if (e->fmt->oformat->flags & AVFMT_GLOBALHEADER)
		cc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
	if (!strcmp(c->codec, "libx264")) {
		av_opt_set(cc->priv_data, "preset", "fast", 0);
		av_opt_set(cc->priv_data, "crf", "12", 0);
	} else if (!strcmp(c->codec, "libvpx-vp9")) {
		av_opt_set(cc->priv_data, "crf", "12", 0);
		av_opt_set(cc->priv_data, "deadline", "realtime", 0);
		av_opt_set(cc->priv_data, "cpu-used", "8", 0);
		cc->bit_rate = 0;
	} else {
		cc->flags |= AV_CODEC_FLAG_QSCALE;
		cc->global_quality = FF_QP2LAMBDA * 2;
	}
	if ((rc = avcodec_open2(cc, codec, NULL)) < 0)
		return clip_fail(e, "avcodec_open2", rc);
	if ((rc = avcodec_parameters_from_context(e->st->codecpar, cc)) < 0)
		return clip_fail(e, "avcodec_parameters_from_context", rc);
	e->st->time_base = cc->time_base;
	e->st->avg_frame_rate = c->vfr ? (AVRational){0, 1} : cc->framerate;
	if ((rc = avio_open(&e->fmt->pb, path, AVIO_FLAG_WRITE)) < 0)
		return clip_fail(e, "cannot create the file", rc);
	if ((rc = avformat_write_header(e->fmt, NULL)) < 0)
		return clip_fail(e, "avformat_write_header", rc);
	return 0;
}

static int clip_frames(clip_enc_t *e, const tl_clip_t *c)
{
	AVFrame *f = av_frame_alloc();
	uint8_t *rgb = malloc((size_t)c->width * c->height * 3);
	struct SwsContext *sws =
	    sws_getContext(c->width, c->height, AV_PIX_FMT_RGB24, c->width, c->height,
	                   e->cc->pix_fmt, SWS_BICUBIC, NULL, NULL, NULL);
	int rc = -1;
	if (!f || !rgb || !sws) {
		snprintf(e->err, e->errn, "out of memory");
		goto done;
	}
	f->format = e->cc->pix_fmt;
	f->width = c->width;
	f->height = c->height;
	if (av_frame_get_buffer(f, 0) < 0) {
		snprintf(e->err, e->errn, "out of memory");
		goto done;
	}
	for (int k = 0; k < c->frames; k++) {
		if (av_frame_make_writable(f) < 0)
			goto done;
		tl_clip_pattern(c, k, rgb);
		const uint8_t *src[1] = {rgb};
		int stride[1] = {c->width * 3};
		sws_scale(sws, src, stride, 0, c->height, f->data, f->linesize);
		f->pts = c->vfr ? clip_pts_ms(k) : k;
		if (clip_encode(e, f))
			goto done;
	}
	rc = clip_encode(e, NULL);
done:
	sws_freeContext(sws);
	free(rgb);
	av_frame_free(&f);
	return rc;
}

int tl_clip_write(const char *path, const tl_clip_t *clip, char *err, size_t errn)
{
	tl_clip_t c = *clip;
	tl_clip_defaults(&c);
	av_log_set_level(AV_LOG_ERROR); /* x264 and libvpx report their settings otherwise */
	clip_enc_t e = {.err = err, .errn = errn};
	int rc = clip_open(&e, path, &c);
	if (!rc)
		rc = clip_frames(&e, &c);
	if (!rc && av_write_trailer(e.fmt) < 0)
		rc = clip_fail(&e, "av_write_trailer", 0);
	if (e.fmt && e.fmt->pb)
		avio_closep(&e.fmt->pb);
	avformat_free_context(e.fmt);
	avcodec_free_context(&e.cc);
	av_packet_free(&e.pkt);
	return rc;
}
