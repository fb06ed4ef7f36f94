/*
 * flip's CUDA kernel: the __global__ wrapper around dalic_cu_flip_body (flip.cuh) and its host
 * launcher. The body and the index rule are shared with the CPU grid runner and the CPU
 * operator; only the launch lives here.
 */
#include "kernels/cuda/flip.cuh"
#include "kernels/cuda/cu_check.h"

__global__ void dalic_cu_flip_kernel(dalic_cu_flip_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_flip_body(&ix, &p);
}

extern "C" int dalic_cu_flip_launch(const dalic_cu_flip_params_t *p, cudaStream_t stream)
{
	if (p->nblocks == 0)
		return 0;
	dalic_cu_flip_params_t dev = *p;
	dev.samples = (const dalic_cu_flip_sample_t *)dalic_cu_upload(
	    p->samples, sizeof *p->samples * (size_t)p->nsamples, stream);
	dev.blocks = (const dalic_cu_block_t *)dalic_cu_upload(
	    p->blocks, sizeof *p->blocks * (size_t)p->nblocks, stream);
	bool ok = dev.samples && dev.blocks;
	if (ok) {
		dalic_cu_flip_kernel<<<(unsigned)p->nblocks, DALIC_CU_BLOCK_THREADS, 0, stream>>>(
		    dev);
		ok = DALIC_CU_LAUNCHED();
	}
	dalic_cu_scratch_free((void *)dev.samples, stream);
	dalic_cu_scratch_free((void *)dev.blocks, stream);
	return ok ? 0 : -1;
}
