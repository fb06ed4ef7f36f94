/*
 * normalize's CUDA kernel: the __global__ wrapper around dalic_cu_normalize_body
 * (normalize.cuh) and its host launcher, one stage per launch. The body, the reduction order
 * and the arithmetic are shared with the CPU grid runner and the CPU operator.
 */
#include "kernels/cuda/normalize.cuh"
#include "kernels/cuda/cu_check.h"

__global__ void dalic_cu_normalize_kernel(dalic_cu_normalize_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_normalize_body(&ix, &p);
}

extern "C" int dalic_cu_normalize_launch(const dalic_cu_normalize_params_t *p, cudaStream_t stream)
{
	return dalic_cu_launch_batch(dalic_cu_normalize_kernel, p, p->samples,
	                             DALIC_CU_BLOCK_THREADS, stream);
}
