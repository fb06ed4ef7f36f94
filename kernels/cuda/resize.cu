/*
 * resize's CUDA kernel: the __global__ wrapper around dalic_cu_resize_body (resize.cuh) and the
 * host launcher of its two passes. The filter tables and the per-value arithmetic are shared
 * with the CPU resampler and the grid runner; only the launches live here.
 */
#include "kernels/cuda/resize.cuh"
#include "kernels/cuda/cu_check.h"

__global__ void dalic_cu_resize_kernel(dalic_cu_resize_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_resize_body(&ix, &p);
}

extern "C" int dalic_cu_resize_launch(const dalic_cu_resize_params_t pass[2], cudaStream_t stream)
{
	const dalic_cu_resize_params_t *p = &pass[0];
	if (pass[0].nblocks == 0 && pass[1].nblocks == 0)
		return 0;
	/* the samples, the tables and the intermediates serve both passes */
	dalic_cu_resize_params_t dev[2] = {pass[0], pass[1]};
	const dalic_cu_resize_sample_t *samples = (const dalic_cu_resize_sample_t *)dalic_cu_upload(
	    p->samples, sizeof *p->samples * (size_t)p->nsamples, stream);
	const int32_t *idx =
	    (const int32_t *)dalic_cu_upload(p->idx, sizeof *p->idx * (size_t)p->ntab, stream);
	const float *w =
	    (const float *)dalic_cu_upload(p->w, sizeof *p->w * (size_t)p->ntab, stream);
	/* the caller's intermediates, else stream-ordered scratch */
	float *tmp = p->tmp, *own_tmp = NULL;
	bool ok = samples && (p->ntab == 0 || (idx && w));
	if (ok && p->ntmp > 0 && !tmp) {
		ok = DALIC_CU_OK(
		    cudaMallocAsync((void **)&own_tmp, sizeof *tmp * (size_t)p->ntmp, stream));
		tmp = own_tmp;
	}
	for (int k = 0; k < 2; k++) {
		dev[k].samples = samples;
		dev[k].idx = idx;
		dev[k].w = w;
		dev[k].tmp = tmp;
		dev[k].blocks = (const dalic_cu_block_t *)dalic_cu_upload(
		    pass[k].blocks, sizeof *pass[k].blocks * (size_t)pass[k].nblocks, stream);
		ok = ok && (pass[k].nblocks == 0 || dev[k].blocks);
	}
	for (int k = 0; ok && k < 2; k++) {
		if (dev[k].nblocks == 0)
			continue;
		dalic_cu_resize_kernel<<<(unsigned)dev[k].nblocks, DALIC_CU_BLOCK_THREADS, 0,
		                         stream>>>(dev[k]);
		ok = DALIC_CU_LAUNCHED();
	}
	for (int k = 0; k < 2; k++)
		dalic_cu_scratch_free((void *)dev[k].blocks, stream);
	dalic_cu_scratch_free((void *)samples, stream);
	dalic_cu_scratch_free((void *)idx, stream);
	dalic_cu_scratch_free((void *)w, stream);
	dalic_cu_scratch_free(own_tmp, stream);
	return ok ? 0 : -1;
}
