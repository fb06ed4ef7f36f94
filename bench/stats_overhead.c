/*
 * What stats collection costs: the image pipeline (readers.file over samples/images ->
 * decoders.image -> resize 256x256 -> crop_mirror_normalize 224x224 float, cpu) run with no
 * collector and enable_memory_stats off, against the same definition with everything on —
 * enable_memory_stats, a collector, and tracing of every operator run and worker chunk —
 * in one process, alternating the two for several rounds so drift in the machine hits both.
 * Each round builds fresh pipelines and times `iterations` run() calls after a warm-up.
 * Prints one `key: value` block: the best and median throughput of each, the loss from
 * them and the median of the per-round (paired) losses, and the process CPU time per sample
 * of each — the steadiest figure on a busy machine, since waiting for a core costs no CPU.
 *
 *   stats_overhead [iterations [batch [threads [rounds [exec]]]]]
 *   exec: async (default), pipelined or simple
 */
#include "dalic.h"
#include "bench/bench.h"
#include "dalic_stats.h"
#include "bench/stats_pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct config {
	int iterations, batch, threads, warmup;
	bool pipelined, async;
} config_t;

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* Samples per second of one fresh pipeline; `events` gets the trace events recorded and
 * `cpu_per_sample` the process CPU seconds per sample of the timed iterations. */
static double one_run(const config_t *c, bool stats, long long *events, double *cpu_per_sample)
{
	dalic_pipeline_t *p =
	    bench_image_pipeline(c->batch, c->threads, c->pipelined, c->async, stats);
	dalic_stats_t *s = NULL;
	if (stats) {
		dalic_stats_options_t o;
		dalic_stats_options_init(&o);
		o.trace = true;
		BENCH_CHECK(dalic_stats_create(p, &o, &s));
	}
	for (int i = 0; i < c->warmup; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	double t0 = bench_now_s(), c0 = cpu_s();
	for (int i = 0; i < c->iterations; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	double secs = bench_now_s() - t0;
	*cpu_per_sample = (cpu_s() - c0) / ((double)c->iterations * c->batch);
	dalic_pipeline_destroy(p);
	if (s) {
		dalic_stats_pipeline_destroyed(s);
		dalic_stats_snapshot_t *snap;
		BENCH_CHECK(dalic_stats_snapshot(s, &snap));
		*events = snap->trace_events;
		dalic_stats_snapshot_free(snap);
		/* the export is part of "tracing on", but not of the throughput: time it apart */
		FILE *f = fopen("/dev/null", "w");
		if (!f) {
			perror("/dev/null");
			exit(1);
		}
		BENCH_CHECK(dalic_stats_write_trace(s, f));
		fclose(f);
		dalic_stats_destroy(s);
	}
	return (double)c->iterations * c->batch / secs;
}

int main(int argc, char **argv)
{
	config_t c = {
	    .iterations = argc > 1 ? atoi(argv[1]) : 40,
	    .batch = argc > 2 ? atoi(argv[2]) : 16,
	    .threads = argc > 3 ? atoi(argv[3]) : 2,
	    .warmup = 5,
	    .pipelined = true,
	    .async = true,
	};
	int rounds = argc > 4 ? atoi(argv[4]) : 5;
	const char *exec = argc > 5 ? argv[5] : "async";
	c.async = !strcmp(exec, "async");
	c.pipelined = strcmp(exec, "simple") != 0;
	if (c.iterations < 1 || c.batch < 1 || c.threads < 1 || rounds < 1 || rounds > 64) {
		fprintf(stderr, "usage: stats_overhead [iterations [batch [threads [rounds "
		                "[async|pipelined|simple]]]]]\n");
		return 2;
	}
	double off[64], on[64], paired[64], cpu_off[64], cpu_on[64];
	long long events = 0;
	for (int r = 0; r < rounds; r++) {
		/* alternate which goes first, so neither always gets the warmer machine */
		if (r % 2) {
			on[r] = one_run(&c, true, &events, &cpu_on[r]);
			off[r] = one_run(&c, false, &events, &cpu_off[r]);
		} else {
			off[r] = one_run(&c, false, &events, &cpu_off[r]);
			on[r] = one_run(&c, true, &events, &cpu_on[r]);
		}
		paired[r] = 1 - on[r] / off[r];
		fprintf(stderr, "round %d: off %.1f  on %.1f samples/s\n", r + 1, off[r], on[r]);
	}
	qsort(paired, (size_t)rounds, sizeof paired[0], cmp);
	qsort(cpu_off, (size_t)rounds, sizeof cpu_off[0], cmp);
	qsort(cpu_on, (size_t)rounds, sizeof cpu_on[0], cmp);
	qsort(off, (size_t)rounds, sizeof off[0], cmp);
	qsort(on, (size_t)rounds, sizeof on[0], cmp);
	double best_off = off[rounds - 1], best_on = on[rounds - 1];
	double med_off = off[rounds / 2], med_on = on[rounds / 2];
	printf("# stats_overhead\n");
	printf(
	    "pipeline: readers.file -> decoders.image -> resize 256 -> crop_mirror_normalize 224 "
	    "float (cpu)\n");
	printf("executor: %s\nbatch_size: %d\nnum_threads: %d\niterations: %d\nrounds: %d\n", exec,
	       c.batch, c.threads, c.iterations, rounds);
	printf("trace_events_per_run: %lld\n", events);
	printf("off_samples_per_second_best: %.1f\non_samples_per_second_best: %.1f\n", best_off,
	       best_on);
	printf("off_samples_per_second_median: %.1f\non_samples_per_second_median: %.1f\n", med_off,
	       med_on);
	printf("loss_best: %.2f%%\nloss_median: %.2f%%\nloss_paired_median: %.2f%%\n",
	       100 * (1 - best_on / best_off), 100 * (1 - med_on / med_off),
	       100 * paired[rounds / 2]);
	printf("cpu_ms_per_sample_off_median: %.3f\ncpu_ms_per_sample_on_median: %.3f\n",
	       1e3 * cpu_off[rounds / 2], 1e3 * cpu_on[rounds / 2]);
	printf("cpu_overhead_median: %.2f%%\n",
	       100 * (cpu_on[rounds / 2] / cpu_off[rounds / 2] - 1));
	printf("target: <= 3%%\n");
	return 0;
}
