/*
 * test-gpu: the displacement kernel on the GPU against water and sphere on the CPU, byte for
 * byte (the sample points and the sampling are displace_px.h's, every step rounded as on the
 * CPU; water's sines and cosines are the host's). Every sample enabled here (the grid-runner
 * test feeds a per-sample mask).
 */
#include "tests/gpu/gpu_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/common/displace.h"
#include "kernels/cuda/displace.cuh"

#include <cuda_runtime_api.h>

/* The CPU pipeline: "in" -> op (interp_type, fill_value and water's arguments) -> output. */
static bool gpu_displace_pipeline(const char *op, const gpu_check_batch_t *in, bool linear,
                                  double fill, const dalic_displace_water_t *wa,
                                  dalic_pipeline_t **pp)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = in->n;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.exec_pipelined = params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_op_t *src, *o;
	bool ok = dalic_pipeline_create(&params, pp) == DALIC_OK &&
	          dalic_pipeline_add_op(*pp, "external_source", "cpu", &src) == DALIC_OK &&
	          dalic_op_set_name(src, "in") == DALIC_OK &&
	          dalic_pipeline_add_op(*pp, op, "cpu", &o) == DALIC_OK &&
	          dalic_op_add_input(o, "in", NULL) == DALIC_OK &&
	          dalic_op_set_int(o, "interp_type",
	                           linear ? DALIC_INTERP_LINEAR : DALIC_INTERP_NN) == DALIC_OK &&
	          dalic_op_set_float(o, "fill_value", fill) == DALIC_OK;
	if (ok && wa) {
		const char *args[] = {"ampl_x", "ampl_y", "freq_x", "freq_y", "phase_x", "phase_y"};
		const float v[] = {wa->ax, wa->ay, wa->fx, wa->fy, wa->phx, wa->phy};
		for (int k = 0; ok && k < 6; k++)
			ok = dalic_op_set_float(o, args[k], v[k]) == DALIC_OK;
	}
	size_t total = 0;
	int64_t shapes[GPU_CHECK_MAX_SAMPLES * 3];
	for (int i = 0; i < in->n; i++) {
		total += in->bytes[i];
		for (int d = 0; d < 3; d++)
			shapes[i * 3 + d] = in->shape[i][d];
	}
	uint8_t *all = (uint8_t *)malloc(total ? total : 1), *q = all;
	for (int i = 0; i < in->n; i++) {
		memcpy(q, in->host[i], in->bytes[i]);
		q += in->bytes[i];
	}
	ok = ok && dalic_pipeline_add_output(*pp, dalic_op_output(o, 0), NULL) == DALIC_OK &&
	     dalic_pipeline_feed_input(*pp, "in", in->dtype, 3, in->n, shapes, all, "HWC") ==
	         DALIC_OK &&
	     dalic_pipeline_run(*pp) == DALIC_OK;
	free(all);
	return ok;
}

/* Uploads n floats; NULL on failure (after a message). */
static float *gpu_displace_upload(const float *host, int64_t n)
{
	void *dev = NULL;
	size_t bytes = sizeof(float) * (size_t)(n ? n : 1);
	if (cudaMalloc(&dev, bytes) != cudaSuccess ||
	    cudaMemcpy(dev, host, sizeof(float) * (size_t)n, cudaMemcpyHostToDevice) !=
	        cudaSuccess) {
		fprintf(stderr, "test-gpu: displace: cannot upload the water shifts\n");
		cudaFree(dev);
		return NULL;
	}
	return (float *)dev;
}

static int gpu_displace_case(const char *what, const char *op, dalic_dtype_t dtype, bool linear,
                             double fill, const dalic_displace_water_t *wa)
{
	static const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 300, 3, 0, 5, 3, 40, 70, 1};
	const int n = 5;
	gpu_check_batch_t in, out;
	memset(&out, 0, sizeof out);
	dalic_pipeline_t *p = NULL;
	dalic_cu_displace_sample_t s[GPU_CHECK_MAX_SAMPLES];
	memset(s, 0, sizeof s);
	int bad = 1;
	if (!gpu_check_batch_random(&in, dtype, 3, n, hwc, 300, 7u))
		goto done;
	if (!gpu_displace_pipeline(op, &in, linear, fill, wa, &p)) {
		fprintf(stderr, "test-gpu: %s: %s\n", what, dalic_last_error());
		goto done;
	}
	const dalic_batch_t *cpu = dalic_pipeline_output(p, 0);
	if (!gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	for (int i = 0; i < n; i++) {
		dalic_displace_img_t *g = &s[i].img;
		g->in = in.dev[i];
		g->out = out.dev[i];
		g->dtype = dtype;
		g->h = in.shape[i][0];
		g->w = in.shape[i][1];
		g->c = in.shape[i][2];
		g->linear = linear;
		g->fill = dalic_displace_fill(dtype, fill);
		s[i].kind = wa ? DALIC_CU_DISPLACE_WATER : DALIC_CU_DISPLACE_SPHERE;
		if (wa) {
			float *dx = (float *)calloc((size_t)g->h + 1, sizeof(float));
			float *dy = (float *)calloc((size_t)g->w + 1, sizeof(float));
			for (int64_t y = 0; y < g->h; y++)
				dx[y] = dalic_displace_water_dx(wa, y);
			for (int64_t x = 0; x < g->w; x++)
				dy[x] = dalic_displace_water_dy(wa, x);
			s[i].dx = gpu_displace_upload(dx, g->h);
			s[i].dy = gpu_displace_upload(dy, g->w);
			free(dx);
			free(dy);
			if (!s[i].dx || !s[i].dy)
				goto done;
		}
	}
	dalic_cu_displace_params_t prm = {s, NULL, n, 0};
	dalic_cu_displace_grid(&prm, NULL, 0);
	dalic_cu_block_t *blocks =
	    (dalic_cu_block_t *)calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_displace_grid(&prm, blocks, prm.nblocks);
	bad = dalic_cu_displace_launch(&prm, 0) ? n : gpu_check_compare(what, cpu, &out);
	free(blocks);
done:
	for (int i = 0; i < n; i++) {
		cudaFree((void *)s[i].dx);
		cudaFree((void *)s[i].dy);
	}
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_displace(void)
{
	const dalic_displace_water_t wa = {10, 6.5f, 0.049f, 0.13f, 0.3f, -1.2f};
	return gpu_displace_case("water u8 linear", "water", DALIC_UINT8, true, 77.9, &wa) +
	       gpu_displace_case("water f32 NN", "water", DALIC_FLOAT, false, -3.25, &wa) +
	       gpu_displace_case("sphere u8 NN", "sphere", DALIC_UINT8, false, 9.7, NULL) +
	       gpu_displace_case("sphere f32 linear", "sphere", DALIC_FLOAT, true, 0.5, NULL);
}
#else
int gpu_check_displace(void)
{
	return 0;
}
#endif
