/* The ResNet-50-style CPU pipeline the benchmarks share (issue 3): readers.file (shuffled) ->
 * decoders.image_random_crop -> resize 224x224 -> crop_mirror_normalize (FLOAT, CHW, ImageNet
 * mean/std, mirror from coin_flip); outputs the images and the labels. Public API only. */
#ifndef DALIC_BENCH_RN50_PIPELINE_H
#define DALIC_BENCH_RN50_PIPELINE_H

#include "bench/bench.h"

static inline dalic_pipeline_t *bench_rn50_pipeline(const dalic_pipeline_params_t *pp,
						    const char *list)
{
	dalic_pipeline_t *p;
	BENCH_CHECK(dalic_pipeline_create(pp, &p));
	dalic_op_t *rd, *dec, *rs, *coin, *cmn;
	BENCH_CHECK(dalic_pipeline_add_op(p, "readers.file", "cpu", &rd));
	BENCH_CHECK(dalic_op_set_string(rd, "file_list", list));
	BENCH_CHECK(dalic_op_set_bool(rd, "random_shuffle", true));
	BENCH_CHECK(dalic_pipeline_add_op(p, "decoders.image_random_crop", "cpu", &dec));
	BENCH_CHECK(dalic_op_add_input(dec, dalic_op_output(rd, 0), NULL));
	BENCH_CHECK(dalic_pipeline_add_op(p, "resize", "cpu", &rs));
	BENCH_CHECK(dalic_op_add_input(rs, dalic_op_output(dec, 0), NULL));
	BENCH_CHECK(dalic_op_set_float(rs, "resize_x", 224));
	BENCH_CHECK(dalic_op_set_float(rs, "resize_y", 224));
	BENCH_CHECK(dalic_pipeline_add_op(p, "random.coin_flip", "cpu", &coin));
	BENCH_CHECK(dalic_pipeline_add_op(p, "crop_mirror_normalize", "cpu", &cmn));
	BENCH_CHECK(dalic_op_add_input(cmn, dalic_op_output(rs, 0), NULL));
	BENCH_CHECK(dalic_op_set_arg_input(cmn, "mirror", dalic_op_output(coin, 0)));
	BENCH_CHECK(dalic_op_set_int(cmn, "dtype", DALIC_FLOAT));
	BENCH_CHECK(dalic_op_set_string(cmn, "output_layout", "CHW"));
	const double mean[3] = {0.485 * 255, 0.456 * 255, 0.406 * 255};
	const double std[3] = {0.229 * 255, 0.224 * 255, 0.225 * 255};
	BENCH_CHECK(dalic_op_set_floats(cmn, "mean", 3, mean));
	BENCH_CHECK(dalic_op_set_floats(cmn, "std", 3, std));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(cmn, 0), NULL));
	BENCH_CHECK(dalic_pipeline_add_output(p, dalic_op_output(rd, 1), NULL));
	return p;
}

#endif
