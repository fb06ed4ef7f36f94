/*
 * ResNet-50-style CPU pipeline against the decode limit, measured in the same run:
 *   A: readers.file -> decoders.image_random_crop -> resize 224x224 ->
 *      crop_mirror_normalize (FLOAT, CHW, mirror from coin_flip), batch 64, 2 threads;
 *   B: a plain loop decoding the same JPEGs at full size with libturbojpeg on 2 threads.
 * Prints images/s of both, the ratio A/B and the per-operator split of A.
 * Both are timed in alternating rounds in one process (wall clock and process CPU time), so
 * background load on a shared machine hits them alike. bench/resnet_cpu.sh builds and runs it.
 * With "scan" as third argument A is that pipeline's data scan instead (issue 20,
 * dalic_pipeline_make_scan: readers.file -> whole-image decoders.image, pixels not kept):
 * bench/scan.sh.
 * Usage: resnet_cpu FILE_LIST [ITERATIONS [scan]]   (list: "<path> <label>" lines, absolute)
 */
#include "dalic.h"
#include "bench/bench.h"
#include "bench/rn50_pipeline.h"
#include "dalic_stats.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <turbojpeg.h>

#define BATCH 64
#define THREADS 2

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct blob {
	unsigned char *d;
	unsigned long n;
} blob_t;

static blob_t *files;
static int nfiles;

typedef struct worker {
	int id, count;
	long base; /* list position this round starts at */
	double seconds;
} worker_t;

/* The loop walks the list on from where its last round stopped, as the pipeline's reader
 * does, so over the rounds both see every file equally often (the list repeats each photo
 * 12 times in a row: restarting at 0 each round would skip the last photos). */
static long loop_cursor;

static void *decode_loop(void *arg)
{
	worker_t *w = arg;
	tjhandle tj = tjInitDecompress();
	unsigned char *buf = NULL;
	size_t cap = 0;
	double t0 = bench_now_s();
	for (int k = 0; k < w->count; k++) {
		const blob_t *b = &files[(w->base + w->id + (long)k * THREADS) % nfiles];
		int W, H, ss, cs;
		tjDecompressHeader3(tj, b->d, b->n, &W, &H, &ss, &cs);
		size_t need = (size_t)W * H * 3;
		if (need > cap) {
			free(buf);
			buf = malloc(cap = need);
		}
		if (tjDecompress2(tj, b->d, b->n, buf, W, W * 3, H, TJPF_RGB, TJFLAG_ACCURATEDCT))
			fprintf(stderr, "decode: %s\n", tjGetErrorStr2(tj));
	}
	w->seconds = bench_now_s() - t0;
	free(buf);
	tjDestroy(tj);
	return NULL;
}

static double decode_only(int images)
{
	pthread_t th[THREADS];
	worker_t w[THREADS];
	double t0 = bench_now_s();
	for (int t = 0; t < THREADS; t++) {
		w[t] = (worker_t){t, images / THREADS, loop_cursor, 0};
		pthread_create(&th[t], NULL, decode_loop, &w[t]);
	}
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	loop_cursor += images / THREADS * THREADS;
	return images / (bench_now_s() - t0);
}

#define CHECK(x)                                                                              \
	do {                                                                                  \
		if ((x) != DALIC_OK) {                                                        \
			fprintf(stderr, "%s: %s\n", #x, dalic_last_error());                  \
			exit(1);                                                              \
		}                                                                             \
	} while (0)

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE_LIST [ITERATIONS]\n", argv[0]);
		return 2;
	}
	const char *list = argv[1];
	int iters = argc > 2 ? atoi(argv[2]) : 30;
	bool scan = argc > 3 && !strcmp(argv[3], "scan");
	FILE *f = fopen(list, "r");
	if (!f)
		return perror(list), 1;
	char path[1024];
	int label;
	while (fscanf(f, "%1023s %d", path, &label) == 2) {
		FILE *g = fopen(path, "rb");
		if (!g)
			return perror(path), 1;
		fseek(g, 0, SEEK_END);
		files = realloc(files, sizeof *files * (nfiles + 1));
		files[nfiles].n = ftell(g);
		rewind(g);
		files[nfiles].d = malloc(files[nfiles].n);
		if (fread(files[nfiles].d, 1, files[nfiles].n, g) != files[nfiles].n)
			return fprintf(stderr, "%s: short read\n", path), 1;
		fclose(g);
		nfiles++;
	}
	fclose(f);

	dalic_pipeline_params_t pp = bench_sync_params(BATCH, THREADS);
	dalic_pipeline_t *p = bench_rn50_pipeline(&pp, list);
	if (scan)
		CHECK(dalic_pipeline_make_scan(p));
	dalic_stats_t *st;
	CHECK(dalic_stats_create(p, NULL, &st));
	CHECK(dalic_pipeline_build(p));

	/* Alternate short rounds of both, so background load on a shared machine hits them
	 * alike; report medians of wall-clock throughput and process CPU time per image. */
	for (int i = 0; i < 3; i++) /* warm-up: queues fill, buffers reach their size */
		CHECK(dalic_pipeline_run(p));
	dalic_stats_reset(st);
	enum { ROUNDS = 7 };
	double dps[ROUNDS], pps[ROUNDS], dcpu[ROUNDS], pcpu[ROUNDS];
	int per_round = iters / ROUNDS > 0 ? iters / ROUNDS : 1;
	for (int r = 0; r < ROUNDS; r++) {
		double c0 = cpu_now();
		dps[r] = decode_only(BATCH * per_round);
		dcpu[r] = (cpu_now() - c0) * 1e3 / (BATCH * per_round);
		c0 = cpu_now();
		double t0 = bench_now_s();
		for (int i = 0; i < per_round; i++)
			CHECK(dalic_pipeline_run(p));
		pps[r] = BATCH * per_round / (bench_now_s() - t0);
		pcpu[r] = (cpu_now() - c0) * 1e3 / (BATCH * per_round);
	}
	dalic_stats_snapshot_t *snap;
	CHECK(dalic_stats_snapshot(st, &snap));
	double dec_ips = median(dps, ROUNDS), pipe = median(pps, ROUNDS);
	double dec_cpu = median(dcpu, ROUNDS), pipe_cpu = median(pcpu, ROUNDS);
	printf("files: %d JPEGs, batch %d, %d threads, %d rounds of %d iterations\n", nfiles, BATCH,
	       THREADS, ROUNDS, per_round);
	printf("decode-only loop (libturbojpeg, full size): %.0f images/s, %.2f ms CPU per image\n",
	       dec_ips, dec_cpu);
	printf("%s: %.0f images/s, %.2f ms CPU per image\n",
	       scan ? "scan (whole-image decode, pixels not kept)"
	            : "pipeline (random-crop decode, resize 224, CMN)",
	       pipe, pipe_cpu);
	printf("ratio %s / decode-only: %.2f wall-clock, %.2f by CPU time\n",
	       scan ? "scan" : "pipeline", pipe / dec_ips, dec_cpu / pipe_cpu);
	printf("per operator (mean ms per iteration, share of operator time):\n");
	double total = 0;
	for (int i = 0; i < snap->num_operators; i++)
		total += snap->operators[i].time.mean_ns;
	for (int i = 0; i < snap->num_operators; i++) {
		const dalic_stats_operator_t *o = &snap->operators[i];
		printf("  %-28s %-24s %8.2f ms  %5.1f%%\n", o->name, o->op, o->time.mean_ns / 1e6,
		       100 * o->time.mean_ns / total);
	}
	dalic_stats_snapshot_free(snap);
	dalic_pipeline_destroy(p);
	dalic_stats_pipeline_destroyed(st);
	dalic_stats_destroy(st);
	return 0;
}
