/* test-gpu: transpose's kernel on the GPU against the CPU operator (test_cuda_transpose's
 * cases). */
#include "tests/gpu/gpu_check.h"

#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/cuda/transpose.cuh"

static int gpu_transpose_case(const char *what, dalic_dtype_t dtype, int ndim, int n,
                              const int64_t *shapes, const int *perm)
{
	gpu_check_batch_t in, out;
	dalic_pipeline_t *p = NULL;
	int bad = 1;
	memset(&out, 0, sizeof out);
	if (!gpu_check_batch_random(&in, dtype, ndim, n, shapes, 1000, 5u + (uint32_t)ndim))
		goto done;
	gpu_check_op_t op = {"transpose", NULL, NULL, NULL, NULL, NULL};
	const dalic_batch_t *cpu = gpu_check_cpu(&op, &in, &p);
	if (!cpu || !gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	dalic_cu_transpose_sample_t s[GPU_CHECK_MAX_SAMPLES];
	for (int i = 0; i < n; i++) {
		s[i].in = (const uint8_t *)in.dev[i];
		s[i].out = (uint8_t *)out.dev[i];
		dalic_transpose_plan_make(&s[i].plan, ndim, in.shape[i], perm);
	}
	dalic_cu_transpose_params_t prm = {s, NULL, n, 0, (int64_t)dalic_dtype_size(dtype)};
	dalic_cu_transpose_grid(&prm, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_transpose_grid(&prm, blocks, prm.nblocks);
	bad = dalic_cu_transpose_launch(&prm, 0) ? n : gpu_check_compare(what, cpu, &out);
	free(blocks);
done:
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}

/* The operator's default permutation (the dims reversed): gpu_check_op_t sets no lists. */
int gpu_check_transpose(void)
{
	const int64_t hwc[] = {31, 47, 3, 1, 1, 3, 0, 4, 3, 65, 33, 4};
	const int rev3[] = {2, 1, 0};
	const int64_t four[] = {2, 3, 17, 5, 1, 9, 1, 7, 4, 1, 33, 2};
	const int rev4[] = {3, 2, 1, 0};
	return gpu_transpose_case("transpose 3-D u8", DALIC_UINT8, 3, 4, hwc, rev3) +
	       gpu_transpose_case("transpose 4-D f64", DALIC_FLOAT64, 4, 3, four, rev4);
}
#else
int gpu_check_transpose(void)
{
	return 0;
}
#endif
