/*
 * crop_mirror_normalize's CUDA kernel: the __global__ wrapper around dalic_cu_cmn_body
 * (cmn.cuh) and its host launcher. The body and the per-value arithmetic are shared with the
 * CPU grid runner and the CPU operator; only the launch lives here.
 */
#include "kernels/cuda/cmn.cuh"
#include "kernels/cuda/cu_check.h"

__global__ void dalic_cu_cmn_kernel(dalic_cu_cmn_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_cmn_body(&ix, &p);
}

extern "C" int dalic_cu_cmn_launch(const dalic_cu_cmn_params_t *p, cudaStream_t stream)
{
	return dalic_cu_launch_batch(dalic_cu_cmn_kernel, p, p->samples, DALIC_CU_BLOCK_THREADS,
	                             stream);
}
