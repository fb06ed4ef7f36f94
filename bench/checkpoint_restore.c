/*
 * Restore cost against the checkpoint's position (issue 27): the ResNet-50-style pipeline of
 * bench/resnet_seek.py (an epoch of 132 files, random_shuffle, batch 64) restored from
 * checkpoints at epochs 1 to 100 000. Each checkpoint is made by a seek; then, R times, the
 * pipeline is built with it and without it, and the median CPU time of the difference is the
 * restore. A reader restores DALI's way (straight to the epoch's start, then the picks made
 * since it), so the figure must not grow with the epoch; before, it replayed every pick
 * from the first epoch (linear in epochs x 132): the seek that made the checkpoint makes
 * those same picks, and its CPU time is printed beside.
 * Usage: checkpoint_restore SCRIPT FILE_LIST [R]
 */
#include "dalic.h"
#include "bench/bench.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double restore_cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static dalic_pipeline_t *restore_load(const char *script, const char *list)
{
	static char arg[1200];
	snprintf(arg, sizeof arg, "file_list='%s'", list);
	static const char *args[1];
	args[0] = arg;
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.fields = DALIC_PARAM_SCRIPT_ARGS | DALIC_PARAM_CHECKPOINTING;
	o.params.script_args = args;
	o.params.num_script_args = 1;
	o.params.enable_checkpointing = true;
	dalic_pipeline_t *p;
	BENCH_CHECK(dalic_pipeline_load(script, "resnet_seek", &o, &p));
	return p;
}

/* CPU seconds to load and build, with the checkpoint when ck is not NULL. */
static double restore_build_s(const char *script, const char *list, const uint8_t *ck, size_t n)
{
	double t0 = restore_cpu_s();
	dalic_pipeline_t *p = restore_load(script, list);
	if (ck)
		BENCH_CHECK(dalic_pipeline_set_checkpoint(p, ck, n, "bench"));
	BENCH_CHECK(dalic_pipeline_build(p));
	double t = restore_cpu_s() - t0;
	dalic_pipeline_destroy(p);
	return t;
}

static int restore_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s SCRIPT FILE_LIST [R]\n", argv[0]);
		return 2;
	}
	int rounds = argc > 3 ? atoi(argv[3]) : 5;
	if (rounds < 1 || rounds > 99)
		rounds = 5;
	const long epochs[] = {1, 100, 10000, 100000};
	printf("restore CPU time (build with the checkpoint - build without), median of %d:\n",
	       rounds);
	for (size_t e = 0; e < sizeof epochs / sizeof *epochs; e++) {
		long iters = (epochs[e] * 132 + 63) / 64 + 1; /* a few samples into the epoch */
		dalic_pipeline_t *p = restore_load(argv[1], argv[2]);
		BENCH_CHECK(dalic_pipeline_build(p));
		/* the picks a replay from the first epoch makes (the restore before) */
		double t0 = restore_cpu_s();
		BENCH_CHECK(dalic_pipeline_seek(p, iters, NULL));
		double t_replay = restore_cpu_s() - t0;
		uint8_t *ck = NULL;
		size_t n = 0;
		BENCH_CHECK(dalic_pipeline_checkpoint(p, &ck, &n));
		dalic_pipeline_destroy(p);
		double d[99];
		for (int r = 0; r < rounds; r++) {
			double with = restore_build_s(argv[1], argv[2], ck, n);
			double without = restore_build_s(argv[1], argv[2], NULL, 0);
			d[r] = with - without;
		}
		qsort(d, (size_t)rounds, sizeof *d, restore_cmp);
		printf("  epoch %6ld (iteration %7ld, %9ld samples in): restore %8.3f ms; "
		       "replaying the picks from the start: %9.3f ms\n",
		       epochs[e], iters, iters * 64, d[rounds / 2] * 1e3, t_replay * 1e3);
		free(ck);
	}
	return 0;
}
