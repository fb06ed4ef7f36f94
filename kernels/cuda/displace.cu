/*
 * water's and sphere's CUDA kernel: the __global__ wrapper around dalic_cu_displace_body
 * (displace.cuh) and its host launcher.
 */
#include "kernels/cuda/cu_check.h"
#include "kernels/cuda/displace.cuh"

__global__ void dalic_cu_displace_kernel(dalic_cu_displace_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_displace_body(&ix, &p);
}

extern "C" int dalic_cu_displace_launch(const dalic_cu_displace_params_t *p, cudaStream_t stream)
{
	return dalic_cu_launch_batch(dalic_cu_displace_kernel, p, p->samples,
	                             DALIC_CU_BLOCK_THREADS, stream);
}
