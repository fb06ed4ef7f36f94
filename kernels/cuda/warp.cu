/*
 * warp_affine's and rotate's CUDA kernel: the __global__ wrapper that runs the two phases of
 * dalic_cu_warp_body (warp.cuh) with a __syncthreads between them, and its host launcher.
 */
#include "kernels/cuda/cu_check.h"
#include "kernels/cuda/warp.cuh"

__global__ void dalic_cu_warp_kernel(dalic_cu_warp_params_t p)
{
	__shared__ float src[DALIC_CU_WARP_SHARED_FLOATS];
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_warp_body(&ix, 0, src, &p);
	__syncthreads();
	dalic_cu_warp_body(&ix, 1, src, &p);
}

extern "C" int dalic_cu_warp_launch(const dalic_cu_warp_params_t *p, cudaStream_t stream)
{
	return dalic_cu_launch_batch(dalic_cu_warp_kernel, p, p->samples, DALIC_IMG_WARP_TILE,
	                             stream);
}
