/*
 * The image pipeline the stats benchmarks measure: readers.file over samples/images ->
 * decoders.image -> resize 256x256 -> crop_mirror_normalize 224x224 float, all on the cpu.
 * Exits with the message on any failure (benchmarks, not library code).
 */
#ifndef DALIC_BENCH_STATS_PIPELINE_H
#define DALIC_BENCH_STATS_PIPELINE_H

#include "dalic.h"
#include "bench/bench.h"

#include <stdio.h>
#include <stdlib.h>

static inline dalic_pipeline_t *bench_image_pipeline(int batch, int threads, bool pipelined,
                                                     bool async, bool memory_stats)
{
	dalic_pipeline_params_t prm;
	dalic_pipeline_params_init(&prm);
	prm.batch_size = batch;
	prm.num_threads = threads;
	prm.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	prm.seed = 1234;
	prm.exec_pipelined = pipelined;
	prm.exec_async = async;
	prm.enable_memory_stats = memory_stats;
	dalic_pipeline_t *p;
	dalic_op_t *rd, *dec, *rs, *cmn;
	BENCH_CHECK(dalic_pipeline_create(&prm, &p));
	BENCH_CHECK(dalic_pipeline_add_op(p, "readers.file", "cpu", &rd));
	BENCH_CHECK(dalic_op_set_string(rd, "file_root", "samples/images"));
	BENCH_CHECK(dalic_op_set_bool(rd, "random_shuffle", true));
	BENCH_CHECK(dalic_pipeline_add_op(p, "decoders.image", "cpu", &dec));
	BENCH_CHECK(dalic_op_add_input(dec, dalic_op_output(rd, 0), NULL));
	BENCH_CHECK(dalic_op_set_int(dec, "output_type", DALIC_RGB));
	BENCH_CHECK(dalic_pipeline_add_op(p, "resize", "cpu", &rs));
	BENCH_CHECK(dalic_op_add_input(rs, dalic_op_output(dec, 0), NULL));
	BENCH_CHECK(dalic_op_set_float(rs, "resize_x", 256));
	BENCH_CHECK(dalic_op_set_float(rs, "resize_y", 256));
	BENCH_CHECK(dalic_pipeline_add_op(p, "crop_mirror_normalize", "cpu", &cmn));
	BENCH_CHECK(dalic_op_add_input(cmn, dalic_op_output(rs, 0), NULL));
	const double crop[2] = {224, 224};
	BENCH_CHECK(dalic_op_set_floats(cmn, "crop", 2, crop));
	BENCH_CHECK(dalic_op_set_int(cmn, "dtype", DALIC_FLOAT));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(cmn, 0), NULL));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(rd, 1), NULL));
	return p;
}

#endif
