/*
 * Issue 21's ROI-decode saving per file: for each JPEG, images/s of decoders.image_random_crop
 * (DALI's default random_area [0.08, 1] and aspect ratios) against decoders.image (the whole
 * image) and a plain libturbojpeg full decode of the same file, one thread, batch 32, rounds
 * alternating. Prints per file the time of each and the crop's saving versus the full decode,
 * then the distribution of savings. Times are process CPU time (the pipeline is synchronous:
 * nothing else of it runs meanwhile), which other load on a shared machine disturbs less than
 * the wall clock. bench/img_roi.sh builds and runs it.
 * Usage: img_roi ITERATIONS FILE...
 */
#include "dalic.h"
#include "bench/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <turbojpeg.h>

#define BATCH 32
#define ROUNDS 5

static double roi_cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static dalic_pipeline_t *roi_pipeline(const char *list, const char *decoder)
{
	dalic_pipeline_params_t pp = bench_sync_params(BATCH, 1);
	dalic_pipeline_t *p;
	dalic_op_t *rd, *dec;
	BENCH_CHECK(dalic_pipeline_create(&pp, &p));
	BENCH_CHECK(dalic_pipeline_add_op(p, "readers.file", "cpu", &rd));
	BENCH_CHECK(dalic_op_set_string(rd, "file_list", list));
	BENCH_CHECK(dalic_pipeline_add_op(p, decoder, "cpu", &dec));
	BENCH_CHECK(dalic_op_add_input(dec, dalic_op_output(rd, 0), NULL));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(dec, 0), NULL));
	BENCH_CHECK(dalic_pipeline_build(p));
	for (int i = 0; i < 2; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	return p;
}

/* ms per image of `iters` iterations. */
static double roi_time_pipe(dalic_pipeline_t *p, int iters)
{
	double t0 = roi_cpu_s();
	for (int i = 0; i < iters; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	return (roi_cpu_s() - t0) * 1e3 / (iters * BATCH);
}

static double roi_time_tj(const unsigned char *d, unsigned long n, unsigned char *buf, int W,
			  int H, int iters)
{
	tjhandle tj = tjInitDecompress();
	double t0 = roi_cpu_s();
	for (int i = 0; i < iters * BATCH; i++)
		if (tjDecompress2(tj, d, n, buf, W, W * 3, H, TJPF_RGB, TJFLAG_ACCURATEDCT))
			fprintf(stderr, "decode: %s\n", tjGetErrorStr2(tj));
	tjDestroy(tj);
	return (roi_cpu_s() - t0) * 1e3 / (iters * BATCH);
}

static int roi_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s ITERATIONS FILE...\n", argv[0]);
		return 2;
	}
	int iters = atoi(argv[1]), nf = argc - 2;
	double *saving = calloc((size_t)nf, sizeof *saving);
	printf("%-36s %9s %9s %9s %8s\n", "file", "tj full", "full", "crop", "saving");
	for (int f = 0; f < nf; f++) {
		const char *path = argv[f + 2];
		char list[] = "/tmp/dalic_img_roi_XXXXXX";
		int fd = mkstemp(list);
		FILE *l = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!l)
			return perror(list), 1;
		for (int k = 0; k < BATCH; k++)
			fprintf(l, "%s %d\n", path, k);
		fclose(l);
		FILE *g = fopen(path, "rb");
		if (!g)
			return perror(path), 1;
		fseek(g, 0, SEEK_END);
		unsigned long n = (unsigned long)ftell(g);
		rewind(g);
		unsigned char *d = malloc(n);
		if (fread(d, 1, n, g) != n)
			return fprintf(stderr, "%s: short read\n", path), 1;
		fclose(g);
		tjhandle tj = tjInitDecompress();
		int W, H, ss, cs;
		tjDecompressHeader3(tj, d, n, &W, &H, &ss, &cs);
		tjDestroy(tj);
		unsigned char *buf = malloc((size_t)W * H * 3);
		dalic_pipeline_t *full = roi_pipeline(list, "decoders.image");
		dalic_pipeline_t *crop = roi_pipeline(list, "decoders.image_random_crop");
		double tt = 1e9, tf = 1e9, tc = 1e9;
		for (int r = 0; r < ROUNDS; r++) { /* best of the rounds: the least disturbed */
			double a = roi_time_tj(d, n, buf, W, H, iters);
			double b = roi_time_pipe(full, iters), c = roi_time_pipe(crop, iters);
			tt = a < tt ? a : tt, tf = b < tf ? b : tf, tc = c < tc ? c : tc;
		}
		saving[f] = 1 - tc / tf;
		const char *base = strrchr(path, '/');
		printf("%-36s %7.3fms %7.3fms %7.3fms %7.1f%%\n", base ? base + 1 : path, tt, tf, tc,
		       100 * saving[f]);
		dalic_pipeline_destroy(full);
		dalic_pipeline_destroy(crop);
		free(buf);
		free(d);
		remove(list);
	}
	qsort(saving, (size_t)nf, sizeof *saving, roi_cmp);
	printf("crop saving vs full decode over %d files: min %.1f%%, median %.1f%%, max %.1f%%\n",
	       nf, 100 * saving[0], 100 * saving[nf / 2], 100 * saving[nf - 1]);
	free(saving);
	return 0;
}
