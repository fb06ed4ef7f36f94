/* test-gpu: flip's kernel on the GPU against the CPU operator (the cases of test_cuda_flip). */
#include "tests/gpu/gpu_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/cuda/flip.cuh"

static int gpu_flip_case(const char *what, dalic_dtype_t dtype, const char *layout, int ndim, int n,
                         const int64_t *shapes, const int32_t flags[3][GPU_CHECK_MAX_SAMPLES])
{
	static const char *const names[] = {"horizontal", "vertical", "depthwise", NULL};
	gpu_check_batch_t in, out;
	dalic_pipeline_t *p = NULL;
	int bad = 1;
	memset(&out, 0, sizeof out);
	if (!gpu_check_batch_random(&in, dtype, ndim, n, shapes, 1000, 7u + (uint32_t)n))
		goto done;
	gpu_check_op_t op = {"flip", layout, names, flags, NULL, NULL};
	const dalic_batch_t *cpu = gpu_check_cpu(&op, &in, &p);
	if (!cpu || !gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	dalic_cu_flip_sample_t samples[GPU_CHECK_MAX_SAMPLES];
	for (int i = 0; i < n; i++) {
		double f[3] = {flags[0][i], flags[1][i], flags[2][i]};
		samples[i].in = (const uint8_t *)in.dev[i];
		samples[i].out = (uint8_t *)out.dev[i];
		dalic_flip_plan_make(&samples[i].plan, layout, ndim, in.shape[i],
		                     (int64_t)dalic_dtype_size(dtype), f);
	}
	dalic_cu_flip_params_t prm = {samples, NULL, n, 0};
	dalic_cu_flip_grid(&prm, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_flip_grid(&prm, blocks, prm.nblocks);
	bad = dalic_cu_flip_launch(&prm, 0) ? n : gpu_check_compare(what, cpu, &out);
	free(blocks);
done:
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_flip(void)
{
	const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 17, 300, 1, 64, 64, 4};
	const int32_t f1[3][GPU_CHECK_MAX_SAMPLES] = {
	    {1, 1, 0, 1, 1, 1}, {0, 1, 1, 1, 0, 1}, {0, 0, 0, 0, 1, 0}};
	const int64_t chw[] = {3, 31, 47, 1, 5, 1, 2, 129, 33};
	const int32_t f2[3][GPU_CHECK_MAX_SAMPLES] = {{1, 0, 0}, {1, 1, 0}, {0, 0, 0}};
	const int64_t dhwc[] = {5, 6, 7, 2, 3, 33, 9, 1};
	const int32_t f3[3][GPU_CHECK_MAX_SAMPLES] = {{0, 1}, {0, 1}, {1, 1}};
	return gpu_flip_case("flip HWC u8", DALIC_UINT8, "HWC", 3, 6, hwc, f1) +
	       gpu_flip_case("flip CHW float", DALIC_FLOAT, "CHW", 3, 3, chw, f2) +
	       gpu_flip_case("flip DHWC f64", DALIC_FLOAT64, "DHWC", 4, 2, dhwc, f3);
}
#else
int gpu_check_flip(void)
{
	return 0;
}
#endif
