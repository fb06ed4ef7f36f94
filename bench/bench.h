/* What every benchmark program shares: stop on a failed call (with dalic's message), and the
 * library's one monotonic clock in seconds. Benchmarks use the public API only. */
#ifndef DALIC_BENCH_BENCH_H
#define DALIC_BENCH_BENCH_H

#include "dalic.h"

#include <stdio.h>
#include <stdlib.h>

#define BENCH_CHECK(x)                                                                             \
	do {                                                                                       \
		if ((x)) {                                                                         \
			fprintf(stderr, "bench: %s: %s\n", #x, dalic_last_error());                \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static inline double bench_now_s(void)
{
	return (double)dalic_clock_ns() * 1e-9;
}

/* CPU-only, seed 1, synchronous with queues of one: nothing runs in the background while a
 * benchmark times its decode-only reference rounds. */
static inline dalic_pipeline_params_t bench_sync_params(int batch_size, int num_threads)
{
	dalic_pipeline_params_t pp;
	dalic_pipeline_params_init(&pp);
	pp.batch_size = batch_size;
	pp.num_threads = num_threads;
	pp.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	pp.seed = 1;
	pp.exec_pipelined = false;
	pp.exec_async = false;
	pp.prefetch_cpu = pp.prefetch_gpu = 1;
	return pp;
}

#endif
