/*
 * test-gpu: the slice / crop kernel on the GPU against slice and crop on the CPU, byte for
 * byte (a cross-section of test_cuda_slice's cases; tests/testlib/cuda_slice.h builds the
 * plans for both). The kernel only indexes, copies and converts (no float arithmetic that
 * nvcc could contract), so the outputs must be the CPU's bit for bit.
 */
#include "tests/gpu/gpu_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/cuda/slice.cuh"
#include "tests/testlib/cuda_slice.h"

#include <cuda_runtime_api.h>

static int gpu_slice_set_args(dalic_op_t *op, const void *ctx)
{
	return tl_cu_slice_set_args(op, (const tl_cu_slice_case_t *)ctx);
}

static int gpu_slice_case(const tl_cu_slice_case_t *c)
{
	static _Alignas(8) uint8_t fill[GPU_CHECK_MAX_SAMPLES][TL_CU_SLICE_MAX_FILL * 8];
	void *dev_fill[GPU_CHECK_MAX_SAMPLES] = {NULL};
	gpu_check_batch_t in, out;
	dalic_pipeline_t *p = NULL;
	dalic_cu_block_t *blocks = NULL;
	int bad = c->n;
	memset(&out, 0, sizeof out);
	double range = c->in_type == DALIC_FLOAT || c->in_type == DALIC_FLOAT16 ? 400 : 1000;
	if (!gpu_check_batch_random(&in, c->in_type, c->ndim, c->n, c->shapes, range,
	                            5u + (uint32_t)c->n))
		goto done;
	gpu_check_op_t op = {c->op, c->layout, NULL, NULL, NULL, NULL, gpu_slice_set_args, c};
	const dalic_batch_t *cpu = gpu_check_cpu(&op, &in, &p);
	if (!cpu || !gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	dalic_cu_slice_sample_t samples[GPU_CHECK_MAX_SAMPLES];
	for (int i = 0; i < c->n; i++) {
		tl_cu_slice_plan(c, i, &samples[i].plan, fill[i]);
		if (cudaMalloc(&dev_fill[i], sizeof fill[i]) != cudaSuccess ||
		    cudaMemcpy(dev_fill[i], fill[i], sizeof fill[i], cudaMemcpyHostToDevice) !=
		        cudaSuccess) {
			fprintf(stderr, "test-gpu: %s: fill values not uploaded\n", c->what);
			goto done;
		}
		samples[i].in = in.dev[i];
		samples[i].out = out.dev[i];
		samples[i].fill = dev_fill[i];
	}
	dalic_cu_slice_params_t prm = {samples, NULL, c->n, 0};
	dalic_cu_slice_grid(&prm, NULL, 0);
	blocks = (dalic_cu_block_t *)calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_slice_grid(&prm, blocks, prm.nblocks);
	bad = dalic_cu_slice_launch(&prm, 0) ? c->n : gpu_check_compare(c->what, cpu, &out);
done:
	free(blocks);
	for (int i = 0; i < c->n; i++)
		if (dev_fill[i])
			cudaFree(dev_fill[i]);
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_slice(void)
{
	static const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 17, 300, 3, 64, 64, 3};
	static const int64_t axes[] = {0, 1}, start[] = {-3, 5}, ext[] = {20, 70};
	static const double fill3[] = {7.5, -1, 300.7}, fill1[] = {-3.7};
	static const int64_t chw[] = {3, 31, 47, 3, 5, 1, 3, 129, 33, 3, 2, 600};
	static const int64_t cax[] = {1, 2}, cst[] = {-2, 10}, cex[] = {30, 500};
	const tl_cu_slice_case_t cases[] = {
	    {"slice HWC u8 pad", "slice", DALIC_UINT8, DALIC_NO_TYPE, "HWC", 3, 6, hwc, "pad", 3,
	     fill3, 2, axes, start, ext, 0, 0, 0, 0},
	    {"slice HWC f32->u8 pad", "slice", DALIC_FLOAT, DALIC_UINT8, "HWC", 3, 6, hwc, "pad", 1,
	     fill1, 2, axes, start, ext, 0, 0, 0, 0},
	    {"slice HWC i16->f16 reflect_101", "slice", DALIC_INT16, DALIC_FLOAT16, "HWC", 3, 5,
	     hwc, "reflect_101", 0, NULL, 2, axes, start, ext, 0, 0, 0, 0},
	    {"slice CHW i32 trim", "slice", DALIC_INT32, DALIC_NO_TYPE, "CHW", 3, 4, chw,
	     "trim_to_shape", 0, NULL, 2, cax, cst, cex, 0, 0, 0, 0},
	    {"crop HWC u8 pad", "crop", DALIC_UINT8, DALIC_NO_TYPE, "HWC", 3, 6, hwc, "pad", 3,
	     fill3, 0, NULL, NULL, NULL, 21, 70, 0.25, 0.8},
	    {"crop HWC u8->f32 pad", "crop", DALIC_UINT8, DALIC_FLOAT, "HWC", 3, 6, hwc, "pad", 1,
	     fill1, 0, NULL, NULL, NULL, 50, 9, 0.6, 0.4},
	    {"crop CHW f32->u8 pad", "crop", DALIC_FLOAT, DALIC_UINT8, "CHW", 3, 4, chw, "pad", 1,
	     fill1, 0, NULL, NULL, NULL, 20, 40, 0.5, 0.5},
	};
	int bad = 0;
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
		bad += gpu_slice_case(&cases[k]);
	return bad;
}
#else
int gpu_check_slice(void)
{
	return 0;
}
#endif
