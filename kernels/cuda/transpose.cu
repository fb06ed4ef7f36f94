/* transpose's CUDA kernel (transpose.cuh): the __global__ wrapper and the launcher. */
#include "kernels/cuda/transpose.cuh"
#include "kernels/cuda/cu_check.h"

__global__ void dalic_cu_transpose_kernel(dalic_cu_transpose_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_transpose_body(&ix, &p);
}

extern "C" int dalic_cu_transpose_launch(const dalic_cu_transpose_params_t *p, cudaStream_t stream)
{
	return dalic_cu_launch_batch(dalic_cu_transpose_kernel, p, p->samples,
	                             DALIC_CU_BLOCK_THREADS, stream);
}
