/*
 * The random operators' CUDA kernel: the __global__ wrapper around dalic_cu_random_body
 * (random.cuh) and its host launcher. The draws, the per-sample Philox streams and the stores
 * are shared with the CPU grid runner and the CPU operators; only the launch lives here.
 */
#include "kernels/cuda/random.cuh"
#include "kernels/cuda/cu_check.h"

__global__ void dalic_cu_random_kernel(dalic_cu_random_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_random_body(&ix, &p);
}

extern "C" int dalic_cu_random_launch(const dalic_cu_random_params_t *p, cudaStream_t stream)
{
	return dalic_cu_launch_batch(dalic_cu_random_kernel, p, p->samples, DALIC_CU_BLOCK_THREADS,
	                             stream);
}
