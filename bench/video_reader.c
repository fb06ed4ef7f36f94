/*
 * Issue 16's video target, measured in the same run:
 *   A: experimental.readers.video over the clips, sequences of 30 frames (-s) with step 30
 *      (every frame read once per epoch), FHWC uint8 RGB, batch 4, 2 threads;
 *   B: a plain libavformat/libavcodec loop on 2 threads (one file at a time per thread, one
 *      codec thread each as the reader's workers) decoding every frame of the same clips and
 *      converting it to RGB24 with swscale (the reader's flags; the reader converts planar
 *      YUV itself, as DALI's frames come out: kernels/common/video_yuv.c).
 * Prints frames/s of both (medians of alternating rounds, so background load on a shared
 * machine hits them alike) and the ratio A/B. bench/video_reader.sh builds and runs it.
 * Usage: video_reader CLIP... [-n ITERATIONS] [-s SEQUENCE_LENGTH (default 30)]
 */
#include "bench/bench.h"
#include "dalic.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 4
#define THREADS 2
#define ROUNDS 5

static const char **bench_files;
static int bench_seq = 30;
static int bench_nfiles;

typedef struct bench_worker {
	int id;
	long frames;
} bench_worker_t;

/* Decodes every frame of one clip to RGB24; returns the frame count. */
static long bench_decode_file(const char *path)
{
	AVFormatContext *fmt = NULL;
	if (avformat_open_input(&fmt, path, NULL, NULL) < 0 || avformat_find_stream_info(fmt, NULL) < 0) {
		fprintf(stderr, "bench: cannot open %s\n", path);
		exit(1);
	}
	const AVCodec *codec = NULL;
	int s = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
	if (s < 0 || !codec) {
		fprintf(stderr, "bench: no video stream in %s\n", path);
		exit(1);
	}
	AVCodecContext *cc = avcodec_alloc_context3(codec);
	avcodec_parameters_to_context(cc, fmt->streams[s]->codecpar);
	cc->thread_count = 1;
	if (avcodec_open2(cc, codec, NULL) < 0) {
		fprintf(stderr, "bench: cannot open the decoder of %s\n", path);
		exit(1);
	}
	AVPacket *pkt = av_packet_alloc();
	AVFrame *fr = av_frame_alloc();
	struct SwsContext *sws = NULL;
	uint8_t *rgb = malloc((size_t)cc->width * cc->height * 3);
	long n = 0;
	bool draining = false;
	while (true) {
		int rc = avcodec_receive_frame(cc, fr);
		if (rc == 0) {
			sws = sws_getCachedContext(sws, fr->width, fr->height, fr->format, fr->width,
			                           fr->height, AV_PIX_FMT_RGB24,
			                           SWS_BILINEAR | SWS_FULL_CHR_H_INT | SWS_ACCURATE_RND,
			                           NULL, NULL, NULL);
			uint8_t *dst[4] = {rgb};
			int stride[4] = {fr->width * 3};
			sws_scale(sws, (const uint8_t *const *)fr->data, fr->linesize, 0, fr->height, dst,
			          stride);
			n++;
			continue;
		}
		if (rc == AVERROR_EOF)
			break;
		if (draining)
			continue;
		if (av_read_frame(fmt, pkt) < 0) {
			avcodec_send_packet(cc, NULL);
			draining = true;
			continue;
		}
		if (pkt->stream_index == s)
			avcodec_send_packet(cc, pkt);
		av_packet_unref(pkt);
	}
	free(rgb);
	sws_freeContext(sws);
	av_frame_free(&fr);
	av_packet_free(&pkt);
	avcodec_free_context(&cc);
	avformat_close_input(&fmt);
	return n;
}

static void *bench_decode_loop(void *arg)
{
	bench_worker_t *w = arg;
	for (int k = w->id; k < bench_nfiles; k += THREADS)
		w->frames += bench_decode_file(bench_files[k]);
	return NULL;
}

/* One pass over every clip on THREADS threads: frames/s. */
static double bench_decode_only(void)
{
	pthread_t th[THREADS];
	bench_worker_t w[THREADS];
	double t0 = bench_now_s();
	for (int t = 0; t < THREADS; t++) {
		w[t] = (bench_worker_t){t, 0};
		pthread_create(&th[t], NULL, bench_decode_loop, &w[t]);
	}
	long frames = 0;
	for (int t = 0; t < THREADS; t++) {
		pthread_join(th[t], NULL);
		frames += w[t].frames;
	}
	return (double)frames / (bench_now_s() - t0);
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bench_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	int iters = 0;
	bench_files = calloc((size_t)argc, sizeof *bench_files);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			iters = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			bench_seq = atoi(argv[++i]);
		else
			bench_files[bench_nfiles++] = argv[i];
	}
	if (!bench_nfiles) {
		fprintf(stderr, "usage: %s CLIP... [-n ITERATIONS] [-s SEQUENCE_LENGTH]\n", argv[0]);
		return 2;
	}
	dalic_pipeline_params_t pp = bench_sync_params(BATCH, THREADS);
	dalic_pipeline_t *p;
	BENCH_CHECK(dalic_pipeline_create(&pp, &p));
	dalic_op_t *rd;
	BENCH_CHECK(dalic_pipeline_add_op(p, "experimental.readers.video", "cpu", &rd));
	BENCH_CHECK(dalic_op_set_name(rd, "Reader"));
	BENCH_CHECK(dalic_op_set_strings(rd, "filenames", bench_nfiles, bench_files));
	BENCH_CHECK(dalic_op_set_int(rd, "sequence_length", bench_seq));
	BENCH_CHECK(dalic_op_set_int(rd, "step", bench_seq));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(rd, 0), NULL));
	BENCH_CHECK(dalic_pipeline_build(p));
	dalic_reader_meta_t meta;
	BENCH_CHECK(dalic_pipeline_reader_meta(p, "Reader", &meta));
	/* one epoch per round by default: every frame of every clip once */
	int per_round = iters > 0 ? iters / ROUNDS : (int)((meta.epoch_size + BATCH - 1) / BATCH);
	if (per_round < 1)
		per_round = 1;
	BENCH_CHECK(dalic_pipeline_run(p)); /* warm-up: buffers reach their size */
	double dfps[ROUNDS], pfps[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		dfps[r] = bench_decode_only();
		double t0 = bench_now_s();
		for (int i = 0; i < per_round; i++)
			BENCH_CHECK(dalic_pipeline_run(p));
		pfps[r] = (double)BATCH * bench_seq * per_round / (bench_now_s() - t0);
	}
	double dec = bench_median(dfps, ROUNDS), rdr = bench_median(pfps, ROUNDS);
	printf("clips: %d (%lld sequences of %d frames), batch %d, %d threads, %d rounds of %d "
	       "iterations\n",
	       bench_nfiles, (long long)meta.epoch_size, bench_seq, BATCH, THREADS, ROUNDS, per_round);
	printf("plain libavcodec loop (decode + RGB24): %.0f frames/s\n", dec);
	printf("experimental.readers.video: %.0f frames/s\n", rdr);
	printf("ratio reader / loop: %.2f (target >= 0.90)\n", rdr / dec);
	dalic_pipeline_destroy(p);
	free(bench_files);
	return 0;
}
