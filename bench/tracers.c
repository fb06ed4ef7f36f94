/*
 * What every tracer costs (issue 26): the ResNet-50-style CPU pipeline of bench/resnet_cpu.c
 * (readers.file -> decoders.image_random_crop -> resize 224x224 -> crop_mirror_normalize
 * FLOAT CHW with mirror from coin_flip; batch 64, 2 threads) built twice from one definition:
 *   off: no observer at all;
 *   on:  every tracer at once — "stats;trace" (collector with trace events of every operator
 *        run and worker chunk), "nvtx" where the CUDA toolkit was built in — and its stats
 *        served on a Unix socket (dalic_stats_serve) to a client thread reading every
 *        snapshot (every 100 ms).
 * Both are timed in alternating rounds in one process (wall clock and process CPU time), so
 * background load on a shared machine hits them alike; prints the medians and the median of
 * the per-round ratios on/off. Goal: >= 0.97 samples/s. bench/tracers.sh builds and runs it.
 * Usage: tracers FILE_LIST [ITERATIONS]   (list: "<path> <label>" lines, absolute)
 */
#include "dalic.h"
#include "bench/bench.h"
#include "bench/rn50_pipeline.h"
#include "dalic_stats.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define THREADS 2
#define ROUNDS 7

static double tracers_cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int tracers_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double tracers_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, tracers_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static dalic_pipeline_t *tracers_pipeline(const char *list)
{
	dalic_pipeline_params_t pp = bench_sync_params(BATCH, THREADS);
	return bench_rn50_pipeline(&pp, list);
}

typedef struct tracers_client {
	const char *path;
	atomic_bool stop;
	long long bytes, lines;
} tracers_client_t;

/* Reads every snapshot the server sends, as `dalic top --json` would. */
static void *tracers_client_loop(void *arg)
{
	tracers_client_t *c = arg;
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof addr.sun_path, "%s", c->path);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr)) {
		fprintf(stderr, "bench: cannot connect to %s\n", c->path);
		exit(1);
	}
	struct timeval tv = {.tv_usec = 200000};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	char buf[1 << 16];
	while (!atomic_load(&c->stop)) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n == 0)
			break;
		for (ssize_t i = 0; i < n; i++)
			c->lines += buf[i] == '\n';
		c->bytes += n > 0 ? n : 0;
	}
	close(fd);
	return NULL;
}

static double tracers_round(dalic_pipeline_t *p, int iterations, double *cpu_ms_per_sample)
{
	double c0 = tracers_cpu_now(), t0 = bench_now_s();
	for (int i = 0; i < iterations; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	double samples = (double)BATCH * iterations;
	*cpu_ms_per_sample = (tracers_cpu_now() - c0) * 1e3 / samples;
	return samples / (bench_now_s() - t0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE_LIST [ITERATIONS]\n", argv[0]);
		return 2;
	}
	int iters = argc > 2 ? atoi(argv[2]) : 70;
	int per_round = iters / ROUNDS > 0 ? iters / ROUNDS : 1;
	setenv("DALIC_STATS_INTERVAL_MS", "100", 1);
	char trace[128]; /* the "trace" tracer writes its file at destroy: not in the tree */
	snprintf(trace, sizeof trace, "/tmp/dalic-bench-tracers-%ld.json", (long)getpid());
	setenv("DALIC_TRACE_FILE", trace, 1);
	dalic_pipeline_t *off = tracers_pipeline(argv[1]), *on = tracers_pipeline(argv[1]);
	BENCH_CHECK(dalic_tracers_attach(off, "none")); /* DALIC_TRACERS must not add any */
	const char *names = "stats;trace;nvtx";
	if (dalic_tracers_attach(on, names)) {
		names = "stats;trace"; /* a build without the CUDA toolkit has no nvtx */
		BENCH_CHECK(dalic_tracers_attach(on, names));
	}
	char sock[128];
	snprintf(sock, sizeof sock, "/tmp/dalic-bench-tracers-%ld.sock", (long)getpid());
	BENCH_CHECK(dalic_stats_serve(on, sock));
	BENCH_CHECK(dalic_pipeline_build(off));
	BENCH_CHECK(dalic_pipeline_build(on));
	tracers_client_t client = {.path = sock};
	pthread_t reader;
	pthread_create(&reader, NULL, tracers_client_loop, &client);
	for (int i = 0; i < 3; i++) { /* warm-up: buffers reach their size */
		BENCH_CHECK(dalic_pipeline_run(off));
		BENCH_CHECK(dalic_pipeline_run(on));
	}
	double ps_off[ROUNDS], ps_on[ROUNDS], cpu_off[ROUNDS], cpu_on[ROUNDS], ratio[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		/* alternate which goes first, so neither always follows the other */
		if (r % 2) {
			ps_on[r] = tracers_round(on, per_round, &cpu_on[r]);
			ps_off[r] = tracers_round(off, per_round, &cpu_off[r]);
		} else {
			ps_off[r] = tracers_round(off, per_round, &cpu_off[r]);
			ps_on[r] = tracers_round(on, per_round, &cpu_on[r]);
		}
		ratio[r] = ps_on[r] / ps_off[r];
	}
	atomic_store(&client.stop, true);
	pthread_join(reader, NULL);
	dalic_stats_snapshot_t *snap;
	BENCH_CHECK(dalic_stats_snapshot(dalic_tracers_stats(on), &snap));
	double m_off = tracers_median(ps_off, ROUNDS), m_on = tracers_median(ps_on, ROUNDS);
	double c_off = tracers_median(cpu_off, ROUNDS), c_on = tracers_median(cpu_on, ROUNDS);
	printf("pipeline: ResNet-50-style CPU, batch %d, %d threads, %d rounds of %d iterations\n",
	       BATCH, THREADS, ROUNDS, per_round);
	printf("tracers on: %s + stats served on a socket (%lld snapshots read, %lld bytes)\n",
	       names, client.lines, client.bytes);
	printf("trace events recorded: %lld (dropped %lld)\n", (long long)snap->trace_events,
	       (long long)snap->trace_dropped);
	printf("off: %.1f samples/s, %.3f ms CPU per sample\n", m_off, c_off);
	printf("on:  %.1f samples/s, %.3f ms CPU per sample\n", m_on, c_on);
	printf("ratio on/off: %.3f samples/s (median of medians), %.3f (median per-round), "
	       "%.3f by CPU time (goal >= 0.97)\n",
	       m_on / m_off, tracers_median(ratio, ROUNDS), c_off / c_on);
	dalic_stats_snapshot_free(snap);
	dalic_pipeline_destroy(on);
	dalic_pipeline_destroy(off);
	unlink(trace);
	return 0;
}
