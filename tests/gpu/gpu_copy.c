/* test-gpu: the copy kernel on the GPU against the CPU copy operator (test_cuda_copy's case). */
#include "tests/gpu/gpu_check.h"

#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/cuda/copy.cuh"

int gpu_check_copy(void)
{
	const int64_t shapes[] = {1, 3, 0, 5, 37, 41, 129, 64, 17, 2049};
	gpu_check_batch_t in, out;
	dalic_pipeline_t *p = NULL;
	int bad = 1;
	memset(&out, 0, sizeof out);
	if (!gpu_check_batch_random(&in, DALIC_INT16, 2, 5, shapes, 0, 11))
		goto done;
	gpu_check_op_t op = {"copy", "AB", NULL, NULL, NULL, NULL};
	const dalic_batch_t *cpu = gpu_check_cpu(&op, &in, &p);
	if (!cpu || !gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	dalic_cu_copy_sample_t s[5];
	for (int i = 0; i < 5; i++) {
		s[i].in = (const uint8_t *)in.dev[i];
		s[i].out = (uint8_t *)out.dev[i];
		s[i].bytes = (int64_t)in.bytes[i];
	}
	dalic_cu_copy_params_t prm = {s, NULL, 5, 0};
	dalic_cu_copy_grid(&prm, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_copy_grid(&prm, blocks, prm.nblocks);
	bad = dalic_cu_copy_launch(&prm, 0) ? 5 : gpu_check_compare("copy", cpu, &out);
	free(blocks);
done:
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}
#else
int gpu_check_copy(void)
{
	return 0;
}
#endif
