/*
 * The colour operators' CUDA kernels: __global__ wrappers around the twist and muladd bodies
 * (color.cuh) and their host launchers.
 */
#include "kernels/cuda/color.cuh"
#include "kernels/cuda/cu_check.h"

__global__ void dalic_cu_color_twist_kernel(dalic_cu_color_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_color_twist_body(&ix, &p);
}

__global__ void dalic_cu_color_muladd_kernel(dalic_cu_color_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_color_muladd_body(&ix, &p);
}

static int dalic_cu_color_launch(const dalic_cu_color_params_t *p, bool twist, cudaStream_t stream)
{
	if (p->nblocks == 0)
		return 0;
	dalic_cu_color_params_t dev = *p;
	dev.samples = (const dalic_cu_color_sample_t *)dalic_cu_upload(
	    p->samples, sizeof *p->samples * (size_t)p->nsamples, stream);
	dev.blocks = (const dalic_cu_block_t *)dalic_cu_upload(
	    p->blocks, sizeof *p->blocks * (size_t)p->nblocks, stream);
	bool ok = dev.samples && dev.blocks;
	if (ok) {
		if (twist)
			dalic_cu_color_twist_kernel<<<(unsigned)p->nblocks, DALIC_CU_BLOCK_THREADS,
			                              0, stream>>>(dev);
		else
			dalic_cu_color_muladd_kernel<<<(unsigned)p->nblocks, DALIC_CU_BLOCK_THREADS,
			                               0, stream>>>(dev);
		ok = DALIC_CU_LAUNCHED();
	}
	dalic_cu_scratch_free((void *)dev.samples, stream);
	dalic_cu_scratch_free((void *)dev.blocks, stream);
	return ok ? 0 : -1;
}

extern "C" int dalic_cu_color_twist_launch(const dalic_cu_color_params_t *p, cudaStream_t stream)
{
	return dalic_cu_color_launch(p, true, stream);
}

extern "C" int dalic_cu_color_muladd_launch(const dalic_cu_color_params_t *p, cudaStream_t stream)
{
	return dalic_cu_color_launch(p, false, stream);
}
