/*
 * test-gpu: the colour kernels on the GPU against hsv, color_twist and brightness_contrast on
 * the CPU, byte for byte (the kernels round every product and sum as the CPU does: color_px.h).
 * Factors are given as scalar arguments here (the grid-runner test feeds them per sample).
 */
#include "tests/gpu/gpu_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/common/color.h"
#include "kernels/cuda/color.cuh"

/* One sample's factors: hsv (hue, saturation, value), color_twist (hue, saturation,
 * contrast, brightness) or brightness_contrast (brightness, brightness_shift, contrast). */
static int gpu_color_case(const char *what, const char *op, dalic_dtype_t it, dalic_dtype_t ot,
                          const float *f, double range)
{
	static const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 40, 70, 3};
	static const char *const hsv[] = {"hue", "saturation", "value", NULL};
	static const char *const twist[] = {"hue", "saturation", "contrast", "brightness", NULL};
	static const char *const bc[] = {"brightness", "brightness_shift", "contrast", NULL};
	const int n = 5;
	bool is_bc = !strcmp(op, "brightness_contrast"), is_hsv = !strcmp(op, "hsv");
	const char *const *names = is_bc ? bc : is_hsv ? hsv : twist;
	gpu_check_batch_t in, out;
	memset(&out, 0, sizeof out);
	dalic_pipeline_t *p = NULL;
	int bad = 1;
	dalic_op_t *o;
	if (!gpu_check_batch_random(&in, it, 3, n, hwc, range, 5u + (uint32_t)n))
		goto done;
	/* the CPU pipeline: factors as scalar arguments */
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = n;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.exec_pipelined = params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_op_t *src;
	size_t total = 0;
	for (int i = 0; i < n; i++)
		total += in.bytes[i];
	uint8_t *all = (uint8_t *)malloc(total ? total : 1), *q = all;
	for (int i = 0; i < n; i++) {
		memcpy(q, in.host[i], in.bytes[i]);
		q += in.bytes[i];
	}
	bool ok = dalic_pipeline_create(&params, &p) == DALIC_OK &&
	          dalic_pipeline_add_op(p, "external_source", "cpu", &src) == DALIC_OK &&
	          dalic_op_set_name(src, "in") == DALIC_OK &&
	          dalic_pipeline_add_op(p, op, "cpu", &o) == DALIC_OK &&
	          dalic_op_add_input(o, "in", NULL) == DALIC_OK &&
	          dalic_op_set_int(o, "dtype", ot) == DALIC_OK;
	for (int k = 0; ok && names[k]; k++)
		ok = dalic_op_set_float(o, names[k], f[k]) == DALIC_OK;
	ok = ok && dalic_pipeline_add_output(p, dalic_op_output(o, 0), NULL) == DALIC_OK &&
	     dalic_pipeline_feed_input(p, "in", it, 3, n, hwc, all, "HWC") == DALIC_OK &&
	     dalic_pipeline_run(p) == DALIC_OK;
	free(all);
	if (!ok) {
		fprintf(stderr, "test-gpu: %s: %s\n", what, dalic_last_error());
		goto done;
	}
	const dalic_batch_t *cpu = dalic_pipeline_output(p, 0);
	if (!gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	dalic_cu_color_sample_t s[GPU_CHECK_MAX_SAMPLES];
	memset(s, 0, sizeof s);
	for (int i = 0; i < n; i++) {
		s[i].in = in.dev[i];
		s[i].out = out.dev[i];
		s[i].it = it;
		s[i].ot = ot;
		s[i].items = (int64_t)(in.bytes[i] / dalic_dtype_size(it)) / (is_bc ? 1 : 3);
		if (is_bc)
			dalic_color_bc_coeffs(f[0], f[1], f[2], dalic_color_half_range(it),
			                      dalic_color_full_range(ot), &s[i].mul, &s[i].add);
		else if (is_hsv)
			dalic_color_twist_sample(it, f[0], f[1], f[2], 1, 1, s[i].m, &s[i].offset);
		else
			dalic_color_twist_sample(it, f[0], f[1], 1, f[3], f[2], s[i].m,
			                         &s[i].offset);
	}
	dalic_cu_color_params_t prm = {s, NULL, n, 0};
	dalic_cu_color_grid(&prm, NULL, 0);
	dalic_cu_block_t *blocks =
	    (dalic_cu_block_t *)calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_color_grid(&prm, blocks, prm.nblocks);
	int rc =
	    is_bc ? dalic_cu_color_muladd_launch(&prm, 0) : dalic_cu_color_twist_launch(&prm, 0);
	bad = rc ? n : gpu_check_compare(what, cpu, &out);
	free(blocks);
done:
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_color(void)
{
	static const float hsv[] = {45, 1.7f, 0.8f}, twist[] = {-30, 0.6f, 1.4f, 1.1f},
	                   bc[] = {1.5f, 0.1f, 0.7f};
	return gpu_color_case("hsv u8 -> u8", "hsv", DALIC_UINT8, DALIC_UINT8, hsv, 255) +
	       gpu_color_case("hsv f16 -> i16", "hsv", DALIC_FLOAT16, DALIC_INT16, hsv, 2) +
	       gpu_color_case("color_twist f32 -> u8", "color_twist", DALIC_FLOAT, DALIC_UINT8,
	                      twist, 300) +
	       gpu_color_case("brightness_contrast u8 -> f32", "brightness_contrast", DALIC_UINT8,
	                      DALIC_FLOAT, bc, 255) +
	       gpu_color_case("brightness_contrast i32 -> i16", "brightness_contrast", DALIC_INT32,
	                      DALIC_INT16, bc, 0);
}
#else
int gpu_check_color(void)
{
	return 0;
}
#endif
