/*
 * Debug mode's slowdown against the full engine on the image pipeline, measured in one
 * process: readers.file over samples/images -> decoders.image (cpu, RGB), batch B, T threads.
 * dalic_debug_measure() runs the same definition eagerly (inspection idle) and with the full
 * engine, alternating, and keeps the faster run of each. Prints one `key: value` block.
 *
 *   debug_slowdown [iterations [batch [threads [rounds]]]]
 */
#include "dalic.h"
#include "bench/bench.h"
#include "dalic_debug.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int iterations = argc > 1 ? atoi(argv[1]) : 30;
	int batch = argc > 2 ? atoi(argv[2]) : 12;
	int threads = argc > 3 ? atoi(argv[3]) : 2;
	int rounds = argc > 4 ? atoi(argv[4]) : 3;
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = batch;
	params.num_threads = threads;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = 1234;
	dalic_pipeline_t *p;
	dalic_op_t *reader, *decode;
	BENCH_CHECK(dalic_pipeline_create(&params, &p));
	BENCH_CHECK(dalic_pipeline_add_op(p, "readers.file", "cpu", &reader));
	BENCH_CHECK(dalic_op_set_string(reader, "file_root", "samples/images"));
	BENCH_CHECK(dalic_op_set_bool(reader, "random_shuffle", true));
	BENCH_CHECK(dalic_pipeline_add_op(p, "decoders.image", "cpu", &decode));
	BENCH_CHECK(dalic_op_add_input(decode, dalic_op_output(reader, 0), NULL));
	BENCH_CHECK(dalic_op_set_int(decode, "output_type", DALIC_RGB));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(decode, 0), NULL));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(reader, 1), NULL));
	dalic_debug_t *s;
	BENCH_CHECK(dalic_debug_open(p, &s));
	double worst = 0, best = 1e9, sum = 0;
	dalic_debug_perf_t perf = {0};
	for (int r = 0; r < rounds; r++) {
		BENCH_CHECK(dalic_debug_measure(s, iterations, &perf));
		printf("round %d: full_engine_seconds %.4f debug_seconds %.4f slowdown %.3f\n", r,
		       perf.full_seconds, perf.debug_seconds, perf.slowdown);
		sum += perf.slowdown;
		worst = perf.slowdown > worst ? perf.slowdown : worst;
		best = perf.slowdown < best ? perf.slowdown : best;
	}
	printf("pipeline: readers.file(samples/images) -> decoders.image(cpu, RGB)\n");
	printf("batch_size: %d\nnum_threads: %d\niterations: %lld\n", batch, threads,
	       (long long)perf.iterations);
	printf("slowdown_mean: %.3f\nslowdown_min: %.3f\nslowdown_max: %.3f\n", sum / rounds, best,
	       worst);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
	return 0;
}
