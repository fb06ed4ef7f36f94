/* Video decoding through libavformat / libavcodec / libswscale (see video_decode.h). */
#include "kernels/common/video_decode.h"

#include "engine/checked.h"
#include "engine/error.h"
#include "engine/memory.h"
#include "kernels/common/video_yuv.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VIDEO_IO_BUFFER (1 << 15)

/* ---- libav's log: nothing printed, the last error kept per thread for our messages ------- */

static _Thread_local char video_log_last[256];
static pthread_once_t video_log_once = PTHREAD_ONCE_INIT;

static void video_log_callback(void *avcl, int level, const char *fmt, va_list ap)
{
	if (level > AV_LOG_ERROR)
		return;
	char line[256];
	vsnprintf(line, sizeof line, fmt, ap);
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = 0;
	if (n)
		snprintf(video_log_last, sizeof video_log_last, "%s", line);
}

static void video_log_install(void)
{
	av_log_set_callback(video_log_callback);
}

/* Formats "what: <libav error>[ (<libav log>)]" into err. */
static int video_fail(char *err, size_t errn, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int video_fail(char *err, size_t errn, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int used = vsnprintf(err, errn, fmt, ap);
	va_end(ap);
	size_t at = used < 0 ? 0 : (size_t)used < errn ? (size_t)used : errn;
	if (rc < 0 && at < errn) {
		char why[AV_ERROR_MAX_STRING_SIZE];
		av_strerror(rc, why, sizeof why);
		at += (size_t)snprintf(err + at, errn - at, ": %s", why);
	}
	if (video_log_last[0] && at < errn)
		snprintf(err + at, errn - at, " (libav: %s)", video_log_last);
	video_log_last[0] = 0;
	return -1;
}

/* ---- memory input -------------------------------------------------------------------------- */

static int video_mem_read(void *opaque, uint8_t *buf, int size)
{
	video_dec_t *d = opaque;
	int64_t left = (int64_t)d->mem_n - d->mem_pos;
	if (left <= 0)
		return AVERROR_EOF;
	int n = left < size ? (int)left : size;
	memcpy(buf, d->mem + d->mem_pos, (size_t)n);
	d->mem_pos += n;
	return n;
}

static int64_t video_mem_seek(void *opaque, int64_t offset, int whence)
{
	video_dec_t *d = opaque;
	int64_t base;
	switch (whence & ~AVSEEK_FORCE) {
	case AVSEEK_SIZE:
		return (int64_t)d->mem_n;
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = d->mem_pos;
		break;
	case SEEK_END:
		base = (int64_t)d->mem_n;
		break;
	default:
		return AVERROR(EINVAL);
	}
	int64_t to;
	if (__builtin_add_overflow(base, offset, &to) || to < 0 || to > (int64_t)d->mem_n)
		return AVERROR(EINVAL);
	d->mem_pos = to;
	return to;
}

/* ---- opening ----------------------------------------------------------------------------------
 */

static void video_close_input(video_dec_t *d)
{
	avformat_close_input(&d->fmt);
	if (d->avio) {
		av_freep(&d->avio->buffer);
		avio_context_free(&d->avio);
	}
}

static int video_open_input(video_dec_t *d, char *err, size_t errn)
{
	video_log_last[0] = 0;
	d->fmt = avformat_alloc_context();
	if (!d->fmt)
		return video_fail(err, errn, 0, "out of memory opening '%s'", d->name);
	int rc;
	if (d->path) {
		/* "file:" keeps a colon in the name from reading as a protocol */
		size_t n = strlen(d->path) + 6;
		char *url = malloc(n);
		if (!url) {
			avformat_free_context(d->fmt);
			d->fmt = NULL;
			return video_fail(err, errn, 0, "out of memory opening '%s'", d->name);
		}
		snprintf(url, n, "file:%s", d->path);
		rc = avformat_open_input(&d->fmt, url, NULL, NULL);
		free(url);
	} else {
		d->mem_pos = 0;
		uint8_t *buf = av_malloc(VIDEO_IO_BUFFER);
		d->avio = buf ? avio_alloc_context(buf, VIDEO_IO_BUFFER, 0, d, video_mem_read, NULL,
		                                   video_mem_seek)
		              : NULL;
		if (!d->avio) {
			av_free(buf);
			avformat_free_context(d->fmt);
			d->fmt = NULL;
			return video_fail(err, errn, 0, "out of memory opening '%s'", d->name);
		}
		d->fmt->pb = d->avio;
		rc = avformat_open_input(&d->fmt, "", NULL, NULL);
	}
	if (rc < 0) {
		d->fmt = NULL; /* freed by avformat_open_input */
		video_close_input(d);
		return video_fail(err, errn, rc, "cannot open video '%s'", d->name);
	}
	return 0;
}

static int video_find_stream(video_dec_t *d, char *err, size_t errn)
{
	int s = av_find_best_stream(d->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
	if (s < 0 || !d->fmt->streams[s]->codecpar->width) {
		/* some containers declare their streams only once packets are probed */
		int rc = avformat_find_stream_info(d->fmt, NULL);
		if (rc < 0)
			return video_fail(err, errn, rc, "'%s': cannot read the stream information",
			                  d->name);
		s = av_find_best_stream(d->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
	}
	if (s < 0)
		return video_fail(err, errn, 0, "'%s' has no video stream", d->name);
	const AVCodecParameters *par = d->fmt->streams[s]->codecpar;
	if (par->width <= 0 || par->height <= 0)
		return video_fail(err, errn, 0, "'%s': the video stream has no frame size", d->name);
	d->stream = s;
	d->width = par->width;
	d->height = par->height;
	return 0;
}

static int video_open_codec(video_dec_t *d, char *err, size_t errn)
{
	const AVCodecParameters *par = d->fmt->streams[d->stream]->codecpar;
	const AVCodec *codec = avcodec_find_decoder(par->codec_id);
	if (!codec)
		return video_fail(err, errn, 0, "'%s': no decoder for codec %s in this libavcodec",
		                  d->name, avcodec_get_name(par->codec_id));
	d->cc = avcodec_alloc_context3(codec);
	if (!d->cc)
		return video_fail(err, errn, 0, "out of memory opening '%s'", d->name);
	int rc = avcodec_parameters_to_context(d->cc, par);
	if (rc >= 0) {
		d->cc->thread_count = 1; /* samples are decoded in parallel, one per worker */
		rc = avcodec_open2(d->cc, codec, NULL);
	}
	if (rc < 0)
		return video_fail(err, errn, rc, "'%s': cannot open the %s decoder", d->name,
		                  codec->name);
	return 0;
}

int dalic_video_open(video_dec_t *d, const char *path, const uint8_t *mem, size_t n,
                     const char *name, char *err, size_t errn)
{
	pthread_once(&video_log_once, video_log_install);
	memset(d, 0, sizeof *d);
	d->name = name;
	d->next = -1;
	d->sws_fmt = -1;
	d->mem = mem;
	d->mem_n = n;
	if (path && !(d->path = strdup(path)))
		return video_fail(err, errn, 0, "out of memory opening '%s'", name);
	d->pkt = av_packet_alloc();
	d->frame = av_frame_alloc();
	if (!d->pkt || !d->frame) {
		dalic_video_close(d);
		return video_fail(err, errn, 0, "out of memory opening '%s'", name);
	}
	if (video_open_input(d, err, errn) || video_find_stream(d, err, errn) ||
	    video_open_codec(d, err, errn)) {
		dalic_video_close(d);
		return -1;
	}
	return 0;
}

void dalic_video_close(video_dec_t *d)
{
	video_close_input(d);
	avcodec_free_context(&d->cc);
	av_packet_free(&d->pkt);
	av_frame_free(&d->frame);
	sws_freeContext(d->sws);
	free(d->path);
	if (d->tmp)
		dalic_mem_uncharge(d->tmp_n);
	free(d->tmp);
	memset(d, 0, sizeof *d);
	d->next = -1;
}

/* Back to the first packet: the container is opened again (not every one can seek). */
static int video_rewind(video_dec_t *d, char *err, size_t errn)
{
	video_close_input(d);
	if (video_open_input(d, err, errn))
		return -1;
	avcodec_flush_buffers(d->cc);
	d->next = 0;
	d->eof_sent = false;
	return 0;
}

/* ---- the frame index ------------------------------------------------------------------------
 */

/* H.264 / HEVC packets flagged as key frames may hold non-IDR intra pictures, from which
 * decoding cannot start: the NAL units tell (Annex-B start codes or 4-byte lengths). */
static bool video_nal_is_key(const AVPacket *pkt, enum AVCodecID id)
{
	const uint8_t *p = pkt->data, *end = pkt->data + pkt->size;
	while (p < end) {
		const uint8_t *nal;
		size_t len;
		if (end - p >= 3 && !p[0] && !p[1] && (p[2] == 1 || (end - p >= 4 && !p[2] && p[3] == 1))) {
			nal = p + (p[2] == 1 ? 3 : 4);
			const uint8_t *q = nal;
			while (q + 3 <= end && !(!q[0] && !q[1] && (q[2] == 1 || (q + 4 <= end && !q[2] && q[3] == 1))))
				q++;
			if (q + 3 > end)
				q = end;
			len = (size_t)(q - nal);
			p = q;
		} else {
			if (end - p < 5)
				break;
			len = (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3];
			nal = p + 4;
			if (len > (size_t)(end - nal))
				break;
			p = nal + len;
		}
		if (!len)
			continue;
		if (id == AV_CODEC_ID_H264 && (nal[0] & 0x1f) == 5)
			return true;
		if (id == AV_CODEC_ID_HEVC && ((nal[0] >> 1) & 0x3f) >= 16 && ((nal[0] >> 1) & 0x3f) <= 21)
			return true;
	}
	return false;
}

typedef struct video_entry {
	int64_t pts;
	bool key;
} video_entry_t;

static int video_entry_cmp(const void *a, const void *b)
{
	int64_t x = ((const video_entry_t *)a)->pts, y = ((const video_entry_t *)b)->pts;
	return (x > y) - (x < y);
}

static int video_index_fill(video_index_t *ix, video_entry_t *e, int n, const char *name,
                            char *err, size_t errn)
{
	size_t bytes = (size_t)n * (sizeof(int64_t) + sizeof(int32_t));
	if (dalic_mem_charge(bytes))
		return video_fail(err, errn, 0, "'%s': index of %d frames: %s", name, n,
		                  dalic_last_error());
	ix->charged = bytes;
	ix->pts = malloc(sizeof(int64_t) * (size_t)n);
	ix->key = malloc(sizeof(int32_t) * (size_t)n);
	if (!ix->pts || !ix->key)
		return video_fail(err, errn, 0, "'%s': out of memory for the frame index", name);
	qsort(e, (size_t)n, sizeof *e, video_entry_cmp);
	int32_t last_key = 0;
	for (int i = 0; i < n; i++) {
		if (e[i].key)
			last_key = i;
		ix->pts[i] = e[i].pts;
		ix->key[i] = last_key;
	}
	ix->n = n;
	ix->vfr = false;
	for (int i = 2; n > 3 && i < n; i++)
		if (e[i].pts - e[i - 1].pts != e[1].pts - e[0].pts)
			ix->vfr = true;
	return 0;
}

int dalic_video_build_index(video_dec_t *d, video_index_t *ix, char *err, size_t errn)
{
	memset(ix, 0, sizeof *ix);
	const AVStream *st = d->fmt->streams[d->stream];
	enum AVCodecID id = st->codecpar->codec_id;
	ix->tb_num = st->time_base.num;
	ix->tb_den = st->time_base.den;
	AVRational fps = st->avg_frame_rate.num > 0 ? st->avg_frame_rate : st->r_frame_rate;
	ix->fps_num = fps.num;
	ix->fps_den = fps.den > 0 ? fps.den : 1;
	ix->width = d->width;
	ix->height = d->height;
	snprintf(ix->codec, sizeof ix->codec, "%s", avcodec_get_name(id));
	video_entry_t *e = NULL;
	int n = 0, cap = 0, rc;
	while ((rc = av_read_frame(d->fmt, d->pkt)) >= 0) {
		AVPacket *pkt = d->pkt;
		int64_t pts = pkt->pts != AV_NOPTS_VALUE ? pkt->pts : pkt->dts;
		bool ours = pkt->stream_index == d->stream;
		bool key = ours && (pkt->flags & AV_PKT_FLAG_KEY) &&
		           ((id != AV_CODEC_ID_H264 && id != AV_CODEC_ID_HEVC) ||
		            video_nal_is_key(pkt, id));
		av_packet_unref(pkt);
		if (!ours)
			continue;
		if (pts == AV_NOPTS_VALUE) {
			free(e);
			return video_fail(err, errn, 0, "'%s': packet %d has no timestamp", d->name, n);
		}
		if (pts < 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			video_entry_t *grown = cap < (1 << 26) ? realloc(e, sizeof *e * (size_t)cap) : NULL;
			if (!grown) {
				free(e);
				return video_fail(err, errn, 0, "'%s': too many frames", d->name);
			}
			e = grown;
		}
		e[n++] = (video_entry_t){pts, key};
	}
	if (rc != AVERROR_EOF) {
		free(e);
		return video_fail(err, errn, rc, "'%s': cannot read packet %d", d->name, n);
	}
	if (!n) {
		free(e);
		return video_fail(err, errn, 0, "'%s' holds no video frames", d->name);
	}
	rc = video_index_fill(ix, e, n, d->name, err, errn);
	free(e);
	if (rc || video_rewind(d, err, errn)) {
		dalic_video_index_free(ix);
		return -1;
	}
	d->index = ix;
	return 0;
}

void dalic_video_index_free(video_index_t *ix)
{
	free(ix->pts);
	free(ix->key);
	dalic_mem_uncharge(ix->charged);
	memset(ix, 0, sizeof *ix);
}

void dalic_video_use_index(video_dec_t *d, const video_index_t *ix)
{
	d->index = ix;
}

double dalic_video_seconds(const video_index_t *ix, int i)
{
	return (double)(ix->pts[i] - ix->pts[0]) * ix->tb_num / ix->tb_den;
}

/* ---- decoding ---------------------------------------------------------------------------------
 */

/* The index of a frame with timestamp pts, or -1. */
static int video_index_find(const video_index_t *ix, int64_t pts)
{
	int lo = 0, hi = ix->n - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (ix->pts[mid] == pts)
			return mid;
		if (ix->pts[mid] < pts)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The next decoded picture into d->frame: 0, 1 at the end of the stream, -1 on errors. */
static int video_decode_next(video_dec_t *d, int target, char *err, size_t errn)
{
	for (;;) {
		int rc = avcodec_receive_frame(d->cc, d->frame);
		if (rc >= 0)
			return 0;
		if (rc == AVERROR_EOF)
			return 1;
		if (rc != AVERROR(EAGAIN))
			return video_fail(err, errn, rc, "'%s': decoding failed near frame %d",
			                  d->name, target);
		if (d->eof_sent)
			return 1;
		rc = av_read_frame(d->fmt, d->pkt);
		if (rc == AVERROR_EOF) {
			d->eof_sent = true;
			rc = avcodec_send_packet(d->cc, NULL);
		} else if (rc < 0) {
			return video_fail(err, errn, rc, "'%s': cannot read the packets of frame %d",
			                  d->name, target);
		} else if (d->pkt->stream_index != d->stream) {
			av_packet_unref(d->pkt);
			continue;
		} else if (d->pkt->flags & AV_PKT_FLAG_CORRUPT) {
			av_packet_unref(d->pkt);
			return video_fail(err, errn, 0, "'%s': the packet of frame %d is corrupt",
			                  d->name, target);
		} else {
			rc = avcodec_send_packet(d->cc, d->pkt);
			av_packet_unref(d->pkt);
		}
		if (rc < 0 && rc != AVERROR(EAGAIN) && rc != AVERROR_EOF)
			return video_fail(err, errn, rc, "'%s': decoding failed near frame %d",
			                  d->name, target);
	}
}

static int video_seek_key(video_dec_t *d, int key, char *err, size_t errn)
{
	avcodec_flush_buffers(d->cc);
	d->eof_sent = false;
	if (key == 0 ||
	    av_seek_frame(d->fmt, d->stream, d->index->pts[key], AVSEEK_FLAG_BACKWARD) < 0)
		return video_rewind(d, err, errn);
	d->next = key;
	return 0;
}

/* 8-bit planar YUV, which video_yuv.c converts as DALI's frames come out. */
static bool video_planar_yuv(const AVFrame *f, bool full, video_yuv_t *out)
{
	int sx, sy;
	switch (f->format) {
	case AV_PIX_FMT_YUV420P:
	case AV_PIX_FMT_YUVJ420P: sx = sy = 1; break;
	case AV_PIX_FMT_YUV422P:
	case AV_PIX_FMT_YUVJ422P: sx = 1, sy = 0; break;
	case AV_PIX_FMT_YUV444P:
	case AV_PIX_FMT_YUVJ444P: sx = sy = 0; break;
	default: return false;
	}
	*out = (video_yuv_t){{f->data[0], f->data[1], f->data[2]},
	                     {f->linesize[0], f->linesize[1], f->linesize[2]},
	                     f->width, f->height, sx, sy, full};
	return true;
}

/* Converts d->frame into dst (h x w x 3). */
static int video_convert(video_dec_t *d, int frame, int image_type, uint8_t *dst, char *err,
                         size_t errn)
{
	const AVFrame *f = d->frame;
	if (f->width != d->width || f->height != d->height)
		return video_fail(err, errn, 0,
		                  "'%s': frame %d is %dx%d, the stream's frames are %dx%d (a "
		                  "resolution change within a video is not supported)",
		                  d->name, frame, f->width, f->height, d->width, d->height);
	bool full = f->color_range == AVCOL_RANGE_JPEG || f->format == AV_PIX_FMT_YUVJ420P ||
	            f->format == AV_PIX_FMT_YUVJ422P || f->format == AV_PIX_FMT_YUVJ444P;
	video_yuv_t yuv;
	if (video_planar_yuv(f, full, &yuv)) {
		dalic_video_yuv_convert(&yuv, image_type == DALIC_VIDEO_YCBCR, dst);
		return 0;
	}
	int out = image_type == DALIC_VIDEO_YCBCR ? AV_PIX_FMT_YUV444P : AV_PIX_FMT_RGB24;
	if (!d->sws || d->sws_fmt != f->format || d->sws_full != full || d->sws_out != out) {
		sws_freeContext(d->sws);
		d->sws = sws_getContext(d->width, d->height, f->format, d->width, d->height, out,
		                        SWS_BILINEAR | SWS_FULL_CHR_H_INT | SWS_ACCURATE_RND, NULL,
		                        NULL, NULL);
		if (!d->sws)
			return video_fail(err, errn, 0, "'%s': cannot convert %s frames", d->name,
			                  av_get_pix_fmt_name(f->format));
		if (full) {
			const int *coef = sws_getCoefficients(SWS_CS_DEFAULT);
			sws_setColorspaceDetails(d->sws, coef, 1, coef, 0, 0, 1 << 16, 1 << 16);
		}
		d->sws_fmt = f->format;
		d->sws_full = full;
		d->sws_out = out;
	}
	size_t plane = (size_t)d->width * (size_t)d->height;
	/* swscale may write up to a vector past a row that is not a multiple of 32 wide */
	bool direct = out == AV_PIX_FMT_RGB24 && d->width % 32 == 0;
	size_t need = direct ? 0 : plane * 3 + 64;
	if (need > d->tmp_n) {
		if (d->tmp)
			dalic_mem_uncharge(d->tmp_n);
		free(d->tmp);
		d->tmp_n = 0;
		if (dalic_mem_charge(need))
			return video_fail(err, errn, 0, "'%s': %s", d->name, dalic_last_error());
		if (!(d->tmp = malloc(need))) {
			dalic_mem_uncharge(need);
			return video_fail(err, errn, 0, "'%s': out of memory", d->name);
		}
		d->tmp_n = need;
	}
	uint8_t *planes[4] = {direct ? dst : d->tmp, NULL, NULL, NULL};
	int strides[4] = {d->width * 3, 0, 0, 0};
	if (out == AV_PIX_FMT_YUV444P) {
		planes[1] = d->tmp + plane;
		planes[2] = d->tmp + 2 * plane;
		strides[0] = strides[1] = strides[2] = d->width;
	}
	int rc = sws_scale(d->sws, (const uint8_t *const *)f->data, f->linesize, 0, d->height,
	                   planes, strides);
	if (rc < 0)
		return video_fail(err, errn, rc, "'%s': converting frame %d failed", d->name, frame);
	if (out == AV_PIX_FMT_YUV444P) {
		for (size_t p = 0; p < plane; p++) {
			dst[3 * p] = d->tmp[p];
			dst[3 * p + 1] = d->tmp[plane + p];
			dst[3 * p + 2] = d->tmp[2 * plane + p];
		}
	} else if (!direct) {
		memcpy(dst, d->tmp, plane * 3);
	}
	return 0;
}

int dalic_video_read(video_dec_t *d, int frame, int image_type, uint8_t *dst, char *err,
                     size_t errn)
{
	const video_index_t *ix = d->index;
	if (frame < 0 || frame >= ix->n)
		return video_fail(err, errn, 0, "'%s': frame %d is out of range [0, %d)", d->name,
		                  frame, ix->n);
	int key = ix->key[frame];
	if ((d->next < 0 || frame < d->next || key > d->next) && video_seek_key(d, key, err, errn))
		return -1;
	bool restarted = false;
	for (;;) {
		int rc = video_decode_next(d, frame, err, errn);
		if (rc < 0)
			return -1;
		if (rc > 0)
			return video_fail(err, errn, 0,
			                  "'%s': frame %d is missing: the stream ends after frame %d of "
			                  "%d (truncated?)",
			                  d->name, frame, d->next - 1, ix->n);
		AVFrame *f = d->frame;
		int64_t pts = f->best_effort_timestamp;
		int at = pts == AV_NOPTS_VALUE ? -1 : video_index_find(ix, pts);
		if (pts != AV_NOPTS_VALUE && pts < ix->pts[0]) {
			av_frame_unref(f);
			continue; /* a picture before the first frame (negative timestamps) */
		}
		if (at < 0)
			at = d->next; /* no usable timestamp: count from the key frame */
		d->next = at + 1;
		if (at > frame && !restarted) {
			/* the seek went past the key frame: decode from the start */
			restarted = true;
			av_frame_unref(f);
			if (video_rewind(d, err, errn))
				return -1;
			continue;
		}
		if (at > frame) {
			av_frame_unref(f);
			return video_fail(err, errn, 0, "'%s': frame %d was not returned by the decoder",
			                  d->name, frame);
		}
		if (at < frame) {
			av_frame_unref(f);
			continue;
		}
		if ((f->flags & AV_FRAME_FLAG_CORRUPT) || f->decode_error_flags) {
			av_frame_unref(f);
			return video_fail(err, errn, 0, "'%s': frame %d is corrupt", d->name, frame);
		}
		rc = video_convert(d, frame, image_type, dst, err, errn);
		av_frame_unref(f);
		return rc;
	}
}
