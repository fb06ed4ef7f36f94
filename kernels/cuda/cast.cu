/* cast's CUDA kernel (cast.cuh): the __global__ wrapper and the launcher. */
#include "kernels/cuda/cast.cuh"
#include "kernels/cuda/cu_check.h"

__global__ void dalic_cu_cast_kernel(dalic_cu_cast_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_cast_body(&ix, &p);
}

extern "C" int dalic_cu_cast_launch(const dalic_cu_cast_params_t *p, cudaStream_t stream)
{
	return dalic_cu_launch_batch(dalic_cu_cast_kernel, p, p->samples, DALIC_CU_BLOCK_THREADS,
	                             stream);
}
