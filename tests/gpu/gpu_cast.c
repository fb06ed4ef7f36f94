/* test-gpu: the cast kernel on the GPU against the CPU cast operator, every pair of dtypes
 * (test_cuda_cast's cases without the hand-placed edge values). */
#include "tests/gpu/gpu_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/cuda/cast.cuh"

static int gpu_cast_pair(dalic_dtype_t from, dalic_dtype_t to)
{
	const int64_t shapes[] = {7, 5, 1, 1, 0, 3, 45, 61};
	char what[64];
	snprintf(what, sizeof what, "cast %s -> %s", dalic_dtype_name(from), dalic_dtype_name(to));
	gpu_check_batch_t in, out;
	dalic_pipeline_t *p = NULL;
	int bad = 1;
	memset(&out, 0, sizeof out);
	if (!gpu_check_batch_random(&in, from, 2, 4, shapes, 1000, 3u + (uint32_t)from * 17u))
		goto done;
	static const char *const ints[] = {"dtype", NULL};
	const int64_t values[] = {to};
	gpu_check_op_t op = {"cast", "HW", NULL, NULL, ints, values};
	const dalic_batch_t *cpu = gpu_check_cpu(&op, &in, &p);
	if (!cpu || !gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	dalic_cu_cast_sample_t s[4];
	for (int i = 0; i < 4; i++) {
		s[i].in = in.dev[i];
		s[i].out = out.dev[i];
		s[i].elems = (int64_t)(in.bytes[i] / dalic_dtype_size(from));
	}
	dalic_cu_cast_params_t prm = {s, NULL, 4, 0, (int)from, (int)to};
	dalic_cu_cast_grid(&prm, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_cast_grid(&prm, blocks, prm.nblocks);
	bad = dalic_cu_cast_launch(&prm, 0) ? 4 : gpu_check_compare(what, cpu, &out);
	free(blocks);
done:
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_cast(void)
{
	int bad = 0;
	for (int a = 0; a <= DALIC_BOOL; a++)
		for (int b = 0; b <= DALIC_BOOL; b++)
			bad += gpu_cast_pair((dalic_dtype_t)a, (dalic_dtype_t)b);
	return bad;
}
#else
int gpu_check_cast(void)
{
	return 0;
}
#endif
