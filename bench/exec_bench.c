/*
 * Executor benchmarks. Each prints its figures and a ratio to a reference measured in the
 * same run (never an absolute pass/fail: the machine is shared and noisy, so every setting
 * is measured `reps` times, interleaved, and the best run is kept).
 *
 *   exec_bench overhead [iters]   the @arith pipeline (uniform -> x*2 -> + coin_flip ->
 *                                 cast; batch 32 of scalars): iterations/s and us/iteration
 *                                 of each executor mode; ratio async pipelined / simple
 *   exec_bench scaling [iters]    readers.file(samples/images) -> decoders.image -> resize
 *                                 224x224, batch 8, async: images/s with 1 and 2 threads
 *   exec_bench overlap [iters]    a cpu operator (busy work on the pool) and a "gpu"
 *                                 operator (device-like: per batch, on its stage thread)
 *                                 calibrated to the same cost: async pipelined / simple
 *
 * Run from the repository root (sample images are read from samples/images).
 */
#include "dalic.h"
#include "bench/bench.h"
#include "engine/pipeline.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct mode {
	const char *name;
	bool pipelined, async, separated;
} mode_t_;

static const mode_t_ modes[] = {
	{"simple", false, false, false},
	{"pipelined", true, false, false},
	{"async pipelined", true, true, false},
	{"async separated", true, true, true},
};

static dalic_pipeline_params_t params_for(const mode_t_ *m, int batch, int threads)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	p.batch_size = batch;
	p.num_threads = threads;
	p.seed = 1;
	p.exec_pipelined = m->pipelined;
	p.exec_async = m->async;
	p.separated_queues = m->separated;
	p.prefetch_cpu = m->separated ? 3 : 2;
	p.prefetch_gpu = 2;
	return p;
}

/* The @arith sample of `dalic run`: three arithmetic operators on 32 scalars. */
static void define_arith(dalic_pipeline_t *p)
{
	dalic_op_t *x, *c, *mul, *add, *cast;
	BENCH_CHECK(dalic_pipeline_add_op(p, "random.uniform", NULL, &x));
	BENCH_CHECK(dalic_op_set_floats(x, "range", 2, (const double[]){0, 10}));
	BENCH_CHECK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c));
	BENCH_CHECK(dalic_pipeline_add_op(p, "ArithmeticGenericOp", NULL, &mul));
	BENCH_CHECK(dalic_op_add_input(mul, dalic_op_output(x, 0), NULL));
	BENCH_CHECK(dalic_op_set_string(mul, "expression_desc", "mul(&0 $0:float32)"));
	BENCH_CHECK(dalic_op_set_floats(mul, "real_constants", 1, (const double[]){2}));
	BENCH_CHECK(dalic_pipeline_add_op(p, "ArithmeticGenericOp", NULL, &add));
	BENCH_CHECK(dalic_op_add_input(add, dalic_op_output(mul, 0), NULL));
	BENCH_CHECK(dalic_op_add_input(add, dalic_op_output(c, 0), NULL));
	BENCH_CHECK(dalic_op_set_string(add, "expression_desc", "add(&0 &1)"));
	BENCH_CHECK(dalic_pipeline_add_op(p, "cast", NULL, &cast));
	BENCH_CHECK(dalic_op_add_input(cast, dalic_op_output(add, 0), NULL));
	BENCH_CHECK(dalic_op_set_int(cast, "dtype", DALIC_INT32));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(x, 0), NULL));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(cast, 0), NULL));
}

static void define_images(dalic_pipeline_t *p)
{
	dalic_op_t *rd, *dec, *rs;
	BENCH_CHECK(dalic_pipeline_add_op(p, "readers.file", NULL, &rd));
	BENCH_CHECK(dalic_op_set_string(rd, "file_root", "samples/images"));
	BENCH_CHECK(dalic_pipeline_add_op(p, "decoders.image", "cpu", &dec));
	BENCH_CHECK(dalic_op_add_input(dec, dalic_op_output(rd, 0), NULL));
	BENCH_CHECK(dalic_pipeline_add_op(p, "resize", NULL, &rs));
	BENCH_CHECK(dalic_op_add_input(rs, dalic_op_output(dec, 0), NULL));
	BENCH_CHECK(dalic_op_set_float(rs, "resize_x", 224));
	BENCH_CHECK(dalic_op_set_float(rs, "resize_y", 224));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(rs, 0), NULL));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(rd, 1), NULL));
}

/* cpu: 8 x 400 us of busy work on the pool; gpu: _test__SleepBatch on the gpu stage thread,
 * device-like (one launch and one wait per batch, not computing), 8 x g_gpu_us —
 * calibrated to the cpu op's measured time in the same run, so the two stages cost the same
 * on this machine today. */
static int g_gpu_us;

static dalic_op_t *overlap_cpu(dalic_pipeline_t *p)
{
	dalic_op_t *cpu;
	BENCH_CHECK(dalic_pipeline_add_op(p, "_test__Sleep", "cpu", &cpu));
	BENCH_CHECK(dalic_op_set_string(cpu, "output", "value"));
	BENCH_CHECK(dalic_op_set_int(cpu, "sleep_us", 400));
	BENCH_CHECK(dalic_op_set_bool(cpu, "busy", true));
	return cpu;
}

static void define_cpu_only(dalic_pipeline_t *p)
{
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(overlap_cpu(p), 0), NULL));
}

static void define_overlap(dalic_pipeline_t *p)
{
	dalic_op_t *cpu = overlap_cpu(p), *gpu;
	BENCH_CHECK(dalic_pipeline_add_op(p, "_test__SleepBatch", "gpu", &gpu));
	BENCH_CHECK(dalic_op_add_input(gpu, dalic_op_output(cpu, 0), "gpu"));
	BENCH_CHECK(dalic_op_set_int(gpu, "sleep_us", g_gpu_us));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(gpu, 0), NULL));
}

typedef void (*define_fn)(dalic_pipeline_t *);

/* Iterations per second of `iters` runs after a warm-up (the first run fills the queue). */
static double measure(define_fn define, const mode_t_ *m, int batch, int threads, int iters)
{
	dalic_pipeline_params_t params = params_for(m, batch, threads);
	dalic_pipeline_t *p;
	BENCH_CHECK(dalic_pipeline_create(&params, &p));
	define(p);
	BENCH_CHECK(dalic_pipeline_build(p));
	for (int i = 0; i < iters / 10 + 3; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	double t0 = bench_now_s();
	for (int i = 0; i < iters; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	double t = bench_now_s() - t0;
	dalic_pipeline_destroy(p);
	return iters / t;
}

/* Best of `reps` interleaved measurements for each of n settings. */
static void best_of(int reps, int n, double *best, double (*one)(int setting, void *), void *arg)
{
	for (int i = 0; i < n; i++)
		best[i] = 0;
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < n; i++) {
			double v = one(i, arg);
			if (v > best[i])
				best[i] = v;
		}
}

static int g_iters;

static double overhead_one(int i, void *arg)
{
	return measure(define_arith, &modes[i], 32, 2, g_iters);
}

static int bench_overhead(int iters)
{
	g_iters = iters;
	double best[4];
	best_of(5, 4, best, overhead_one, NULL);
	printf("executor overhead: @arith (uniform -> x*2 -> + coin_flip -> cast), batch 32 of "
	       "scalars, 2 threads, %d iterations, best of 5\n",
	       iters);
	for (int i = 0; i < 4; i++)
		printf("  %-16s %9.0f it/s  %7.1f us/it\n", modes[i].name, best[i], 1e6 / best[i]);
	printf("  ratio async pipelined / simple: %.2fx\n", best[2] / best[0]);
	return 0;
}

static double scaling_one(int i, void *arg)
{
	return measure(define_images, &modes[2], 8, i + 1, g_iters) * 8;
}

/* Per-sample work (pool chunks) vs everything else, with one thread: what two threads can
 * speed up at best (Amdahl), so the measured ratio can be read against it. */
static _Atomic int64_t chunk_ns;

static void count_chunk(void *user, const dalic_node_t *n, int64_t it, int thread, int first,
			int count, int64_t t0, int64_t t1, int64_t cpu_ns)
{
	atomic_fetch_add(&chunk_ns, t1 - t0);
}

static double parallel_share(int iters)
{
	dalic_pipeline_params_t params = params_for(&modes[0], 8, 1);
	dalic_pipeline_t *p;
	BENCH_CHECK(dalic_pipeline_create(&params, &p));
	define_images(p);
	BENCH_CHECK(dalic_pipeline_build(p));
	for (int i = 0; i < 3; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	dalic_observer_t obs = {.work_chunk = count_chunk};
	dalic_pipeline_set_observer(p, &obs);
	atomic_store(&chunk_ns, 0);
	double t0 = bench_now_s();
	for (int i = 0; i < iters; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	double wall = bench_now_s() - t0;
	dalic_pipeline_destroy(p);
	return (double)atomic_load(&chunk_ns) * 1e-9 / wall;
}

static int bench_scaling(int iters)
{
	g_iters = iters;
	double best[2];
	best_of(5, 2, best, scaling_one, NULL);
	double par = parallel_share(iters);
	printf("scaling: readers.file(samples/images) -> decoders.image -> resize 224x224, batch "
	       "8, async pipelined, %d iterations, best of 5\n",
	       iters);
	printf("  1 thread   %7.1f images/s\n  2 threads  %7.1f images/s\n", best[0], best[1]);
	printf("  ratio 2 threads / 1 thread: %.2fx (target >= 1.8x)\n", best[1] / best[0]);
	printf("  per-sample (parallel) share of one-thread time: %.0f%% -> at most %.2fx with 2 "
	       "threads\n",
	       par * 100, 1 / (1 - par / 2));
	return 0;
}

static double overlap_one(int i, void *arg)
{
	return measure(define_overlap, &modes[i == 0 ? 0 : 2], 8, 2, g_iters);
}

static int bench_overlap(int iters)
{
	g_iters = iters;
	double cpu_its = 0;
	for (int r = 0; r < 3; r++) { /* best of 3: the machine is shared */
		double v = measure(define_cpu_only, &modes[0], 8, 2, iters);
		cpu_its = v > cpu_its ? v : cpu_its;
	}
	g_gpu_us = (int)(1e6 / cpu_its / 8);
	double best[2];
	best_of(5, 2, best, overlap_one, NULL);
	printf("overlap: cpu op (8 x 400 us busy work, pool of 2 threads: %.2f ms/it measured) + "
	       "gpu op (device-like: one wait of 8 x %d us per batch), batch 8, %d iterations, best "
	       "of 5\n",
	       1e3 / cpu_its, g_gpu_us, iters);
	printf("  simple           %7.1f it/s  %7.2f ms/it\n", best[0], 1e3 / best[0]);
	printf("  async pipelined  %7.1f it/s  %7.2f ms/it\n", best[1], 1e3 / best[1]);
	printf("  ratio async pipelined / simple: %.2fx (target >= 1.6x)\n", best[1] / best[0]);
	return 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	int iters = argc > 2 ? atoi(argv[2]) : 0;
	if (!strcmp(what, "overhead"))
		return bench_overhead(iters > 0 ? iters : 3000);
	if (!strcmp(what, "scaling"))
		return bench_scaling(iters > 0 ? iters : 40);
	if (!strcmp(what, "overlap"))
		return bench_overlap(iters > 0 ? iters : 150);
	fprintf(stderr, "usage: exec_bench overhead|scaling|overlap [iterations]\n");
	return 2;
}
